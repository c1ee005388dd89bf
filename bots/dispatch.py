"""Sending a bot query without waiting for the answer: the conductor's one entry point to the bots.

With a broker (settings.REDIS_URL set) the query becomes a Celery task on the tier's queue
(bots.500mib, bots.6gib, bots.unlimited) and a bot worker sends the act back over the Redis channel
layer. In the embedded default (no REDIS_URL) a small thread pool in this process answers it, held
to the tier as a worker of that queue would hold it, and sends the act to the in-memory channel
layer. Either way send_query returns at once.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from bots.acting import answer, send_reply, time_limit_ms
from bots.tasks import act
from bots.tiers import TIER_LIMITS

# Loading a bot's artefacts is outside the act's own limit; the worker may spend this long on it.
LOAD_ALLOWANCE_S = 60
HARD_LIMIT_EXTRA_S = 5

_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot-query")


def queue_for(tier: str) -> str:
    if tier not in TIER_LIMITS:
        raise ValueError(f"There is no bot tier {tier!r}; choose one of {', '.join(TIER_LIMITS)}.")
    return f"bots.{tier}"


def _answer_in_process(payload: dict, tier: str, loop) -> None:
    send_reply(payload["reply_to"], answer(payload, tier), loop)


def send_query(payload: dict, tier: str, loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Queue payload (see bots.acting) for a bot of tier; the act arrives on payload["reply_to"].

    In the embedded default the reply is sent through loop (by default the caller's running event
    loop, if any), because the in-memory channel layer must be used from the loop that receives.
    """
    queue = queue_for(tier)
    if settings.REDIS_URL:
        soft = time_limit_ms(payload) / 1000 + LOAD_ALLOWANCE_S
        act.apply_async(args=[payload], queue=queue, soft_time_limit=soft, time_limit=soft + HARD_LIMIT_EXTRA_S)
        return
    if loop is None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
    _pool.submit(_answer_in_process, payload, tier, loop)
