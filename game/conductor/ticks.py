"""The clock's ticks of every match due at one instant, run together.

A word is due in some match every 50 ms tick of the grid, and on the grid the matches of a room fall
due at the same few instants (alarms.py). Run one by one, each tick woke its match's loop, which
stored the tick (the database thread already put the writes of one turn in one transaction), sent
its frames and went back to sleep: two task switches, an event, a future and the loop's bookkeeping
per match per word, most of the conductor's event-loop time per word (docs/benchmarks.md).

Here the alarm of an instant hands over the matches waiting for it, and one task runs all their
ticks: it queues every match's write (one transaction), waits for them all at once, starts every
match's broadcast (one send to Redis), waits for them, and lets each match's bots, voice and roster
catch up, as its own loop would after a tick. The matches' loops are not woken.

One writer per match still holds: a match is taken only while its loop waits for a message with
nothing in its inbox, and is marked `ticking` until the batch is done with it; a message that
arrives meanwhile wakes its loop, which waits until the batch hands the match back (host._next).
A match that is not waiting, or not due (it stopped, stalled, lost the screens, or its next moment
moved), is handed to its own loop instead, which ticks it the old way if it is due.
"""
from __future__ import annotations

import asyncio
import logging

from game.conductor import host as host_module  # TICK_RETRY_S read when used: tests shorten it

log = logging.getLogger(__name__)


class Ticks:
    def __init__(self, conductor):
        self.conductor = conductor
        self.running: set[asyncio.Task] = set()  # the batches under way (cancelled when the conductor closes)
        self.batches = 0  # instants whose ticks ran here (for tests and the bench)
        self.ticked = 0  # ticks run in them

    def ring(self, due_ms: int, hosts: list) -> None:
        """The alarm of `due_ms` rang for these matches: take the ones that can be ticked here, hand
        the rest to their own loops."""
        now = self.conductor.clock()
        taken = []
        for host in hosts:
            if not host.idle():
                continue  # its loop is busy, or the match stopped: the loop looks for itself
            if self._is_due(host, now):
                host.ticking = True
                taken.append(host)
            else:  # not due after all (or its next moment could not be worked out): its loop looks
                host.wake_up()
        if taken:
            task = asyncio.get_running_loop().create_task(self.run(taken, now), name=f"ticks-{due_ms}")
            self.running.add(task)
            task.add_done_callback(self.running.discard)

    @staticmethod
    def _is_due(host, now: int) -> bool:
        try:
            wake = host.next_tick()
        except Exception:  # its own loop meets the fault and logs it (ring hands it over)
            return False
        return wake is not None and wake <= now

    async def run(self, hosts: list, now: int) -> None:
        """Tick every match in `hosts` at `now`, as each one's loop would, and hand each back."""
        self.batches += 1
        self.ticked += len(hosts)
        faulty = set()
        try:
            outcomes = await asyncio.gather(*(host.queue_tick(now) for host in hosts), return_exceptions=True)
            sending = []
            for host, outcome in zip(hosts, outcomes):
                if isinstance(outcome, BaseException) or host.stopped:
                    continue
                host.unsent.extend(outcome)
                posted = host.post_unsent()  # every match's frames are started before any is waited for
                if posted is not None:
                    sending.append((host, posted))
            for host, posted in sending:
                await host.unsent_sent(posted)
            for host, outcome in zip(hosts, outcomes):
                if host.stopped:
                    continue
                try:
                    if isinstance(outcome, BaseException):
                        await host.write_failed(outcome, host_module.TICK_COMMAND, now)
                    await host.after(host_module.TICK)
                except Exception:
                    log.exception("Match %s: handling tick failed", host.code)
                    faulty.add(host)
        finally:
            for host in hosts:
                if host in faulty:  # as its own loop does: a fault must not spin the clock
                    asyncio.get_running_loop().call_later(host_module.TICK_RETRY_S, host.hand_back)
                else:
                    host.hand_back()
