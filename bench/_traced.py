"""A server process with tracemalloc on, for bench/soak.py --trace-memory: what grows in it.

Run: python bench/_traced.py FOLDER PROGRAM [ARGS...] runs PROGRAM (a Python script: manage.py, the
daphne or celery entry point) as python would, with tracemalloc keeping FRAMES frames of each
allocation. Each SIGUSR2 writes a snapshot to FOLDER/PID-N.tracemalloc. tracemalloc's own books take
memory and time: a traced run's RSS and round trips are not the untraced ones.
"""
from __future__ import annotations

import itertools
import os
import runpy
import signal
import sys
import tracemalloc
from pathlib import Path

FRAMES = 12


def main() -> None:
    folder, program = Path(sys.argv[1]), sys.argv[2]
    taken = itertools.count(1)

    def snapshot(signum, frame):
        tracemalloc.take_snapshot().dump(str(folder / f"{os.getpid()}-{next(taken)}.tracemalloc"))

    tracemalloc.start(FRAMES)
    signal.signal(signal.SIGUSR2, snapshot)
    sys.argv = sys.argv[2:]
    sys.path[0] = os.path.dirname(os.path.abspath(program))  # as `python PROGRAM` would have it
    runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    main()
