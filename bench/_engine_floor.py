"""The engine's own cost per word on the matches a bench run just played: the floor that the
conductor's cost per stored word is printed beside.

Run as a Django child of the bench (it reads the run's database): for every word_revealed event in
each match's log, the pure engine decides the clock tick that revealed it (decide_and_fold on the
state just before, at the word's own time), timed on the process CPU clock; nothing is stored or
sent. Prints JSON: the CPU seconds and the number of words.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

TICK = {"type": "tick", "actor": {"role": "system"}}


def engine_cpu(events: list[dict]) -> tuple[float, int]:
    from game.engine.api import decide_and_fold
    from game.engine.fold import apply_in_place

    state, cpu, words = None, 0.0, 0
    for event in events:
        if event["type"] == "word_revealed" and state is not None:
            started = time.process_time()
            decide_and_fold(state, TICK, event["t"])
            cpu += time.process_time() - started
            words += 1
        state = apply_in_place(state, event)
    return cpu, words


def main() -> None:
    import django

    django.setup()
    from game.models import Match
    from game.store import load_events

    cpu, words = 0.0, 0
    for match in Match.objects.filter(pk__in=json.loads(sys.argv[1])["matches"]):
        spent, counted = engine_cpu(load_events(match))
        cpu, words = cpu + spent, words + counted
    print(json.dumps({"cpu": cpu, "words": words}))


if __name__ == "__main__":
    main()
