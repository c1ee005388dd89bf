"""A reconnect storm for bench/latency.py (--storm N): N watchers of one live match lose their
connections at once in the middle of a question and all come back at once, as a hall's Wi-Fi or a
proxy restart does to them. Each socket reopens as the browser does: at once, with hello and the
last seq it has (bench/_client.py).

Measured, per socket, from the moment every connection was cut:
  back      the first frame after the reopened socket's hello (Exhibition's welcome);
  resynced  the socket has every seq the moderator had when its welcome came (the match's seq then);
  errors    an open that failed, any close by the server (1011, 1013, ...), a socket that gave up;
and the moderator's ack of a pause sent as the storm begins (first send -> ack, retries included).

The floors, in the same run: the same N watchers of a match nobody plays (lobby) cut and reopened
at once on the same servers, and on the plain-websockets floor server (bench/_floor.py, hello ->
snapshot), with the same client code.
"""
from __future__ import annotations

import asyncio
import time

from _client import FAULT_TIMEOUT, STEP_TIMEOUT, LoopLag, Sock, connect, now_ms, open_all, reach_all

STORM_AT_WORD = 3  # the storm comes once this many words of the first question are out


class StormSock(Sock):
    """A watcher that can be cut off, and stamps when it is back and when it has caught up."""

    def __init__(self, *args, current=lambda: None, **kwargs):
        super().__init__(*args, **kwargs)
        self.current = current  # the match's seq as the moderator has it now (None: nothing moves)
        self.cut_at = self.back_at = self.resynced_at = None
        self.reopened = False  # frames read after the cut may still be the old connection's
        self.mark = 0
        self.closes_before = 0

    def cut(self, at: float) -> None:
        self.cut_at, self.back_at, self.resynced_at, self.reopened = at, None, None, False
        self.closes_before, self.failed_before = len(self.closes), self.failed_opens
        self.ws.transport.abort()  # no close frame: the network went away

    async def open(self):
        sent = await super().open()
        self.reopened = self.cut_at is not None
        return sent

    def _take(self, raw: str, received: float):
        if self.reopened and self.back_at is None:
            self.back_at = received
            self.mark = self.current() or self.last_seq
        super()._take(raw, received)
        if self.back_at is not None and self.resynced_at is None and self.last_seq >= self.mark:
            self.resynced_at = received

    def errors(self) -> list[str]:
        """What went wrong after the cut: failed opens, closes by the server, giving up."""
        after = self.closes[self.closes_before + 1:]  # the first is the cut itself
        found = [f"{self.failed_opens - self.failed_before} failed opens"] if self.failed_opens > self.failed_before else []
        return found + after + ([f"gave up ({self.closed_by})"] if self.reader.done() else [])


async def open_watchers(port, path: str, n: int, current, name: str) -> list[StormSock]:
    async def make(i: int) -> StormSock:
        p = port()
        sock = StormSock(f"{name}{i}", "spectator", f"ws://127.0.0.1:{p}{path}", f"http://127.0.0.1:{p}",
                         reconnect=True, current=current)
        sent = await sock.open()
        sock.join_ms = await asyncio.wait_for(sock.snapshot, STEP_TIMEOUT) - sent
        return sock

    return await open_all([lambda i=i: make(i) for i in range(n)], name)


async def storm(socks: list[StormSock], mod: Sock | None = None) -> dict:
    """Cut every socket at once; they reopen at once. With a moderator, a pause is sent meanwhile."""
    probe = LoopLag()
    probe.start()
    start = now_ms()
    for s in socks:
        s.cut(start)
    ack = None
    if mod is not None:
        reply, sent, received = await mod.command("pause", {"reason": "reconnect storm"}, retry=True)
        ack = {"ms": received - sent, "reply": reply.get("type"), "code": (reply.get("data") or {}).get("code")}
    end = time.monotonic() + FAULT_TIMEOUT
    while any(s.resynced_at is None and not s.reader.done() for s in socks) and time.monotonic() < end:
        await asyncio.sleep(0.02)
    await probe.stop()
    return {"sockets": len(socks), "back": [s.back_at - start for s in socks if s.back_at is not None],
            "resynced": [s.resynced_at - start for s in socks if s.resynced_at is not None],
            "errors": [e for s in socks for e in s.errors()], "with_errors": sum(1 for s in socks if s.errors()),
            "ack": ack, "loop_lag": probe.samples}


async def live_storm(port, info: dict, n: int) -> dict:
    """The storm on a live match (match 0), after the same storm on a match nobody plays (match 1)."""
    live, idle = info["matches"][0]["code"], info["matches"][1]["code"]
    mod = await connect(port(), f"/ws/m/{live}/moderate", "moderator", "moderator", f"sessionid={info['session']}", True)
    socks: list[StormSock] = []
    try:
        socks = await open_watchers(port, f"/ws/m/{idle}/watch", n, lambda: None, "idle")
        await asyncio.sleep(1)
        idle_result = await storm(socks)
        await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)
        socks = await open_watchers(port, f"/ws/m/{live}/watch", n, lambda: mod.last_seq, "watcher")
        reply, _, _ = await mod.command("start", retry=True)
        if reply.get("type") != "ack":
            raise RuntimeError(f"start was refused: {reply.get('data')}")
        word = await mod.wait_for(lambda e: e[1] == "word_revealed" and (e[4] or 0) >= STORM_AT_WORD - 1, 0)
        result = await storm(socks, mod)
        result.update(at_word=word[4] + 1, idle=idle_result)
        resumed = (await mod.command("resume", retry=True))[0]
        if resumed.get("type") != "ack":
            raise RuntimeError(f"resume was refused: {resumed.get('data')}")
        after = await mod.wait_for(lambda e: e[1] == "word_revealed", max(resumed["data"]["seqs"]), STEP_TIMEOUT)
        result["behind"] = await reach_all(socks, after[0], STEP_TIMEOUT)  # every socket plays on
        result["moderator_closes"] = list(mod.closes)
        return result
    finally:
        await asyncio.gather(*(s.close() for s in [mod, *socks]), return_exceptions=True)


async def floor_storm(port, n: int) -> dict:
    """The same storm on the plain-websockets floor server: hello -> snapshot, nothing else."""
    socks = await open_watchers(port, "/room/0", n, lambda: None, "floor")
    try:
        await asyncio.sleep(1)
        return await storm(socks)
    finally:
        await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)
