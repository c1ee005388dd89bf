"""How long the event report takes for an event's logs. Prints numbers, never pass/fail.

Makes a throwaway SQLite database, plays --matches simulated EfficientQA matches of --questions
questions on the demo packet (manage.py simulate's players and bots, a guess on every word), exports
each log as export_match does and reads it back, then times, median and p95 over --repeat runs:
  figures      game.report.figures.event_figures over all the logs;
               floor: the same logs folded with the engine and nothing else (the reading it needs)
  human-AI     game.report.human_ai.human_ai_figures alone (each bot beside and against the humans), over
               the matches already read (part of "figures")
  file         the self-contained HTML file (figures, tables, Chart.js and the data inline), and its size

Run: .venv/bin/python bench/report.py [--matches 9] [--questions 30] [--repeat 20]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

from bench._timing import setup_django, summary, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=9, help="Matches in the event (default 9: 8 preliminaries and a final).")
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    setup_django(Path(tempfile.mkdtemp(prefix="exhibition-bench-report-")) / "bench.sqlite3")
    from game.demo import ensure_demo_packet
    from game.engine.fold import apply_in_place
    from game.management.commands.simulate import play_simulated_match
    from game.archive.match_archive import export_lines
    from game.archive.replay import load_log
    from game.report.figures import event_figures, read_match
    from game.report.human_ai import human_ai_figures
    from game.report.page import report_from_logs

    packet = ensure_demo_packet()
    logs = []
    for seed in range(1, args.matches + 1):
        _, match = play_simulated_match(packet, "efficientqa", seed=seed, questions=args.questions)
        lines = [json.loads(line) for line in "".join(export_lines(match, load_log(match))).splitlines()]
        logs.append((lines[0]["match"], lines[1:]))
    events = sum(len(e) for _, e in logs)
    print(f"{args.matches} EfficientQA matches of {args.questions} questions, {events:,} events in all; "
          f"{args.repeat} runs each, on {os.cpu_count()} cores")

    def fold_only():
        for _, log in logs:
            state = None
            for event in log:
                state = apply_in_place(state, event)

    figures = timed(lambda: event_figures(logs), args.repeat)
    floor = timed(fold_only, args.repeat)
    matches = [read_match(header, log) for header, log in logs]
    human_ai = timed(lambda: human_ai_figures(matches), args.repeat)
    html = report_from_logs(logs, "Bench event", inline=True)
    files = timed(lambda: report_from_logs(logs, "Bench event", inline=True), args.repeat)
    print(f"figures   {summary(figures)}   ({statistics.median(figures) / statistics.median(floor):.2f}x the floor)")
    print(f"floor     {summary(floor)}   (the logs folded, nothing else)")
    print(f"human-AI  {summary(human_ai)}   ({statistics.median(human_ai) / statistics.median(floor):.2f}x the floor)")
    print(f"file      {summary(files)}   {len(html.encode()) / 1024:,.0f} KiB")


if __name__ == "__main__":
    main()
