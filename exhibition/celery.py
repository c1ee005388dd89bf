"""The Celery app of the bot workers: one queue per bot tier, configured from Django settings.

Run a worker for a tier with `celery -A exhibition worker -Q bots.500mib` (or bots.6gib,
bots.unlimited); each worker process loads its bots once and keeps them, held to its tier's memory
from its start (bots.memory). A worker serving several tiers' queues is refused: one process cannot
hold two tiers' limits.
"""
import os

from celery import Celery, signals
from kombu import Exchange, Queue

from bots import memory
from bots.tiers import TIER_LIMITS

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")

app = Celery("exhibition")
app.config_from_object("django.conf:settings", namespace="CELERY")

BOT_QUEUES = [f"bots.{tier}" for tier in TIER_LIMITS]


def route_by_tier(name, args, kwargs, options, task=None, **kw):
    """bots.act goes to the queue of the tier its query is played in."""
    if name == "bots.act" and args:
        tier = (args[0].get("query") or {}).get("tier")
        if tier in TIER_LIMITS:
            return {"queue": f"bots.{tier}"}
    return None


# Each queue has its own exchange and routing key, as Celery makes them for a queue named on the fly
# (a bare Queue(name) would bind every queue to the "celery" key and copy each query to all of them).
# The default queue stays, for any task that is not a bot's.
app.conf.task_queues = [Queue(name, Exchange(name), routing_key=name) for name in ["celery", *BOT_QUEUES]]
app.conf.task_routes = (route_by_tier,)
# A worker takes one query at a time, so a slow bot does not hold queries another process could answer.
app.conf.worker_prefetch_multiplier = 1
app.autodiscover_tasks()


@signals.celeryd_init.connect
def _hold_the_tier(sender=None, conf=None, options=None, **kwargs):
    """Before the pool starts: the tier this worker serves, from its queues (-Q), and how its processes
    will be held to that tier's memory."""
    try:
        memory.prepare_worker((options or {}).get("queues"), conf)
    except memory.WorkerMisconfigured as error:
        raise SystemExit(str(error)) from None


@signals.worker_process_init.connect
def _hold_this_process(**kwargs):
    memory.start_worker_process()
