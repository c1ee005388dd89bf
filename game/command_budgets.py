"""Command budgets that belong to what they protect: a seat, the moderator's console, a match.

A budget per socket let forty sockets on one seat send forty times a seat's share, and every frame
they sent reached the conductor's shared channel. Here a seat's commands share one budget however
many sockets carry them, chat has a smaller one of its own (chat is stored and shown to a whole
team), and all the players of one match share the match's budget, so one hostile team cannot
swamp the conductor that other matches share. The moderator has a budget of its own (reading a
word a key press) and is not held back by the players' use of the match's.

Each web process checks these for its own sockets before a command leaves it, and the conductor
that holds the match checks them again for everything that reaches it, whichever web process it
came through. A refusal is answered with `slow_down` (the client retries the same command id a
moment later) and is stored nowhere.

Sockets have budgets too, checked in the web process before any work: a seat's (or a browser
session's) sockets opening, all the frames a seat's sockets send, and for spectators, who need no
token, the sockets opened and frames sent from one address on one match and the resyncs of all of a
match's spectators (game/live/door.py, game/live/consumers.py).
"""
from __future__ import annotations

import time

# (burst, refilled per second)
SEAT = (20.0, 10.0)
CHAT = (5.0, 0.5)
MODERATOR = (60.0, 30.0)
MATCH = (200.0, 100.0)  # all the players of one match together
SOCKET_OPENS = (6.0, 0.5)  # a seat's sockets opening: a phone's reconnects fit, a loop of them does not
SEAT_FRAMES = (40.0, 20.0)  # every frame of a seat's sockets together, taken before a frame is parsed
# Spectators (anyone may watch), per match and address: a hall behind one router's address still gets
# in (a hundred at once, ten a second after), one client's five hundred sockets do not multiply its
# reach. Frames: a watching page sends a hello a connection and a resync when it missed frames.
WATCH_OPENS_PER_ADDRESS = (100.0, 10.0)
WATCH_FRAMES_PER_ADDRESS = (100.0, 50.0)
WATCH_CATCH_UPS = (2000.0, 200.0)  # every spectator's resync of a match together (each reads the log or a snapshot)
KEEP_BUCKETS = 20_000  # never more than this many buckets: beyond it, the ones that refilled completely are forgotten
# and, every this many new ones, too: a bucket full again holds nothing (a new one starts full), so a server keeps
# the buckets of who acted lately, not of every seat, match and address it ever heard (a soak's web process and
# conductor grew by their buckets for hours, each 330 bytes).
FORGET_EVERY = 512

SEAT_TOO_FAST = "Slow down: this seat is sending too fast; wait a moment."
CHAT_TOO_FAST = "Slow down: one chat message every two seconds, please."
MATCH_TOO_FAST = "This match is receiving too many commands just now; wait a moment."


class Budgets:
    """Token buckets by (match, whose): `burst` at once, refilled at `rate` a second."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._buckets: dict[tuple, list[float]] = {}  # key -> [tokens, last refill, burst, rate]
        self._refused: dict[tuple, int] = {}  # an opens' key -> opens refused since the last one let in
        self._new = 0  # buckets made since full ones were last forgotten

    def refusal(self, code: str, who: str | None, kind: str) -> str | None:
        """None if a command of type `kind` from `who` (the actor's key: "moderator" or a seat id)
        into match `code` is within its budgets, and takes from them; else the sentence to answer."""
        if who == "moderator":
            wanted = [((code, who), MODERATOR, SEAT_TOO_FAST)]
        elif who is not None:
            own = ((code, who, "chat"), CHAT, CHAT_TOO_FAST) if kind == "chat" else ((code, who), SEAT, SEAT_TOO_FAST)
            wanted = [own, ((code,), MATCH, MATCH_TOO_FAST)]
        else:
            return None  # the system's own commands (a join from the web, a clock tick) are not budgeted
        now = self.clock()
        buckets = [self._bucket(key, size, now) for key, size, _ in wanted]
        for bucket, (_, _, sentence) in zip(buckets, wanted):
            if bucket[0] < 1:
                return sentence
        for bucket in buckets:
            bucket[0] -= 1
        return None

    def may_open(self, code: str, seat) -> bool:
        """Whether another socket may open for seat `seat` of match `code` now (or for a browser's
        session, whose seat is not read yet), and takes from its budget. Each one opened takes the
        seat over from the last and reads the match's log, so a loop of them is a flood of its own."""
        return self.opens_refused(code, seat) == 0

    def opens_refused(self, code: str, who, size: tuple[float, float] = SOCKET_OPENS) -> int:
        """0 if another socket of `who` (a seat, a session, a spectator's address) may open on match
        `code` now, taking from its budget; else how many of its opens were refused in a row."""
        key = (code, who, "open")
        if self.take(key, size):
            self._refused.pop(key, None)
            return 0
        if len(self._refused) >= KEEP_BUCKETS:
            self._refused.clear()
        refused = self._refused[key] = self._refused.get(key, 0) + 1
        return refused

    def may_read_watching(self, code: str, address: str) -> bool:
        """Whether a frame of a spectator socket from `address` may be read at all (before it is parsed)."""
        return self.take((code, address, "watch-frames"), WATCH_FRAMES_PER_ADDRESS)

    def may_catch_up(self, code: str) -> bool:
        """Whether a spectator's resync of match `code` may be answered now (the match's spectators together)."""
        return self.take((code, "watch-catch-ups"), WATCH_CATCH_UPS)

    def may_read(self, code: str, who) -> bool:
        """Whether a frame from a socket of `who` (a seat) may be read at all, before it is parsed:
        forty sockets on one seat share one seat's worth of frames."""
        return self.take((code, who, "frames"), SEAT_FRAMES)

    def take(self, key: tuple, size: tuple[float, float]) -> bool:
        """One from the bucket `key` (of `size`: burst, refilled a second) if it holds one."""
        bucket = self._bucket(key, size, self.clock())
        if bucket[0] < 1:
            return False
        bucket[0] -= 1
        return True

    def _bucket(self, key: tuple, size: tuple[float, float], now: float) -> list[float]:
        burst, rate = size
        bucket = self._buckets.get(key)
        if bucket is None:
            self._new += 1
            if self._new >= FORGET_EVERY or len(self._buckets) >= KEEP_BUCKETS:
                self._forget_full(now)
            bucket = self._buckets[key] = [burst, now, burst, rate]
        else:
            bucket[0] = min(burst, bucket[0] + (now - bucket[1]) * rate)
            bucket[1] = now
        return bucket

    def _forget_full(self, now: float) -> None:
        """A bucket that would be full again holds nothing worth keeping."""
        self._new = 0
        full = [key for key, (tokens, at, burst, rate) in self._buckets.items() if tokens + (now - at) * rate >= burst]
        for key in full:
            del self._buckets[key]
            self._refused.pop(key, None)  # its refusals in a row ended with it
