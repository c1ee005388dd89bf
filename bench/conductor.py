"""What the game clock costs the conductor: CPU per stored word with many matches, and nothing else
on the machine's CPU but this process. Prints numbers, never pass/fail.

bench/latency.py measures a whole room (Daphne, the clients, Redis); on this 2-core machine its
figures move 2-4x from run to run with everything that shares the cores. This bench measures the
one part that grows with the number of matches on its own: the real Conductor (game/conductor), on
the embedded default's in-process channel layer and a throwaway SQLite file, serving --matches
matches read by the clock (quizbowl at 300 words a minute, no lead-in, questions long enough not
to end; with --played N, each has played N questions before it, as an hour into an exhibition), started at random moments within 200 ms as bench/latency.py's are. A member of every
match's group takes the broadcasts (what a web process's hub would receive) and drops them, on an
event loop of its own in a thread of its own, as the embedded default's web loop runs beside its
conductor (game/conductor/embedded.py).

Printed, over --seconds of play after every match has started:
  conductor     CPU time of the conductor's own threads (its event loop and its database thread,
                each also alone) per stored event, and per match and second of play; and the whole
                process's, which adds the stand-in web process's receiving;
  writes        how many writes shared a transaction (the group commit) and the most that did;
  floor         the pure engine alone doing the same work: decide_and_fold of each word the matches
                revealed in that window, in memory, nothing stored, projected or sent
                (bench/_engine_floor.py): paced (each word at the moment it was played, which is
                how the conductor meets words) and hot (in a tight loop, every cache warm).

With --grains 50,100 every run plays each grid in turn, and the conductor's CPU is split into what each
instant of the clock costs whatever it carries and what each tick adds (least squares over the runs),
beside the engine's own: its first word at each instant against the words after it.

Run: .venv/bin/python bench/conductor.py [--matches 100] [--seconds 8] [--runs 3] [--played N] [--grains 50,100]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))  # bench/_engine_floor.py, after the project (bench/bots.py is not the bots app)
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

RULES = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 300, "questions": 1, "tiebreakers": 0}
WORDS = 600  # per question: 2 minutes at 300 words a minute, longer than any run
SHORT_WORDS = 20  # each question played before the clock starts (--played)
START_SPREAD_S = 0.2


def setup_django(db: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    import bench.environment  # noqa: F401  (a key and settings for a run that is not a server)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def make_matches(count: int, played: int = 0, grain_ms: int | None = None) -> list[str]:
    """`count` matches in setup; with `played`, each has already played that many short questions
    (each won on a buzz at its eighth word), and the long question the clock reads is the next one."""
    from game.models import Packet, Question
    from game.match_setup import SeatSpec, TeamSpec, create_match_record

    packet = Packet.objects.create(slug=f"bench-conductor-{time.time_ns()}", title="Conductor bench")
    for position in range(played):
        Question.objects.create(packet=packet, position=position, kind="tossup", answer=f"Answer {position}",
                                text=" ".join(f"short{position}-{i}" for i in range(SHORT_WORDS)))
    Question.objects.create(packet=packet, position=played, kind="tossup", answer="Answer",
                            text=" ".join(f"word{i}" for i in range(WORDS)))
    codes = []
    for m in range(count):
        teams = [TeamSpec(side, [SeatSpec(f"{side} 1", captain=True)]) for side in ("Left", "Right")]
        match = create_match_record(title=f"Conductor bench {m}", packet=packet, format_name="quizbowl",
                                    overrides=dict(RULES, questions=played + 1, **grain(grain_ms)), teams=teams)
        if played:
            play_ahead(match, played)
        codes.append(match.code)
    return codes


def grain(grain_ms: int | None) -> dict:
    """The rules' override for a clock grid of grain_ms (None: the server's, EXHIBITION_CLOCK_GRAIN_MS)."""
    return {} if grain_ms is None else {"clock_grid_ms": grain_ms}


def play_ahead(match, played: int) -> None:
    """Play `played` questions through the real runner on a clock of its own, ending where the next
    question is about to start: what a match has behind it an hour into an exhibition."""
    from game.engine.api import next_wakeup
    from game.runner import MatchRunner

    runner = MatchRunner(match)
    moderator = {"role": "moderator"}
    now = 0
    runner.handle({"type": "start", "actor": moderator, "data": {}}, now)
    for number in range(played):
        if number:
            runner.handle({"type": "next", "actor": moderator, "data": {}}, now)
        while runner.state.q.revealed < 8:
            now = max(now, next_wakeup(runner.state))
            runner.handle({"type": "tick", "actor": {"role": "system"}}, now)
        seat = runner.state.seats[sorted(runner.state.seats)[number % 2]]
        player = {"role": "player", "seat": seat["id"], "team": seat["team"]}
        runner.handle({"type": "buzz", "actor": player, "data": {}}, now)
        runner.handle({"type": "answer", "actor": player, "data": {"text": f"Answer {number}"}}, now)
        runner.handle({"type": "rule", "actor": moderator, "data": {"verdict": "accept", "answer": runner.state.q.floor_seq}}, now)
    # The conductor takes the live match over paused (nobody ran its clock); measure() resumes it and
    # moves on to the long question.


async def measure(codes: list[str], seconds: float, played: int) -> dict:
    from serving.local_layer import LocalChannelLayer
    from game.conductor.core import Conductor
    from game.conductor.groups import CONDUCTOR_CHANNEL, match_group
    from game.models import MatchEvent

    layer = LocalChannelLayer(capacity=100_000)
    conductor = Conductor(layer=layer, send_query=lambda *args, **kwargs: None)
    loop = asyncio.get_running_loop()
    serving = loop.create_task(conductor.run())
    hub = await layer.new_channel()
    for code in codes:
        await layer.group_add(match_group(code), hub)
    web = StandInHub(layer, hub)
    async def command(index: int, code: str, kind: str) -> None:
        replies = await layer.new_channel()
        await layer.send(CONDUCTOR_CHANNEL, {
            "type": "command", "match": code, "id": f"{kind}-{index}", "reply_to": replies, "ref": index,
            "command": {"type": kind, "actor": {"role": "moderator"}, "data": {}}})
        reply = await asyncio.wait_for(layer.receive(replies), 30)
        if not reply["ok"]:
            raise RuntimeError(f"{kind} was refused: {reply['error']}")

    async def start(index: int, code: str):
        await asyncio.sleep(random.random() * START_SPREAD_S)
        await command(index, code, "next" if played else "start")

    try:
        if played:  # the conductor takes them over (and so reads their logs) first, then they start out of step
            await asyncio.gather(*(command(i, c, "resume") for i, c in enumerate(codes)))
        await asyncio.gather(*(start(i, c) for i, c in enumerate(codes)))
        await asyncio.sleep(0.5)
        count = lambda: MatchEvent.objects.count()  # noqa: E731
        events_before, writes_before = await asyncio.to_thread(count), conductor._db.writes
        batches_before = conductor._db.batches
        loop_thread, db_thread = threading.main_thread().ident, conductor._db._thread.ident
        loop_cpu, db_cpu, cpu, system, wall, since_ms = (threads_cpu([loop_thread]), threads_cpu([db_thread]),
                                                         time.process_time(), os.times().system, time.monotonic(),
                                                         conductor.clock())
        await asyncio.sleep(seconds)
        loop_cpu, db_cpu = threads_cpu([loop_thread]) - loop_cpu, threads_cpu([db_thread]) - db_cpu
        own = loop_cpu + db_cpu
        cpu, system, wall = time.process_time() - cpu, os.times().system - system, time.monotonic() - wall
        until_ms = conductor.clock()
        events = await asyncio.to_thread(count) - events_before
        ticked, instants = await asyncio.to_thread(words_and_instants, codes, since_ms, until_ms)
        return {"cpu": own, "loop_cpu": loop_cpu, "db_cpu": db_cpu, "process_cpu": cpu, "system": system, "wall": wall, "events": events,
                "writes": conductor._db.writes - writes_before,
                "batches": conductor._db.batches - batches_before, "largest": conductor._db.largest,
                "ticked": ticked, "tick_batches": instants,
                "received": web.received, "since_ms": since_ms, "until_ms": until_ms}
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
        web.stop()


def words_and_instants(codes: list[str], since_ms: int, until_ms: int) -> tuple[int, int]:
    """The words the clock read in the window, and the instants of the grid they fell at (each instant
    costs the conductor a wake-up and a transaction, whatever it carries)."""
    from game.models import MatchEvent

    stamps = MatchEvent.objects.filter(match__code__in=codes, type="word_revealed", t_ms__gte=since_ms,
                                       t_ms__lt=until_ms).values_list("t_ms", flat=True)
    stamps = list(stamps)
    return len(stamps), len(set(stamps))


class StandInHub:
    """What a web process's hub would be: a member of every match's group that takes the broadcasts and
    drops them, on an event loop of its own in a thread of its own, as the embedded default's web loop
    is beside its conductor (game/conductor/embedded.py). Its CPU is the web process's, not counted."""

    def __init__(self, layer, channel: str):
        self.layer, self.channel, self.received = layer, channel, 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="stand-in-hub", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(self._drain())
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    async def _drain(self) -> None:
        while True:
            await self.layer.receive(self.channel)
            self.received += 1

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(5)


def threads_cpu(idents: list[int]) -> float:
    """CPU seconds the threads with these idents have used, each read from its own clock."""
    return sum(time.clock_gettime(time.pthread_getcpuclockid(ident)) for ident in idents)


def engine_floors(codes: list[str], since_ms: int, until_ms: int) -> dict:
    """The pure engine on the words these matches revealed in the measured window (bench/_engine_floor.py):
    hot, and paced as they were played."""
    from _engine_floor import floors
    from game.models import Match
    from game.event_log import load_events

    logs = [[e for e in load_events(match) if e["t"] < until_ms] for match in Match.objects.filter(code__in=codes)]
    return floors(logs, since_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--played", type=int, default=0, metavar="N",
                        help="every match has played N questions before the measured one (default: none)")
    parser.add_argument("--grains", type=grains_arg, default=None, metavar="MS[,MS]",
                        help="the clock's grid for the matches, in ms (default: EXHIBITION_CLOCK_GRAIN_MS); "
                             "several: each run plays them in turn, and the cost is split into each instant's and each tick's")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="exhibition-conductor-bench-") as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        import logging

        from django.conf import settings

        logging.disable(logging.INFO)  # the conductor's own start and stop lines
        grains = args.grains or [settings.EXHIBITION_CLOCK_GRAIN_MS]
        rows = {g: [] for g in grains}
        for run in range(args.runs):
            for grain_ms in grains:
                codes = make_matches(args.matches, args.played, grain_ms)
                result = asyncio.run(measure(codes, args.seconds, args.played))
                floor = engine_floors(codes, result["since_ms"], result["until_ms"])
                rows[grain_ms].append((result, floor))
                print(f"run {run + 1}, {grain_ms} ms grid: {run_line(args, result, floor)}")
        print()
        for grain_ms, done in rows.items():
            print(summary(grain_ms, done))
        if len(grains) > 1:
            print(split([item for done in rows.values() for item in done]))
        print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}.")


def grains_arg(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part.strip()]
    if not values or any(not 0 <= v <= 100 for v in values):
        raise argparse.ArgumentTypeError("grids are whole ms from 0 to 100, separated by commas")
    return values


def per(total: float, count: int) -> float:
    return total / max(1, count) * 1e6


def run_line(args, result: dict, floor: dict) -> str:
    events = result["events"]
    per_event, paced, hot = per(result["cpu"], events), per(floor["paced_cpu"], floor["paced_words"]), per(floor["cpu"], floor["words"])
    return (f"{args.matches} matches at question {args.played + 1}, {result['wall']:.1f} s: {events} events stored "
            f"({events / result['wall']:.0f}/s), {result['received']} broadcasts taken; conductor "
            f"CPU {result['cpu']:.2f} s = {per_event:.0f} us per event (event loop {per(result['loop_cpu'], events):.0f} + "
            f"database thread {per(result['db_cpu'], events):.0f}; the process with the stand-in hub: "
            f"{per(result['process_cpu'], events):.0f}; {result['system']:.2f} s in the kernel), "
            f"{result['cpu'] / result['wall'] * 1000 / args.matches:.2f} ms/s per match; "
            f"{result['batches']} transactions of {result['writes']} writes carried several "
            f"(at most {result['largest']}); {result['ticked']} words read at {result['tick_batches']} instants of the grid "
            f"({result['ticked'] / max(1, result['tick_batches']):.1f} an instant); floor, the engine alone on the same {floor['paced_words']} words: "
            f"{paced:.0f} us per word paced as played, {hot:.0f} hot (x{per_event / paced:.1f}, x{per_event / hot:.1f})")


def summary(grain_ms: int, done: list[tuple[dict, dict]]) -> str:
    per_event = [per(r["cpu"], r["events"]) for r, _ in done]
    paced = [per(f["paced_cpu"], f["paced_words"]) for _, f in done]
    hot = [per(f["cpu"], f["words"]) for _, f in done]
    return (f"{grain_ms} ms grid: conductor CPU (its loop and database threads) per stored event: median "
            f"{statistics.median(per_event):.0f} us (runs {', '.join(f'{v:.0f}' for v in per_event)}); floor, the pure "
            f"engine per word: median {statistics.median(paced):.0f} us paced as played, {statistics.median(hot):.0f} us hot; "
            f"conductor / engine: x{statistics.median([e / p for e, p in zip(per_event, paced)]):.1f} paced, "
            f"x{statistics.median([e / h for e, h in zip(per_event, hot)]):.1f} hot; "
            f"{statistics.median([r['ticked'] / max(1, r['tick_batches']) for r, _ in done]):.1f} ticks an instant.")


def split(done: list[tuple[dict, dict]]) -> str:
    """The conductor's CPU as a cost per instant of the clock plus a cost per tick (least squares over
    every run, which the grids make differ in ticks an instant), beside the engine's: its first word
    at each instant (after the replay slept) against the words after it at the same instant."""
    instants = [r["tick_batches"] for r, _ in done]
    ticks = [r["ticked"] for r, _ in done]
    cpu = [r["cpu"] for r, _ in done]
    aa, ab, bb = sum(a * a for a in instants), sum(a * b for a, b in zip(instants, ticks)), sum(b * b for b in ticks)
    ay, by = sum(a * y for a, y in zip(instants, cpu)), sum(b * y for b, y in zip(ticks, cpu))
    det = aa * bb - ab * ab
    if not det:
        return "Cost per instant and per tick: the runs do not tell them apart."
    per_instant, per_tick = (ay * bb - by * ab) / det * 1e6, (aa * by - ab * ay) / det * 1e6
    first_cpu, first_words = sum(f["first_cpu"] for _, f in done), sum(f["first_words"] for _, f in done)
    rest_cpu = sum(f["paced_cpu"] for _, f in done) - first_cpu
    rest_words = sum(f["paced_words"] for _, f in done) - first_words
    engine_first, engine_rest = per(first_cpu, first_words), per(rest_cpu, rest_words)
    return (f"Cost per instant and per tick (least squares over {len(done)} runs): the conductor "
            f"{per_instant:.0f} us an instant + {per_tick:.0f} us a tick; the engine alone, paced: the first word of an "
            f"instant {engine_first:.0f} us, each word after it {engine_rest:.0f} us (so {engine_first - engine_rest:.0f} us "
            f"an instant + {engine_rest:.0f} a word); per tick, the conductor / engine: x{per_tick / max(engine_rest, 1e-9):.1f}.")


if __name__ == "__main__":
    main()
