"""What a write costs the conductor's database thread in the group commit (event_log.write_together): a
client's command, whose receipt is stored with its events, beside a write with no receipt (what a
clock tick is). Prints numbers, never pass/fail.

--matches matches (bench/conductor.py's, on a throwaway SQLite file) are written together, as the
conductor writes the matches whose messages wait at the same moment: each round every match gets a
moderator's pause or resume (one event each), --rounds rounds with receipts and as many without,
alternating in blocks of 300 so both see the same machine. Printed: thread CPU time per write.

Then, with --kinds N, N other matches (each with a question played before, as bench/conductor.py
--played makes them) play one question in step, every match's write of each kind in one
transaction as the conductor writes matches due at one instant: the next question, its words
(clock ticks, no lead-in), a buzz, the answer (with the judge's suggestion) and the moderator's
ruling, each command with its receipt. Printed: thread CPU time per write of each kind, beside a
tick's: what a command costs the one database thread while the other matches' words wait.

Run: .venv/bin/python bench/commit.py [--matches 3] [--blocks 5] [--kinds 30]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))
sys.dont_write_bytecode = True

BLOCK = 300  # rounds per block
OWNER = "bench-commit"
MODERATOR = {"role": "moderator"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument("--kinds", type=int, default=30, metavar="N",
                        help="matches that play a question in step, for each kind of write's cost (0: skip)")
    args = parser.parse_args()

    import conductor as bench_conductor  # bench/conductor.py: the same Django set-up and matches

    bench_conductor.setup_django(Path(tempfile.mkdtemp()) / "commit.sqlite3")
    from game.event_log import Receipt

    now = int(time.time() * 1000)
    runners = held_runners(bench_conductor, args.matches, now)

    def write_all(kind: str, at: int, receipts: bool) -> None:
        write_round(runners, at, lambda r: {"type": kind, "actor": MODERATOR, "data": {}},
                    (lambda r, n: Receipt("moderator", f"{kind}-{at}-{n}")) if receipts else None)

    write_all("start", now, False)
    at, per_write = now, {True: [], False: []}
    for _ in range(args.blocks):
        for receipts in (True, False):
            started = time.thread_time()
            for _ in range(BLOCK):
                at += 1
                write_all("pause" if runners[0].state.paused is False else "resume", at, receipts)
            per_write[receipts].append((time.thread_time() - started) / BLOCK / len(runners) * 1e6)
    with_receipt, without = (statistics.median(per_write[k]) for k in (True, False))
    print(f"{args.matches} matches written together, {args.blocks} blocks of {BLOCK} rounds each way; "
          f"database thread CPU per write, median of the blocks:")
    print(f"  a command with its receipt  {with_receipt:6.0f} us  (blocks: {', '.join(f'{v:.0f}' for v in per_write[True])})")
    print(f"  a write with no receipt     {without:6.0f} us  (blocks: {', '.join(f'{v:.0f}' for v in per_write[False])})")
    print(f"  ratio                       {with_receipt / without:6.2f}")
    if args.kinds:
        per_kind = kinds(bench_conductor, args.kinds, at + 10**6)
        print(f"\n{args.kinds} matches playing one question in step, each kind's writes in one transaction; "
              f"database thread CPU per write, median over the question:")
        for kind, values in per_kind.items():
            median = statistics.median(values)
            print(f"  {kind:27s} {median:6.0f} us  ({median / statistics.median(per_kind['tick']):.1f} ticks; "
                  f"{len(values)} transaction{'s' if len(values) > 1 else ''})")


def held_runners(bench_conductor, count: int, now: int, played: int = 0) -> list:
    """`count` of bench/conductor.py's matches (`played` questions behind them), each under this bench's lease."""
    from game.models import Match, MatchLease
    from game.runner import MatchRunner

    runners = []
    for code in bench_conductor.make_matches(count, played):
        match = Match.objects.get(code=code)
        MatchLease.objects.create(match=match, owner=OWNER, channel="bench", expires_ms=now + 10**9)
        runners.append(MatchRunner(match, owner=OWNER, clock=lambda: now))
    return runners


def write_round(runners: list, at: int, command_for, receipt_for=None) -> float:
    """Write command_for(runner) to every match in one transaction (event_log.write_together), with
    receipt_for(runner, n) if given; the database thread's CPU per write, us. Stops on a failure."""
    from game.event_log import write_together

    calls = [lambda r=r, c=command_for(r), rc=receipt_for(r, n) if receipt_for else None: r.handle(c, at, rc)
             for n, r in enumerate(runners)]
    started = time.thread_time()
    outcomes = write_together(OWNER, [r.match.pk for r in runners], at, calls)
    spent = (time.thread_time() - started) / len(runners) * 1e6
    if not all(ok for ok, _ in outcomes):
        raise SystemExit(f"a write failed: {next(value for ok, value in outcomes if not ok)!r}")
    return spent


def kinds(bench_conductor, count: int, now: int) -> dict[str, list[float]]:
    """Play a question on `count` matches in step: thread CPU per write of each kind (see the docstring)."""
    from game.engine.api import next_wakeup
    from game.event_log import Receipt

    runners = held_runners(bench_conductor, count, now, played=1)
    costs: dict[str, list[float]] = {}

    def player(runner) -> dict:
        seat = runner.state.seats[sorted(runner.state.seats)[0]]
        return {"role": "player", "seat": seat["id"], "team": seat["team"]}

    def write_all(kind: str, label: str, at: int, actor=None, data=None) -> None:
        actor = actor or (lambda r: MODERATOR)
        receipt = None if kind == "tick" else \
            (lambda r, n: Receipt(actor(r).get("seat", "moderator"), f"{kind}-{at}-{n}"))
        costs.setdefault(label, []).append(
            write_round(runners, at, lambda r: {"type": kind, "actor": actor(r),
                                                "data": data(r) if callable(data) else dict(data or {})}, receipt))

    at = now
    write_all("next", "next (the question starts)", at)
    for _ in range(8):
        at = max(next_wakeup(r.state) for r in runners)
        write_all("tick", "tick", at, actor=lambda r: {"role": "system"})
    write_all("buzz", "buzz", at, actor=player)
    write_all("answer", "answer (and the judge)", at, actor=player, data={"text": "Answer"})
    write_all("rule", "rule", at, data=lambda r: {"verdict": "accept", "answer": r.state.q.floor_seq})  # the answer shown
    return costs

if __name__ == "__main__":
    main()
