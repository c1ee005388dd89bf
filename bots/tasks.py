"""The Celery tasks the bot workers run: one query in, one act out on the channel layer.

Nobody waits on a result (results are ignored); the reply is the channel-layer message built by
bots.acting. The tier a query is answered in is the tier of the queue it was delivered through
(bots.<tier>), so a worker started for the 500 MiB queue holds every bot it runs to 500 MiB,
whatever the query claims. Celery's soft and hard time limits (set per query by bots.dispatch) are
a backstop for work outside the act itself, such as a bot whose artefacts never finish loading.

bots.ping answers at once through the same reply path: a health check for a tier's workers, and
the transport floor that bench/bots.py --celery measures beside real acts.
"""
import logging
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from bots.acting import answer, reply_message, send_reply, time_limit_ms
from bots.budgets import TIER_LIMITS

log = logging.getLogger(__name__)


def queue_tier(request) -> str | None:
    """The tier of the queue a task was delivered through, or None when it did not come through one."""
    info = getattr(request, "delivery_info", None) or {}
    queue = info.get("routing_key") or ""
    tier = queue.removeprefix("bots.")
    return tier if queue.startswith("bots.") and tier in TIER_LIMITS else None


@shared_task(name="bots.act", ignore_result=True, bind=True)
def act(self, payload: dict) -> None:
    try:
        message = answer(payload, queue_tier(self.request))
    except SoftTimeLimitExceeded:
        message = reply_message(
            payload, error=f"The bot worker ran out of time for this query (act limit {time_limit_ms(payload)} ms)."
        )
    if not payload.get("reply_to"):
        log.error("bot query %s has no reply_to; dropping its act", payload.get("query_id"))
        return
    send_reply(payload["reply_to"], message)


@shared_task(name="bots.ping", ignore_result=True, bind=True)
def ping(self, payload: dict) -> None:
    started = time.perf_counter()
    message = {"type": "bot.pong", "query_id": payload.get("query_id"), "tier": queue_tier(self.request),
               "worker_ms": round((time.perf_counter() - started) * 1000, 3)}
    send_reply(payload["reply_to"], message)
