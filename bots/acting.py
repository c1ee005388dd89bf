"""Answering one bot query and sending the act back: the work both the Celery task and the embedded
dispatcher do, so both send exactly the same message.

Payload (from the conductor):
    {"reply_to": channel name, "match": code, "seat": seat key, "query_id": str,
     "bot": spec (see bots.registry), "query": Query dict, "time_limit_ms": int (optional),
     "private": per-question data the bot may know (see bots.trust) (optional)}
Reply, sent to reply_to on the channel layer:
    {"type": "bot.act", "match", "seat", "query_id", "act": Act dict or None,
     "threshold": the bot's buzz threshold or None, "error": str or None,
     "stopped": true when the bot may not play again in this match (error says why), "elapsed_ms": int,
     "act_ms": the bot's own act in ms (float), "worker_ms": everything before the send in ms (float)}

The tier a query is answered in is the queue's: a worker refuses a query whose tier is not its
queue's, and checks the bot's measured size and memory against that tier (bots.registry), so a
refusal names the figure. Loading a bot, once per process, happens before the act's clock starts.

A worker process is held to its tier's memory during every act (bots.memory): an allocation past
the limit raises MemoryError inside the load or the act. The bot holding the most of the process's
memory is then stopped, and the reply says "stopped": the conductor stops its seat for the rest of
the match (a bot_stopped event), and the other bots play on.

The act's time limit costs no thread: on a process's main thread (a Celery worker's) a SIGALRM
interval timer interrupts the act; elsewhere (the embedded pool) each calling thread hands its acts
to one long-lived helper thread and waits for it, replacing the helper only after one hangs. Either
way a bot that hangs yields an error reply on time (in Python code; a bot stuck inside one long C
call is stopped by Celery's hard time limit and the conductor's own timer instead).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import signal
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from bots.budgets import TierExceeded
from bots.errors import BotError
from bots.protocol import ProtocolError, Query
from bots.memory import over_limit
from bots.registry import held_by, holding, largest_holder, loaded_entry, resolve, stop, take_stopped

log = logging.getLogger(__name__)

DEFAULT_TIME_LIMIT_MS = 5000
REQUIRED = ("reply_to", "match", "seat", "query_id", "bot", "query")


class TimeLimitExceeded(BotError):
    pass


def time_limit_ms(payload: dict) -> int:
    return int(payload.get("time_limit_ms") or DEFAULT_TIME_LIMIT_MS)


def _out_of_time(limit_ms: int) -> TimeLimitExceeded:
    return TimeLimitExceeded(f"The bot did not act within its time limit of {limit_ms} ms.")


def _alarm(signum, frame):
    raise _out_of_time(_alarm.limit_ms)


def _with_alarm(function, limit_ms: int):
    _alarm.limit_ms = limit_ms
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit_ms / 1000)
    try:
        return function()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Helper:
    """One long-lived thread that runs the acts of the thread that owns it, one at a time."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._run, name="bot-act", daemon=True).start()

    def _run(self):
        while (job := self.jobs.get()) is not None:
            function, outcome, finished = job
            try:
                outcome["value"] = function()
            except BaseException as error:  # handed to the waiting caller
                outcome["error"] = error
            finally:
                finished.set()

    def call(self, function, limit_ms: int):
        outcome: dict = {}
        finished = threading.Event()
        self.jobs.put((function, outcome, finished))
        if not finished.wait(limit_ms / 1000):
            self.jobs.put(None)  # it leaves once the hung act returns, if ever
            raise _out_of_time(limit_ms)
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]


_helpers = threading.local()


def call_with_time_limit(function, limit_ms: int):
    """function()'s result or exception, or TimeLimitExceeded once limit_ms have passed."""
    if threading.current_thread() is threading.main_thread():
        return _with_alarm(function, limit_ms)
    helper = getattr(_helpers, "helper", None) or _Helper()
    _helpers.helper = helper
    try:
        return helper.call(function, limit_ms)
    except TimeLimitExceeded:
        _helpers.helper = None  # the helper is stuck in the old act
        raise


def reply_message(payload: dict, act=None, error: str | None = None, elapsed_ms: float = 0,
                  threshold: float | None = None, act_ms: float | None = None, stopped: bool = False) -> dict:
    worker_ms = round(elapsed_ms, 3)  # elapsed_ms is its whole ms: 3.9996 is 4.0 and 4, never 4.0 and 3
    return {
        "type": "bot.act",
        "match": payload.get("match"),
        "seat": payload.get("seat"),
        "query_id": payload.get("query_id"),
        "act": act.to_dict() if act is not None else None,
        "threshold": threshold,  # the bot's buzz threshold, for the spectators' confidence bars
        "error": error,
        "stopped": stopped,  # the bot may not play again in this match (error says why)
        "elapsed_ms": int(worker_ms),
        "act_ms": None if act_ms is None else round(act_ms, 3),
        "worker_ms": worker_ms,
    }


def wrong_queue(query: Query, queue_tier: str | None) -> str | None:
    if queue_tier is None or query.tier == queue_tier:
        return None
    return (f"This bot worker serves the {queue_tier} tier and refused a query for the {query.tier} tier; "
            f"the query must go to the bots.{query.tier} queue.")


def answer(payload: dict, queue_tier: str | None = None, retried: bool = False) -> dict:
    """Check, load and run the bot within the time limit, and describe the outcome as a reply.

    queue_tier is the tier of the queue the query came through (None: trust the query's own tier).
    """
    started = time.perf_counter()
    missing = [k for k in REQUIRED if k not in payload]
    if missing:
        return reply_message(payload, error=f"The bot query lacks {', '.join(missing)}.")
    out_of_memory = False
    try:
        query = Query.from_dict(payload["query"])
        refusal = wrong_queue(query, queue_tier)
        if refusal:
            raise TierExceeded(refusal)
        stopped = take_stopped(resolve(payload["bot"]).identity)
        if stopped:
            return reply_message(payload, error=stopped, stopped=True, elapsed_ms=(time.perf_counter() - started) * 1000)
        entry = loaded_entry(payload["bot"], queue_tier or query.tier)
        bot = entry.bot
        private = payload.get("private")
        player = bot.with_private(private) if private else bot
        act_started = time.perf_counter()
        with holding(entry):
            result = call_with_time_limit(lambda: player.act(query), time_limit_ms(payload))
        act_ms = (time.perf_counter() - act_started) * 1000
        return reply_message(payload, act=result, elapsed_ms=(time.perf_counter() - started) * 1000,
                             threshold=getattr(bot, "threshold", None), act_ms=act_ms)
    except MemoryError:
        out_of_memory = True  # dealt with below, once the act's frames (which hold the bot) are let go
    except (BotError, ProtocolError, TierExceeded) as error:
        message = str(error)
    except Exception as error:  # a bug in a bot must not take the worker down with it
        log.exception("bot %r failed on query %s", payload.get("bot"), payload.get("query_id"))
        message = f"The bot failed: {error.__class__.__name__}: {error}"
    if out_of_memory:
        return _over_memory(payload, queue_tier or payload["query"].get("tier"), queue_tier, retried, started)
    return reply_message(payload, error=message, elapsed_ms=(time.perf_counter() - started) * 1000)


def _over_memory(payload: dict, tier: str | None, queue_tier: str | None, retried: bool, started: float) -> dict:
    """The process hit its memory limit during this bot's load or act. The bots in it share one budget,
    so the one holding the most of it is stopped and dropped: this bot (it may not play again in this
    match), or another, whose next query is told so while this act is tried once more."""
    resolved = resolve(payload["bot"])
    holder = largest_holder()
    mine = held_by(resolved.identity)
    if retried or holder is None or holder.resolved.identity == resolved.identity or holder.held <= mine:
        stop(resolved.identity)
        log.warning("bot %r stopped: its process hit its memory limit", resolved.name)
        return reply_message(payload, error=over_limit(resolved.name, tier, mine), stopped=True,
                             elapsed_ms=(time.perf_counter() - started) * 1000)
    stop(holder.resolved.identity, over_limit(holder.resolved.name, tier, holder.held))
    log.warning("bot %r stopped: it held the most when bot %r hit the process's memory limit",
                holder.resolved.name, resolved.name)
    return answer(payload, queue_tier, retried=True)


_loops = threading.local()


def _own_loop() -> asyncio.AbstractEventLoop:
    """This thread's event loop for replies, kept so the channel layer keeps its Redis connections
    (async_to_sync would make a new loop, and so a new connection, for every reply)."""
    loop = getattr(_loops, "loop", None)
    if loop is None or loop.is_closed():
        loop = _loops.loop = asyncio.new_event_loop()
    return loop


def send_reply(reply_to: str, message: dict, loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Send on the channel layer: through loop when the receiver's layer lives in that event loop
    (the embedded default), else on this thread's own reply loop."""
    layer = get_channel_layer()
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(layer.send(reply_to, message), loop).result(timeout=10)
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        _own_loop().run_until_complete(layer.send(reply_to, message))
    else:  # called from async code: its loop cannot be entered again from here
        async_to_sync(layer.send)(reply_to, message)
