"""Hostile and crowded clients against the production stack: a flood on one seat, and a join storm.

Prints, from one run, each figure beside its unloaded baseline:

- **Flood.** A bystander match's moderator sends pause and resume, one at a time, and times each
  round trip (command sent to ack received): first with nothing else going on (the baseline), then
  while FLOOD_SOCKETS sockets on ONE seat of another match send commands (chat, buzz, answer) as fast
  as the server answers them for FLOOD_S seconds, each socket opening again whenever it is closed
  (a second device takes a seat over); FLOOD_ROUNDS times, alternating. Printed: the bystander's median and p95 round trip in both
  phases and their ratio, what the flood sent and how it was answered, and what the flooded match
  stored (its chat events, its refusals stored as rows: none, whether its log is whole).
- **Spectator flood.** Phones on seats of a third match that reads a long tossup on its clock record
  each word's lag (receive time - the frame's stamp): first with nothing else going on, then while
  WATCH_FLOOD_SOCKETS spectator sockets from ONE client address (its X-Forwarded-For, believed from
  127.0.0.1 as from our nginx) watch the flooded match and each sends resync WATCH_FLOOD_RATE times a
  second, opening again whenever it is closed. Printed: the phones' word lag median, p95 and p99 in
  both phases and their ratio (target p99 <= 3x), and how the flood was answered.
- **Join storm.** N phones (--storm) take a seat in the same moment, spread over the web processes,
  each following the answers as the browser does (503 busy: post again; 202 taking your seat: look
  again). Baseline: joins one at a time in the same run. Printed: every status seen (never a 500),
  how many were seated, each phone's time to be seated (median, p95) against one join alone, and the
  most database connections PostgreSQL saw at once against the pools' bound.

    .venv/bin/python bench/abuse.py                      # Redis + PostgreSQL, two web processes, two conductors
    .venv/bin/python bench/abuse.py --db sqlite --layer memory   # the embedded default (one process)

Needs Redis (db 13 is flushed) and PostgreSQL for the default run. Numbers, never pass/fail.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _client import LoopLag, connect  # noqa: E402
from _servers import Stack, free_port  # noqa: E402

FLOOD_SOCKETS = 40
FLOOD_S = 5.0
WATCH_FLOOD_SOCKETS = 500
WATCH_FLOOD_RATE = 10  # resyncs a second from each flooding spectator socket
WATCH_FLOOD_ADDRESS = "10.66.0.1"  # the flooding client, as the proxy in front would name it
PHONES = 6  # seats of the reading match, each a phone measuring word lag
READ_WORDS = 600  # the reading match's tossup: longer than the run reads it at 600 words a minute
FLOOD_ROUNDS = 3  # unloaded, then flooded, this many times: a p99 of the pooled round trips, not the one worst
HOLD_CLEARS_S = 2.5  # before an unloaded phase: the sockets the door held are closed
ROUND_TRIPS = 60  # the bystander's commands in each unloaded phase
PACE_S = 0.05  # between two of the bystander's commands: 20 a second, inside a moderator's budget of 30
BASELINE_JOINS = 10
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TEAM = re.compile(r'name="team" value="(\d+)"')
PLAYERS_A_MATCH = 50

SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.live.seat_tokens import make_seat_token
from game.match_setup import SeatSpec, TeamSpec, create_match_record
arg = json.loads(sys.argv[1])
packet = Packet.objects.create(slug="bench-abuse", title="Abuse bench")
for i in range(4):
    Question.objects.create(packet=packet, position=i, kind="short", text=f"Which number comes after {i}?", answer=str(i + 1))
rules = {"questions": 1, "tiebreakers": 0, "phases": [{"mode": "team", "points": 2, "discussion_seconds": 600}]}
def make(title, seats=("Ann", "Bob")):
    return create_match_record(title=title, packet=packet, format_name="efficientqa", overrides=rules,
                               teams=[TeamSpec("Humans", [SeatSpec(n, captain=i == 0) for i, n in enumerate(seats)]),
                                      TeamSpec("Others", [SeatSpec("Zed", captain=True)])])
flooded, bystander = make("Flooded"), make("Bystander")
ann = flooded.teams.get(position=0).seats.get(name="Ann")
long_packet = Packet.objects.create(slug="bench-abuse-reading", title="Abuse bench, read aloud")
Question.objects.create(packet=long_packet, position=0, kind="tossup", answer="Nothing",
                        text=" ".join(f"word{n}" for n in range(arg["read_words"])) + ".")
reading = create_match_record(title="Reading", packet=long_packet, format_name="quizbowl",
                              overrides={"questions": 1, "tiebreakers": 0, "words_per_minute": 600},
                              teams=[TeamSpec("Phones", [SeatSpec(f"P{n}", captain=n == 0) for n in range(arg["phones"])]),
                                     TeamSpec("Others", [SeatSpec("Zed", captain=True)])])
phones = [make_seat_token(seat) for seat in reading.teams.get(position=0).seats.order_by("id")]
joins = [make(f"Storm {n}", seats=()).code for n in range(arg["storm_matches"] + 1)]
client = Client()
client.force_login(get_user_model().objects.create_user("bench-moderator", password=None, is_staff=True))
print(json.dumps({"flooded": flooded.code, "flooded_id": flooded.id, "bystander": bystander.code,
                  "reading": reading.code, "phones": phones,
                  "token": make_seat_token(ann), "joins": joins, "session": client.cookies["sessionid"].value}))
"""

STORED = r"""
import json, sys
import django
django.setup()
from game.models import CommandReceipt, MatchEvent
arg = json.loads(sys.argv[1])
seqs = list(MatchEvent.objects.filter(match_id=arg["match"]).order_by("seq").values_list("seq", flat=True))
print(json.dumps({"events": len(seqs), "whole": seqs == list(range(1, len(seqs) + 1)),
                  "chats": MatchEvent.objects.filter(match_id=arg["match"], type="chat").count(),
                  "receipts": CommandReceipt.objects.filter(match_id=arg["match"]).count(),
                  "refusal_rows": CommandReceipt.objects.filter(match_id=arg["match"], ok=False).count(),
                  "seated": MatchEvent.objects.filter(match__code__in=arg["codes"], type="seat_joined").count()}))
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def round_trips(moderator, n: int, refusals: collections.Counter | None = None) -> list[float]:
    """The bystander's moderator: pause, resume, ... one at a time; each round trip in ms (from the
    first send to the ack, through any "try again" answers, which `refusals` counts by code)."""
    times = []
    for i in range(n):
        kind = "pause" if i % 2 == 0 else "resume"
        frame, sent, received = await moderator.command(kind, {"reason": "bench"} if kind == "pause" else {},
                                                        retry=True, refusals=refusals)
        if frame.get("type") == "ack":
            times.append(received - sent)
        await asyncio.sleep(PACE_S)
    return times


async def flood_one_socket(ports, n: int, code: str, token: str, until: float, tally: collections.Counter):
    """One hostile socket on the seat: commands as fast as they are answered; open again when closed."""
    kinds = ("chat", "buzz", "answer")  # chat is stored (within its budget); the others the rules refuse
    while time.monotonic() < until:
        try:
            sock = await connect(ports[n % len(ports)], f"/ws/m/{code}/play", f"flood{n}", "player", seat_token=token)
        except Exception:
            tally["could not open"] += 1
            await asyncio.sleep(0.05)
            continue
        tally["opened"] += 1
        try:
            i = 0
            while time.monotonic() < until:
                kind = kinds[i % 3]
                i += 1
                data = {"text": f"flood {n}.{i}"} if kind != "buzz" else {"seen": 1}
                tally["sent"] += 1
                frame, _, _ = await sock.command(kind, data)
                tally["ack" if frame.get("type") == "ack" else frame.get("data", {}).get("code", "?")] += 1
        except Exception:
            tally[f"refused ({sock.closes[-1]})" if sock.closes else "closed under it"] += 1
        finally:
            await sock.close()


async def flood(stack: Stack, ports: list[int], info: dict) -> dict:
    mod = await connect(ports[0], f"/ws/m/{info['bystander']}/moderate", "bystander", "moderator",
                        cookie=f"sessionid={info['session']}")
    flooded_mod = await connect(ports[-1], f"/ws/m/{info['flooded']}/moderate", "flooded-mod", "moderator",
                                cookie=f"sessionid={info['session']}")
    for sock in (mod, flooded_mod):
        frame, _, _ = await sock.command("start", retry=True)
        assert frame.get("type") == "ack", frame
    lag = LoopLag()
    lag.start()
    refused = {"unloaded": collections.Counter(), "flooded": collections.Counter()}
    quiet, loaded, quiet_lag, loaded_lag, tally = [], [], [], [], collections.Counter()
    for _ in range(FLOOD_ROUNDS):  # unloaded and flooded alternate, so both see the same machine
        await asyncio.sleep(HOLD_CLEARS_S)
        lag.samples = []
        quiet += await round_trips(mod, ROUND_TRIPS, refused["unloaded"])
        quiet_lag += lag.samples
        # The flood runs in a process of its own, so this one's event loop times only the bystander.
        flooder = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood-worker",
            json.dumps({"ports": ports, "code": info["flooded"], "token": info["token"], "seconds": FLOOD_S}),
            stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(1.0)  # the flood is under way
        lag.samples = []
        until = time.monotonic() + FLOOD_S - 1.5
        while time.monotonic() < until:
            loaded += await round_trips(mod, 2, refused["flooded"])
        loaded_lag += lag.samples
        tally += collections.Counter(json.loads((await flooder.communicate())[0].decode().strip().splitlines()[-1]))
    await lag.stop()
    await mod.close()
    await flooded_mod.close()
    stored = stack.django(STORED, {"match": info["flooded_id"], "codes": []}, "stored")
    return {"quiet": quiet, "loaded": loaded, "tally": tally, "stored": stored, "refused": refused,
            "lag": (statistics.median(quiet_lag or [0]), statistics.median(loaded_lag or [0]))}


async def flood_worker(spec: dict) -> None:
    tally = collections.Counter()
    until = time.monotonic() + spec["seconds"]
    await asyncio.gather(*(flood_one_socket(spec["ports"], n, spec["code"], spec["token"], until, tally)
                           for n in range(FLOOD_SOCKETS)))
    print(json.dumps(tally))


async def watch_flood_one(port: int, code: str, until: float, tally: collections.Counter):
    """One hostile spectator socket: resync WATCH_FLOOD_RATE times a second, what comes back unread;
    open again when closed. Raw sockets, so the flooding process spends little of the machine."""
    import websockets

    hello = json.dumps({"type": "hello", "data": {"last_seq": 0}})
    resync = json.dumps({"type": "resync"})
    while time.monotonic() < until:
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/m/{code}/watch", origin=f"http://127.0.0.1:{port}",
                                          additional_headers={"X-Forwarded-For": WATCH_FLOOD_ADDRESS},
                                          max_size=None, ping_interval=None, close_timeout=1) as ws:
                tally["opened"] += 1
                reader = asyncio.ensure_future(_drain(ws, tally))
                await ws.send(hello)
                while time.monotonic() < until and not reader.done():
                    await ws.send(resync)
                    tally["resyncs sent"] += 1
                    await asyncio.sleep(1 / WATCH_FLOOD_RATE)
                if reader.done():
                    tally[f"closed {ws.close_code}"] += 1
                reader.cancel()
        except Exception as problem:
            code_seen = getattr(getattr(problem, "rcvd", None), "code", None)
            tally[f"closed {code_seen}" if code_seen else "could not open"] += 1
            await asyncio.sleep(0.05)


async def _drain(ws, tally: collections.Counter) -> None:
    import websockets

    try:
        async for raw in ws:
            if '"slow_down"' in raw[:200]:
                tally["slow_down"] += 1
            elif raw.startswith('{"type":"snapshot"'):
                tally["snapshots"] += 1
    except websockets.ConnectionClosed:
        pass


async def watch_flood_worker(spec: dict) -> None:
    tally = collections.Counter()
    until = time.monotonic() + spec["seconds"]
    await asyncio.gather(*(watch_flood_one(spec["ports"][n % len(spec["ports"])], spec["code"], until, tally)
                           for n in range(WATCH_FLOOD_SOCKETS)))
    print(json.dumps(tally))


def word_lags(phones: list, since: float, until: float) -> list[float]:
    """received - stamp of each word frame the phones received between two times (ms since the epoch)."""
    return [received - t for p in phones for _, kind, t, received, _ in p.events
            if kind == "word_revealed" and since <= received < until]


async def spectator_flood(ports: list[int], info: dict) -> dict:
    phones = [await connect(ports[n % len(ports)], f"/ws/m/{info['reading']}/play", f"phone{n}", "player",
                            seat_token=token) for n, token in enumerate(info["phones"])]
    mod = await connect(ports[0], f"/ws/m/{info['reading']}/moderate", "reader", "moderator",
                        cookie=f"sessionid={info['session']}")
    frame, _, _ = await mod.command("start", retry=True)
    assert frame.get("type") == "ack", frame
    await asyncio.sleep(3.0)  # the lead-in, and the first words
    quiet, loaded, tally = [], [], collections.Counter()
    for _ in range(FLOOD_ROUNDS):  # unloaded and flooded alternate, so both see the same machine
        await asyncio.sleep(HOLD_CLEARS_S)
        quiet_from = time.time() * 1000
        await asyncio.sleep(FLOOD_S)
        quiet += word_lags(phones, quiet_from, time.time() * 1000)
        flooder = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--watch-flood-worker",
            json.dumps({"ports": ports, "code": info["flooded"], "seconds": FLOOD_S + 1}),
            stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(1.5)  # the flood is under way
        loaded_from = time.time() * 1000
        await asyncio.sleep(FLOOD_S - 1)
        loaded += word_lags(phones, loaded_from, time.time() * 1000)
        tally += collections.Counter(json.loads((await flooder.communicate())[0].decode().strip().splitlines()[-1]))
    for sock in [*phones, mod]:
        await sock.close()
    return {"quiet": quiet, "loaded": loaded, "tally": tally}


async def phone(base: str, code: str, name: str, start: asyncio.Event | None) -> dict:
    import httpx

    statuses = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        page = (await http.get(f"/m/{code}/join")).text
        form = {"csrfmiddlewaretoken": CSRF.search(page).group(1), "name": name, "team": TEAM.search(page).group(1)}
        if start is not None:
            await start.wait()
        began = time.monotonic()
        response = await http.post(f"/m/{code}/join", data=form)
        statuses.append(response.status_code)
        while response.status_code in (202, 503) and time.monotonic() - began < 120:
            await asyncio.sleep(float(response.headers.get("Retry-After", 2)))
            response = await (http.post(f"/m/{code}/join", data=form) if response.status_code == 503
                              else http.get(f"/m/{code}/join"))
            statuses.append(response.status_code)
        return {"statuses": statuses, "seated": response.status_code == 302,
                "ms": (time.monotonic() - began) * 1000}


async def connections_seen(stack: Stack, stop: asyncio.Event) -> int:
    """The most connections PostgreSQL had open to the run's database at once (sampled every 50 ms)."""
    if not stack.pg_name:
        return 0
    import psycopg

    most = 0
    async with await psycopg.AsyncConnection.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                                                     autocommit=True) as admin:
        while not stop.is_set():
            row = await (await admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                                             (stack.pg_name,))).fetchone()
            most = max(most, row[0])
            await asyncio.sleep(0.05)
    return most


async def join_storm(stack: Stack, ports: list[int], info: dict, storm: int) -> dict:
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    alone = [await phone(bases[n % len(bases)], info["joins"][-1], f"Alone {n}", None) for n in range(BASELINE_JOINS)]
    start, stop = asyncio.Event(), asyncio.Event()
    codes = info["joins"][:-1]
    phones = [asyncio.ensure_future(phone(bases[n % len(bases)], codes[n // PLAYERS_A_MATCH], f"Phone {n}", start))
              for n in range(storm)]
    watcher = asyncio.ensure_future(connections_seen(stack, stop))
    await asyncio.sleep(2)  # every phone has its join page open
    began = time.monotonic()
    start.set()
    results = await asyncio.gather(*phones)
    everyone_s = time.monotonic() - began
    stop.set()
    seated = stack.django(STORED, {"match": 0, "codes": codes}, "stored")["seated"]
    return {"alone": alone, "results": results, "everyone_s": everyone_s, "connections": await watcher,
            "in_log": seated}


def report(flooded: dict, stormed: dict, storm: int, env: dict) -> None:
    quiet, loaded = flooded["quiet"], flooded["loaded"]
    q50, l50 = statistics.median(quiet), statistics.median(loaded) if loaded else float("nan")
    print("\nFlood: the bystander match's moderator, round trip of pause/resume (ms)")
    for name, times in (("unloaded", quiet), ("flooded", loaded)):
        told = ", ".join(f"{k} {v}" for k, v in flooded["refused"][name].most_common()) or "none"
        print(f"  {name:9}  median {statistics.median(times):7.1f}   p95 {pct(times, .95):7.1f}   "
              f"p99 {pct(times, .99):7.1f}   ({len(times)} commands; told to try again: {told})")
    q50, l50 = statistics.median(quiet), statistics.median(loaded) if loaded else float("nan")
    print(f"  ratio      median {l50 / q50:7.2f}x  p95 {pct(loaded, .95) / pct(quiet, .95):7.2f}x  "
          f"p99 {pct(loaded, .99) / pct(quiet, .99):7.2f}x   (target p99 <= 3x; this client's own loop lag, "
          f"median: {flooded['lag'][0]:.1f} / {flooded['lag'][1]:.1f} ms)")
    tally, stored = flooded["tally"], flooded["stored"]
    print(f"  the flood, {FLOOD_ROUNDS} times: {FLOOD_SOCKETS} sockets on one seat for {FLOOD_S:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in tally.most_common()))
    print(f"  the flooded match stored {stored['events']} events ({stored['chats']} chats), log whole: "
          f"{stored['whole']}; receipts {stored['receipts']}, refusals stored as rows: {stored['refusal_rows']}")
    watched = flooded["watched"]
    print(f"\nSpectator flood: another match's {PHONES} phones, word lag (receive - stamp, ms)")
    for name, lags in (("unloaded", watched["quiet"]), ("flooded", watched["loaded"])):
        print(f"  {name:9}  median {statistics.median(lags or [float('nan')]):7.1f}   p95 {pct(lags, .95):7.1f}   "
              f"p99 {pct(lags, .99):7.1f}   ({len(lags)} words)")
    print(f"  ratio      p99 {pct(watched['loaded'], .99) / pct(watched['quiet'], .99):7.2f}x   (target <= 3x)")
    print(f"  the flood, {FLOOD_ROUNDS} times: {WATCH_FLOOD_SOCKETS} spectator sockets from {WATCH_FLOOD_ADDRESS} on the flooded match, "
          f"resync {WATCH_FLOOD_RATE}/s each: " + ", ".join(f"{k} {v}" for k, v in watched["tally"].most_common()))
    alone = [r["ms"] for r in stormed["alone"]]
    times = [r["ms"] for r in stormed["results"] if r["seated"]]
    statuses = collections.Counter(s for r in stormed["results"] for s in r["statuses"])
    print(f"\nJoin storm: {storm} phones at once")
    print("  answers seen: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
          + f"   (500s: {statuses.get(500, 0)})")
    print(f"  seated {sum(r['seated'] for r in stormed['results'])} of {storm} "
          f"(in the event logs: {stormed['in_log']}); everyone seated after {stormed['everyone_s']:.1f} s")
    print(f"  one join alone  median {statistics.median(alone):7.1f} ms")
    if times:
        print(f"  in the storm    median {statistics.median(times):7.1f} ms   p95 {pct(times, .95):7.1f} ms   "
              f"(p95 {pct(times, .95) / statistics.median(alone):.1f}x one alone)")
    if stormed["connections"]:
        print(f"  PostgreSQL connections at most: {stormed['connections']} "
              f"(pools: {env.get('DATABASE_POOL_MAX', '10')} per process)")


async def run(args) -> int:
    web = 2 if args.layer == "redis" else 1
    with Stack(args.layer, args.db, "abuse", web=web, conductors=2, own_redis=args.layer == "redis") as stack:
        stack.env["EXHIBITION_JOINS_PER_MINUTE"] = "1000000"  # every phone here comes from 127.0.0.1
        stack.env["TRUSTED_PROXIES"] = "127.0.0.1"  # as behind our nginx: the spectator flood's address is its own
        stack.prepare()
        storm_matches = -(-args.storm // PLAYERS_A_MATCH)
        info = stack.django(SETUP, {"storm_matches": storm_matches, "phones": PHONES, "read_words": READ_WORDS},
                            "setup")
        ports = [free_port() for _ in range(web)]
        stack.start_servers(ports)
        await stack.wait_ready(ports)
        print(f"abuse bench: {args.layer} layer, {args.db}, {web} web process(es)"
              + (", 2 conductors" if args.layer == "redis" else ", the embedded conductor"))
        flooded = await flood(stack, ports, info)
        flooded["watched"] = await spectator_flood(ports, info)
        stormed = await join_storm(stack, ports, info, args.storm)
        report(flooded, stormed, args.storm, stack.env)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--layer", choices=("memory", "redis"), default="redis")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--storm", type=int, default=200, choices=range(1, 1001), metavar="1-1000",
                        help="phones joining at once")
    parser.add_argument("--flood-worker", metavar="JSON", help=argparse.SUPPRESS)  # the flood's own process
    parser.add_argument("--watch-flood-worker", metavar="JSON", help=argparse.SUPPRESS)  # the spectators' flood's
    args = parser.parse_args(argv)
    if args.flood_worker:
        asyncio.run(flood_worker(json.loads(args.flood_worker)))
        return 0
    if args.watch_flood_worker:
        asyncio.run(watch_flood_worker(json.loads(args.watch_flood_worker)))
        return 0
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
