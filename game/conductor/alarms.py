"""The conductor's alarms: one timer per moment, however many matches are due then.

Each match's loop waits for its next scheduled moment (a word, a deadline: engine next_wakeup, on
the match's clock grid). Matches on the same grid fall due at the same few instants, so alarms are
kept per instant (ms since the epoch, on the conductor's clock): the first match due at an instant
sets the one timer, the others join it, and when it rings they all wake in the same turn of the
event loop, so their ticks are stored in one transaction (database.py) and sent together.
"""
from __future__ import annotations

import asyncio


class Alarm:
    """One match's place at an instant; cancel() gives it up (the match woke for something else)."""

    __slots__ = ("waiting", "event")

    def __init__(self, waiting: set, event: asyncio.Event):
        self.waiting, self.event = waiting, event

    def cancel(self) -> None:
        self.waiting.discard(self.event)


class Alarms:
    def __init__(self, clock):
        self.clock = clock  # ms since the epoch
        self._due: dict[int, set[asyncio.Event]] = {}

    def wake(self, due_ms: int, event: asyncio.Event) -> Alarm:
        """Set `event` at due_ms (never before: the timer waits the whole ms the clock reads short)."""
        waiting = self._due.get(due_ms)
        if waiting is None:
            waiting = self._due[due_ms] = set()
            asyncio.get_running_loop().call_later(max(0, due_ms - self.clock()) / 1000, self._ring, due_ms)
        waiting.add(event)
        return Alarm(waiting, event)

    def _ring(self, due_ms: int) -> None:
        for event in self._due.pop(due_ms, ()):
            event.set()

    def __len__(self) -> int:
        """Instants with a timer set (for tests)."""
        return len(self._due)
