"""What a live room feels: word, buzz and fan-out latency over real websockets; prints numbers, never pass/fail.

Each run starts its own servers on 127.0.0.1 and removes them again (bench/_servers.py):
  memory  the embedded default: one Daphne process, the conductor inside it, the in-memory
          channel layer and a temp SQLite file;
  redis   Daphne plus a separate `manage.py conduct`, the Redis channel layer on
          redis://127.0.0.1:6379/13 (flushed before and after), and a temp SQLite file or, with
          --db postgres, a throwaway PostgreSQL database that is created and dropped again.
The database is migrated (`manage.py migrate`) and set up by a short Django child process: a
packet of short tossups (23 words), a staff user with a session, and a quizbowl match at 300
words per minute with no lead-in and two teams of one human seat each.

Then one moderator (session cookie), both players (seat tokens) and N spectators connect and send
hello. The moderator starts; on every question the buzzing player (alternating) buzzes once it has
shown BUZZ_AFTER words, answers, the moderator accepts, and once every socket has the question's
last event the moderator sends next. Measured:
  word lag       client receive time - the frame's `t` for every word_revealed frame on every socket
                 (`t` is when the engine scheduled the word; one machine, one clock);
  buzz ack       buzz sent -> its ack at the buzzing player;
  buzz fan-out   buzz sent -> the buzz event frame at the other player / at each spectator;
  delivery       every seq each socket received, against the match's event log read from the
                 database afterwards: lost, duplicated and out-of-order seqs;
  resources      RSS and CPU time of Daphne (and the conductor) at the end, with all sockets open.

Run: .venv/bin/python bench/latency.py [--layer memory|redis|both] [--db sqlite|postgres]
                                       [--spectators 10,50,200] [--questions 5]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

from _servers import ServerError, Stack, free_port  # noqa: E402

WORDS_PER_MINUTE = 300
BUZZ_AFTER = 8  # words shown on the buzzing player's screen before it buzzes
MAX_SPECTATORS = 1000
MAX_QUESTIONS = 20
MAX_RUNS = 8
CONNECT_CONCURRENCY = 20
STEP_TIMEOUT = 30.0  # seconds any single wait may take before the run is given up
MIB = 1024 * 1024

SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.seat_tokens import make_seat_token
from game.store import SeatSpec, TeamSpec, create_match_record
arg = json.loads(sys.argv[1])
packet = Packet.objects.create(slug="bench-latency", title="Latency bench")
for i, text in enumerate(arg["texts"]):
    Question.objects.create(packet=packet, position=i, kind="tossup", text=text, answer=f"Answer {i}")
match = create_match_record(title="Latency bench", packet=packet, format_name="quizbowl", overrides=arg["rules"],
                            teams=[TeamSpec("Left", [SeatSpec("Ann", captain=True)]),
                                   TeamSpec("Right", [SeatSpec("Bob", captain=True)])])
tokens = [make_seat_token(team.seats.get()) for team in match.teams.order_by("position")]
client = Client()
client.force_login(get_user_model().objects.create_user("bench-moderator", password=None, is_staff=True))
print(json.dumps({"code": match.code, "id": match.id, "tokens": tokens, "session": client.cookies["sessionid"].value}))
"""

DUMP = r"""
import json, sys
import django
django.setup()
from game.models import MatchEvent
arg = json.loads(sys.argv[1])
rows = MatchEvent.objects.filter(match_id=arg["match"]).order_by("seq").values_list("seq", "type", "t_ms")
print(json.dumps([list(r) for r in rows]))
"""

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
            "eighteenth", "nineteenth", "twentieth"]


def question_text(i: int) -> str:
    """23 words, one clause pause, the power mark after word 14; the buzz comes after word 8."""
    return (f"In this {ORDINALS[i]} benchmark tossup a slow river flows north through a wide desert (*) "
            "past old temples toward the sea; name this river?")


def now_ms() -> float:
    return time.time() * 1000


def pct(values, p: float):
    """Nearest-rank percentile (p99 of fewer than 100 values is the maximum)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# -- the client side ------------------------------------------------------------------------------

class Sock:
    """One websocket client: stamps every frame as it arrives and keeps the event frames raw."""

    def __init__(self, name: str, audience: str, ws):
        self.name, self.audience, self.ws = name, audience, ws
        self.events: list[tuple] = []  # (seq, type, t, received ms, word index); duplicates kept
        self.snapshot_seq: int | None = None
        self.replies: dict[str, asyncio.Future] = {}
        self.waiters: list[tuple] = []
        self.refs = 0
        self.closed_by: str | None = None
        self.snapshot = asyncio.get_running_loop().create_future()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self):
        import websockets

        try:
            async for raw in self.ws:
                received = now_ms()
                frame = json.loads(raw)
                seq = frame.get("seq")
                if seq is not None:
                    event = (seq, frame.get("type"), frame.get("t"), received, (frame.get("data") or {}).get("index"))
                    self.events.append(event)
                    if self.waiters:
                        self._check(event)
                    continue
                kind = frame.get("type")
                if kind in ("ack", "error"):
                    future = self.replies.pop(frame.get("ref"), None)
                    if future is not None and not future.done():
                        future.set_result((frame, received))
                elif kind == "snapshot" and not self.snapshot.done():
                    self.snapshot_seq = frame["data"]["seq"]
                    self.snapshot.set_result(received)
        except websockets.ConnectionClosed as closed:
            self.closed_by = f"closed {closed.rcvd.code if closed.rcvd else 'abnormally'}"
        finally:
            if self.closed_by is None:
                self.closed_by = "closed"
            gone = ConnectionError(f"{self.name}: socket {self.closed_by}")
            for future in [self.snapshot, *self.replies.values(), *(w[2] for w in self.waiters)]:
                if not future.done():
                    future.set_exception(gone)

    def _check(self, event):
        for waiter in list(self.waiters):
            test, since, future = waiter
            if event[0] > since and not future.done() and test(event):
                future.set_result(event)
                self.waiters.remove(waiter)

    async def wait_for(self, test, since: int, timeout: float = STEP_TIMEOUT):
        """The first event frame after seq `since` that passes test (already received or still to come)."""
        for event in self.events:
            if event[0] > since and test(event):
                return event
        if self.reader.done():
            raise ConnectionError(f"{self.name}: socket {self.closed_by}")
        waiter = (test, since, asyncio.get_running_loop().create_future())
        self.waiters.append(waiter)
        try:
            return await asyncio.wait_for(waiter[2], timeout)
        finally:
            if waiter in self.waiters:
                self.waiters.remove(waiter)

    async def reached(self, seq: int, timeout: float) -> bool:
        try:
            await self.wait_for(lambda e: e[0] >= seq, seq - 1, timeout)
            return True
        except (TimeoutError, ConnectionError):
            return False

    async def command(self, kind: str, data: dict | None = None):
        """Send a command; (reply frame, sent ms, reply received ms)."""
        self.refs += 1
        ref = f"{self.name}-{self.refs}"
        future = asyncio.get_running_loop().create_future()
        self.replies[ref] = future
        sent = now_ms()
        # Every command carries an id (the wire protocol's exactly-once key); the ref is unique enough.
        await self.ws.send(json.dumps({"type": kind, "data": data or {}, "ref": ref, "id": f"bench-{ref}-{os.getpid()}"}))
        frame, received = await asyncio.wait_for(future, STEP_TIMEOUT)
        return frame, sent, received

    async def close(self):
        try:
            await asyncio.wait_for(self.ws.close(), 5)
        except Exception:
            pass
        self.reader.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)


async def connect(port: int, path: str, name: str, audience: str, cookie: str | None = None) -> Sock:
    from websockets.asyncio.client import connect as ws_connect

    ws = await ws_connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                          additional_headers={"Cookie": cookie} if cookie else None,
                          ping_interval=None, open_timeout=STEP_TIMEOUT, close_timeout=2)
    sock = Sock(name, audience, ws)
    try:
        sent = now_ms()
        await ws.send(json.dumps({"type": "hello", "data": {"last_seq": 0}}))
        sock.join_ms = await asyncio.wait_for(sock.snapshot, STEP_TIMEOUT) - sent
    except BaseException:
        await sock.close()
        raise
    return sock


class LoopLag:
    """How late this client's own event loop wakes a 10 ms sleep: the client's share of every number."""

    def __init__(self, interval: float = 0.01):
        self.interval, self.samples, self.task = interval, [], None

    async def _run(self):
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.samples.append((time.perf_counter() - start - self.interval) * 1000)

    def start(self):
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self):
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


def seqs_of(reply: dict) -> list[int]:
    return list((reply.get("data") or {}).get("seqs") or [])


def expect_ack(what: str, reply: dict) -> list[int]:
    if reply.get("type") != "ack":
        raise RuntimeError(f"{what} was refused: {reply.get('data')}")
    return seqs_of(reply)


async def reach_all(socks: list[Sock], seq: int, timeout: float) -> list[str]:
    """Wait until every socket has an event frame at or past seq; the names of those that did not."""
    done = await asyncio.gather(*(s.reached(seq, timeout) for s in socks))
    return [s.name for s, ok in zip(socks, done) if not ok]


async def play(stack: Stack, port: int, info: dict, spectators: int, questions: int) -> dict:
    code = info["code"]
    socks: list[Sock] = []
    probe = LoopLag()
    try:
        t_connect = time.monotonic()
        mod = await connect(port, f"/ws/m/{code}/moderate", "moderator", "moderator", f"sessionid={info['session']}")
        socks.append(mod)
        players = []
        for i, token in enumerate(info["tokens"]):
            players.append(await connect(port, f"/ws/m/{code}/play?seat={token}", f"player{i}", "player"))
            socks.append(players[-1])
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def watcher(i):
            async with gate:
                return await connect(port, f"/ws/m/{code}/watch", f"spectator{i}", "spectator")

        opened = await asyncio.gather(*(watcher(i) for i in range(spectators)), return_exceptions=True)
        socks += [s for s in opened if isinstance(s, Sock)]
        failed = [s for s in opened if not isinstance(s, Sock)]
        if failed:
            raise RuntimeError(f"{len(failed)} of {spectators} spectators could not connect: {failed[0]!r}")
        connect_s = time.monotonic() - t_connect

        usage_start = stack.usage()
        cpu_start = resource.getrusage(resource.RUSAGE_SELF)
        probe.start()
        t_play = time.monotonic()
        reply, _, _ = await mod.command("start")
        seqs = expect_ack("start", reply)
        buzzes, late = [], {}
        for k in range(questions):
            since = min(seqs) - 1 if seqs else 0
            buzzer, other = players[k % 2], players[1 - k % 2]
            word = await buzzer.wait_for(lambda e: e[1] == "word_revealed" and (e[4] or 0) >= BUZZ_AFTER - 1, since)
            reply, sent, acked = await buzzer.command("buzz", {"seen": word[4] + 1})
            buzz = {"question": k + 1, "buzzer": buzzer.name, "other": other.name, "sent": sent, "ack": acked,
                    "reply": reply.get("type"), "seq": None}
            if reply.get("type") == "ack" and seqs_of(reply):
                buzz["seq"] = max(seqs_of(reply))  # the buzz is the last event its command causes
                expect_ack("answer", (await buzzer.command("answer", {"text": f"Answer {k}"}))[0])
                last = max(expect_ack("rule", (await mod.command("rule", {"verdict": "accept"}))[0]))
            else:  # refused (e.g. read to the end under load): let the question go dead by itself
                buzz["error"] = (reply.get("data") or {}).get("code")
                last = (await mod.wait_for(lambda e: e[1] == "question_closed", since, 60))[0]
            buzzes.append(buzz)
            missing = await reach_all(socks, last, STEP_TIMEOUT)
            if missing:
                late[f"question {k + 1}"] = missing
            reply, _, _ = await mod.command("next")
            seqs = expect_ack("next", reply)
        final = max(seqs)  # match_ended
        missing = await reach_all(socks, final, STEP_TIMEOUT)
        if missing:
            late["match_ended"] = missing
        play_s = time.monotonic() - t_play
        cpu_end = resource.getrusage(resource.RUSAGE_SELF)
        usage_end = stack.usage()  # with every socket still open
        await probe.stop()
        return {
            "socks": [{"name": s.name, "audience": s.audience, "snapshot_seq": s.snapshot_seq, "events": s.events,
                       "join_ms": s.join_ms, "closed_by": s.closed_by if s.reader.done() else None} for s in socks],
            "buzzes": buzzes, "late": late, "connect_s": connect_s, "play_s": play_s,
            "usage_start": usage_start, "usage_end": usage_end, "loop_lag": probe.samples,
            "client_cpu": (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime),
        }
    finally:
        await probe.stop()
        await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)


# -- one run --------------------------------------------------------------------------------------

def run_label(layer: str, db: str) -> str:
    return "memory+sqlite" if layer == "memory" else f"redis+{db}"


def run_one(layer: str, db: str, spectators: int, questions: int, number: int) -> dict:
    started = time.monotonic()
    with Stack(layer, db, tag=f"{layer}-{spectators}-{number}") as stack:
        stack.prepare()
        rules = {"reveal": "clock", "words_per_minute": WORDS_PER_MINUTE, "lead_in_seconds": 0,
                 "questions": questions, "tiebreakers": 0}
        info = stack.django(SETUP, {"texts": [question_text(i) for i in range(questions)], "rules": rules}, "setup")
        port = free_port()
        stack.start_servers(port)
        budget = 60 + questions * 20 + spectators * 0.5

        async def go():
            await stack.wait_ready(port)
            return await asyncio.wait_for(play(stack, port, info, spectators, questions), budget)

        try:
            result = asyncio.run(go())
        except (Exception, asyncio.CancelledError) as problem:
            tails = "\n".join(stack.log_tail(name) for name in stack.procs)
            raise ServerError(f"{type(problem).__name__}: {problem}\n{tails}") from problem
        stack.stop_servers()
        result["log"] = [[seq, kind, t] for seq, kind, t in stack.django(DUMP, {"match": info["id"]}, "dump")]
        result["server_log_lines"] = {name: stack.log_tail(name, 5) for name in stack.procs}
    result.update(layer=layer, db=db, label=run_label(layer, db), spectators=spectators, questions=questions,
                  wall_s=time.monotonic() - started)
    return summarize(result)


def summarize(r: dict) -> dict:
    log = r.pop("log")
    log_seqs = [seq for seq, _, _ in log]
    word_seqs = {seq for seq, kind, _ in log if kind == "word_revealed"}
    lags = {"moderator": [], "player": [], "spectator": []}
    first_words, later_words = [], []  # a question's first word waits for `next` to be stored and sent
    delivery = {"frames_got": 0, "frames_expected": 0, "words_got": 0, "words_expected": 0,
                "lost": 0, "dup": 0, "out_of_order": 0, "unexpected": 0, "notes": []}
    by_name = {}
    for s in r["socks"]:
        by_name[s["name"]] = s
        events = s["events"]
        for seq, kind, t, received, index in events:
            if kind == "word_revealed" and t is not None:
                lags[s["audience"]].append(received - t)
                (first_words if index == 0 else later_words).append(received - t)
        expected = {seq for seq in log_seqs if seq > (s["snapshot_seq"] or 0)}
        got = [e[0] for e in events]
        got_set = set(got)
        lost = sorted(expected - got_set)
        dup = len(got) - len(got_set)
        unexpected = sorted(got_set - expected)
        disorder = sum(1 for a, b in zip(got, got[1:]) if b < a)
        delivery["frames_got"] += len(got_set & expected)
        delivery["frames_expected"] += len(expected)
        delivery["words_got"] += len(got_set & expected & word_seqs)
        delivery["words_expected"] += len(expected & word_seqs)
        delivery["lost"] += len(lost)
        delivery["dup"] += dup
        delivery["out_of_order"] += disorder
        delivery["unexpected"] += len(unexpected)
        if lost or dup or disorder or unexpected:
            delivery["notes"].append(f"{s['name']}: lost seqs {lost[:10]}{'...' if len(lost) > 10 else ''}, "
                                     f"{dup} duplicated, {disorder} out of order, unexpected {unexpected[:10]}")
        if s["closed_by"]:
            delivery["notes"].append(f"{s['name']}: socket {s['closed_by']} before the end")
    ack_rtt, to_player, to_spectators = [], [], []
    for b in r["buzzes"]:
        ack_rtt.append(b["ack"] - b["sent"])
        if b["seq"] is None:
            delivery["notes"].append(f"question {b['question']}: buzz refused ({b.get('error')})")
            continue
        for s in r["socks"]:
            arrival = next((e[3] for e in s["events"] if e[0] == b["seq"]), None)
            if arrival is None:
                continue
            if s["name"] == b["other"]:
                to_player.append(arrival - b["sent"])
            elif s["audience"] == "spectator":
                to_spectators.append(arrival - b["sent"])
    for where, names in r["late"].items():
        delivery["notes"].append(f"{where}: {len(names)} sockets had not received it after {STEP_TIMEOUT:.0f}s "
                                 f"({', '.join(names[:5])}{'...' if len(names) > 5 else ''})")
    usage = {}
    for name, end in r["usage_end"].items():
        start = r["usage_start"].get(name)
        usage[name] = None if end is None else {"rss": end["rss"], "cpu": end["cpu"] - (start or end)["cpu"]}
    return {
        "label": r["label"], "layer": r["layer"], "spectators": r["spectators"], "sockets": len(r["socks"]),
        "lag_all": [x for v in lags.values() for x in v], "lags": lags,
        "lag_first": first_words, "lag_later": later_words,
        "ack_rtt": ack_rtt, "to_player": to_player, "to_spectators": to_spectators,
        "delivery": delivery, "usage": usage, "loop_lag": r["loop_lag"], "client_cpu": r["client_cpu"],
        "join_ms": [s["join_ms"] for s in r["socks"]], "connect_s": r["connect_s"], "play_s": r["play_s"],
        "wall_s": r["wall_s"], "events": len(log), "words_per_question": len(word_seqs) / max(1, r["questions"]),
    }


# -- the report -----------------------------------------------------------------------------------

def fmt(value, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) if i > 1 else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths)))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))))
    return "\n".join(lines)


def report(results: list[dict], args, total_s: float) -> None:
    done = [r for r in results if "failed" not in r]
    print(f"\nExhibition live-room latency: {args.questions} questions per run, quizbowl at {WORDS_PER_MINUTE} wpm, "
          f"lead-in 0, buzz after {BUZZ_AFTER} words; 1 moderator + 2 players + N spectators; "
          f"client and servers on this machine ({os.cpu_count()} CPUs).")
    if done:
        print("\nLatency, ms (receive time on the client - server time / send time; nearest-rank percentiles)")
        rows = []
        for r in done:
            lag = r["lag_all"]
            rows.append([r["label"], str(r["spectators"]), str(len(lag)), fmt(pct(lag, 50)), fmt(pct(lag, 95)),
                         fmt(pct(lag, 99)), fmt(max(lag) if lag else None),
                         fmt(pct(r["ack_rtt"], 50)), fmt(pct(r["ack_rtt"], 99)),
                         fmt(pct(r["to_player"], 50)), fmt(pct(r["to_player"], 99)), str(len(r["to_spectators"])),
                         fmt(pct(r["to_spectators"], 50)), fmt(pct(r["to_spectators"], 99))])
        print(table(["run", "spect", "word n", "word p50", "p95", "p99", "max", "buzz ack p50", "p99",
                     "->player p50", "p99", "->spect n", "->spect p50", "p99"], rows))

        print("\nWord lag by audience and by position, ms (p50 / p99 / max)")
        rows = []
        for r in done:
            row = [r["label"], str(r["spectators"])]
            for v in (*(r["lags"][a] for a in ("moderator", "player", "spectator")), r["lag_first"], r["lag_later"]):
                row.append(f"{fmt(pct(v, 50))} / {fmt(pct(v, 99))} / {fmt(max(v) if v else None)}")
            rows.append(row)
        print(table(["run", "spect", "moderator", "players", "spectators", "first word of a question",
                     "later words"], rows))

        print("\nDelivery (every socket's seqs against the stored event log)")
        rows = []
        for r in done:
            d = r["delivery"]
            rows.append([r["label"], str(r["spectators"]), str(r["sockets"]), str(r["events"]),
                         f"{d['frames_got']}/{d['frames_expected']}", f"{d['words_got']}/{d['words_expected']}",
                         str(d["lost"]), str(d["dup"]), str(d["out_of_order"]), str(d["unexpected"])])
        print(table(["run", "spect", "sockets", "events", "frames got/expected", "words got/expected", "lost", "dup",
                     "out of order", "unexpected"], rows))

        print("\nResources and time (RSS at the end with all sockets open; CPU seconds during play)")
        rows = []
        for r in done:
            daphne, conductor = r["usage"].get("daphne"), r["usage"].get("conductor")
            rows.append([r["label"], str(r["spectators"]),
                         fmt(daphne["rss"] / MIB if daphne else None),
                         fmt(conductor["rss"] / MIB if conductor else None) if r["layer"] == "redis" else "(in daphne)",
                         fmt(daphne["cpu"] if daphne else None, 2),
                         fmt(conductor["cpu"] if conductor else None, 2) if r["layer"] == "redis" else "-",
                         fmt(r["client_cpu"], 2),
                         f"{fmt(pct(r['loop_lag'], 99))} / {fmt(max(r['loop_lag']) if r['loop_lag'] else None)}",
                         f"{fmt(pct(r['join_ms'], 50))} / {fmt(pct(r['join_ms'], 99))}",
                         fmt(r["connect_s"]), fmt(r["play_s"]), fmt(r["wall_s"])])
        print(table(["run", "spect", "daphne MiB", "conductor MiB", "daphne cpu s", "conductor cpu s", "client cpu s",
                     "client loop lag p99/max ms", "join p50/p99 ms", "connect s", "play s", "wall s"], rows))

        print("\nNotes")
        for r in done:
            notes = r["delivery"]["notes"]
            head = f"  {r['label']}, {r['spectators']} spectators:"
            if not notes:
                print(f"{head} no lost, duplicated or out-of-order seq on any of {r['sockets']} sockets; "
                      f"{r['words_per_question']:.1f} words revealed per question.")
            else:
                print(f"{head} {len(notes)} findings")
                for note in notes[:12]:
                    print(f"    {note}")
                if len(notes) > 12:
                    print(f"    ... and {len(notes) - 12} more")
    for r in results:
        if "failed" in r:
            print(f"\n{r['label']}, {r['spectators']} spectators: the run could not be measured:\n{r['failed']}")
    print(f"\nTotal wall time {total_s:.1f}s")


# -- main -----------------------------------------------------------------------------------------

def counts(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("a count or a comma-separated list of counts, like 10,50,200") from None
    if not values or any(not 0 <= v <= MAX_SPECTATORS for v in values):
        raise argparse.ArgumentTypeError(f"each count must be 0 to {MAX_SPECTATORS}")
    return values


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--layer", choices=("memory", "redis", "both"), default="both")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite",
                        help="database of the redis runs (the memory runs always use a temp SQLite file)")
    parser.add_argument("--spectators", type=counts, default=[50], help="N or a sweep such as 10,50,200")
    parser.add_argument("--questions", type=int, default=5, choices=range(1, MAX_QUESTIONS + 1), metavar="1-20")
    args = parser.parse_args(argv)
    layers = ["memory", "redis"] if args.layer == "both" else [args.layer]
    runs = [(layer, n) for layer in layers for n in args.spectators]
    if len(runs) > MAX_RUNS:
        parser.error(f"{len(runs)} runs asked for; at most {MAX_RUNS} (layers x spectator counts)")

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * max(args.spectators) + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))

    results, interrupted, started = [], False, time.monotonic()
    try:
        for number, (layer, spectators) in enumerate(runs, 1):
            label = run_label(layer, args.db)
            print(f"[{number}/{len(runs)}] {label}, {spectators} spectators ...", file=sys.stderr, flush=True)
            try:
                result = run_one(layer, args.db, spectators, args.questions, number)
            except (Exception, asyncio.CancelledError) as problem:
                results.append({"label": label, "spectators": spectators, "failed": str(problem)})
                print(f"    could not be measured: {str(problem).splitlines()[0]}", file=sys.stderr, flush=True)
                continue
            results.append(result)
            print(f"    done in {result['wall_s']:.1f}s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\nInterrupted: the servers are stopped and the temp files removed; partial results follow.",
              file=sys.stderr)
    report(results, args, time.monotonic() - started)
    if interrupted:
        return 130
    return 1 if any("failed" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
