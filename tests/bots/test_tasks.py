"""The bots.act task body, run in this process: it replies on the channel layer, also when Celery's
soft time limit interrupts it."""
import pytest
from asgiref.sync import async_to_sync
from celery.exceptions import SoftTimeLimitExceeded
from channels.layers import get_channel_layer

from bots import tasks
from exhibition.celery import app, route_by_tier


@pytest.fixture(autouse=True)
def in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def payload(channel):
    return {
        "reply_to": channel, "match": "M1", "seat": "s1", "query_id": "7",
        "bot": {"kind": "simulated", "accuracy": 1.0}, "private": {"answer": "Hamlet"},
        "query": {"text": "This prince of Denmark", "word_index": 4, "final": True, "tier": "500mib"},
    }


def test_the_task_sends_the_act_to_reply_to():
    channel = async_to_sync(get_channel_layer().new_channel)()
    tasks.act(payload(channel))
    message = async_to_sync(get_channel_layer().receive)(channel)
    assert (message["type"], message["query_id"], message["error"]) == ("bot.act", "7", None)
    assert message["act"]["guess"] == "Hamlet"


def test_a_soft_time_limit_still_sends_an_error_reply(monkeypatch):
    def out_of_time(payload, tier):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(tasks, "answer", out_of_time)
    channel = async_to_sync(get_channel_layer().new_channel)()
    tasks.act({**payload(channel), "time_limit_ms": 750})
    message = async_to_sync(get_channel_layer().receive)(channel)
    assert message["act"] is None
    assert message["error"] == "The bot worker ran out of time for this query (act limit 750 ms)."


def test_the_celery_app_routes_bot_queries_by_tier():
    assert app.main == "exhibition"
    assert {q.name for q in app.conf.task_queues} >= {"bots.500mib", "bots.6gib", "bots.unlimited"}
    for tier in ("500mib", "6gib", "unlimited"):
        assert route_by_tier("bots.act", [{"query": {"tier": tier}}], {}, {}) == {"queue": f"bots.{tier}"}
    assert route_by_tier("other.task", [{}], {}, {}) is None
    assert tasks.act.name == "bots.act" and app.tasks["bots.act"].run == tasks.act.run
