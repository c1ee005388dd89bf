"""The bench's websocket client (bench/latency.py, bench/_watchers.py): one socket that stamps every
frame as it arrives, reconnects and retries commands as the browser does when asked, and a probe of
the client's own event loop lag (its share of every number the bench prints).
"""
from __future__ import annotations

import asyncio
import collections
import json
import time
import uuid

CONNECT_CONCURRENCY = 20
STEP_TIMEOUT = 30.0  # seconds any single wait may take before the run is given up
FAULT_TIMEOUT = 90.0  # a fault run waits this long for the pause and for every socket to come back
RETRY_S = 2.0  # a command with no answer is sent again (same id) after this, as the browser does
BEHIND_GRACE_S = 1.0  # a heartbeat ahead asks for the missed frames only if still behind this (+ play-out) later, as the browser
TRY_AGAIN = ("busy", "slow_down", "unavailable")


def new_command_id() -> str:
    """A command's id, random as the browser's (static/js/match-socket.js): the server answers a known id with
    the answer it kept, whatever the command, so ids drawn from a counter that concurrent commands share
    (the moderator's next and its resume in a fault) gave one command the other's answer."""
    return uuid.uuid4().hex


def now_ms() -> float:
    return time.time() * 1000


class Sock:
    """One websocket client: stamps every frame as it arrives and keeps the event frames raw.

    With `reconnect`, a socket the server closes is opened again with hello and its last seq, as
    the browser does (fault runs)."""

    def __init__(self, name: str, audience: str, url: str, origin: str, cookie: str | None = None,
                 reconnect: bool = False, match: int = 0, seat_token: str | None = None):
        self.name, self.audience, self.url, self.origin, self.cookie = name, audience, url, origin, cookie
        self.seat_token = seat_token  # a player's, sent in the X-Seat-Token header (never in the URL)
        self.reconnect, self.match = reconnect, match
        self.wait_out: tuple = ()  # refusals a retried command waits out as a new command (bench/soak.py: "paused")
        self.events: list[tuple] = []  # (seq, type, t, received ms, word index); duplicates kept
        self.frame_bytes: dict[int, int] = {}  # seq -> the size of its frame, for the floor to copy
        self.snapshots: list[int] = []  # the seq of each snapshot received
        self.paused_snapshots: list[int] = []  # receive times (ms) of the snapshots that showed the match paused
        self.last_seq = 0  # the highest seq up to which nothing is missing
        self.replies: dict[str, asyncio.Future] = {}
        self.waiters: list[tuple] = []
        self.refs = 0
        self.closes: list[str] = []
        self.answers: collections.deque = collections.deque(maxlen=6)  # (command, id, how it was answered), latest last
        self.failed_opens = 0  # connection attempts that failed before one succeeded
        self.closed_by: str | None = None
        self.closing = False
        self.resyncing = False
        self.ws = None
        self.seat: str | None = None  # from the welcome: a ruling names the seat that buzzed
        self.playout_s = 0.0  # from the welcome: frames are written this long after their stamp
        self.join_ms = None
        self.snapshot: asyncio.Future | None = None
        self.reader: asyncio.Task | None = None

    def headers(self) -> dict:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.seat_token:
            headers["X-Seat-Token"] = self.seat_token
        return headers

    async def open(self):
        from websockets.asyncio.client import connect as ws_connect

        for attempt in range(200 if self.reconnect else 1):
            try:
                self.ws = await ws_connect(self.url, origin=self.origin, additional_headers=self.headers(),
                                           ping_interval=None, open_timeout=STEP_TIMEOUT, close_timeout=2,
                                           max_queue=None)
                break
            except (OSError, asyncio.TimeoutError, Exception):
                self.failed_opens += 1
                if not self.reconnect or attempt == 199:
                    raise
                await asyncio.sleep(0.5)
        if self.snapshot is None or self.snapshot.done():  # one closed before its snapshot (4503) still awaits it
            self.snapshot = asyncio.get_running_loop().create_future()
        self.resyncing = False
        sent = now_ms()
        await self.ws.send(json.dumps({"type": "hello", "data": {"last_seq": self.last_seq}}))
        if self.reader is None:
            self.reader = asyncio.get_running_loop().create_task(self._read())
        return sent

    async def _read(self):
        import websockets

        while True:
            try:
                async for raw in self.ws:
                    self._take(raw, now_ms())
                self.closes.append(f"closed {self.ws.close_code}")
            except websockets.ConnectionClosed as closed:
                self.closes.append(f"closed {closed.rcvd.code if closed.rcvd else 'abnormally'}")
            if self.closing or not self.reconnect:
                break
            try:
                await self.open()
            except Exception as problem:
                self.closes.append(f"could not reopen: {problem!r}")
                break
        self.closed_by = self.closes[-1] if self.closes else "closed"
        gone = ConnectionError(f"{self.name}: socket {self.closed_by}")
        waiting = [*self.replies.values(), *(w[2] for w in self.waiters)]
        if self.join_ms is None:
            waiting.append(self.snapshot)  # connect() awaits it only until the socket joined
        for future in waiting:
            if future is not None and not future.done():
                future.set_exception(gone)

    def _take(self, raw: str, received: float):
        frame = json.loads(raw)
        seq = frame.get("seq")
        kind = frame.get("type")
        if seq is not None:
            event = (seq, kind, frame.get("t"), received, (frame.get("data") or {}).get("index"))
            self.events.append(event)
            if seq == self.last_seq + 1:
                self.last_seq = seq
            elif seq > self.last_seq + 1 and self.reconnect:
                self._resync()
            self.frame_bytes.setdefault(seq, len(raw.encode()))
            if self.waiters:
                self._check(event)
        elif kind in ("ack", "error"):
            future = self.replies.pop(frame.get("ref"), None)
            if future is not None and not future.done():
                future.set_result((frame, received))
        elif kind == "welcome":
            self.seat = frame["data"]["seat"]
            self.playout_s = (frame["data"].get("playout_ms") or 0) / 1000
        elif kind == "snapshot":
            self.resyncing = False
            self.snapshots.append(frame["data"]["seq"])
            if frame["data"].get("paused"):
                self.paused_snapshots.append(received)
            self.last_seq = max(self.last_seq, frame["data"]["seq"])
            if self.snapshot is not None and not self.snapshot.done():
                self.snapshot.set_result(received)
            if self.waiters:
                self._check((frame["data"]["seq"], "snapshot", None, received, None))
        elif kind == "heartbeat" and self.reconnect and (frame.get("data") or {}).get("seq", 0) > self.last_seq:
            # The frames stored just before the beat may still be on their way: a snapshot asked for now would
            # cover them, and an event waited for among them would never come as an event.
            asyncio.get_running_loop().call_later(BEHIND_GRACE_S + self.playout_s, self._resync_if_behind,
                                                  frame["data"]["seq"])

    def _resync_if_behind(self, seq: int):
        if self.last_seq < seq and not self.closing:
            self._resync()

    def _resync(self):
        """Frames were lost (a fault run): ask for a snapshot, as the browser does."""
        if not self.resyncing:
            self.resyncing = True
            asyncio.get_running_loop().create_task(self._send_quietly({"type": "resync"}))

    async def _send_quietly(self, frame: dict):
        try:
            await self.ws.send(json.dumps(frame))
        except Exception:
            self.resyncing = False

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
            if self.last_seq < seq:
                await self.wait_for(lambda e: e[0] >= seq, seq - 1, timeout)
            return True
        except (TimeoutError, ConnectionError):
            return False

    async def command(self, kind: str, data: dict | None = None, retry: bool = False, refusals=None):
        """Send a command; (reply frame, sent ms, reply received ms). With retry, it is sent again with
        the same id until it is answered with anything but "try again", as the browser does; each
        "try again" (or no answer in time) is counted by its code in `refusals` (a Counter) if given."""
        command_id = new_command_id()
        first_sent = None
        end = time.monotonic() + (FAULT_TIMEOUT if retry else STEP_TIMEOUT)
        while True:
            self.refs += 1
            ref = f"{self.name}-{self.refs}"
            future = asyncio.get_running_loop().create_future()
            self.replies[ref] = future
            sent = now_ms()
            first_sent = first_sent or sent
            try:
                await self.ws.send(json.dumps({"type": kind, "data": data or {}, "ref": ref, "id": command_id}))
                frame, received = await asyncio.wait_for(future, RETRY_S if retry else STEP_TIMEOUT)
            except Exception as problem:
                self.answers.append((kind, command_id, type(problem).__name__))
                if not retry or time.monotonic() > end:
                    raise
                if refusals is not None:
                    refusals["no answer"] += 1
                await asyncio.sleep(0.2)
                continue
            finally:
                self.replies.pop(ref, None)
                if future.done() and not future.cancelled():
                    future.exception()  # read: a close that raced the send was raised above, not to be logged again
            code = frame["data"].get("code") if frame.get("type") == "error" else None
            self.answers.append((kind, command_id, code or frame.get("type")))
            if retry and code in (*TRY_AGAIN, *self.wait_out) and time.monotonic() < end:
                if refusals is not None:
                    refusals[code] += 1
                if code in self.wait_out:  # a refusal is kept under its id: only a new id is decided again
                    command_id = new_command_id()
                await asyncio.sleep(0.2)
                continue
            return frame, first_sent, received

    async def close(self):
        self.closing = True
        try:
            await asyncio.wait_for(self.ws.close(), 5)
        except Exception:
            pass
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.gather(self.reader, return_exceptions=True)


async def connect(port: int, path: str, name: str, audience: str, cookie: str | None = None,
                  reconnect: bool = False, match: int = 0, seat_token: str | None = None) -> Sock:
    sock = Sock(name, audience, f"ws://127.0.0.1:{port}{path}", f"http://127.0.0.1:{port}", cookie, reconnect, match,
                seat_token)
    try:
        sent = await sock.open()
        sock.join_ms = await asyncio.wait_for(sock.snapshot, STEP_TIMEOUT) - sent
    except BaseException:
        if sock.ws is not None:
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


async def reach_all(socks: list[Sock], seq: int, timeout: float) -> list[str]:
    """Wait until every socket has an event frame at or past seq; the names of those that did not."""
    done = await asyncio.gather(*(s.reached(seq, timeout) for s in socks))
    return [s.name for s, ok in zip(socks, done) if not ok]


async def open_all(makers: list, what: str) -> list[Sock]:
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def one(make):
        async with gate:
            return await make()

    opened = await asyncio.gather(*(one(m) for m in makers), return_exceptions=True)
    failed = [s for s in opened if not isinstance(s, Sock)]
    if failed:
        await asyncio.gather(*(s.close() for s in opened if isinstance(s, Sock)), return_exceptions=True)
        raise RuntimeError(f"{len(failed)} of {len(makers)} {what} could not connect: {failed[0]!r}")
    return opened
