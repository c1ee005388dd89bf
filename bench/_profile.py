"""Sampling profiles of the bench's servers while they play (py-spy, `--profile DIR` in bench/latency.py).

py-spy attaches to a running process from outside (no change to the server, little cost to it) and
samples its Python stacks; this records each server for the whole of play and prints, per process,
where its busy time went: the functions seen on the most samples (inclusive, and where the time was
spent itself). The raw stacks stay in DIR (py-spy's collapsed format; `flamegraph.pl` or speedscope
read them).
"""
from __future__ import annotations

import collections
import os
import shutil
import signal
import subprocess
from pathlib import Path

RATE = int(os.environ.get("BENCH_PROFILE_RATE", 200))  # samples a second (BENCH_PROFILE_RATE=1000 for a short run)
# BENCH_PROFILE_GIL=1 keeps only the samples of the thread holding the GIL: where the Python CPU
# went, without the waits (a thread blocked in a call that released the GIL looks busy otherwise).
GIL = ["--gil"] if os.environ.get("BENCH_PROFILE_GIL") else []
ROOT = str(Path(__file__).resolve().parent.parent) + "/"


def py_spy() -> str | None:
    here = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "py-spy"
    return str(here) if here.exists() else shutil.which("py-spy")


class Profiler:
    def __init__(self, directory: Path, label: str):
        self.directory, self.label = Path(directory), label
        self.running: dict[str, tuple[subprocess.Popen, Path]] = {}

    def start(self, pids: dict[str, int]) -> None:
        program = py_spy()
        if program is None:
            raise RuntimeError("--profile needs py-spy (pip install py-spy, as pinned in requirements.txt)")
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, pid in pids.items():
            out = self.directory / f"{self.label}-{name}.txt"
            proc = subprocess.Popen([program, "record", *GIL, "--pid", str(pid), "--rate", str(RATE), "--format", "raw",
                                     "--threads", "--nonblocking", "--output", str(out)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.running[name] = (proc, out)

    def stop(self) -> dict[str, Path]:
        done = {}
        for name, (proc, out) in self.running.items():
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
            if out.exists():
                done[name] = out
        self.running = {}
        return done


def summary(path: Path, top: int = 14) -> str:
    """The functions on most samples of one process: inclusive share, and the share spent in them."""
    inclusive, own, threads = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        total += n
        threads[frames[0]] += n
        seen = set()
        for frame in frames[1:]:
            name = _short(frame)
            if name not in seen:
                inclusive[name] += n
                seen.add(name)
        if len(frames) > 1:
            own[_short(frames[-1])] += n
    if not total:
        return f"  {path.name}: no samples"
    lines = [f"  {path.name}: {total} busy samples at {RATE}/s = {total / RATE:.1f} busy s; by thread: "
             + ", ".join(f"{t} {100 * n / total:.0f}%" for t, n in threads.most_common(4))]
    lines.append("    inclusive:")
    lines += [f"      {100 * n / total:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    lines.append("    self:")
    lines += [f"      {100 * n / total:5.1f}%  {name}" for name, n in own.most_common(top)]
    return "\n".join(lines)


def _short(frame: str) -> str:
    """'send (autobahn/websocket/protocol.py:123)' -> 'send (autobahn/websocket/protocol.py)'."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    path = path.replace(ROOT, "")
    for marker in ("site-packages/", "lib/python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{name} ({path})"
