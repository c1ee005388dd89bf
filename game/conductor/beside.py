"""Slow work beside the matches' writes: the judge's suggestion, a phase's search, a start's measuring.

Anything that can wait on a network, a subprocess or a disk walk, or compute for long, runs here on a
few threads of the conductor's own: never on its event loop or its database thread, which every match
it holds shares, and never inside a transaction (on SQLite one holds the write lock every match needs).
Each piece has a time limit: past it the match goes on without the result, and the thread finishes in
its own time with its result dropped. A result comes back to its match's inbox as a message, and the
match's own loop writes it, as it writes a bot's act (host.py: one writer per match).
"""
from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from game import runner
from game.engine.api import Rejected, decide
from game.runner import MEASURE_LIMIT_S, FollowUp, refusal_reply, unmeasured

from game.conductor.threadname import name_this_thread

log = logging.getLogger(__name__)

# Threads for the follow-ups of every match held (judgements and searches, seconds at most) and, apart,
# for measuring bots at a start (minutes at worst), so a slow bot folder never holds up a judgement.
FOLLOW_UP_WORKERS, MEASURING_WORKERS = 4, 2
THREAD_NAME = "conductor-slow"
STARTING = {"code": "busy", "message": "The match is starting: its bots are being measured, and it starts by "
                                       "itself once they are."}


class Beside:
    """The conductor's threads for slow work; more work than threads waits its turn (within its time limit)."""

    def __init__(self):
        self._follow_ups = ThreadPoolExecutor(max_workers=FOLLOW_UP_WORKERS, thread_name_prefix=THREAD_NAME)
        self._measuring = ThreadPoolExecutor(max_workers=MEASURING_WORKERS, thread_name_prefix=THREAD_NAME)

    async def run(self, fn, limit_s: float, measuring: bool = False):
        """fn() on one of the threads (a measuring's own with `measuring`): its result or its exception, or
        asyncio.TimeoutError once limit_s have passed (counted from now: work that waited for a free
        thread has less time to run)."""
        pool = self._measuring if measuring else self._follow_ups
        return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(pool, _run_alone, fn), limit_s)

    def shutdown(self) -> None:
        """Start nothing more; what runs finishes by itself (its result has nowhere to go)."""
        for pool in (self._follow_ups, self._measuring):
            pool.shutdown(wait=False, cancel_futures=True)


def _run_alone(fn):
    name_this_thread(THREAD_NAME)
    try:
        return fn()
    finally:
        connections.close_all()  # this thread's own connections, if the work opened one (a search, a seat)


async def follow_up(host, work: FollowUp) -> None:
    """Run an event's follow-up beside and put its result in the match's inbox (None: nothing to write)."""
    try:
        data = await host.conductor.beside.run(work.work, work.limit_s)
    except asyncio.TimeoutError:
        log.warning("Match %s: %s", host.code, work.too_slow)
        data = work.failed(work.too_slow)
    except Exception:
        log.exception("Match %s: a follow-up %s failed; play goes on without it", host.code, work.type)
        data = work.failed(work.broken)
    host.put({"type": "follow_up", "follow_up": work, "data": data})


class Starting:
    """A match's start while its bots are measured beside (a walk of each bot's folder, a subprocess per
    bot kind: up to minutes). The start is run once they are measured, with what they measured, or
    refused as before (bot_over_tier); meanwhile the match's other messages go on, and a start that comes
    while one is measured is answered `busy` with a sentence (the browser sends it again by itself, so
    the moderator reads that the start is under way, then gets the start's own answer)."""

    def __init__(self, host):
        self.host = host
        self.waiting: dict | None = None  # the start being measured for: its command, reply_to, ref and id

    async def takes(self, message: dict) -> bool:
        """Whether this start (a command message) is one to measure for, or to answer that one is; the
        host runs anything else as usual (a repeated id, a stopped or stalled match, a match already
        started, a start the rules refuse anyway are all answered by execute, at once)."""
        host = self.host
        command = message.get("command") or {}
        if command.get("type") != "start" or host.state.status != "setup" or host.stopped or host.stalled_at is not None:
            return False
        receipt = host.receipt_of(command, message.get("id"))
        if receipt is not None and (receipt.actor, receipt.command_id) in host.receipts:
            return False
        try:  # pure and quick: a start the rules refuse (not the moderator's, ...) is not worth a measuring
            decide(host.state, dict(command, data={}), host.conductor.clock())
        except Rejected:
            return False
        if self.waiting is not None:
            await host.answer(message.get("reply_to"), message.get("ref"), {"ok": False, "seqs": [], "error": STARTING})
            return True
        self.waiting = message
        host.spawn(self._measure())
        return True

    async def _measure(self) -> None:
        match = self.host.runner.match
        began = time.monotonic()
        try:
            outcome = await self.host.conductor.beside.run(functools.partial(runner.measure_bots, match), MEASURE_LIMIT_S,
                                                           measuring=True)
        except Rejected as refusal:
            outcome = refusal
        except asyncio.TimeoutError:
            outcome = unmeasured(f"that took longer than {MEASURE_LIMIT_S:g} s")
        except Exception as exc:
            log.exception("Match %s: measuring the bots failed", self.host.code)
            outcome = unmeasured(exc.__class__.__name__)
        log.info("Match %s: its bots were measured for the start in %.1f s", self.host.code, time.monotonic() - began)
        self.host.put({"type": "start.measured", "outcome": outcome})

    async def measured(self, outcome) -> None:
        """In the match's loop: run the start with what the bots measured, or refuse it."""
        message, self.waiting = self.waiting, None
        if message is None:
            return
        host = self.host
        command, reply_to, ref, command_id = (message.get("command") or {}, message.get("reply_to"),
                                              message.get("ref"), message.get("id"))
        if isinstance(outcome, Rejected):
            await host.answered(host.receipt_of(command, command_id), reply_to, ref, refusal_reply(outcome))
            return
        await host.execute(command, reply_to, ref, command_id=command_id, bot_sizes=outcome)

