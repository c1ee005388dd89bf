"""The engine's own cost per word on the matches a bench run just played: the floor that the
conductor's cost per stored word is printed beside.

For every word_revealed event in each match's log, the pure engine decides the clock tick that
revealed it (decide_and_fold on the state just before, at the word's own time), timed on the
thread's CPU clock; nothing is stored or sent. Two figures:

  hot    the words of each match one after another in a tight loop: the engine at its fastest,
         every cache warm;
  paced  the words of all the matches at the moments they were revealed in play (the replay sleeps
         until each word's time): the same work at the same pace as the conductor did it.

The paced figure is the floor the conductor is judged against. On this machine the same tick costs
several times more when it comes alone after a few milliseconds of sleep than in a tight loop (the
caches have gone cold), and the conductor only ever meets words that way: `bench/conductor.py`
prints how much. Both figures are printed.

Run as a Django child of bench/latency.py (it reads the run's database): prints JSON.
bench/conductor.py imports it.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

TICK = {"type": "tick", "actor": {"role": "system"}}
NOT_BEFORE = -(2 ** 63)


def _word_to_time(event: dict, since_ms: int) -> bool:
    return event["type"] == "word_revealed" and event["t"] >= since_ms


def engine_cpu(events: list[dict], since_ms: int = NOT_BEFORE) -> tuple[float, int]:
    """CPU seconds and words: each word of one match's log (from since_ms on) decided in a tight loop."""
    from game.engine.api import decide_and_fold
    from game.engine.fold import apply_in_place

    state, cpu, words = None, 0.0, 0
    for event in events:
        if state is not None and _word_to_time(event, since_ms):
            started = time.thread_time()
            decide_and_fold(state, TICK, event["t"])
            cpu += time.thread_time() - started
            words += 1
        state = apply_in_place(state, event)
    return cpu, words


def paced_engine_cpu(logs: list[list[dict]], since_ms: int = NOT_BEFORE, first: dict | None = None) -> tuple[float, int]:
    """CPU seconds and words: the words of every log (from since_ms on), each decided at its own
    moment of play: the replay keeps the gaps between the words of all the matches as they were.
    With `first` (a dict), the words decided first at their instant (after the replay slept) are
    also counted there apart: {"cpu", "words"}, what the same work costs cold."""
    from game.engine.api import decide_and_fold
    from game.engine.fold import apply_in_place

    merged = sorted(((event["t"], index, event["seq"], event) for index, log in enumerate(logs) for event in log),
                    key=lambda item: item[:3])
    states: list = [None] * len(logs)
    timed = [t for t, index, _, event in merged if _word_to_time(event, since_ms)] or [0]
    started_at = time.monotonic()
    cpu, words, instant = 0.0, 0, None
    for t, index, _, event in merged:
        state = states[index]
        if state is not None and _word_to_time(event, since_ms):
            wait = started_at + (t - timed[0]) / 1000 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            started = time.thread_time()
            decide_and_fold(state, TICK, t)
            spent = time.thread_time() - started
            cpu += spent
            words += 1
            if first is not None and t != instant:
                instant = t
                first["cpu"] = first.get("cpu", 0.0) + spent
                first["words"] = first.get("words", 0) + 1
        states[index] = apply_in_place(state, event)
    return cpu, words


def floors(logs: list[list[dict]], since_ms: int = NOT_BEFORE) -> dict:
    """Both floors of the same words: {"cpu", "words"} hot and {"paced_cpu", "paced_words"}; and
    of the paced ones, the first word of each instant apart ("first_cpu", "first_words")."""
    hot = [engine_cpu(log, since_ms) for log in logs]
    first: dict = {}
    paced_cpu, paced_words = paced_engine_cpu(logs, since_ms, first)
    return {"cpu": sum(c for c, _ in hot), "words": sum(w for _, w in hot),
            "paced_cpu": paced_cpu, "paced_words": paced_words,
            "first_cpu": first.get("cpu", 0.0), "first_words": first.get("words", 0)}


def main() -> None:
    import django

    django.setup()
    from game.models import Match
    from game.event_log import load_events

    logs = [load_events(match) for match in Match.objects.filter(pk__in=json.loads(sys.argv[1])["matches"])]
    print(json.dumps(floors(logs)))


if __name__ == "__main__":
    main()
