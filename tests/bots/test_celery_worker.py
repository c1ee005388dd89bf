"""Bot queries through the real thing: Redis as broker and channel layer, and a real
`celery -A exhibition worker -Q bots.500mib` process started here."""
import asyncio
import io
import os
import signal
import uuid

import pytest
from channels.layers import get_channel_layer
from django.core.management import call_command

from bots.artefacts import build_artefacts
from bots.dispatch import send_query
from bots.replay_bot import ReplayBot
from tests.bots.conftest import running_worker

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db]

REPLY_WAIT_S = 10


@pytest.fixture
def worker(broker, tmp_path):
    with running_worker(tmp_path / "worker.log") as process:
        yield process


@pytest.fixture
def pairs_bot(bot_root, pairs_file):
    call_command("build_bot", "qa_pairs", "--name", "pairs", "--data", pairs_file, stdout=io.StringIO())
    return {"kind": "qa_pairs", "name": "pairs", "artefact_dir": str(bot_root / "pairs" / "build-1")}


def payload(channel, bot, text, tier="500mib", **extra):
    return {
        "reply_to": channel, "match": "LIVE42", "seat": "s3", "query_id": uuid.uuid4().hex, "bot": bot,
        "query": {"text": text, "word_index": len(text.split()), "final": True, "tier": tier}, **extra,
    }


async def receive(channel, wait=REPLY_WAIT_S):
    return await asyncio.wait_for(get_channel_layer().receive(channel), timeout=wait)


async def test_a_worker_answers_a_query_on_the_redis_channel_layer(worker, pairs_bot):
    channel = await get_channel_layer().new_channel()
    sent = payload(channel, pairs_bot, "who wrote the novel pride and prejudice", time_limit_ms=3000)
    send_query(sent, "500mib")
    message = await receive(channel)
    addressed = (message["type"], message["match"], message["seat"], message["query_id"])
    assert addressed == ("bot.act", "LIVE42", "s3", sent["query_id"])
    assert message["error"] is None
    assert (message["act"]["guess"], message["act"]["buzz"]) == ("Jane Austen", True)


async def test_a_hanging_bot_yields_a_time_limit_error_not_a_hang(worker):
    channel = await get_channel_layer().new_channel()
    slow = {"kind": "simulated", "name": "slow", "delay_ms": 5000}
    send_query(payload(channel, slow, "This prince", private={"answer": "Hamlet"}, time_limit_ms=300), "500mib")
    message = await receive(channel, wait=4)  # well before the bot would have finished
    assert message["act"] is None
    assert message["error"] == "The bot did not act within its time limit of 300 ms."


async def test_with_the_worker_killed_no_reply_comes_and_the_caller_goes_on(broker, pairs_bot, tmp_path):
    channel = await get_channel_layer().new_channel()
    with running_worker(tmp_path / "worker.log") as process:
        send_query(payload(channel, pairs_bot, "capital city of france"), "500mib")
        assert (await receive(channel))["act"]["guess"] == "Paris"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    send_query(payload(channel, pairs_bot, "who painted the mona lisa"), "500mib")  # returns: nobody waits
    with pytest.raises(asyncio.TimeoutError):
        await receive(channel, wait=3)


async def test_the_500mib_worker_refuses_other_tiers_and_remote_bots(worker, pairs_bot):
    from bots.tasks import act

    channel = await get_channel_layer().new_channel()
    wrong_tier = payload(channel, pairs_bot, "who painted the mona lisa", tier="unlimited")
    act.apply_async(args=[wrong_tier], queue="bots.500mib")  # past send_query's routing, straight into the queue
    assert (await receive(channel))["error"] == (
        "This bot worker serves the 500mib tier and refused a query for the unlimited tier; "
        "the query must go to the bots.unlimited queue.")
    remote = {"kind": "remote_qanta", "name": "far", "url": "http://127.0.0.1:9"}
    send_query(payload(channel, remote, "who painted the mona lisa"), "500mib")
    assert "runs on a remote server, so its size cannot be measured against the 500 MiB limit" in (
        await receive(channel))["error"]


async def test_a_worker_holds_a_bots_loading_to_the_tier_budget_and_stops_it_past_it(broker, bot_root, tmp_path):
    rows = "".join(f"q{i},{p},guess number {i} {p},0.{p % 10},False\n" for i in range(20000) for p in range(0, 40, 4))
    (tmp_path / "big.buzz.csv").write_text("question_id,token_position,guess,confidence,buzz\n" + rows)
    folder = build_artefacts(ReplayBot, tmp_path / "big.buzz.csv", {}, bot_root / "big", progress=lambda m: None)
    spec = {"kind": "replay_csv", "name": "big", "artefact_dir": str(folder)}
    channel = await get_channel_layer().new_channel()
    with running_worker(tmp_path / "worker.log", env={"EXHIBITION_BOT_MEMORY_500MIB": "16MiB"}):
        send_query(payload(channel, spec, "anything", private={"question_id": "q7"}), "500mib")
        reply = await receive(channel, wait=30)
    # The worker's process is held to 16 MiB more than it started with: loading the bot fails inside, and
    # the bot is stopped with the figures (the load-time measure of bots.registry never got to see it).
    assert reply["stopped"] is True and reply["act"] is None
    assert reply["error"].startswith("Bot 'big' went over its tier's memory limit while it played: the 500mib tier's "
                                     "bots may add 16 MiB (16,777,216 bytes) to their worker process, held there by "
                                     "setrlimit RLIMIT_DATA at ")
    assert "held by setrlimit RLIMIT_DATA" in (tmp_path / "worker.log").read_text()
