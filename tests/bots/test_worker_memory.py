"""A tier's memory limit holds while bots play, through the real thing: a `celery worker -Q bots.500mib`
process (its pool process held to a 200 MiB budget, set by the environment the worker reads), Redis
db 11 as broker and channel layer, the conductor and a moderator. A bot that keeps 50 MiB more on every
act is stopped for the rest of the match with the figures, the moderator is told live, the match goes
on to its end, and the other bot, in the same worker process, answers all along.

No cgroup v2 memory controller is delegated where these tests run, so what this proves is the
setrlimit(RLIMIT_DATA) path; the worker's log says which mechanisms hold it. The cgroup path is
unit-tested on a fake cgroup directory (tests/bots/test_memory_limits.py), and a process killed under
a bot (as the kernel kills one past its cgroup's memory.max) is played here with a bot that kills its
own process."""
import asyncio
import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer

from bots import kinds
from bots.dispatch import send_query
from game.engine.api import fold
from game.models import Packet, Question
from game.event_log import load_events
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from tests.bots.conftest import broker_at, running_worker
from tests.bots.test_live_match_with_workers import Moderator
from tests.redis_dbs import redis_url

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_URL = redis_url("memory")  # a database of its own: no other test uses it
TEST_KINDS = "tests.bots.growing.GrowingBot,tests.bots.growing.KilledBot"
WORKER_ENV = {"REDIS_URL": REDIS_URL, "EXHIBITION_BOT_MEMORY_500MIB": "200MiB", "EXHIBITION_BOT_KINDS": TEST_KINDS}
GROWER = {"kind": "growing", "name": "grower", "grow_mib": 50}
STEADY = {"kind": "simulated", "name": "steady", "simulated": True, "accuracy": 1.0, "buzz_mean": 0.8, "buzz_sd": 0.0}
RULES = {"questions": 2, "tiebreakers": 0, "words_per_minute": 600, "lead_in_seconds": 0, "answer_seconds": 5,
         "bot_act_timeout_ms": 3000, "bot_reaction_ms": 50}
QUESTIONS = [
    ("This planet, the fourth from the Sun, has two small moons named Phobos and Deimos and a huge volcano "
     "called Olympus Mons; for ten points, name this red planet.", "Mars"),
    ("This element with atomic number seventy nine was sought by alchemists, does not tarnish, and gives its "
     "name to a rush in California; for ten points, name this precious yellow metal.", "Gold"),
]


@pytest.fixture
def redis_11(settings):
    kinds.plug_in("tests.bots.growing.GrowingBot")  # the conductor's process checks seats of this kind too
    channel_layers.backends = {}
    with broker_at(settings, REDIS_URL):
        yield
    channel_layers.backends = {}


def make_match():
    packet = Packet.objects.create(slug="memory", title="Memory")
    for position, (text, answer) in enumerate(QUESTIONS, 1):
        Question.objects.create(packet=packet, position=position, kind="tossup", text=text, answer=answer,
                                accepted=[answer])
    computer = TeamSpec("Computer", [SeatSpec("Grower", kind="bot", tier="500mib", config=GROWER),
                                     SeatSpec("Steady", kind="bot", tier="500mib", config=STEADY)])
    return create_match_record(title="Memory", packet=packet, format_name="quizbowl", overrides=RULES,
                               teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), computer])


async def test_a_bot_that_grows_on_every_act_is_stopped_and_the_match_and_the_other_bot_go_on(redis_11, tmp_path):
    layer = get_channel_layer()
    match = await sync_to_async(make_match)()
    log = tmp_path / "worker.log"
    moderator = Moderator(layer, match.code)

    async def next_question(frame):
        await moderator.command("next")

    with running_worker(log, queue="bots.500mib", env=WORKER_ENV):
        await moderator.conduct(next_question, 120)

    events = await sync_to_async(load_events)(match)
    state = fold(events)
    seats = {s["name"]: s["id"] for s in state.seats.values()}
    grower, steady = seats["Grower"], seats["Steady"]
    [stopped] = [e for e in events if e["type"] == "bot_stopped"]
    reason = stopped["data"]["reason"]
    assert stopped["data"]["seat"] == grower and stopped["data"]["number"] == 1
    assert reason.startswith("Bot 'grower' went over its tier's memory limit while it played: the 500mib tier's bots "
                             "may add 200 MiB (209,715,200 bytes) to their worker process, held there by setrlimit "
                             "RLIMIT_DATA at ")
    assert reason.endswith("It is stopped for the rest of the match; the other bots play on.")
    assert any(f["type"] == "bot_stopped" and f["data"]["reason"] == reason for f in moderator.frames)  # told live

    # Every act it made fitted the budget; the one that would not was cut short inside.
    grown = [e["data"]["guess"] for e in events if e["type"] == "bot_guess" and e["data"]["seat"] == grower]
    assert 1 <= len(grown) <= 4 and grown == [f"grown {n}" for n in range(1, len(grown) + 1)]
    assert all(e["data"]["seat"] != grower for e in events[stopped["seq"]:] if e["type"] in ("bot_guess", "buzz"))
    # The other bot, in the same worker process, answers on after the stop, on both questions.
    later = [e for e in events[stopped["seq"]:] if e["type"] == "bot_guess" and e["data"]["seat"] == steady]
    assert later and {q for q in (question_of(events, e["seq"]) for e in later)} == {1, 2}
    closed = [e["data"]["result"] for e in events if e["type"] == "question_closed"]
    assert [r["seat"] for r in closed] == [steady, steady]
    assert state.status == "finished" and state.seats[grower]["stopped"]["number"] == 1
    assert "held by setrlimit RLIMIT_DATA" in log.read_text()  # the worker says what holds its processes


def question_of(events, seq) -> int:
    return max(e["data"]["number"] for e in events[:seq] if e["type"] == "question_started")


async def test_a_bot_whose_worker_process_dies_under_it_is_stopped_and_the_worker_answers_on(redis_11, tmp_path):
    layer = get_channel_layer()
    channel = await layer.new_channel()

    def payload(bot, private=None):
        return {"reply_to": channel, "match": "M1", "seat": bot["name"], "query_id": uuid.uuid4().hex, "bot": bot,
                "time_limit_ms": 3000, "private": private or {},
                "query": {"text": "which planet is red", "word_index": 4, "final": True, "tier": "500mib"}}

    with running_worker(tmp_path / "worker.log", queue="bots.500mib", env=WORKER_ENV):
        send_query(payload({"kind": "killed", "name": "doomed"}), "500mib")
        reply = await asyncio.wait_for(layer.receive(channel), 30)
        send_query(payload({**STEADY}, {"answer": "Mars", "length_words": 4}), "500mib")
        after = await asyncio.wait_for(layer.receive(channel), 30)
    assert reply["stopped"] is True and reply["act"] is None and reply["seat"] == "doomed"
    assert re.fullmatch(r"Bot 'doomed': its worker process died while it acted \(Worker exited prematurely: "
                        r"signal 9 \(SIGKILL\).*\)\. It is stopped for the rest of the match; the other bots play on\.",
                        reply["error"])
    assert after["error"] is None and after["act"]["guess"] == "Mars"  # a new pool process answers
