"""The embedded default (no REDIS_URL): send_query answers in a thread pool of this process and the
act arrives on the in-memory channel layer, without the caller ever waiting for it."""
import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from bots import kinds, registry
from bots.base_bot import BaseBot
from bots.dispatch import send_query
from bots.protocol import Act

gate = threading.Event()


class GatedBot(BaseBot):
    """Acts only once the test opens the gate."""

    kind = "gated"

    def act(self, query):
        gate.wait(10)
        return Act(guess="opened", confidence=0.9, buzz=True)


@pytest.fixture(autouse=True)
def embedded(settings, monkeypatch):
    settings.REDIS_URL = ""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setitem(kinds.KINDS, "gated", GatedBot)
    gate.clear()
    registry.forget_loaded()
    yield
    gate.set()
    registry.forget_loaded()


def payload(reply_to, bot, tier="500mib", **extra):
    return {
        "reply_to": reply_to, "match": "ABC123", "seat": "s7", "query_id": "q-1", "bot": bot,
        "query": {"text": "This prince of Denmark", "word_index": 4, "char_index": 22, "tier": tier},
        **extra,
    }


async def reply_on(channel):
    return await asyncio.wait_for(get_channel_layer().receive(channel), timeout=10)


async def test_an_act_comes_back_on_the_channel_layer():
    channel = await get_channel_layer().new_channel()
    bot = {"kind": "simulated", "name": "practice", "accuracy": 1.0, "buzz_mean": 0.5, "buzz_sd": 0.0}
    private = {"answer": "Hamlet", "length_words": 8}  # buzzes from word 4, where the query is
    send_query(payload(channel, bot, private=private, time_limit_ms=2000), "500mib")
    message = await reply_on(channel)
    elapsed, act_ms, worker_ms = message.pop("elapsed_ms"), message.pop("act_ms"), message.pop("worker_ms")
    assert isinstance(elapsed, int) and 0 <= act_ms <= worker_ms and elapsed == int(worker_ms)
    assert message == {
        "type": "bot.act", "match": "ABC123", "seat": "s7", "query_id": "q-1", "error": None, "stopped": False,
        "act": {"guess": "Hamlet", "confidence": 0.75, "buzz": True, "alternatives": [["Hamlet", 0.75]]},
        "threshold": 0.5,  # the simulated bot's default, drawn on the spectators' confidence bars
    }


async def test_the_caller_is_not_blocked_while_the_bot_thinks():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    send_query(payload(channel, {"kind": "gated"}, tier="6gib", time_limit_ms=5000), "6gib")
    # send_query has returned although the bot cannot have acted: the gate is still shut.
    assert not gate.is_set()
    gate.set()
    message = await reply_on(channel)
    assert (message["error"], message["act"]["guess"]) == (None, "opened")


async def test_a_bot_that_hangs_yields_a_time_limit_error():
    channel = await get_channel_layer().new_channel()
    send_query(payload(channel, {"kind": "gated"}, tier="unlimited", time_limit_ms=200), "unlimited")
    message = await reply_on(channel)
    assert message["act"] is None
    assert message["error"] == "The bot did not act within its time limit of 200 ms."
    assert message["elapsed_ms"] >= 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"bot": {"bot": "nobody"}}, "There is no bot called 'nobody'"),
        ({"bot": {"kind": "telepath"}}, "Unknown bot kind 'telepath'"),
        ({"query": {"text": "x", "answer": "Paris"}}, "a query has no field(s) answer"),
        ({"bot": {"kind": "simulated"}, "private": {}}, "not told the answer"),
    ],
)
async def test_a_query_that_cannot_be_answered_yields_a_readable_error(change, fragment):
    channel = await get_channel_layer().new_channel()
    send_query({**payload(channel, None), **change}, "500mib")
    message = await reply_on(channel)
    assert message["act"] is None and fragment in message["error"]
    assert (message["match"], message["seat"], message["query_id"]) == ("ABC123", "s7", "q-1")


def test_an_unknown_tier_is_refused_at_once():
    with pytest.raises(ValueError, match="no bot tier '1gib'"):
        send_query(payload("bots.reply", {"kind": "gated"}), "1gib")
