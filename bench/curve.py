"""The curve from 1 to 100 matches: server CPU per match and word jitter, each beside the floor's,
and the conductor's CPU per stored event beside the engine's per word; prints a table, never pass/fail.

Each point is bench/latency.py's run (its own servers, 10 clients a match: the moderator, 2 players
and 7 watchers, 2 questions, quizbowl at 300 wpm) followed in the same run by its plain-websockets
floor (bench/_floor.py) with as many rooms and clients. Points run from the fewest matches to the
most, every layer at each point, --repeat times; the table gives each figure's median over the
repeats, and the ratios are the medians of each run's own ratio (a ratio to a floor measured in the
same run is what this shared machine can show).

Run: .venv/bin/python bench/curve.py [--points 1,3,10,30,100] [--layer memory|redis|both] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

import latency  # noqa: E402

CLIENTS_PER_MATCH = 10  # the moderator, PLAYERS players and the rest watchers
PLAYERS = 2
QUESTIONS = 2
MAX_POINTS = 8
MAX_REPEATS = 8


def run_args(layer: str, matches: int) -> argparse.Namespace:
    return argparse.Namespace(layer=layer, db="sqlite", spectators=[matches * (CLIENTS_PER_MATCH - 1 - PLAYERS)],
                              players=PLAYERS, matches=matches, web=1, conductors=1, questions=QUESTIONS, clients=1,
                              floor=True, repeat=1, fault=None, profile=None, storm=None, lead_in=0.0)


def median(values: list):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def figures(r: dict) -> dict:
    jitter, floor_jitter = latency.pct(r["jitter"], 99), latency.pct(r["floor"]["jitter"], 99)
    cpu, floor_cpu = latency.cpu_per_match(r), latency.floor_cpu_per_match(r)
    return {"cpu": cpu, "floor_cpu": floor_cpu, "cpu_ratio": latency.ratio_of(cpu, floor_cpu),
            "jitter": jitter, "floor_jitter": floor_jitter, "jitter_ratio": latency.ratio_of(jitter, floor_jitter),
            "conductor_us": r["conductor_us"], "engine_us": r["engine_us"],
            "conductor_ratio": latency.ratio_of(r["conductor_us"], r["engine_us"]),
            "lost": r["delivery"]["lost"] + r["delivery"]["dup"] + r["delivery"]["out_of_order"]}


def counts(text: str) -> list[int]:
    points = sorted({int(p) for p in text.split(",") if p.strip()})
    if not points or len(points) > MAX_POINTS or points[0] < 1 or points[-1] > 200:
        raise argparse.ArgumentTypeError(f"1 to {MAX_POINTS} match counts between 1 and 200, such as 1,3,10,30,100")
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=counts, default=[1, 3, 10, 30, 100])
    parser.add_argument("--layer", choices=("memory", "redis", "both"), default="both")
    parser.add_argument("--repeat", type=int, default=3, choices=range(1, MAX_REPEATS + 1), metavar=f"1-{MAX_REPEATS}")
    args = parser.parse_args()
    layers = ["memory", "redis"] if args.layer == "both" else [args.layer]
    measured: dict[tuple[str, int], list[dict]] = {}
    failed = 0
    started = time.monotonic()
    for matches in args.points:
        for repeat in range(args.repeat):
            for layer in layers:
                print(f"{layer}, {matches} x {CLIENTS_PER_MATCH}, run {repeat + 1}, load {latency.load_average()} ...",
                      file=sys.stderr, flush=True)
                try:
                    result = latency.run_one(layer, run_args(layer, matches), matches * 7, repeat + 1)
                except Exception as problem:
                    failed += 1
                    print(f"    could not be measured: {str(problem).splitlines()[0]}", file=sys.stderr, flush=True)
                    continue
                measured.setdefault((layer, matches), []).append(figures(result))
    print(f"\nThe curve: {CLIENTS_PER_MATCH} clients a match ({PLAYERS} players), {QUESTIONS} questions, median of "
          f"{args.repeat} runs per point, each beside its floor; {os.cpu_count()} CPUs, "
          f"{time.monotonic() - started:.0f} s, load {latency.load_average()}.")
    rows = []
    for (layer, matches), runs in measured.items():
        m = {key: median([r[key] for r in runs]) for key in runs[0]}
        rows.append([layer, str(matches), str(len(runs)), latency.fmt(m["cpu"]), latency.fmt(m["floor_cpu"]),
                     latency.fmt(m["cpu_ratio"]), latency.fmt(m["jitter"]), latency.fmt(m["floor_jitter"]),
                     latency.fmt(m["jitter_ratio"], 2), latency.fmt(m["conductor_us"], 0),
                     latency.fmt(m["engine_us"], 0), latency.fmt(m["conductor_ratio"]),
                     str(sum(r["lost"] for r in runs))])
    print(latency.table(["layer", "matches", "runs", "server CPU ms/s per match", "floor's", "CPU / floor's",
                         "jitter p99 ms", "floor's", "jitter / floor's", "conductor us/event", "engine us/word (paced)",
                         "conductor / engine", "lost+dup+ooo"], rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
