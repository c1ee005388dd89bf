"""The conductor's one database thread, and its group commit.

Every piece of ORM work of a conductor runs here, in the order it was asked for, so the event loop
never blocks on the database. Writes under a lease (a match's command or clock tick) that are
waiting at the same moment are run together: one transaction for all of them, their leases checked
and extended by one statement, their events inserted by one and their commands' receipts by
another (event_log.write_together). A hundred matches whose words are due at the same instant of the
clock's grid thus cost one commit, not a hundred. A batch is what queued while the thread was busy,
or what was asked for in one turn of the event loop: the thread is woken once at the end of the
turn, so the matches whose clocks fire together share a transaction; nothing waits for company
longer than that.

Each caller gets its own outcome (a result or its own exception), and only after the transaction
has committed: an event is never handed back to be broadcast before it is stored. If the commit
itself fails, every write of the batch gets that failure (and the conductor reloads those matches).
The outcomes of one transaction reach the event loop with one wake-up, not one per caller, as soon
as it has committed. Nothing slow runs here: a search, a judgement or a bots' measurement runs
beside (beside.py), since every match of the conductor waits for this thread.
"""
from __future__ import annotations

import asyncio
import collections
import functools
import threading
from dataclasses import dataclass, field

from game.event_log import write_together

from game.conductor.threadname import name_this_thread


@dataclass
class Job:
    call: functools.partial
    match_id: int | None  # set for a write under the lease of that match: it may share a transaction
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future = field(repr=False)


class DatabaseThread:
    def __init__(self, owner: str, clock, name: str = "conductor-db"):
        self.owner, self.clock, self.name = owner, clock, name
        self._jobs: collections.deque[Job] = collections.deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._waking = False  # a wake-up of the thread is due at the end of this turn of the loop
        self.batches = 0  # transactions that carried more than one write (for tests and the bench)
        self.writes = 0  # writes run, alone or together
        self.largest = 0  # the most writes one transaction carried

    async def run(self, fn, *args):
        """Run fn(*args) on the database thread by itself."""
        return await self._submit(functools.partial(fn, *args), None)

    async def write(self, match_id: int, fn, *args):
        """Run fn(*args), a write to match `match_id` under this conductor's lease, possibly in one
        transaction with other matches' writes."""
        return await self._submit(functools.partial(fn, *args), match_id)

    def _submit(self, call, match_id) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        job = Job(call, match_id, loop, loop.create_future())
        with self._ready:
            if self._stopping:
                raise RuntimeError("The conductor's database thread has stopped.")
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._main, name=self.name, daemon=True)
                self._thread.start()
        if not self._waking:  # the thread is woken once the loop's turn is over, for all it asked
            self._waking = True
            loop.call_soon(self._wake)
        return job.future

    def _wake(self) -> None:
        self._waking = False
        with self._ready:
            self._ready.notify()

    def shutdown(self) -> None:
        """Finish what is queued, then let the thread end."""
        with self._ready:
            self._stopping = True
            self._ready.notify()

    def _main(self) -> None:
        name_this_thread(self.name)
        while True:
            with self._ready:
                while not self._jobs and not self._stopping:
                    self._ready.wait()
                if not self._jobs:
                    return
                jobs = list(self._jobs)
                self._jobs.clear()
            self._run_all(jobs)

    def _run_all(self, jobs: list[Job]) -> None:
        """Run the jobs in order and hand each its outcome as soon as its transaction has committed.
        Consecutive writes go in one transaction (a lone write too: one path, one cursor for the lease
        and the events). A match has one write in flight at a time (its loop awaits each), so no
        match's writes change order."""
        start = 0
        self.writes += sum(1 for job in jobs if job.match_id is not None)
        while start < len(jobs):
            end = start
            while end < len(jobs) and jobs[end].match_id is not None:
                end += 1
            if end > start:
                self._settle(self._write_together(jobs[start:end]))
                start = end
                continue
            done = []
            while end < len(jobs) and jobs[end].match_id is None:  # ORM work that is not a write: one by one
                job = jobs[end]
                try:
                    done.append((job, True, job.call()))
                except Exception as exc:  # handed to the caller to raise
                    done.append((job, False, exc))
                end += 1
            self._settle(done)
            start = end

    def _write_together(self, writes: list[Job]) -> list[tuple[Job, bool, object]]:
        if len(writes) > 1:
            self.batches += 1
            self.largest = max(self.largest, len(writes))
        outcomes = write_together(self.owner, [j.match_id for j in writes], self.clock(), [j.call for j in writes])
        return [(job, ok, value) for job, (ok, value) in zip(writes, outcomes)]

    @staticmethod
    def _settle(done: list[tuple[Job, bool, object]]) -> None:
        by_loop: dict = {}
        for item in done:
            by_loop.setdefault(item[0].loop, []).append(item)
        for loop, items in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve, items)
            except RuntimeError:  # the loop closed meanwhile: nobody waits for these any more
                pass


def _resolve(items: list[tuple[Job, bool, object]]) -> None:
    for job, ok, value in items:
        if job.future.done():
            continue
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
