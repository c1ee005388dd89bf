"""What a live room feels: word, buzz and fan-out latency over real websockets, beside the floor; prints numbers, never pass/fail.

Each run starts its own servers on 127.0.0.1 and removes them again (bench/_servers.py):
  memory  the embedded default: one Daphne process, the conductor inside it (its own thread), the
          in-process channel layer and a temp SQLite file;
  redis   Daphne (--web N processes) plus `manage.py conduct` (--conductors N), the Redis channel
          layer on a redis-server of the run's own (its own port: nothing else's conductors can
          answer its commands, and a fault run may kill it), and a temp SQLite file or, with
          --db postgres, a throwaway PostgreSQL database that is created and dropped again.
The database is migrated and set up by a short Django child process: a packet of short tossups (23
words), a staff user with a session, and --matches quizbowl matches at 300 words per minute with no
lead-in (with --lead-in S, S seconds between a question's start and its first word, as the presets'
2) and two teams of --players/2 human seats each.

Then, per match, one moderator (session cookie), the players (seat tokens, in the X-Seat-Token header) and the spectators
connect (spread over the web processes in turn) and send hello. Each moderator starts, at a random
moment within 200 ms as the floor server's rooms do, so that matches run out of step; on every
question the first player of one team (alternating) buzzes once it has shown BUZZ_AFTER words (or,
with --buzz-words FIRST-LAST, a number of words drawn per match and question, so that matches fall out of step),
answers, the moderator accepts, and once every socket of the match has the question's last event
the moderator sends next. Measured:
  word lag       client receive time - the frame's `t` for every word_revealed frame on every socket
                 (`t` is when the engine scheduled the word; one machine, one clock);
  word jitter    per socket, how much the gap between two words' arrivals differs from the gap
                 between their scheduled times (what a steady reader would notice); also split into
                 the pair of a question's first two words (with no lead-in the first word is due
                 as soon as the moderator's next is stored, so it carries that command's delay) and
                 the later pairs (the clock alone);
  buzz ack       buzz sent -> its ack at the buzzing player; a refused buzz is counted with its code;
  buzz fan-out   buzz sent -> the buzz event frame at the other players / at each spectator;
  delivery       every seq each socket received, against the match's event log read from the
                 database afterwards: lost, duplicated and out-of-order seqs (a seq a snapshot
                 covered after a reconnect is not lost);
  resources      RSS and CPU time of each server process, CPU per match, the client's own loop lag
                 (its share of every number) and the machine's load average.

--floor runs, in the same run and after each Exhibition measurement, a minimal plain-`websockets`
broadcast server (bench/_floor.py) with the same number of server processes, rooms and clients,
sending the same number of word frames of the same size at the same rate; its figures are printed
beside Exhibition's, with the ratio of the word lag p99s.

--fault redis|conductor (Redis layer) restarts the run's own Redis, or kills the conductor that
holds the match and starts another, in the middle of question 2; clients reconnect as browsers do,
the moderator resumes the paused match, and the run checks that every socket converged on the last
seq with nothing lost.

--profile DIR records every server process with py-spy during play and prints where its time went.

--repeat N runs everything N times (one round of every run, then the next) and ends with each
figure's lowest, highest and median across the repeats: on a shared machine one run says little.

--storm N cuts N watchers of one live match off at once mid-question and lets them reconnect at once
(bench/_storm.py): errors, time until each is back and resynced, the moderator's ack meanwhile,
beside the same storm on a match nobody plays and on the plain-websockets floor server.

Run: .venv/bin/python bench/latency.py [--layer memory|redis|both] [--db sqlite|postgres]
        [--spectators 10,50,200] [--players 2] [--matches 1] [--web 1] [--conductors 1]
        [--questions 5] [--floor] [--repeat N] [--fault redis|conductor] [--profile DIR] [--storm N]
        [--buzz-words N|FIRST-LAST] [--lead-in SECONDS]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

from _client import FAULT_TIMEOUT, STEP_TIMEOUT, LoopLag, Sock, connect, now_ms, open_all, reach_all  # noqa: E402
from _profile import Profiler, summary  # noqa: E402
from _servers import PYTHON, ServerError, Stack, free_port  # noqa: E402
from _storm import floor_storm, live_storm  # noqa: E402
from _matches_setup import MATCHES_SETUP, human, team  # noqa: E402

WORDS_PER_MINUTE = 300
BUZZ_AFTER = 8  # words shown on the buzzing player's screen before it buzzes
BUZZ_WORDS = (BUZZ_AFTER, BUZZ_AFTER)  # --buzz-words: the first and last word a buzz may come after (one, by default)
FAULT_AT_WORD = 3  # the fault comes once this many words of question 2 are out
START_SPREAD_S = 0.2  # each match starts this much later at most (bench/_floor.py starts its rooms alike)
MAX_SOCKETS = 3500
MAX_QUESTIONS = 20
MAX_RUNS = 8
MAX_REPEATS = 8
MIB = 1024 * 1024



def two_sides(matches: int, per_team: int) -> list:
    """The teams of each match: Left and Right, each of per_team human seats, the first its captain."""
    return [[team(side, *(human(f"{side} {n}", n == 0) for n in range(per_team))) for side in ("Left", "Right")]
            for _ in range(matches)]

DUMP = r"""
import json, sys
import django
django.setup()
from game.models import MatchEvent
arg = json.loads(sys.argv[1])
out = {}
for match in arg["matches"]:
    rows = MatchEvent.objects.filter(match_id=match).order_by("seq").values_list("seq", "type", "t_ms")
    out[match] = [list(r) for r in rows]
print(json.dumps(out))
"""

HOLDER = r"""
import json, sys
import django
django.setup()
from game.models import MatchLease
arg = json.loads(sys.argv[1])
print(json.dumps({"owner": MatchLease.objects.filter(match_id=arg["match"]).values_list("owner", flat=True).first()}))
"""

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
            "eighteenth", "nineteenth", "twentieth"]


def question_text(i: int) -> str:
    """23 words, one clause pause, the power mark after word 14; the buzz comes after word 8."""
    return (f"In this {ORDINALS[i]} benchmark tossup a slow river flows north through a wide desert (*) "
            "past old temples toward the sea; name this river?")


def pct(values, p: float):
    """Nearest-rank percentile (p99 of fewer than 100 values is the maximum)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- the client side ------------------------------------------------------------------------------

def seqs_of(reply: dict) -> list[int]:
    return list((reply.get("data") or {}).get("seqs") or [])


def expect_ack(what: str, reply: dict) -> list[int]:
    if reply.get("type") != "ack":
        raise RuntimeError(f"{what} was refused: {reply.get('data')}")
    return seqs_of(reply)


class Watchers:
    """The spectators, in processes of their own (bench/_watchers.py), as the driver sees them."""

    def __init__(self, directory: Path, name: str, sockets: list[list], processes: int, reconnect: bool):
        self.directory, self.name = Path(directory), name
        self.groups = [sockets[i::processes] for i in range(processes)] if sockets else []
        self.reconnect = reconnect
        self.procs: list[asyncio.subprocess.Process] = []
        self.at: list[dict] = [{} for _ in self.groups]
        self.matches = [{s[3] for s in group} for group in self.groups]
        self.changed = asyncio.Event()
        self.failed: str | None = None
        self._joined: list[asyncio.Event] = []
        self._readers: list[asyncio.Task] = []

    async def start(self, timeout: float) -> None:
        for i, group in enumerate(self.groups):
            spec = self.directory / f"{self.name}-{i}.spec.json"
            spec.write_text(json.dumps({"sockets": group, "reconnect": self.reconnect,
                                        "out": str(self.directory / f"{self.name}-{i}.out.json")}))
            proc = await asyncio.create_subprocess_exec(PYTHON, str(Path(__file__).with_name("_watchers.py")), str(spec),
                                                        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                        limit=1 << 24)
            self.procs.append(proc)
            self._joined.append(asyncio.Event())
            self._readers.append(asyncio.get_running_loop().create_task(self._read(i, proc)))
        await asyncio.wait_for(asyncio.gather(*(j.wait() for j in self._joined)), timeout)
        if self.failed:
            raise RuntimeError(self.failed)

    async def _read(self, i: int, proc) -> None:
        while True:
            line = await proc.stdout.readline()
            if not line:
                break
            text = line.decode().strip()
            if text == "joined":
                self._joined[i].set()
            elif text.startswith("{"):
                data = json.loads(text)
                if "failed" in data:
                    self.failed = data["failed"]
                    self._joined[i].set()
                else:
                    self.at[i] = {int(k): v for k, v in data["at"].items()}
                    self.changed.set()
        self._joined[i].set()
        self.changed.set()

    def lowest(self, match: int) -> int | None:
        seen = [at.get(match, 0) for at, matches in zip(self.at, self.matches) if match in matches]
        return min(seen) if seen else None

    async def reached(self, match: int, seq: int, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while True:
            lowest = self.lowest(match)
            if lowest is None or lowest >= seq:
                return True
            if time.monotonic() > end or any(r.done() for r in self._readers):
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 0.5)
            except TimeoutError:
                pass

    def pids(self) -> dict[str, int]:
        return {f"{self.name}-{i}": p.pid for i, p in enumerate(self.procs)}

    async def stop(self) -> dict:
        """Every watcher's frames, the watcher processes' loop lag samples and their CPU seconds."""
        out = {"socks": [], "loop_lag": [], "cpu": 0.0}
        for proc in self.procs:
            if proc.returncode is None:
                proc.stdin.write(b"stop\n")
                await proc.stdin.drain()
        for i, proc in enumerate(self.procs):
            try:
                await asyncio.wait_for(proc.wait(), 120)
            except TimeoutError:
                proc.kill()
                await proc.wait()
            path = self.directory / f"{self.name}-{i}.out.json"
            if path.exists():
                data = json.loads(path.read_text())
                out["socks"] += data["socks"]
                out["loop_lag"] += data["loop_lag"]
                out["cpu"] += data["cpu"]
        await asyncio.gather(*self._readers, return_exceptions=True)
        return out

    async def kill(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


class Room:
    """One match's moderator and players (in this process); its spectators are in the watchers."""

    def __init__(self, number: int, mod: Sock, teams: list[list[Sock]], watchers: Watchers):
        self.number, self.mod, self.teams, self.watchers = number, mod, teams, watchers
        self.step = "opening"  # what play_room is waiting for, named when a step fails

    @property
    def socks(self) -> list[Sock]:
        return [self.mod, *(p for team in self.teams for p in team)]

    async def reach(self, seq: int, timeout: float) -> list[str]:
        """Wait until every socket of the match has seq; the names of those that did not."""
        missing = await reach_all(self.socks, seq, timeout)
        if not await self.watchers.reached(self.number, seq, timeout):
            missing.append(f"watchers of match {self.number} (lowest at {self.watchers.lowest(self.number)})")
        return missing


def spread(ports: list[int]):
    turn = iter(range(10 ** 9))
    return lambda: ports[next(turn) % len(ports)]


async def open_rooms(ports: list[int], info: dict, spectators: int, reconnect: bool, watchers_dir: Path,
                     processes: int) -> list[Room]:
    """Every match's moderator, players and spectators, spread over the web processes in turn."""
    port = spread(ports)
    rooms = []
    cookie = f"sessionid={info['session']}"
    players = []
    for m, match in enumerate(info["matches"]):
        code = match["code"]
        mod = await connect(port(), f"/ws/m/{code}/moderate", f"m{m}-moderator", "moderator", cookie, reconnect, m)
        teams = []
        for t, tokens in enumerate(match["tokens"]):
            teams.append([await connect(port(), f"/ws/m/{code}/play", f"m{m}-player{t}.{n}", "player",
                                        None, reconnect, m, token) for n, token in enumerate(tokens)])
        players.append((m, mod, teams))
    sockets = [[port(), f"/ws/m/{info['matches'][i % len(players)]['code']}/watch", f"m{i % len(players)}-spectator{i}",
                i % len(players)] for i in range(spectators)]
    watchers = Watchers(watchers_dir, "watchers", sockets, processes, reconnect)
    try:
        await watchers.start(STEP_TIMEOUT + spectators * 0.2)
    except BaseException:
        await watchers.kill()
        raise
    for m, mod, teams in players:
        rooms.append(Room(m, mod, teams, watchers))
    return rooms


async def play_room(room: Room, questions: int, buzzes: list, late: dict, fault=None, patient: bool = False) -> None:
    """One match from start to end; `fault` (an async callable) is run in question 2. `patient`: every
    command is retried and every wait is a fault's, as when a fault may strike from outside (bench/soak.py).
    A step that fails says which it was and where the match stood."""
    try:
        await _play_room(room, questions, buzzes, late, fault, patient)
    except Exception as problem:
        tail = [(e[0], e[1]) for e in room.mod.events[-4:]]
        raise RuntimeError(f"match {room.number}: {type(problem).__name__} {problem} at {room.step}; the moderator has seq "
                           f"{room.mod.last_seq} (last events {tail}), socket {room.mod.closed_by or 'open'}, "
                           f"closes {room.mod.closes}, last commands {list(room.mod.answers)}") from problem


async def _play_room(room: Room, questions: int, buzzes: list, late: dict, fault=None, patient: bool = False) -> None:
    mod = room.mod
    retry = patient or fault is not None
    await asyncio.sleep(random.random() * START_SPREAD_S)  # matches start out of step, as the floor's rooms do
    room.step = "start"
    reply, _, _ = await mod.command("start", retry=retry)
    seqs = expect_ack("start", reply)
    wait_s = FAULT_TIMEOUT if retry else STEP_TIMEOUT
    for k in range(questions):
        since = min(seqs) - 1 if seqs else 0
        buzzer = room.teams[k % 2][0]
        others = [p for team in room.teams for p in team if p is not buzzer]
        room.step = f"question {k + 1}: its start after seq {since}"
        index = (await buzzer.wait_for(lambda e: e[1] == "question_started", since, wait_s))[4]
        resumed = None
        if fault is not None and k == min(1, questions - 1):
            await buzzer.wait_for(lambda e: e[1] == "word_revealed" and (e[4] or 0) >= FAULT_AT_WORD - 1, since)
            resumed = await fault(room)
        # After a fault the words read while frames were lost reach the player in a snapshot, not one
        # by one: any word after the resume will do.
        after = random.Random(room.number * MAX_QUESTIONS + k).randint(*BUZZ_WORDS)  # the same in every run
        room.step = f"question {k + 1}: a word to buzz on"
        word = await buzzer.wait_for(lambda e: e[1] == "word_revealed" and ((e[4] or 0) >= after - 1 or
                                                                            (resumed and e[0] > resumed)), since, wait_s)
        room.step = f"question {k + 1}: the buzz"
        reply, sent, acked = await buzzer.command("buzz", {"seen": word[4] + 1, "question": index}, retry=retry)
        buzz = {"match": room.number, "question": k + 1, "buzzer": buzzer.name, "sent": sent, "ack": acked,
                "reply": reply.get("type"), "seq": None, "others": [o.name for o in others]}
        last = None
        if reply.get("type") == "ack" and seqs_of(reply):
            buzz["seq"] = max(seqs_of(reply))  # the buzz is the last event its command causes
            room.step = f"question {k + 1}: the answer and its ruling"
            answered = (await buzzer.command("answer", {"text": f"Answer {index}", "question": index}, retry=retry))[0]
            pressed_for = {"verdict": "accept", "answer": max(seqs_of(answered), default=0)}  # the answer is its command's last event
            ruled = (await mod.command("rule", pressed_for, retry=retry))[0] if answered.get("type") == "ack" else None
            if ruled and ruled.get("type") == "ack":
                last = max(seqs_of(ruled))
            else:  # under overload the answer can come after the answer time ran out
                buzz["late_answer"] = ((ruled or answered).get("data") or {}).get("code")
        else:  # refused (e.g. read to the end under load)
            buzz["error"] = (reply.get("data") or {}).get("code")
        if last is None:  # let the question go dead by itself
            room.step = f"question {k + 1}: its close"
            last = (await mod.wait_for(lambda e: e[1] == "question_closed", since, max(60.0, wait_s)))[0]
        buzzes.append(buzz)
        room.step = f"question {k + 1}: every socket at seq {last}"
        missing = await room.reach(last, wait_s)
        if missing:
            late[f"match {room.number} question {k + 1}"] = missing
        room.step = f"question {k + 1}: next"
        reply, _, _ = await mod.command("next", retry=retry)
        seqs = expect_ack("next", reply)
    final = max(seqs)  # match_ended
    missing = await room.reach(final, wait_s)
    if missing:
        late[f"match {room.number} match_ended"] = missing


def make_fault(kind: str, stack: Stack, info: dict, marks: dict):
    """The fault of a fault run, and the moderator's resume once the match paused for it."""

    async def fault(room: Room):
        marks["at"] = now_ms()
        if kind == "redis":
            stack.kill("redis")
            await asyncio.sleep(1.5)
            stack.start_redis()
        else:
            owner = (await asyncio.to_thread(stack.django, HOLDER, {"match": info["matches"][room.number]["id"]},
                                             "holder"))["owner"]
            holder = next(n for n in stack.procs if n.startswith("conductor") and owner and owner in stack.log_tail(n, 400))
            stack.kill(holder)
            stack.start_conductor(f"conductor-after-{holder}")
            marks["killed"] = holder
        end = time.monotonic() + FAULT_TIMEOUT
        while True:  # the match pauses once the conductor notices; resume is refused until then
            reply = (await room.mod.command("resume", retry=True))[0]
            if reply.get("type") == "ack":
                break
            if time.monotonic() > end:
                raise RuntimeError(f"the match never paused for the fault, or resume was refused: {reply.get('data')}")
            await asyncio.sleep(1)
        marks["resumed"] = now_ms() - marks["at"]
        # The moderator learns of the pause from its frame, or, when that frame was lost with Redis,
        # from the snapshot it resynced to.
        seen = [e[3] for e in room.mod.events if e[1] == "paused" and e[3] >= marks["at"]]
        seen += [t for t in room.mod.paused_snapshots if t >= marks["at"]]
        marks["paused"] = min(seen) - marks["at"] if seen else None
        return max(reply["data"]["seqs"])

    return fault


def sock_record(s: Sock) -> dict:
    return {"name": s.name, "audience": s.audience, "match": s.match, "snapshots": s.snapshots,
            "events": s.events, "join_ms": s.join_ms, "closes": list(s.closes), "last_seq": s.last_seq,
            "closed_by": s.closed_by if s.reader.done() else None, "frame_bytes": s.frame_bytes}


async def play(stack: Stack, ports: list[int], info: dict, spectators: int, questions: int,
               fault: str | None, profiler: Profiler | None, processes: int) -> dict:
    rooms: list[Room] = []
    probe = LoopLag()
    try:
        t_connect = time.monotonic()
        rooms = await open_rooms(ports, info, spectators, fault is not None, stack.dir, processes)
        connect_s = time.monotonic() - t_connect
        if profiler is not None:
            profiler.start({name: proc.pid for name, proc in stack.procs.items() if name != "redis"})
        stack.extra = rooms[0].watchers.pids()
        usage_start = stack.usage()
        load_start = load_average()
        cpu_start = resource.getrusage(resource.RUSAGE_SELF)
        probe.start()
        t_play, play_from_ms = time.monotonic(), now_ms()
        buzzes, late, marks = [], {}, {}
        injected = make_fault(fault, stack, info, marks) if fault else None
        await asyncio.gather(*(play_room(room, questions, buzzes, late, injected if room.number == 0 else None)
                               for room in rooms))
        play_s = time.monotonic() - t_play
        cpu_end = resource.getrusage(resource.RUSAGE_SELF)
        usage_end = stack.usage()  # with every socket still open
        load_end = load_average()
        await probe.stop()
        watched = await rooms[0].watchers.stop()
        stack.extra = {}
        socks = [sock_record(s) for room in rooms for s in room.socks] + watched["socks"]
        return {
            "socks": socks,
            "buzzes": buzzes, "late": late, "connect_s": connect_s, "play_s": play_s, "fault": marks,
            "usage_start": usage_start, "usage_end": usage_end, "loop_lag": probe.samples, "play_from_ms": play_from_ms,
            "watcher_loop_lag": watched["loop_lag"], "load": f"{load_start} -> {load_end}",
            "client_cpu": (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime),
            "watcher_cpu": watched["cpu"],
        }
    finally:
        await probe.stop()
        if profiler is not None:
            profiler.stop()
        if rooms:
            await rooms[0].watchers.kill()
        await asyncio.gather(*(s.close() for room in rooms for s in room.socks), return_exceptions=True)


# -- the floor ------------------------------------------------------------------------------------

async def play_floor(ports: list[int], rooms: int, per_room: int, schedule: list, directory: Path,
                     processes: int) -> dict:
    """The same room(s) on the plain-websockets floor server: the same clients, and the same frames
    (type, size, moment) as the match's, read by watcher processes as the spectators were."""
    from websockets.asyncio.client import connect as ws_connect

    port = spread(ports)
    sockets = [[port(), f"/room/{r}", f"floor{r}.{c}", r] for r in range(rooms) for c in range(per_room)]
    watchers = Watchers(directory, "floor", sockets, processes, False)
    last = schedule[-1][0]
    try:
        await watchers.start(STEP_TIMEOUT + len(sockets) * 0.2)
        started = time.monotonic()
        controls = [await ws_connect(f"ws://127.0.0.1:{p}/control", ping_interval=None) for p in ports]
        order = json.dumps({"schedule": schedule})
        for control in controls:
            await control.send(order)
        for control in controls:
            await asyncio.wait_for(control.recv(), STEP_TIMEOUT + schedule[-1][2] / 1000)
            await control.close()
        missing = [r for r in range(rooms) if not await watchers.reached(r, last, STEP_TIMEOUT)]
        play_s = time.monotonic() - started
        watched = await watchers.stop()
    finally:
        await watchers.kill()
    socks = watched["socks"]
    lags = [received - t for s in socks for _, kind, t, received, _ in s["events"] if kind == "word_revealed"]
    delivery = {"lost": 0, "dup": 0, "out_of_order": 0}
    expected = {seq for seq, *_ in schedule}
    for s in socks:
        got = [e[0] for e in s["events"]]
        delivery["lost"] += len(expected - set(got))
        delivery["dup"] += len(got) - len(set(got))
        delivery["out_of_order"] += sum(1 for a, b in zip(got, got[1:]) if b < a)
    return {"lag": lags, "jitter": [j for s in socks for j in jitters(s["events"])],
            "jitter_later": [j for s in socks for j in jitters(s["events"], "later")], "delivery": delivery,
            "missing": len(missing), "loop_lag": watched["loop_lag"], "play_s": play_s, "clients": len(socks)}


def jitters(events, part: str = "all") -> list[float]:
    """|arrival gap - scheduled gap| between consecutive words of one question on one socket; part
    "first": only between a question's first and second words, "later": only the pairs after."""
    words = sorted((e for e in events if e[1] == "word_revealed" and e[2] is not None), key=lambda e: e[0])
    out = []
    for a, b in zip(words, words[1:]):
        if b[0] == a[0] + 1 and (b[4] or 0) == (a[4] or 0) + 1:
            if part == "all" or (part == "first") == ((a[4] or 0) == 0):
                out.append(abs((b[3] - a[3]) - (b[2] - a[2])))
    return out


# -- one run --------------------------------------------------------------------------------------

def run_label(layer: str, db: str, web: int, conductors: int) -> str:
    base = "memory+sqlite" if layer == "memory" else f"redis+{db}"
    if layer == "redis" and (web > 1 or conductors > 1):
        base += f" {web}w/{conductors}c"
    elif web > 1:
        base += f" {web}w"
    return base


def waiting_in_redis(stack: Stack) -> str:
    """What was left waiting in the run's Redis when a run failed: each channel's queued messages."""
    if not stack.redis_port or "redis" not in stack.procs:
        return ""
    import redis

    try:
        client = redis.Redis(port=stack.redis_port, socket_timeout=5)
        found = {key.decode(): client.zcard(key) for key in client.keys("asgi:*") if client.type(key) == b"zset"}
        return f"--- messages waiting in Redis: {found}\n"
    except Exception as problem:
        return f"--- Redis could not be read: {problem}\n"


def run_one(layer: str, args, spectators: int, number: int) -> dict:
    started = time.monotonic()
    questions, matches = args.questions, args.matches
    conductors = args.conductors if layer == "redis" else 1
    label = run_label(layer, args.db, args.web, conductors) + (f" fault:{args.fault}" if args.fault else "")
    with Stack(layer, args.db, tag=f"{layer}-{spectators}-{number}", web=args.web, conductors=conductors,
               own_redis=layer == "redis") as stack:
        stack.prepare()
        rules = {"reveal": "clock", "words_per_minute": WORDS_PER_MINUTE, "lead_in_seconds": args.lead_in,
                 "questions": questions, "tiebreakers": 0}
        info = stack.django(MATCHES_SETUP, {"slug": "bench-latency", "rules": rules,
                                            "texts": [question_text(i) for i in range(questions)],
                                            "matches": two_sides(matches, max(1, args.players // 2))}, "setup")
        ports = [free_port() for _ in range(args.web)]
        stack.start_servers(ports)
        budget = 60 + questions * 20 + (spectators + matches * 10) * 0.5 + (2 * FAULT_TIMEOUT if args.fault else 0)
        profiler = Profiler(args.profile, f"{number}-{layer}-{spectators}") if args.profile else None

        async def go():
            await stack.wait_ready(ports)
            return await asyncio.wait_for(play(stack, ports, info, spectators, questions, args.fault, profiler,
                                               args.clients), budget)

        try:
            result = asyncio.run(go())
        except (Exception, asyncio.CancelledError) as problem:
            tails = "\n".join(stack.log_tail(name, 60 if name.startswith("conductor") else 25) for name in stack.procs)
            raise ServerError(f"{type(problem).__name__}: {problem}\n{waiting_in_redis(stack)}{tails}") from problem
        stack.stop_servers()
        logs = stack.django(DUMP, {"matches": [m["id"] for m in info["matches"]]}, "dump")
        result["logs"] = [logs[str(m["id"])] for m in info["matches"]]
        result["engine"] = json.loads(stack.run([PYTHON, "bench/_engine_floor.py",
                                                 json.dumps({"matches": [m["id"] for m in info["matches"]]})],
                                                "engine").strip().splitlines()[-1])
        if args.floor:
            sizes = next(s["frame_bytes"] for s in result["socks"] if s["audience"] == "spectator" and s["frame_bytes"])
            first = result["logs"][0][0][2]
            schedule = [[seq, kind, t - first, sizes.get(str(seq), sizes.get(seq, 200))]
                        for seq, kind, t in result["logs"][0]]
            floor_ports = [free_port() for _ in range(args.web)]
            stack.start_floor(floor_ports)

            async def floor():
                await stack.wait_ready(floor_ports)
                return await play_floor(floor_ports, matches, max(1, spectators // matches), schedule, stack.dir,
                                        args.clients)

            usage = stack.usage()
            result["floor"] = asyncio.run(floor())
            after = stack.usage()
            result["floor"]["cpu"] = sum(after[n]["cpu"] - usage[n]["cpu"] for n in after if n.startswith("floor")
                                         and after[n] and usage.get(n))
        stack.stop_servers(keep=())
        result["profiles"] = [summary(path) for path in sorted(Path(args.profile).glob(f"{number}-{layer}-*.txt"))] \
            if args.profile else []
    result.update(layer=layer, db=args.db, label=label, spectators=spectators, questions=questions, matches=matches,
                  players=args.players, web=args.web, conductors=conductors, wall_s=time.monotonic() - started)
    return summarize(result)


STORM_WPM = 120  # slow enough that the question is still being read when the storm has passed


def run_storm(layer: str, args, number: int) -> dict:
    started = time.monotonic()
    conductors = args.conductors if layer == "redis" else 1
    label = run_label(layer, args.db, args.web, conductors)
    with Stack(layer, args.db, tag=f"storm-{layer}-{number}", web=args.web, conductors=conductors,
               own_redis=layer == "redis") as stack:
        stack.prepare()
        rules = {"reveal": "clock", "words_per_minute": STORM_WPM, "lead_in_seconds": 0, "questions": 2,
                 "tiebreakers": 0}
        info = stack.django(MATCHES_SETUP, {"slug": "bench-latency", "rules": rules, "matches": two_sides(2, 1),
                                            "texts": [question_text(i) for i in range(2)]}, "setup")
        ports = [free_port() for _ in range(args.web)]
        stack.start_servers(ports)

        async def go(ports, storm):
            await stack.wait_ready(ports)
            return await asyncio.wait_for(storm(spread(ports)), 4 * FAULT_TIMEOUT + args.storm * 0.5)

        try:
            result = asyncio.run(go(ports, lambda port: live_storm(port, info, args.storm)))
            stack.stop_servers()
            floor_ports = [free_port() for _ in range(args.web)]
            stack.start_floor(floor_ports)
            result["floor"] = asyncio.run(go(floor_ports, lambda port: floor_storm(port, args.storm)))
        except (Exception, asyncio.CancelledError) as problem:
            tails = "\n".join(stack.log_tail(name, 40) for name in stack.procs)
            raise ServerError(f"{type(problem).__name__}: {problem}\n{tails}") from problem
        stack.stop_servers(keep=())
    result.update(label=label, wall_s=time.monotonic() - started)
    return result


def report_storm(results: list[dict], args) -> None:
    print(f"\nReconnect storm: {args.storm} watchers of one live match (quizbowl at {STORM_WPM} wpm) cut off at once "
          "mid-question, each reopened at once with hello and its last seq; the moderator sends pause meanwhile. "
          "ms from the cut, nearest-rank percentiles; client and servers on this machine "
          f"({os.cpu_count()} CPUs).")
    rows = []
    for r in results:
        if "failed" in r:
            continue
        for name, part in (("live match", r), ("floor: idle match, same servers", r["idle"]),
                           ("floor: plain websockets", r["floor"])):
            ack = part.get("ack")
            rows.append([r["label"], name, str(part["sockets"]), str(part["with_errors"]),
                         f"{fmt(pct(part['back'], 50))} / {fmt(pct(part['back'], 99))} / "
                         f"{fmt(max(part['back'], default=None))}",
                         f"{fmt(pct(part['resynced'], 50))} / {fmt(pct(part['resynced'], 99))} / "
                         f"{fmt(max(part['resynced'], default=None))}",
                         f"{fmt(ack['ms'], 0)} ({ack['reply']})" if ack else "-",
                         fmt(pct(part["loop_lag"], 99))])
    print(table(["run", "storm on", "sockets", "with errors", "back p50 / p99 / max", "resynced p50 / p99 / max",
                 "moderator ack", "client loop lag p99"], rows))
    for r in results:
        if "failed" in r:
            print(f"\n{r['label']}: the storm could not be measured:\n{r['failed']}")
            continue
        errors = r["errors"] + r["idle"]["errors"] + r["floor"]["errors"]
        print(f"\n{r['label']}: storm at word {r['at_word']}; errors: {errors[:10] or 'none'}; sockets behind the "
              f"match after the resume: {len(r['behind'])}; moderator socket closes: {r['moderator_closes'] or 'none'}; "
              f"wall {r['wall_s']:.1f}s.")


def summarize(r: dict) -> dict:
    logs = r.pop("logs")
    lags = {"moderator": [], "player": [], "spectator": []}
    first_words, later_words, jitter, jitter_first, jitter_later = [], [], [], [], []
    delivery = {"frames_got": 0, "frames_expected": 0, "words_got": 0, "words_expected": 0,
                "lost": 0, "dup": 0, "out_of_order": 0, "unexpected": 0, "notes": [], "converged": True}
    finals = set()
    for s in r["socks"]:
        log = logs[s["match"]]
        log_seqs = [seq for seq, _, _ in log]
        word_seqs = {seq for seq, kind, _ in log if kind == "word_revealed"}
        events = s["events"]
        for seq, kind, t, received, index in events:
            if kind == "word_revealed" and t is not None:
                lags[s["audience"]].append(received - t)
                (first_words if index == 0 else later_words).append(received - t)
        jitter += jitters(events)
        jitter_first += jitters(events, "first")
        jitter_later += jitters(events, "later")
        first = s["snapshots"][0] if s["snapshots"] else 0
        covered = max(s["snapshots"], default=0)  # a later snapshot brought the socket up to this seq
        expected = {seq for seq in log_seqs if seq > first}
        got = [e[0] for e in events]
        got_set = set(got)
        lost = sorted(x for x in expected - got_set if x > covered)
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
        end = max(got_set | {s["last_seq"]})
        finals.add((s["match"], end == log_seqs[-1]))
        if end != log_seqs[-1]:
            delivery["converged"] = False
        if lost or dup or disorder or unexpected:
            delivery["notes"].append(f"{s['name']}: lost seqs {lost[:10]}{'...' if len(lost) > 10 else ''}, "
                                     f"{dup} duplicated, {disorder} out of order, unexpected {unexpected[:10]}")
        if s["closed_by"]:
            delivery["notes"].append(f"{s['name']}: socket {s['closed_by']} before the end")
    reconnects = sum(len(s["closes"]) for s in r["socks"] if not s["closed_by"])
    ack_rtt, to_player, to_spectators, refused = [], [], [], []
    by_name = {s["name"]: s for s in r["socks"]}
    for b in r["buzzes"]:
        ack_rtt.append(b["ack"] - b["sent"])
        if b.get("late_answer"):
            delivery["notes"].append(f"match {b['match']} question {b['question']}: the answer after the buzz was "
                                     f"refused ({b['late_answer']}): it came after the answer time")
        if b["seq"] is None:
            refused.append(b.get("error"))
            delivery["notes"].append(f"match {b['match']} question {b['question']}: buzz refused ({b.get('error')})")
            continue
        for s in r["socks"]:
            if s["match"] != b["match"] or s["name"] == b["buzzer"]:
                continue
            arrival = next((e[3] for e in s["events"] if e[0] == b["seq"]), None)
            if arrival is None:
                continue
            if s["name"] in b["others"]:
                to_player.append(arrival - b["sent"])
            elif s["audience"] == "spectator":
                to_spectators.append(arrival - b["sent"])
    del by_name
    for where, names in r["late"].items():
        delivery["notes"].append(f"{where}: {len(names)} sockets had not received it in time "
                                 f"({', '.join(names[:5])}{'...' if len(names) > 5 else ''})")
    usage = {}
    for name, end in r["usage_end"].items():
        start = r["usage_start"].get(name)
        usage[name] = None if end is None else {"rss": end["rss"], "cpu": end["cpu"] - (start or end)["cpu"],
                                                "conductor_cpu": end["conductor_cpu"] - (start or end)["conductor_cpu"]}
    server_cpu = sum(u["cpu"] for n, u in usage.items() if u and n != "redis" and not n.startswith("watchers"))
    # The conductor's CPU: its own processes (Redis layer), or its named threads inside the web process.
    conductor_cpu = sum(u["cpu"] if n.startswith("conductor") else u["conductor_cpu"]
                        for n, u in usage.items() if u and n != "redis" and not n.startswith("watchers"))
    stored_in_play = sum(1 for log in logs for _, _, t in log if t >= r["play_from_ms"])
    engine = r.get("engine") or {}
    return {
        "label": r["label"], "layer": r["layer"], "spectators": r["spectators"], "sockets": len(r["socks"]),
        "matches": r["matches"], "players": r["players"], "web": r["web"], "conductors": r["conductors"],
        "lag_all": [x for v in lags.values() for x in v], "lags": lags, "jitter": jitter,
        "lag_first": first_words, "lag_later": later_words, "jitter_first": jitter_first,
        "jitter_later": jitter_later, "refused": refused,
        "ack_rtt": ack_rtt, "to_player": to_player, "to_spectators": to_spectators,
        "delivery": delivery, "usage": usage, "loop_lag": r["loop_lag"], "client_cpu": r["client_cpu"],
        "watcher_loop_lag": r["watcher_loop_lag"], "watcher_cpu": r["watcher_cpu"],
        "server_cpu": server_cpu, "conductor_cpu": conductor_cpu, "stored_in_play": stored_in_play,
        "conductor_us": conductor_cpu / stored_in_play * 1e6 if stored_in_play else None,
        "engine_us": engine["paced_cpu"] / engine["paced_words"] * 1e6 if engine.get("paced_words") else None,
        "engine_hot_us": engine["cpu"] / engine["words"] * 1e6 if engine.get("words") else None,
        "load": r["load"], "reconnects": reconnects, "fault": r["fault"],
        "join_ms": [s["join_ms"] for s in r["socks"] if s["join_ms"] is not None], "connect_s": r["connect_s"],
        "play_s": r["play_s"], "wall_s": r["wall_s"], "events": sum(len(log) for log in logs),
        "words_per_question": sum(1 for log in logs for _, k, _ in log if k == "word_revealed")
        / max(1, r["questions"] * r["matches"]),
        "floor": r.get("floor"), "profiles": r.get("profiles", []),
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


def who(r: dict) -> str:
    return f"{r['matches']}x{r['sockets'] // r['matches']}" if r["matches"] > 1 else str(r["spectators"])


def word_range(text: str) -> tuple[int, int]:
    first, _, last = text.partition("-")
    try:
        words = (int(first), int(last or first))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or FIRST-LAST") from None
    if not 1 <= words[0] <= words[1] <= 20:  # the questions have 23 words; a buzz needs an answer time after it
        raise argparse.ArgumentTypeError("buzz words go from 1 to 20, the first not after the last")
    return words


def words_to_buzz_after(words: tuple[int, int]) -> str:
    return str(words[0]) if words[0] == words[1] else f"{words[0]}-{words[1]} (drawn per match and question)"


def report(results: list[dict], args, total_s: float) -> None:
    done = [r for r in results if "failed" not in r]
    print(f"\nExhibition live-room latency: {args.questions} questions per match, quizbowl at {WORDS_PER_MINUTE} wpm, "
          f"lead-in {args.lead_in:g} s, buzz after {words_to_buzz_after(BUZZ_WORDS)} words; per match 1 moderator + {max(2, args.players // 2 * 2)} players, "
          f"spectators spread over the matches; client and servers on this machine ({os.cpu_count()} CPUs).")
    if done:
        print("\nAgainst the floor (the spectators' word lag, ms: receive time - scheduled time, nearest-rank "
              "percentiles; the floor replays the match's frames to as many clients)")
        rows = []
        for r in done:
            lag, f = r["lags"]["spectator"] or r["lag_all"], r["floor"]
            d = r["delivery"]
            ratio = (pct(lag, 99) / pct(f["lag"], 99)) if f and f["lag"] and pct(f["lag"], 99) else None
            rows.append([r["label"], who(r), str(r["sockets"]), fmt(pct(lag, 50)), fmt(pct(lag, 99)),
                         fmt(pct(f["lag"], 50)) if f else "-", fmt(pct(f["lag"], 99)) if f else "-",
                         fmt(ratio, 2) if ratio else "-",
                         f"{d['lost']}/{d['dup']}/{d['out_of_order']}",
                         f"{f['delivery']['lost']}/{f['delivery']['dup']}/{f['delivery']['out_of_order']}" if f else "-",
                         fmt(pct(r["jitter"], 99)), fmt(pct(f["jitter"], 99)) if f else "-",
                         fmt(pct(r["ack_rtt"], 50)), fmt(pct(r["ack_rtt"], 99)), str(len(r["refused"])), r["load"]])
        print(table(["run", "spect", "sockets", "word p50", "p99", "floor p50", "floor p99", "p99/floor",
                     "lost/dup/ooo", "floor l/d/o", "jitter p99", "floor jitter p99", "buzz ack p50", "p99",
                     "refused", "load avg start -> end"], rows))

        print("\nLatency, ms (receive time on the client - server time / send time)")
        rows = []
        for r in done:
            lag = r["lag_all"]
            rows.append([r["label"], who(r), str(len(lag)), fmt(pct(lag, 50)), fmt(pct(lag, 95)),
                         fmt(pct(lag, 99)), fmt(max(lag) if lag else None),
                         fmt(pct(r["ack_rtt"], 50)), fmt(pct(r["ack_rtt"], 99)),
                         fmt(pct(r["to_player"], 50)), fmt(pct(r["to_player"], 99)), str(len(r["to_spectators"])),
                         fmt(pct(r["to_spectators"], 50)), fmt(pct(r["to_spectators"], 99))])
        print(table(["run", "spect", "word n", "word p50", "p95", "p99", "max", "buzz ack p50", "p99",
                     "->players p50", "p99", "->spect n", "->spect p50", "p99"], rows))

        print("\nWord lag by audience and by position, ms (p50 / p99 / max)")
        rows = []
        for r in done:
            row = [r["label"], who(r)]
            for v in (*(r["lags"][a] for a in ("moderator", "player", "spectator")), r["lag_first"], r["lag_later"]):
                row.append(f"{fmt(pct(v, 50))} / {fmt(pct(v, 99))} / {fmt(max(v) if v else None)}")
            floor = r["floor"]["jitter_later"] if r["floor"] else None
            row += [fmt(pct(r["jitter_first"], 99)), fmt(pct(r["jitter_later"], 99)), fmt(pct(floor, 99)) if floor else "-"]
            rows.append(row)
        print(table(["run", "spect", "moderator", "players", "spectators", "first word of a question",
                     "later words", "jitter p99: 1st-2nd word", "later pairs", "floor's later pairs"], rows))

        print("\nDelivery (every socket's seqs against the stored event log)")
        rows = []
        for r in done:
            d = r["delivery"]
            rows.append([r["label"], who(r), str(r["sockets"]), str(r["events"]),
                         f"{d['frames_got']}/{d['frames_expected']}", f"{d['words_got']}/{d['words_expected']}",
                         str(d["lost"]), str(d["dup"]), str(d["out_of_order"]), str(d["unexpected"]),
                         "yes" if d["converged"] else "NO", str(r["reconnects"])])
        print(table(["run", "spect", "sockets", "events", "frames got/expected", "words got/expected", "lost", "dup",
                     "out of order", "unexpected", "all at last seq", "reconnects"], rows))

        print("\nResources and time (RSS at the end with all sockets open; CPU seconds during play)")
        rows = []
        for r in done:
            servers = [n for n in r["usage"] if n != "redis" and not n.startswith("watchers")]
            cpu = ", ".join(f"{n} {fmt(r['usage'][n]['cpu'], 1)}" for n in servers if r["usage"][n])
            rss = ", ".join(f"{n} {fmt(r['usage'][n]['rss'] / MIB, 0)}" for n in servers if r["usage"][n])
            per_match = r["server_cpu"] / r["matches"] / r["play_s"] * 1000 if r["play_s"] else None
            f = r["floor"]
            rows.append([r["label"], who(r), rss, cpu, fmt(per_match, 1),
                         fmt(f["cpu"] / r["matches"] / f["play_s"] * 1000, 1) if f and f["play_s"] else "-",
                         f"{fmt(r['client_cpu'], 1)} + {fmt(r['watcher_cpu'], 1)}",
                         f"{fmt(pct(r['loop_lag'], 99))} / {fmt(pct(r['watcher_loop_lag'], 99))}",
                         f"{fmt(pct(f['loop_lag'], 99))}" if f else "-",
                         f"{fmt(pct(r['join_ms'], 50))} / {fmt(pct(r['join_ms'], 99))}",
                         fmt(r["connect_s"]), fmt(r["play_s"]), fmt(r["wall_s"])])
        print(table(["run", "spect", "RSS MiB", "CPU s", "server CPU ms/s per match", "floor ms/s per match",
                     "client cpu s (players + watchers)", "loop lag p99 ms (players / watchers)",
                     "floor watchers' loop lag p99", "join p50/p99 ms",
                     "connect s", "play s", "wall s"], rows))

        print("\nThe conductor's CPU per stored event (events stored during play) beside the engine's per word "
              "(bench/_engine_floor.py: decide_and_fold of each word's tick on the same logs, nothing stored or sent; "
              "paced: each word at its moment of play, as the conductor met it; hot: in a tight loop)")
        rows = [[r["label"], who(r), str(r["stored_in_play"]), fmt(r["conductor_cpu"], 2), fmt(r["conductor_us"], 0),
                 fmt(r["engine_us"], 0), fmt(r["engine_hot_us"], 0), fmt(ratio_of(r["conductor_us"], r["engine_us"]), 1),
                 fmt(ratio_of(cpu_per_match(r), floor_cpu_per_match(r)), 1),
                 fmt(ratio_of(pct(r["jitter"], 99), pct(r["floor"]["jitter"], 99) if r["floor"] else None), 2)]
                for r in done]
        print(table(["run", "spect", "events in play", "conductor CPU s", "us per event", "engine us per word (paced)",
                     "engine hot", "conductor / engine (paced)", "server CPU / floor's", "jitter p99 / floor's"], rows))

        for r in done:
            if r["fault"]:
                m = r["fault"]
                seen = (f"the pause reached the moderator {fmt(m['paused'], 0)} ms after the fault"
                        if m.get("paused") is not None else
                        "the moderator's resume (sent every second) was taken before a frame or snapshot showed it the pause")
                print(f"\nFault ({r['label']}): {seen}"
                      f"{', killed ' + m['killed'] if m.get('killed') else ''}; resumed at {fmt(m.get('resumed'), 0)} ms; "
                      f"every socket at the last seq: {'yes' if r['delivery']['converged'] else 'NO'}; "
                      f"lost {r['delivery']['lost']}; reconnects {r['reconnects']}.")

        print("\nNotes")
        for r in done:
            notes = r["delivery"]["notes"]
            head = f"  {r['label']}, {who(r)} spectators:"
            if not notes:
                print(f"{head} no lost, duplicated or out-of-order seq on any of {r['sockets']} sockets; "
                      f"{r['words_per_question']:.1f} words revealed per question.")
            else:
                print(f"{head} {len(notes)} findings")
                for note in notes[:12]:
                    print(f"    {note}")
                if len(notes) > 12:
                    print(f"    ... and {len(notes) - 12} more")
            if r["floor"] and r["floor"]["missing"]:
                print(f"    floor: {r['floor']['missing']} clients did not get every frame")
        for r in done:
            if r["profiles"]:
                print(f"\nProfile ({r['label']}, {who(r)}; py-spy, busy samples only)")
                for text in r["profiles"]:
                    print(text)
    for r in results:
        if "failed" in r:
            print(f"\n{r['label']}, {r['spectators']} spectators: the run could not be measured:\n{r['failed']}")
    print(f"\nTotal wall time {total_s:.1f}s")


def ratio_of(a, b):
    return a / b if a is not None and b else None


def cpu_per_match(r: dict):
    """Server CPU, ms per second of play and per match."""
    return r["server_cpu"] / r["matches"] / r["play_s"] * 1000 if r["play_s"] else None


def floor_cpu_per_match(r: dict):
    f = r["floor"]
    return f["cpu"] / r["matches"] / f["play_s"] * 1000 if f and f["play_s"] else None


def report_repeats(results: list[dict]) -> None:
    """Each figure's range and median over the repeats of one run (--repeat): on a shared machine the
    same code moves a lot from run to run, and one run says little."""
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        if "failed" not in r:
            groups.setdefault((r["label"].rsplit(" #", 1)[0], who(r)), []).append(r)

    def spread(values: list) -> str:
        values = sorted(v for v in values if v is not None)
        if not values:
            return "-"
        middle = (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2
        return f"{fmt(values[0])}-{fmt(values[-1])} ({fmt(middle)})"

    rows = []
    for (label, spect), runs in groups.items():
        floors = [r["floor"] for r in runs if r["floor"]]
        lost = sum(r["delivery"]["lost"] + r["delivery"]["dup"] + r["delivery"]["out_of_order"] for r in runs)
        rows.append([label, spect, str(len(runs)),
                     spread([pct(r["jitter"], 99) for r in runs]), spread([pct(f["jitter"], 99) for f in floors]),
                     spread([pct(r["lags"]["spectator"] or r["lag_all"], 99) for r in runs]),
                     spread([pct(f["lag"], 99) for f in floors]),
                     spread([pct(r["ack_rtt"], 99) for r in runs]), str(lost), str(sum(len(r["refused"]) for r in runs)),
                     spread([cpu_per_match(r) for r in runs]), spread([floor_cpu_per_match(r) for r in runs]),
                     spread([ratio_of(cpu_per_match(r), floor_cpu_per_match(r)) for r in runs]),
                     spread([ratio_of(pct(r["jitter"], 99), pct(r["floor"]["jitter"], 99) if r["floor"] else None)
                             for r in runs]),
                     spread([ratio_of(pct(r["jitter_later"], 99), pct(r["floor"]["jitter_later"], 99) if r["floor"] else None)
                             for r in runs]),
                     spread([r["conductor_us"] for r in runs]), spread([r["engine_us"] for r in runs]),
                     spread([r["engine_hot_us"] for r in runs]),
                     spread([ratio_of(r["conductor_us"], r["engine_us"]) for r in runs])])
    print("\nAcross the repeats: lowest-highest (median) of each run's figure, ms")
    print(table(["run", "spect", "runs", "jitter p99", "floor jitter p99", "word lag p99", "floor lag p99",
                 "buzz ack p99", "lost+dup+ooo", "refused", "server CPU ms/s per match", "floor's",
                 "CPU / floor's", "jitter / floor's", "later pairs' jitter / floor's", "conductor us/event", "engine us/word (paced)", "engine hot",
                 "conductor / engine (paced)"],
                rows))


# -- main -----------------------------------------------------------------------------------------

def counts(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("a count or a comma-separated list of counts, like 10,50,200") from None
    if not values or any(not 0 <= v <= MAX_SOCKETS for v in values):
        raise argparse.ArgumentTypeError(f"each count must be 0 to {MAX_SOCKETS}")
    return values


def storm_main(layers: list[str], args) -> int:
    results = []
    for number, layer in enumerate(layers, 1):
        print(f"[{number}/{len(layers)}] storm of {args.storm} on {layer}, load {load_average()} ...", file=sys.stderr,
              flush=True)
        try:
            results.append(run_storm(layer, args, number))
        except (Exception, asyncio.CancelledError) as problem:
            results.append({"label": layer, "failed": f"{type(problem).__name__}: {problem}"})
    report_storm(results, args)
    return 1 if any("failed" in r for r in results) else 0


def main(argv=None) -> int:
    global BUZZ_WORDS
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--layer", choices=("memory", "redis", "both"), default="both")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite",
                        help="database of the redis runs (the memory runs always use a temp SQLite file)")
    parser.add_argument("--spectators", type=counts, default=[50], help="N or a sweep such as 10,50,200 (in all)")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 41, 2), metavar="2-40",
                        help="human players per match, half on each team")
    parser.add_argument("--matches", type=int, default=1, choices=range(1, 201), metavar="1-200")
    parser.add_argument("--web", type=int, default=1, choices=range(1, 9), metavar="1-8", help="Daphne processes")
    parser.add_argument("--conductors", type=int, default=1, choices=range(1, 9), metavar="1-8",
                        help="`conduct` processes (Redis runs)")
    parser.add_argument("--questions", type=int, default=5, choices=range(1, MAX_QUESTIONS + 1), metavar="1-20")
    parser.add_argument("--clients", type=int, default=1, choices=range(1, 9), metavar="1-8",
                        help="processes the spectators are spread over (moderators and players have their own)")
    parser.add_argument("--floor", action="store_true", help="measure the plain-websockets floor in the same run")
    parser.add_argument("--repeat", type=int, default=1, choices=range(1, MAX_REPEATS + 1), metavar=f"1-{MAX_REPEATS}",
                        help="run everything this many times and print each figure's range and median across them")
    parser.add_argument("--fault", choices=("redis", "conductor"), help="restart Redis / kill the conductor mid-question")
    parser.add_argument("--profile", metavar="DIR", help="record each server with py-spy into DIR and summarise")
    parser.add_argument("--storm", type=int, choices=range(1, MAX_SOCKETS + 1), metavar=f"1-{MAX_SOCKETS}",
                        help="cut N watchers of a live match off at once and let them reconnect (no play run)")
    parser.add_argument("--buzz-words", type=word_range, default=BUZZ_WORDS, metavar="N or FIRST-LAST",
                        help=f"buzz after N words (default {BUZZ_AFTER}: every match buzzes at the same word, so they "
                             "stay in step), or after a word drawn from FIRST-LAST per match and question (out of step)")
    parser.add_argument("--lead-in", type=float, default=0.0, choices=[x / 2 for x in range(0, 11)], metavar="0-5",
                        help="seconds from a question's start to its first word, in steps of 0.5 (default 0: the "
                             "first word is due as soon as the moderator's next is stored; the presets read after 2)")
    args = parser.parse_args(argv)
    BUZZ_WORDS = args.buzz_words
    layers = ["memory", "redis"] if args.layer == "both" else [args.layer]
    if args.fault and args.matches > 1:
        # Each match's driver would strike its own fault, and a match paused before its driver's
        # moment would never be resumed: a fault run plays one match.
        parser.error("--fault plays one match (--matches 1)")
    if args.fault or args.web > 1:  # several processes or a fault need the Redis layer
        if args.layer == "memory":
            parser.error("--fault and --web > 1 need the Redis layer (--layer redis)")
        layers = ["redis"]
    runs = [(layer, n) for layer in layers for n in args.spectators]
    if len(runs) > MAX_RUNS:
        parser.error(f"{len(runs)} runs asked for; at most {MAX_RUNS} (layers x spectator counts)")
    runs = [(layer, n, k) for k in range(1, args.repeat + 1) for layer, n in runs]  # one round of every run, then the next
    if max(args.spectators) + args.matches * (1 + args.players) > MAX_SOCKETS:
        parser.error(f"at most {MAX_SOCKETS} sockets in all")

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * (max(args.spectators + [args.storm or 0]) + args.matches * (1 + args.players)) + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    if args.storm:
        return storm_main(layers, args)

    results, interrupted, started = [], False, time.monotonic()
    try:
        for number, (layer, spectators, repeat) in enumerate(runs, 1):
            repeat_mark = f" #{repeat}" if args.repeat > 1 else ""  # which repeat a row is, in every table
            label = run_label(layer, args.db, args.web, args.conductors if layer == "redis" else 1) + repeat_mark
            print(f"[{number}/{len(runs)}] {label}, {spectators} spectators, load {load_average()} ...",
                  file=sys.stderr, flush=True)
            try:
                result = run_one(layer, args, spectators, number)
            except (Exception, asyncio.CancelledError) as problem:
                results.append({"label": label, "spectators": spectators, "failed": str(problem)})
                print(f"    could not be measured: {str(problem).splitlines()[0]}", file=sys.stderr, flush=True)
                continue
            result["label"] += repeat_mark
            results.append(result)
            print(f"    done in {result['wall_s']:.1f}s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\nInterrupted: the servers are stopped and the temp files removed; partial results follow.",
              file=sys.stderr)
    report(results, args, time.monotonic() - started)
    if args.repeat > 1:
        report_repeats(results)
    if interrupted:
        return 130
    return 1 if any("failed" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
