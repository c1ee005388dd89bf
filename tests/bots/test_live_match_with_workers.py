"""A whole EfficientQA match against real bot workers: Redis as broker and channel layer, one real
`celery worker` process per tier, the conductor and the moderator driving it. The 6 GiB worker
is killed mid-match: its bot misses its act, the moderator is told, and the match goes on.
Every query any bot was sent is checked against the reveal log: no bot ever saw an unread word.
"""
import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer

from game.engine import bot_turns
from game.conductor.core import Conductor
from game.conductor.groups import CONDUCTOR_CHANNEL, MODERATOR, match_group
from game.engine.api import fold
from game.models import Packet, Question
from game.event_log import load_events
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from tests.bots.conftest import running_worker

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MOD = {"role": "moderator"}
TIERS = ("500mib", "6gib", "unlimited")
RULES = {"questions": 2, "tiebreakers": 0, "words_per_minute": 600, "lead_in_seconds": 0, "answer_seconds": 0,
         "bot_act_timeout_ms": 2000, "bot_reaction_ms": 50,
         "phases": [{"mode": "buzz", "points": 3, "dead_seconds": 1, "bot_tier": "500mib"},
                    {"mode": "team", "points": 2, "discussion_seconds": 4, "bot_tier": "6gib"},
                    {"mode": "team", "points": 1, "discussion_seconds": 4, "bot_tier": "unlimited", "snippets": True}]}
QUESTIONS = [("Which planet in our solar system is known as the Red Planet?", "Mars"),
             ("Which element has the chemical symbol Au and atomic number seventy nine?", "Gold")]


def simulated(tier: str, accuracy: float) -> dict:
    # buzz_sd 0 makes the buzz point exact: the 500 MiB bot buzzes halfway through the question.
    return {"kind": "simulated", "simulated": True, "accuracy": accuracy, "buzz_mean": 0.5, "buzz_sd": 0.0,
            "distractors": ["Jupiter"]}


def make_match():
    packet = Packet.objects.create(slug="workers", title="Workers")
    for position, (text, answer) in enumerate(QUESTIONS, 1):
        Question.objects.create(packet=packet, position=position, kind="short", text=text, answer=answer,
                                accepted=[answer])
    # The 500 MiB bot is always wrong, so each question goes on to the team phases.
    computer = TeamSpec("Computer", [SeatSpec(f"Sim {t}", kind="bot", tier=t,
                                              config=simulated(t, 0.0 if t == "500mib" else 1.0)) for t in TIERS])
    return create_match_record(title="Workers", packet=packet, format_name="efficientqa", overrides=RULES,
                               teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), computer])


class Moderator:
    """Rules each typed answer as the judge suggests, and watches the match through its group."""

    def __init__(self, layer, code):
        self.layer, self.code, self.frames, self.suggested = layer, code, [], None

    async def command(self, kind: str, data: dict | None = None) -> dict:
        inbox = await self.layer.new_channel()
        await self.layer.send(CONDUCTOR_CHANNEL, {"type": "command", "match": self.code, "reply_to": inbox,
                                                  "ref": kind, "command": {"type": kind, "actor": MOD,
                                                                           "data": data or {}}})
        return await asyncio.wait_for(self.layer.receive(inbox), 30)

    async def frames_from(self, channel: str):
        """The moderator's frames as a web process's hub receives them: a message per command, its frames encoded."""
        while True:
            message = await self.layer.receive(channel)
            for _, text in message.get("audiences", {}).get(MODERATOR, ()):  # (a roster message has none)
                yield json.loads(text)

    async def play(self, channel: str, on_frame) -> None:
        async for frame in self.frames_from(channel):
            self.frames.append(frame)
            if frame["type"] == "judge_suggested":  # the suggestion names the answer it is about ("for")
                self.suggested = {"verdict": frame["data"]["verdict"], "answer": frame["data"]["for"]}
            if frame["type"] in ("judge_suggested", "timeout") and self.suggested:
                await self.command("rule", self.suggested)  # refused if that answer is not on the floor
            if frame["type"] == "question_closed":
                self.suggested = None
                await on_frame(frame)
            if frame["type"] == "match_ended":
                return

    async def conduct(self, on_closed, limit: float) -> None:
        """Run a conductor here, start the match and play it to its end (on_closed(frame) after each
        question); the conductor stops after, however it went."""
        task = asyncio.get_running_loop().create_task(Conductor(layer=self.layer).run())
        watch = await self.layer.new_channel()
        await self.layer.group_add(match_group(self.code), watch)
        try:
            assert (await self.command("start"))["ok"]
            await asyncio.wait_for(self.play(watch, on_closed), limit)
        finally:
            task.cancel()
            await asyncio.wait([task], timeout=10)  # a stuck shutdown must not hide the real failure


async def test_a_match_plays_to_the_end_against_a_worker_per_tier_and_survives_losing_one(broker, tmp_path,
                                                                                          monkeypatch):
    channel_layers.backends = {}
    layer = get_channel_layer()
    match = await sync_to_async(make_match)()

    # Record every query the conductor builds, with the event-log position it was built at.
    built = []
    real_query = bot_turns.revealed_query

    def recording_query(state, seat):
        query = real_query(state, seat)
        built.append((state.seq, seat["id"], query))
        return query

    monkeypatch.setattr(bot_turns, "revealed_query", recording_query)

    workers = {}
    for tier in TIERS:
        workers[tier] = running_worker(tmp_path / f"worker-{tier}.log", queue=f"bots.{tier}")
        workers[tier].__enter__()
    moderator = Moderator(layer, match.code)

    async def after_question(frame):
        if frame["data"]["number"] == 1:
            workers["6gib"].__exit__(None, None, None)  # the 6 GiB worker dies between questions
            del workers["6gib"]
        await moderator.command("next")

    try:
        await moderator.conduct(after_question, 90)
    finally:
        for context in workers.values():
            context.__exit__(None, None, None)

    events = await sync_to_async(load_events)(match)
    state = fold(events)
    seats = {s["name"]: s["id"] for s in state.seats.values()}
    closed = [e["data"] for e in events if e["type"] == "question_closed"]
    # Q1: the 500 MiB bot buzzes wrong, the 6 GiB bot gets it in phase 2. Q2: the 6 GiB worker is
    # gone, so its bot misses; the unlimited bot gets it in phase 3.
    assert [(c["result"]["seat"], c["result"]["phase"]) for c in closed] == [(seats["Sim 6gib"], 2),
                                                                            (seats["Sim unlimited"], 3)]
    buzzes = [e["data"] for e in events if e["type"] == "buzz"]
    assert buzzes and all(b["seat"] == seats["Sim 500mib"] for b in buzzes)
    rulings = [(e["data"]["seat"], e["data"]["verdict"]) for e in events if e["type"] == "ruling"]
    assert (seats["Sim 500mib"], "reject") in rulings
    missed = [e["data"] for e in events if e["type"] == "bot_missed"]
    assert any(m["seat"] == seats["Sim 6gib"] for m in missed)
    assert any(f["type"] == "bot_missed" for f in moderator.frames)  # the moderator saw it live
    assert state.status == "finished" and state.scores == {"t0": 0, "t1": 3}

    # The audit: each query holds exactly the words revealed when it was built, and never more.
    assert len(built) >= 4
    for seq, seat, query in built:
        at = fold(events[:seq])
        words = at.question.words
        assert query["word_index"] == at.q.revealed
        assert query["text"] == " ".join(words[: at.q.revealed])
        assert query["final"] == (at.q.revealed == len(words))
        assert state.seats[seat]["tier"] == query["tier"]
