"""When a web process writes a match's frames: at their stamp plus the play-out delay.

The conductor stamps every event with its moment on the match's clock (a word: the grid step it was
due at) and sends it once it is stored. How long that takes moves with the load of the moment:
thirty matches' commands at once, other matches' frames ahead of it in this process. Written at
once, a word's gap to the one before moves with that load, and the reading beat stutters on every
screen. So each web process holds a match's frames until their stamp plus EXHIBITION_PLAYOUT_MS and
writes them then, in the order they came; what comes later than that is written at once. Every
screen on every process sees the words on the clock's beat, at the cost of the delay. The bots'
queries wait as long (game/conductor/bots.py), so no bot reads a word before the screens do.

Nothing is held longer than the delay after it arrives, so a web process whose clock runs behind
the conductor's holds nothing longer than that either.
"""
from __future__ import annotations

import asyncio
import collections
import logging
import time


log = logging.getLogger(__name__)


def wall_ms() -> float:
    return time.time() * 1000


class Playout:
    """Per match, what waits to be written and when; one timer per match that holds anything.
    `delay_ms(code)`: the match's delay in ms (groups.playout_ms)."""

    def __init__(self, delay_ms, clock=wall_ms):
        self.delay_ms = delay_ms
        self.clock = clock
        self._held: dict[str, collections.deque] = {}

    def holds(self, code: str) -> bool:
        return code in self._held

    def hold(self, code: str, at, write) -> None:
        """Run write() for match `code` at `at` (ms, the stamp) plus the delay, after whatever of the
        match is held; at once if that moment has passed and nothing of the match is held. `at` None:
        as soon as what is held before it has been written."""
        now = self.clock()
        release = 0.0
        delay = self.delay_ms(code)
        if delay and isinstance(at, (int, float)):
            release = min(at, now) + delay
        held = self._held.get(code)
        if held is None:
            if release <= now:
                write()
                return
            held = self._held[code] = collections.deque()
        held.append((release, write))
        if len(held) == 1:
            self._wake(code, release - now)

    def _wake(self, code: str, after_ms: float) -> None:
        asyncio.get_running_loop().call_later(max(0.0, after_ms) / 1000, self._release, code)

    def _release(self, code: str) -> None:
        held = self._held.get(code)
        now = self.clock()
        while held and held[0][0] <= now:
            _, write = held.popleft()
            try:
                write()
            except Exception:
                log.exception("Match %s: writing held frames failed", code)
        if held:
            self._wake(code, held[0][0] - now)
        else:
            self._held.pop(code, None)
