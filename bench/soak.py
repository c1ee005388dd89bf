"""A soak with mischief: the production shape playing matches for a while, beside three hostile clients.

The production shape (PostgreSQL, the Redis channel layer, two web processes, two conductors, a
Celery worker a bot tier, as docker-compose.yml runs them) plays --matches matches at a time (six by
default, all six starting at once), one after another, for --minutes: in each a moderator, three phones,
a hall screen (a /watch socket) and a simulated bot (500mib, 6gib and unlimited in turn, asked every word
but never buzzing first, so the phones' buzz, answer and the moderator's ruling make each question).
At a third of the run one conductor is killed and started again (its matches move to the other and
pause), at two thirds the run's Redis is stopped and started again (the matches whose conductor
notices pause); each match's moderator resumes its match once it sees the pause, as a moderator
would, or once play has stood still for STILL_S. Meanwhile, from
the start to the end:
- a flood: bench/abuse.py's forty sockets on one seat of another match, re-opening when refused;
- a forger: joins with a forged X-Forwarded-For each time, and player sockets with forged seat
  tokens, one of each a second;
- an uploader: a BODY_MB MB body to the login page and to a URL that does not exist, in turn, every
  UPLOAD_EVERY_S seconds.

Printed: matches played, seq gaps (per socket, seqs neither received nor covered by a snapshot),
whether every match's final score is the same in the fold of its log, its box score and the
archive's sum of score changes, what the mischief was answered, when each fault struck and how long
play stalled, the moderator's round trip p99 over the first minute against the steady p99 (after
STEADY_AFTER_S, or after the first minute in a shorter run; the faults' stalls left out), and each
long-lived process's RSS growth per hour, a least-squares fit of samples taken every SAMPLE_S after
STEADY_AFTER_S (after WARM_S in a shorter run). Numbers, never pass/fail.

    .venv/bin/python bench/soak.py --minutes 3        # an hour: --minutes 60

Needs PostgreSQL; starts its own redis-server.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True

from _client import connect  # noqa: E402
from _servers import PYTHON, Stack, free_port  # noqa: E402
from _client import FAULT_TIMEOUT, now_ms  # noqa: E402
from latency import Room, pct, play_room, question_text  # noqa: E402
from _matches_setup import MATCHES_SETUP, human, team  # noqa: E402

TIERS = ("500mib", "6gib", "unlimited")
QUESTIONS = 8
SETUP_BATCH = 300  # matches set up in one Django process (its argument must stay under the kernel's 128 KiB)
MATCH_S = 10.0  # a match takes longer (about 2 s a question): the run sets up one per MATCH_S per slot
WARM_S = 20.0  # in a run shorter than STEADY_AFTER_S, RSS is fitted from this long after the matches begin
STEADY_AFTER_S = 600.0  # the first ten minutes are warm-up: the steady figures come after them
FIRST_S = 60.0  # the first minute, six matches starting at once
SAMPLE_S = 30.0  # RSS sampled this often
MARK_S = 600.0  # and printed for every process this often
SETTLE_S = 60.0  # after a fault, RSS is fitted again from this long after it (the matches resume within seconds)
RESUME_POLL_S = 0.5  # a moderator looks for a pause this often
STILL_S = 15.0  # play standing still this long makes the moderator press resume (words come every 0.2 s)
BODY_MB = 20
UPLOAD_EVERY_S = 5.0
MIB = 1024 * 1024
WITHOUT = ("flood", "forger", "uploader", "faults")  # what --without can leave out


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
                     "scores": folded, "seqs": [e["seq"] for e in events] == list(range(1, len(events) + 1)),
                     "code": match.code, "last": kinds[-4:]}
print(json.dumps(out))
"""


class HallScreen:
    """The match's hall screen, one spectator socket, in the place of play_room's watcher processes."""

    def __init__(self, sock):
        self.sock = sock

    async def reached(self, number, seq, timeout):
        return await self.sock.reached(seq, timeout)

    def lowest(self, number):
        return self.sock.last_seq


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
        socks = []
        try:
            mod = await connect(port(), f"/ws/m/{match['code']}/moderate", f"m{n}-mod", "moderator", cookie, True, n)
            socks.append(mod)
            hall = await connect(port(), f"/ws/m/{match['code']}/watch", f"m{n}-hall", "spectator", None, True, n)
            socks.append(hall)
            teams = []
            for t, tokens in enumerate(match["tokens"]):
                teams.append([])
                for k, token in enumerate(tokens):
                    teams[-1].append(await connect(port(), f"/ws/m/{match['code']}/play", f"m{n}-p{t}.{k}", "player",
                                                   None, True, n, token))
                    socks.append(teams[-1][-1])
            for sock in socks:
                sock.wait_out = ("paused",)  # a command refused during a pause is given again until the resume
            resumer = asyncio.get_running_loop().create_task(resume_when_paused(mod, out["resumes"]))
            timed(mod, out["round_trips"])
            room = Room(n, mod, teams, HallScreen(hall))
            try:
                await play_room(room, QUESTIONS, out["buzzes"], out["late"], patient=True)
            finally:
                resumer.cancel()
            final = max(e[0] for e in mod.events)
            out["gaps"] += sum(seq_gaps(s, final) for s in socks)
            out["heard"].append([e[3] for e in mod.events])
            out["played"].append(match["id"])
        except Exception as problem:
            out["failed"].append(f"{match['code']}: {problem}"[:900])
        finally:
            for sock in socks:
                await sock.close()


def timed(mod, into: list) -> None:
    """Record each of the moderator's commands as (sent ms, round trip ms, kind), retries included."""
    command = mod.command

    async def timed_command(kind, data=None, retry=False, refusals=None):
        reply, sent, received = await command(kind, data, retry, refusals)
        into.append((sent, received - sent, kind))
        return reply, sent, received

    mod.command = timed_command


async def resume_when_paused(mod, resumes: list) -> None:
    """The moderator's part in a fault: once the match shows a pause (its event, or a snapshot after a
    reconnect), or play has stood still for STILL_S (a pause the moderator's socket was never sent),
    resume it; the resume is refused until the conductor has paused it, so ask until it is taken or
    the match is not paused. Each resume taken is recorded as (ms, "seen" or "still")."""
    events, snapshots, looked = 0, 0, now_ms()
    while True:
        await asyncio.sleep(RESUME_POLL_S)
        seen = [e[1] for e in mod.events[events:]]
        paused = len(mod.paused_snapshots) > snapshots or ("paused" in seen and seen[::-1].index("paused") <
                                                             (seen[::-1].index("resumed") if "resumed" in seen else len(seen)))
        events, snapshots = len(mod.events), len(mod.paused_snapshots)
        last = max([looked, *(e[3] for e in mod.events[-1:]), *mod.paused_snapshots[-1:]])
        still = not paused and now_ms() - last > STILL_S * 1000
        end = time.monotonic() + FAULT_TIMEOUT
        while (paused or still) and time.monotonic() < end:
            looked = now_ms()
            reply = (await mod.command("resume", retry=True))[0]
            code = (reply.get("data") or {}).get("code")
            if reply.get("type") == "ack" or code == "not_paused" or still:
                if reply.get("type") == "ack":
                    resumes.append((now_ms(), "still" if still else "seen"))
                break
            await asyncio.sleep(1.0)


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
                                              origin=f"http://127.0.0.1:{port}", close_timeout=1, ping_interval=None,
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
        if args.trace_memory:
            stack.traced = Path(args.trace_memory).resolve()
            stack.traced.mkdir(parents=True, exist_ok=True)
        stack.prepare()
        slots = args.matches
        total = slots * (int(args.minutes * 60 / MATCH_S) + 2)  # more than the run can play
        set_up = time.monotonic()
        rules = {"questions": QUESTIONS, "tiebreakers": 0, "words_per_minute": 300, "lead_in_seconds": 0,
                 "bot_min_words": 500}  # bots are asked every word, and never buzz before the phones
        played = [[team("Left", human("Left 0", True), human("Left 1")),
                   team("Right", human("Right 0", True), {"tier": TIERS[m % len(TIERS)]})] for m in range(total)]
        flood = [team("A", human("Ann", True)), team("B", human("Bo", True))]
        info = {"matches": []}
        batches = [played[i:i + SETUP_BATCH] for i in range(0, total, SETUP_BATCH)]
        for b, batch in enumerate([*batches[:-1], [*batches[-1], flood]]):  # one argument holds about 500 matches
            made = stack.django(MATCHES_SETUP, {"slug": f"bench-soak-{b}", "matches": batch, "rules": rules,
                                                "texts": [question_text(i) for i in range(QUESTIONS + 2)]}, "setup")
            info = {"matches": info["matches"] + made["matches"], "session": made["session"]}
        print(f"set up {total} matches in {time.monotonic() - set_up:.0f} s", flush=True)
        flooded = info["matches"].pop()
        info.update(flooded=flooded["code"], join=flooded["code"], token=flooded["tokens"][0][0])
        ports = [free_port() for _ in range(2)]
        stack.start_servers(ports)
        for tier in TIERS:  # one worker a tier: a tier's memory limit holds its worker's processes
            stack.start(f"bots-{tier}", stack.python(str(Path(PYTHON).parent / "celery"), "-A", "exhibition", "worker",
                                                     "-Q", f"bots.{tier}", "-n", f"{tier}@%h", "--concurrency", "1",
                                                     "--loglevel", "WARNING"))
        await stack.wait_ready(ports, timeout=300 if stack.traced else 60)  # traced, Django starts slowly
        print(f"soak: {args.minutes:g} min, {slots} matches at a time, 2 web processes, 2 conductors, a bot worker a tier"
              + (f"; without {', '.join(sorted(args.without))}" if args.without else ""))
        began, began_ms = time.monotonic(), now_ms()
        until = began + args.minutes * 60
        out = {"buzzes": [], "late": {}, "gaps": 0, "played": [], "failed": [], "round_trips": [], "resumes": [],
               "heard": []}
        mischief = {"flood": collections.Counter(), "forger": collections.Counter(), "uploader": collections.Counter()}
        left_out = set(args.without)
        flooder = None if "flood" in left_out else await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).with_name("abuse.py")), "--flood-worker",
            json.dumps({"ports": ports, "code": info["flooded"], "token": info["token"], "seconds": args.minutes * 60}),
            stdout=asyncio.subprocess.PIPE)
        pending = list(info["matches"])
        number = itertools.count()
        samples, faults, kinds = [], [], []
        sampler = asyncio.get_running_loop().create_task(sample_rss(stack, began, samples, args.minutes * 60, kinds))
        beside = {"faults": strike(stack, began, args.minutes * 60, faults),
                  "forger": forger(ports[0], info, until, mischief["forger"]),
                  "uploader": uploader(ports, until, mischief["uploader"])}
        for name in left_out & set(beside):
            beside.pop(name).close()  # never started
        await asyncio.gather(*beside.values(),
                             *(play_slot(ports, info, pending, until, out, number) for _ in range(slots)))
        sampler.cancel()
        if stack.traced:
            snapshot_servers(stack)
            await asyncio.sleep(20)  # time to write them
        if not pending:
            print("The run played every match set up before its end: MATCH_S is too long")
        samples.append((time.monotonic() - began, stack.usage()))
        kinds.append((samples[-1][0], stack.memory_kinds()))
        for tier in TIERS:
            if stack.procs[f"bots-{tier}"].poll() is not None:
                print(f"The {tier} bot worker exited:\n{stack.log_tail(f'bots-{tier}')}")
        if flooder:
            mischief["flood"].update(json.loads((await flooder.communicate())[0].decode().strip().splitlines()[-1]))
        scores = stack.django(SCORES, {"ids": out["played"]}, "scores")
        report(out, scores, mischief, time.monotonic() - began)
        report_faults(faults, out["resumes"], out["heard"], began_ms)
        report_first_minute(out["round_trips"], faults, out["resumes"], began_ms, args.minutes * 60)
        report_rss(samples, [(fault["at"] - began_ms) / 1000 for fault in faults])
        report_memory_kinds(kinds)
        if stack.traced:
            report_growth(stack.traced)
        if args.summary:
            exited = [tier for tier in TIERS if stack.procs[f"bots-{tier}"].poll() is not None]
            Path(args.summary).write_text(json.dumps(summary(out, scores, mischief, faults, exited)))
    return 0


def summary(out, scores, mischief, faults, exited) -> dict:
    """What the run must keep whatever the load, as data (tests/test_soak.py reads it): counts, never timings."""
    return {"played": len(out["played"]), "failed": out["failed"], "seq_gaps": out["gaps"],
            "finished": sum(1 for s in scores.values() if s["status"] == "finished"), "unfinished": unfinished(scores),
            "logs_whole": sum(1 for s in scores.values() if s["seqs"]),
            "scores_equal": sum(1 for s in scores.values() if s["equal"]), "scored": len(scores),
            "buzzes": collections.Counter(b.get("error") or b.get("late_answer") or "ok" for b in out["buzzes"]),
            "faults": [fault["what"] for fault in faults], "bot_workers_exited": exited,
            "mischief": {name: dict(tally) for name, tally in mischief.items()}}


async def sample_rss(stack: Stack, began: float, samples: list, run_s: float, kinds: list) -> None:
    """RSS every SAMPLE_S; where the fit starts, each process's memory by kind into `kinds` (another is taken
    at the end) and, with --trace-memory, a tracemalloc snapshot of every Python server."""
    steady_from = STEADY_AFTER_S if run_s >= STEADY_AFTER_S + 5 * SAMPLE_S else WARM_S
    snapped = False
    while True:
        samples.append((time.monotonic() - began, stack.usage()))
        if not snapped and samples[-1][0] >= steady_from:
            kinds.append((samples[-1][0], stack.memory_kinds()))
            if stack.traced:
                snapshot_servers(stack)
            snapped = True
        await asyncio.sleep(SAMPLE_S)


def snapshot_servers(stack: Stack) -> None:
    """Ask every traced server for a tracemalloc snapshot (bench/_traced.py writes it on SIGUSR2)."""
    for name, proc in stack.procs.items():
        if name != "redis" and proc.poll() is None:
            os.kill(proc.pid, signal.SIGUSR2)


def report_growth(folder: Path, top: int = 12) -> None:
    """What grew in each traced process between its first and its last snapshot, by line of code."""
    import tracemalloc

    runs = collections.defaultdict(list)
    for path in folder.glob("*.tracemalloc"):
        pid, n = path.stem.split("-")
        runs[pid].append((int(n), path))
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    for pid, snaps in sorted(runs.items()):
        if len(snaps) < 2:
            continue
        snaps.sort()
        first = tracemalloc.Snapshot.load(str(snaps[0][1])).filter_traces(ignore)
        last = tracemalloc.Snapshot.load(str(snaps[-1][1])).filter_traces(ignore)
        grown = [d for d in last.compare_to(first, "traceback") if d.size_diff > 0][:top]
        print(f"\nWhat grew in process {pid} from the start of the fit to the end "
              f"({sum(d.size_diff for d in last.compare_to(first, 'filename')) / MIB:+.1f} MiB traced in all), "
              "most recent frame first:")
        for d in grown:
            frames = [f"{f.filename.rsplit('site-packages/', 1)[-1]}:{f.lineno}" for f in d.traceback][-4:]
            print(f"  {d.size_diff / 1024:+9.0f} KiB {d.count_diff:+7d} blocks  " + " <- ".join(reversed(frames)))


async def strike(stack: Stack, began: float, run_s: float, faults: list) -> None:
    """The two faults, once each: a conductor killed and started again at a third of the run, the
    run's Redis stopped and started again at two thirds. Each recorded as {what, at ms}."""
    await asyncio.sleep(max(0.0, began + run_s / 3 - time.monotonic()))
    faults.append({"what": "conductor killed and started again", "at": now_ms()})
    stack.kill("conductor")
    stack.start_conductor("conductor-again")
    await asyncio.sleep(max(0.0, began + run_s * 2 / 3 - time.monotonic()))
    faults.append({"what": "Redis stopped and started again", "at": now_ms()})
    stack.kill("redis")
    await asyncio.sleep(1.5)
    await asyncio.to_thread(stack.start_redis)


def fault_windows(faults: list, resumes: list) -> list[tuple[float, float]]:
    """(from, to) ms of each fault: from the strike to the last resume before the next strike."""
    windows = []
    for i, fault in enumerate(faults):
        nxt = faults[i + 1]["at"] if i + 1 < len(faults) else float("inf")
        taken = [r for r, _ in resumes if fault["at"] <= r < nxt]
        windows.append((fault["at"], max(taken, default=fault["at"])))
    return windows


def unfinished(scores: dict) -> list[str]:
    """Each match played whose log does not end it: its code, status, last seq and last events."""
    return [f"{s['code']} {s['status']} at seq {s['seq']} ({', '.join(s['last'])})"
            for s in scores.values() if s["status"] != "finished"]


def report(out, scores, mischief, elapsed_s: float) -> None:
    equal = sum(1 for s in scores.values() if s["equal"])
    whole = sum(1 for s in scores.values() if s["seqs"])
    finished = sum(1 for s in scores.values() if s["status"] == "finished")
    print(f"\nPlayed {len(out['played'])} matches in {elapsed_s / 60:.1f} min ({finished} finished), "
          f"{len(out['failed'])} failed" + (f": {out['failed'][:3]}" if out["failed"] else ""))
    for line in unfinished(scores):
        print(f"  not finished in its log: {line}")
    print(f"  seq gaps on every socket: {out['gaps']}; logs whole: {whole} of {len(scores)}")
    print(f"  final score equal in the log's fold, the box score and the archive's sum: {equal} of {len(scores)}")
    print(f"  the bots: {sum(s['bot_guesses'] for s in scores.values())} guesses, "
          f"{sum(s['bot_missed'] for s in scores.values())} missed (timed out or failed)")
    refused = collections.Counter(b.get("error") or b.get("late_answer") or "ok" for b in out["buzzes"])
    print("  buzzes: " + ", ".join(f"{k} {v}" for k, v in refused.most_common())
          + (f"; late to reach every socket: {len(out['late'])}" if out["late"] else ""))
    for name, tally in mischief.items():
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in tally.most_common()))


def stood_still(heard: list, at: float) -> list[float]:
    """For each match live at `at` (ms), how long its moderator heard nothing across that moment (ms)."""
    out = []
    for times in heard:
        before = [t for t in times if t <= at]
        after = [t for t in times if t > at]
        if before and after:
            out.append(min(after) - max(before))
    return out


def report_faults(faults: list, resumes: list, heard: list, began_ms: float) -> None:
    for fault, (start, end) in zip(faults, fault_windows(faults, resumes)):
        quiet = sorted(stood_still(heard, start))
        print(f"  fault: {fault['what']} at {(start - began_ms) / 60000:.1f} min" + (
            f": the moderators of the {len(quiet)} matches then live heard nothing for "
            f"{quiet[len(quiet) // 2] / 1000:.1f} s (median), {quiet[-1] / 1000:.1f} s at most" if quiet else ""))
        taken = sorted(r for r, _ in resumes if start <= r <= end)
        still = sum(1 for r, why in resumes if start <= r <= end and why == "still")
        print(f"    {len(taken)} matches paused and were resumed ({still} only because play stood still "
              f"{STILL_S:.0f} s: their moderator was never shown the pause), the last {(end - start) / 1000:.1f} s "
              "after the fault"
              + (f", median {(taken[len(taken) // 2] - start) / 1000:.1f} s" if taken else ""))
    outside = [r for r, _ in resumes if not any(a <= r <= b for a, b in fault_windows(faults, resumes))]
    if outside:
        print(f"  {len(outside)} resumes outside the faults (a pause the soak did not cause)")


def report_first_minute(round_trips: list, faults: list, resumes: list, began_ms: float, run_s: float) -> None:
    """The moderator's round trip p99 over the first minute against the steady p99 (faults left out)."""
    steady_from = STEADY_AFTER_S if run_s > STEADY_AFTER_S + FIRST_S else FIRST_S
    windows = [(a, b + 5000) for a, b in fault_windows(faults, resumes)]  # and the catching up after each
    kept = [(sent - began_ms, ms, kind) for sent, ms, kind in round_trips
            if kind != "resume" and not any(a <= sent <= b for a, b in windows)]
    by_kind = collections.defaultdict(list)
    for at, ms, kind in kept:
        if at < FIRST_S * 1000:
            by_kind[kind].append(ms)
    first = [ms for at, ms, _ in kept if at < FIRST_S * 1000]
    steady = [ms for at, ms, _ in kept if at >= steady_from * 1000]
    p_first, p_steady = pct(first, 99), pct(steady, 99)
    ratio = f"{p_first / p_steady:.1f}x" if p_first is not None and p_steady else "n/a"
    print(f"\nThe first minute ({len(first)} moderator commands, every match starting at once): round trip p99 "
          f"{fmt(p_first)} ms against {fmt(p_steady)} ms steady ({len(steady)} commands after "
          f"{steady_from / 60:.0f} min, the faults' stalls left out): {ratio} (target <= 3x)")
    print("  the first minute by command: " + ", ".join(f"{kind} p99 {fmt(pct(times, 99))} ms ({len(times)})"
                                                      for kind, times in sorted(by_kind.items())))


def fmt(ms) -> str:
    return "n/a" if ms is None else f"{ms:.0f}"


def fit_per_hour(points: list[tuple[float, float]]) -> float | None:
    """The least-squares slope of (seconds, MiB) points, in MiB an hour."""
    return fit_between_faults(points, [])[0]


def fit_between_faults(points: list[tuple[float, float]], cuts: list[float]) -> tuple[float | None, list]:
    """The slope in MiB an hour of (seconds, MiB) points fitted within the stretches between cuts (the
    faults, in seconds), each stretch at a level of its own and starting SETTLE_S after its cut; and the
    step at each cut with a stretch on both sides, [(cut, MiB)]: the levels' difference there. A process
    that gains a few MiB once, as it reconnects or takes over a peer's matches, is told apart from one
    that keeps growing."""
    bounds = [-float("inf"), *sorted(cuts), float("inf")]
    stretches = [[(x, y) for x, y in points if bounds[i] + SETTLE_S <= x < bounds[i + 1]] for i in range(len(bounds) - 1)]
    means = [(sum(x for x, _ in st) / len(st), sum(y for _, y in st) / len(st)) if st else None for st in stretches]
    sxy = sum((x - m[0]) * (y - m[1]) for st, m in zip(stretches, means) if m for x, y in st)
    sxx = sum((x - m[0]) ** 2 for st, m in zip(stretches, means) if m for x, _ in st)
    if not sxx:
        return None, []
    slope = sxy / sxx  # MiB a second
    steps = [(cut, (means[i + 1][1] + slope * (cut - means[i + 1][0])) - (means[i][1] + slope * (cut - means[i][0])))
             for i, cut in enumerate(bounds[1:-1]) if means[i] and means[i + 1]]
    return slope * 3600, steps


def report_rss(samples: list, cuts: list[float]) -> None:
    """Each long-lived process's RSS growth an hour, fitted to the samples after STEADY_AFTER_S (after
    WARM_S when the run is shorter), and fitted between the faults (cuts, seconds into the run) with the
    step at each. A process restarted by a fault is a process of its own."""
    run_s = samples[-1][0]
    steady_from = STEADY_AFTER_S if run_s >= STEADY_AFTER_S + 5 * SAMPLE_S else WARM_S
    kept = [(t, usage) for t, usage in samples if t >= steady_from]
    print(f"\nRSS of each long-lived process (MiB), least squares over {len(kept)} samples every {SAMPLE_S:.0f} s "
          f"from {steady_from / 60:.1f} min to the end ({(run_s - steady_from) / 60:.1f} min)"
          + ("" if steady_from == STEADY_AFTER_S else
             f": the run is too short to leave out the first {STEADY_AFTER_S / 60:.0f} minutes, so this is the whole run"))
    names = sorted({name for _, usage in kept for name in usage if name != "redis"})
    warm_up = steady_from if steady_from == STEADY_AFTER_S else WARM_S
    for name in names:
        # A process started again by a fault warms up as the others did: fitted from its own warm-up's end.
        born = min(t for t, usage in samples if usage.get(name))
        own = max(steady_from, born + warm_up) if born > SAMPLE_S else steady_from  # not among the first samples
        series = lambda key: [(t, usage[name][key] / MIB) for t, usage in kept if usage.get(name) and t >= own]  # noqa: E731
        points = series("rss")
        slope = fit_per_hour(points)
        # RSS counts the pages of code and libraries a process touches as it goes; those are read from
        # their files again when memory is short, so what no file backs is fitted apart.
        anonymous, _ = fit_between_faults(series("anon"), cuts)
        since = f", started again at {born / 60:.0f} min: from {own / 60:.0f} min" if own > steady_from else ""
        between, steps = fit_between_faults(points, cuts)
        apart = "" if between is None or not steps else (
            f"; between the faults {between:+.1f} MiB/h, steps " + ", ".join(f"{mib:+.1f} at {cut / 60:.0f} min"
                                                                           for cut, mib in steps))
        if slope is not None:
            print(f"  {name:18} {points[0][1]:7.1f} -> {points[-1][1]:7.1f}   {slope:+8.1f} MiB/h  "
                  f"(target <= +5{since}{apart}" + ("" if anonymous is None else
                                                   f"; of it no file's pages, between the faults {anonymous:+.1f} MiB/h") + ")")
        else:
            print(f"  {name:18} started again at {born / 60:.0f} min: too few samples after its own warm-up")
    report_rss_marks(samples, names)


def report_memory_kinds(kinds: list) -> None:
    """Where each process's memory grew from the start of the fit to the end, by kind (Stack.memory_kinds)."""
    if len(kinds) < 2:
        return
    (began, first), (ended, last) = kinds[0], kinds[-1]
    print(f"\nMemory by kind (MiB) at {began / 60:.1f} min and at the end ({ended / 60:.1f} min), "
          "each process that ran throughout:")
    for name in sorted(set(first) & set(last)):
        if name != "redis":
            print(f"  {name:18} " + ", ".join(f"{kind} {first[name][kind] / MIB:.1f} -> {last[name][kind] / MIB:.1f}"
                                               for kind in first[name]))


def report_rss_marks(samples: list, names: list[str]) -> None:
    """Each process's RSS at every MARK_S of the run, so a step at a fault shows apart from a steady slope."""
    marks = [m * MARK_S for m in range(1, int(samples[-1][0] // MARK_S) + 1)]
    if len(marks) < 2:
        return
    at = [min(samples, key=lambda sample: abs(sample[0] - mark))[1] for mark in marks]
    print("  RSS (MiB) at " + ", ".join(f"{mark / 60:.0f}" for mark in marks) + " min")
    for name in names:
        print(f"  {name:18} " + " ".join(f"{usage[name]['rss'] / MIB:6.1f}" if usage.get(name) else "     -"
                                          for usage in at))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play (an hour: 60)")
    parser.add_argument("--trace-memory", metavar="DIR",
                        help="run the servers under tracemalloc (bench/_traced.py), snapshots in DIR, and print "
                             "what grew in each (slows them: its RSS and round trips are not the untraced ones)")
    parser.add_argument("--matches", type=int, default=6, choices=range(1, 13), metavar="1-12",
                        help="matches played at a time")
    parser.add_argument("--without", action="append", default=[], choices=WITHOUT, metavar="NAME",
                        help="leave out one of " + ", ".join(WITHOUT) + " (repeatable), to see what a growth or a "
                             "delay comes with by alternating runs with and without it")
    parser.add_argument("--summary", metavar="FILE", help="also write the run's counts (matches, gaps, scores, faults, "
                                                          "mischief) to FILE as JSON")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
