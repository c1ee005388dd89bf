"""A soak with mischief: the production shape playing matches for a while, beside three hostile clients.

The production shape (PostgreSQL, the Redis channel layer, two web processes, two conductors, a
Celery worker a bot tier, as docker-compose.yml runs them) plays --matches matches at a time, one after another,
for --minutes: in each a moderator, three phones and a simulated bot (500mib, 6gib and unlimited in
turn, asked every word but never buzzing first, so the phones' buzz, answer and the moderator's
ruling make each question). Meanwhile, from the start to the end:
- a flood: bench/abuse.py's forty sockets on one seat of another match, re-opening when refused;
- a forger: joins with a forged X-Forwarded-For each time, and player sockets with forged seat
  tokens, one of each a second;
- an uploader: a BODY_MB MB body to the login page and to a URL that does not exist, in turn, every
  UPLOAD_EVERY_S seconds.

Printed: matches played, seq gaps (per socket, seqs neither received nor covered by a snapshot),
whether every match's final score is the same in the fold of its log, its box score and the
archive's sum of score changes, what the mischief was answered, and each long-lived process's RSS
at the start of play (after WARM_S), at the end, and its growth per hour. Numbers, never pass/fail.

    .venv/bin/python bench/soak.py --minutes 3        # an hour: --minutes 60

Needs PostgreSQL; starts its own redis-server.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True

from _client import connect  # noqa: E402
from _servers import PYTHON, Stack, free_port  # noqa: E402
from latency import Room, play_room, question_text  # noqa: E402
from _matches_setup import MATCHES_SETUP, human, team  # noqa: E402

TIERS = ("500mib", "6gib", "unlimited")
QUESTIONS = 4
WARM_S = 20.0  # RSS is taken as the start of play this long after the matches begin
BODY_MB = 20
UPLOAD_EVERY_S = 5.0
MIB = 1024 * 1024


SCORES = r"""
import json, sys
import django
django.setup()
from game.archive.boxscore import box_score
from game.engine.api import fold
from game.models import Match, MatchEvent
from game.web.views_archive import final_scores
arg = json.loads(sys.argv[1])
matches = list(Match.objects.filter(id__in=arg["ids"]))
summed = final_scores(matches)
out = {}
for match in matches:
    events = [e.as_engine_event() for e in MatchEvent.objects.filter(match=match).order_by("seq")]
    state = fold(events)
    names = {t["id"]: t["name"] for t in state.teams}
    folded = {names[t]: p for t, p in state.scores.items()}
    boxed = box_score(state)["scores"]
    archived = {names[t]: p for t, p in summed[match.id].items()}
    archived = {name: archived.get(name, 0) for name in folded}
    kinds = [e["type"] for e in events]
    out[match.id] = {"status": state.status, "seq": state.seq, "equal": folded == boxed == archived,
                     "bot_guesses": kinds.count("bot_guess"), "bot_missed": kinds.count("bot_missed"),
                     "scores": folded, "seqs": [e["seq"] for e in events] == list(range(1, len(events) + 1))}
print(json.dumps(out))
"""


class NoWatchers:
    """play_room's rooms may have spectators in other processes; the soak's have none."""

    async def reached(self, number, seq, timeout):
        return True

    def lowest(self, number):
        return None


def seq_gaps(sock, final: int) -> int:
    """Seqs up to `final` this socket neither received nor had covered by a snapshot after it joined."""
    got = {e[0] for e in sock.events}
    covered = max(sock.snapshots or [0])
    return sum(1 for s in range(covered + 1, final + 1) if s not in got)


async def play_slot(ports, info, matches: list[dict], until: float, out: dict, number: itertools.count) -> None:
    """Matches one after another until `until`: each opened, played to the end and closed."""
    cookie = f"sessionid={info['session']}"
    while time.monotonic() < until and matches:
        match = matches.pop()
        n = next(number)
        port = lambda: ports[next(number) % len(ports)]  # noqa: E731
        mod = await connect(port(), f"/ws/m/{match['code']}/moderate", f"m{n}-mod", "moderator", cookie, True, n)
        teams = [[await connect(port(), f"/ws/m/{match['code']}/play", f"m{n}-p{t}.{k}", "player", None, True, n, token)
                  for k, token in enumerate(tokens)] for t, tokens in enumerate(match["tokens"])]
        room = Room(n, mod, teams, NoWatchers())
        try:
            await play_room(room, QUESTIONS, out["buzzes"], out["late"], fault=None)
            final = max(e[0] for e in mod.events)
            out["gaps"] += sum(seq_gaps(s, final) for s in room.socks)
            out["played"].append(match["id"])
        except Exception as problem:
            out["failed"].append(f"{match['code']}: {problem}"[:300])
        finally:
            for sock in room.socks:
                await sock.close()


async def forger(port: int, info: dict, until: float, tally: collections.Counter) -> None:
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        for n in itertools.count():
            if time.monotonic() >= until:
                return
            forged = f"10.{n % 250}.{n // 250 % 250}.7"
            try:
                response = await http.get(f"/m/{info['join']}/join", headers={"X-Forwarded-For": forged})
                tally[f"join page {response.status_code}"] += 1
            except httpx.HTTPError:
                tally["join page failed"] += 1
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/m/{info['join']}/play",
                                              origin=f"http://127.0.0.1:{port}", close_timeout=1,
                                              additional_headers={"X-Seat-Token": f"forged{n}:x:y",
                                                                  "X-Forwarded-For": forged}) as ws:
                    await asyncio.wait_for(ws.recv(), 5)
            except websockets.ConnectionClosed as closed:
                tally[f"forged token closed {closed.rcvd.code if closed.rcvd else 'abnormally'}"] += 1
            except Exception as problem:
                tally[f"forged token {type(problem).__name__}"] += 1
            await asyncio.sleep(1.0)


async def uploader(ports: list[int], until: float, tally: collections.Counter) -> None:
    import httpx

    body = b"x" * (BODY_MB * MIB)
    for n in itertools.count():
        if time.monotonic() >= until:
            return
        path = "/accounts/login/" if n % 2 == 0 else f"/no-such-page-{n}"
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[n % len(ports)]}", timeout=60) as http:
                response = await http.post(path, content=body, headers={"Content-Type": "application/octet-stream"})
            tally[f"{BODY_MB} MB body {response.status_code}"] += 1
        except httpx.HTTPError as problem:
            tally[f"{BODY_MB} MB body {type(problem).__name__}"] += 1
        await asyncio.sleep(UPLOAD_EVERY_S)


async def run(args) -> int:
    with Stack("redis", "postgres", "soak", web=2, conductors=2, own_redis=True) as stack:
        stack.env["EXHIBITION_JOINS_PER_MINUTE"] = "10"
        stack.prepare()
        slots = args.matches
        total = slots * (int(args.minutes * 60 / 25) + 2)  # more than the run can play
        rules = {"questions": QUESTIONS, "tiebreakers": 0, "words_per_minute": 300, "lead_in_seconds": 0,
                 "bot_min_words": 500}  # bots are asked every word, and never buzz before the phones
        played = [[team("Left", human("Left 0", True), human("Left 1")),
                   team("Right", human("Right 0", True), {"tier": TIERS[m % len(TIERS)]})] for m in range(total)]
        flood = [team("A", human("Ann", True)), team("B", human("Bo", True))]
        info = stack.django(MATCHES_SETUP, {"slug": "bench-soak", "matches": [*played, flood], "rules": rules,
                                            "texts": [question_text(i) for i in range(QUESTIONS + 2)]}, "setup")
        flooded = info["matches"].pop()
        info.update(flooded=flooded["code"], join=flooded["code"], token=flooded["tokens"][0][0])
        ports = [free_port() for _ in range(2)]
        stack.start_servers(ports)
        for tier in TIERS:  # one worker a tier: a tier's memory limit holds its worker's processes
            stack.start(f"bots-{tier}", [str(Path(PYTHON).parent / "celery"), "-A", "exhibition", "worker", "-Q",
                                         f"bots.{tier}", "-n", f"{tier}@%h", "--concurrency", "1",
                                         "--loglevel", "WARNING"])
        await stack.wait_ready(ports)
        print(f"soak: {args.minutes:g} min, {slots} matches at a time, 2 web processes, 2 conductors, a bot worker a tier")
        began = time.monotonic()
        until = began + args.minutes * 60
        out = {"buzzes": [], "late": {}, "gaps": 0, "played": [], "failed": []}
        mischief = {"flood": collections.Counter(), "forger": collections.Counter(), "uploader": collections.Counter()}
        flooder = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).with_name("abuse.py")), "--flood-worker",
            json.dumps({"ports": ports, "code": info["flooded"], "token": info["token"], "seconds": args.minutes * 60}),
            stdout=asyncio.subprocess.PIPE)
        pending = list(info["matches"])
        number = itertools.count()
        rss = {}

        async def warm():
            await asyncio.sleep(min(WARM_S, args.minutes * 30))
            rss["start"] = (time.monotonic(), stack.usage())

        await asyncio.gather(warm(), forger(ports[0], info, until, mischief["forger"]),
                             uploader(ports, until, mischief["uploader"]),
                             *(play_slot(ports, info, pending, until, out, number) for _ in range(slots)))
        rss["end"] = (time.monotonic(), stack.usage())
        for tier in TIERS:
            if stack.procs[f"bots-{tier}"].poll() is not None:
                print(f"The {tier} bot worker exited:\n{stack.log_tail(f'bots-{tier}')}")
        mischief["flood"].update(json.loads((await flooder.communicate())[0].decode().strip().splitlines()[-1]))
        scores = stack.django(SCORES, {"ids": out["played"]}, "scores")
        report(args, out, scores, mischief, rss, time.monotonic() - began)
    return 0


def report(args, out, scores, mischief, rss, elapsed_s: float) -> None:
    equal = sum(1 for s in scores.values() if s["equal"])
    whole = sum(1 for s in scores.values() if s["seqs"])
    finished = sum(1 for s in scores.values() if s["status"] == "finished")
    print(f"\nPlayed {len(out['played'])} matches in {elapsed_s / 60:.1f} min ({finished} finished), "
          f"{len(out['failed'])} failed" + (f": {out['failed'][:3]}" if out["failed"] else ""))
    print(f"  seq gaps on every socket: {out['gaps']}; logs whole: {whole} of {len(scores)}")
    print(f"  final score equal in the log's fold, the box score and the archive's sum: {equal} of {len(scores)}")
    print(f"  the bots: {sum(s['bot_guesses'] for s in scores.values())} guesses, "
          f"{sum(s['bot_missed'] for s in scores.values())} missed (timed out or failed)")
    refused = collections.Counter(b.get("error") or b.get("late_answer") or "ok" for b in out["buzzes"])
    print("  buzzes: " + ", ".join(f"{k} {v}" for k, v in refused.most_common())
          + (f"; late to reach every socket: {len(out['late'])}" if out["late"] else ""))
    for name, tally in mischief.items():
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in tally.most_common()))
    (t0, start), (t1, end) = rss["start"], rss["end"]
    hours = (t1 - t0) / 3600
    print(f"\nRSS of each long-lived process (MiB), from {WARM_S:.0f} s into play to the end ({(t1 - t0) / 60:.1f} min)")
    for name in sorted(end):
        if start.get(name) and end.get(name) and name != "redis":
            a, b = start[name]["rss"] / MIB, end[name]["rss"] / MIB
            print(f"  {name:14} {a:7.1f} -> {b:7.1f}   {(b - a) / hours:+8.1f} MiB/h"
                  + ("   (a few minutes say little: an hour is --minutes 60)" if hours < 0.5 and name == "daphne" else ""))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play (an hour: 60)")
    parser.add_argument("--matches", type=int, default=3, choices=range(1, 13), metavar="1-12",
                        help="matches played at a time")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
