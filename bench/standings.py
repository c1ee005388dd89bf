"""What a tournament's standings screen costs a web process each time it asks. Prints numbers, never pass/fail.

Makes a throwaway SQLite database and plays a whole simulated tournament (manage.py simulate_tournament:
--teams teams in one pool, a round robin of --questions tossups with bonuses a game, then its playoffs), then
times, median and p95 over --repeat asks, the public standings page (/tournaments/<id>/) as a hall's screen asks
it every few seconds:
  first    the first ask of a process: every finished game's log loaded and folded (tournaments/results.py)
  again    every later ask: the games' figures kept, only each log's last seq read (the floor: the page's
           queries and its template)

Run: .venv/bin/python bench/standings.py [--teams 12] [--questions 20] [--repeat 20]
"""
from __future__ import annotations

import argparse
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
    parser.add_argument("--teams", type=int, default=12)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="exhibition-bench-standings-"))
    setup_django(folder / "bench.sqlite3")
    from django.core.management import call_command
    from django.test import Client

    from game.models import MatchEvent
    from tournaments import results
    from tournaments.models import Tournament, TournamentGame

    call_command("simulate_tournament", "--teams", str(args.teams), "--questions", str(args.questions),
                 "--playoffs", "2", "-o", str(folder / "files"), stdout=open(os.devnull, "w"))
    played = Tournament.objects.get()
    client = Client(SERVER_NAME="127.0.0.1")  # a host the settings allow
    page = f"/tournaments/{played.pk}/"
    games = TournamentGame.objects.filter(match__isnull=False).count()
    events = MatchEvent.objects.count()
    print(f"a tournament of {args.teams} teams, {games} games of {args.questions} tossups, {events:,} events; "
          f"{args.repeat} asks each")

    def first():
        results._figures.clear()
        assert client.get(page).status_code == 200

    def again():
        assert client.get(page).status_code == 200

    cold = timed(first, args.repeat)
    again()
    warm = timed(again, args.repeat)
    print(f"first  {summary(cold)}")
    print(f"again  {summary(warm)}   (the first at {statistics.median(cold) / statistics.median(warm):.1f}x this)")


if __name__ == "__main__":
    main()
