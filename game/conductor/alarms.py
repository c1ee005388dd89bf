"""The conductor's alarms: one timer per moment, however many matches are due then.

Each match waits for its next scheduled moment (a word, a deadline: engine next_wakeup, on the
match's clock grid). Matches on the same grid fall due at the same few instants, so alarms are kept
per instant (ms since the epoch, on the conductor's clock): the first match due at an instant sets
the one timer, the others join it, and when it rings they are handed over together, in the order
they joined, to one call (ticks.py runs their clock ticks as one batch: one transaction, one send).
"""
from __future__ import annotations

import asyncio


class Alarm:
    """One waiter's place at an instant; cancel() gives it up (the match woke for something else)."""

    __slots__ = ("waiting", "waiter", "due_ms")

    def __init__(self, waiting: dict, waiter, due_ms: int):
        self.waiting, self.waiter, self.due_ms = waiting, waiter, due_ms

    def cancel(self) -> None:
        self.waiting.pop(self.waiter, None)

    @property
    def pending(self) -> bool:
        """Still waiting for its instant: neither rung nor given up."""
        return self.waiter in self.waiting


class Alarms:
    def __init__(self, clock, ring):
        self.clock = clock  # ms since the epoch
        self.ring = ring  # ring(due_ms, waiters): called once per instant with everyone still waiting for it
        self._due: dict[int, dict] = {}

    def wake(self, due_ms: int, waiter) -> Alarm:
        """Hand `waiter` to ring at due_ms, never before."""
        waiting = self._due.get(due_ms)
        if waiting is None:
            waiting = self._due[due_ms] = {}
            self._set_timer(due_ms)
        waiting[waiter] = None  # a dict, not a set: they are handed over in the order they came
        return Alarm(waiting, waiter, due_ms)

    def _set_timer(self, due_ms: int) -> None:
        asyncio.get_running_loop().call_later(max(0, due_ms - self.clock()) / 1000, self._ring, due_ms)

    def _ring(self, due_ms: int) -> None:
        if self.clock() < due_ms:  # the loop's timer and the clock disagree by a fraction of a ms
            self._set_timer(due_ms)
            return
        waiting = self._due.pop(due_ms, None)
        if waiting:
            waiters = list(waiting)
            waiting.clear()  # every Alarm of this instant is no longer pending
            self.ring(due_ms, waiters)

    def __len__(self) -> int:
        """Instants with a timer set (for tests)."""
        return len(self._due)
