"""The Celery tasks the bot workers run: one query in, one act out on the channel layer.

Nobody waits on a result (results are ignored); the reply is the channel-layer message built by
bots.acting. The tier a query is answered in is the tier of the queue it was delivered through
(bots.<tier>), so a worker started for the 500 MiB queue holds every bot it runs to 500 MiB,
whatever the query claims. Celery's soft and hard time limits (set per query by bots.dispatch) are
a backstop for work outside the act itself, such as a bot whose artefacts never finish loading.

A pool process that dies while a bot acts in it (the kernel kills it past its cgroup's memory limit,
or the bot crashes it) cannot answer; the worker's parent then answers for it that the bot is
stopped for the rest of the match (report_a_lost_process).

bots.ping answers at once through the same reply path: a health check for a tier's workers, and
the transport floor that bench/bots.py --celery measures beside real acts.
"""
import logging
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded, WorkerLostError
from celery.signals import task_failure

from bots.acting import answer, reply_message, send_reply, time_limit_ms
from bots.tiers import TIER_LIMITS
from bots.memory import lost_process

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
    try:
        send_reply(payload["reply_to"], message)
    except MemoryError:  # out of this task, Celery's parent would raise it again in itself
        log.error("bot query %s: no memory left to send its act; the conductor's timer reports it",
                  payload.get("query_id"))


@task_failure.connect
def report_a_lost_process(sender=None, exception=None, args=None, **kwargs):
    """In the worker's parent: a pool process died while a bot acted in it (killed over its cgroup's
    memory limit, or crashed). Nobody else can answer for it, so the parent sends the act: the bot is
    stopped for the rest of the match."""
    if getattr(sender, "name", None) != "bots.act" or not isinstance(exception, WorkerLostError) or not args:
        return
    payload = args[0] if isinstance(args[0], dict) else {}
    if not payload.get("reply_to"):
        return
    spec = payload.get("bot") if isinstance(payload.get("bot"), dict) else {}
    name = str(spec.get("bot") or spec.get("name") or spec.get("kind") or "?")  # as named in the seat, no lookup
    log.warning("bot %r: its worker process died while it acted (%s)", name, exception)
    send_reply(payload["reply_to"], reply_message(payload, error=lost_process(name, exception), stopped=True))


@shared_task(name="bots.ping", ignore_result=True, bind=True)
def ping(self, payload: dict) -> None:
    started = time.perf_counter()
    message = {"type": "bot.pong", "query_id": payload.get("query_id"), "tier": queue_tier(self.request),
               "worker_ms": round((time.perf_counter() - started) * 1000, 3)}
    send_reply(payload["reply_to"], message)
