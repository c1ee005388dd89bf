"""One writer per match (game/conductor/host.py): every path that can make a match write, at once, and
never two writes of one match at the same time.

Two matches on one conductor are driven for a few seconds by everything that can write to a match:
its clock, commands from several sockets (some forwarded from another conductor), a bot's acts
and its silences, the voice's timings, the pause after a restart, the database failing and coming back,
the channel layer failing and coming back, the start whose bots are measured beside, the phase's
search and the judge's suggestions beside. The conductor's writes and the runner's `handle` are watched:
no two writes of one match ever overlap, every one is made by that match's own loop, and each match's
log has every seq once, in order.
"""
import asyncio
import collections
import random
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from game import runner as runner_module
from game.conductor import database as database_module
from game.conductor import host as host_module
from game.conductor.core import Conductor
from game.conductor.groups import CONDUCTOR_CHANNEL
from game.models import MatchEvent
from game.runner import MatchRunner
from game.speech.reader import VoiceReader
from game.speech.synthesis import SpeechError

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}
SYSTEM = {"role": "system"}
DRIVE_S = 9.0
CLOCKED = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 600, "questions": 6}
# Read aloud, a bot in the buzz phase, then a team phase that shows search snippets.
VOICED = {"reveal": "voice", "lead_in_seconds": 0, "words_per_minute": 600, "questions": 6, "bot_act_timeout_ms": 300,
          "bot_reaction_ms": 0, "answer_seconds": 2,
          "phases": [{"mode": "buzz", "points": 3, "dead_seconds": 1, "bot_tier": "500mib"},
                     {"mode": "team", "points": 1, "discussion_seconds": 1, "snippets": True}]}


class Watch:
    """Records every write of every match: who made it, and whether another of the same match was under way."""

    def __init__(self):
        self.lock = threading.Lock()
        self.in_flight = collections.Counter()  # match id -> conductor writes under way (event loop)
        self.handling = collections.Counter()  # match id -> MatchRunner.handle calls under way (any thread)
        self.overlaps: list[str] = []
        self.writers = collections.defaultdict(set)  # match id -> names of the tasks that wrote
        self.handled = collections.defaultdict(collections.Counter)  # match code -> messages handled, by type

    def conductor_write(self, real):
        async def db_write(conductor, match_id, fn, *args):
            self.writers[match_id].add(asyncio.current_task().get_name())
            if self.in_flight[match_id]:
                self.overlaps.append(f"match {match_id}: a write began while another was under way")
            self.in_flight[match_id] += 1
            try:
                return await real(conductor, match_id, fn, *args)
            finally:
                self.in_flight[match_id] -= 1
        return db_write

    def host_handle(self, real):
        async def handle(host, message):
            self.handled[host.code][message.get("type")] += 1
            return await real(host, message)
        return handle

    def runner_handle(self, real):
        def handle(runner, *args, **kwargs):
            with self.lock:
                if self.handling[runner.match.pk]:
                    self.overlaps.append(f"match {runner.match.pk}: handle entered twice")
                self.handling[runner.match.pk] += 1
            try:
                time.sleep(0.001)  # widen the window a second writer would need
                return real(runner, *args, **kwargs)
            finally:
                with self.lock:
                    self.handling[runner.match.pk] -= 1
        return handle


@sync_to_async
def stored(match) -> list[tuple[int, str, dict]]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "type", "data"))


async def test_every_path_that_writes_a_match_runs_in_its_own_loop_one_write_at_a_time(
        conductor, conduct, live_match, channel_layer, monkeypatch):
    watch = Watch()
    monkeypatch.setattr(Conductor, "db_write", watch.conductor_write(Conductor.db_write))
    monkeypatch.setattr(MatchRunner, "handle", watch.runner_handle(MatchRunner.handle))
    monkeypatch.setattr(host_module.MatchHost, "_handle", watch.host_handle(host_module.MatchHost._handle))
    monkeypatch.setattr(host_module, "STORAGE_RETRY_MS", 100)

    def no_voice_here(self, text, name, wpm):
        raise SpeechError("no speech in this test: the reading clock's timings")

    def measured_beside(match):
        time.sleep(0.3)
        return {key: {"bytes": 1_000, "artefacts": 900} for key in robots.values()}

    def searched_beside(question_text, k):
        time.sleep(0.2)
        return [{"title": "Found", "text": "A passage.", "marked": "A passage."}]

    monkeypatch.setattr(VoiceReader, "_make_one", no_voice_here)
    monkeypatch.setattr(runner_module, "measure_bots", measured_beside)
    monkeypatch.setattr(runner_module, "top_snippets", searched_beside)
    failing = {"next": False}
    real_write_together = database_module.write_together

    def write_together(owner, match_ids, now, calls):  # the database fails once, when asked to
        if failing["next"]:
            failing["next"] = False
            return [(False, OperationalError("the database went away"))] * len(calls)
        return real_write_together(owner, match_ids, now, calls)

    monkeypatch.setattr(database_module, "write_together", write_together)

    clocked = await sync_to_async(live_match)(overrides=CLOCKED, title="Clocked")
    voiced = await sync_to_async(live_match)(format_name="efficientqa", overrides=VOICED, title="Voiced",
                                             bots=[("Robot", "500mib", {"bot": "r"})])
    robots = {"voiced": voiced.seat_keys["Robot"]}
    rng = random.Random(40)
    stop = asyncio.Event()
    forwarded_ok = collections.Counter()

    def player(match, name):
        return {"role": "player", "seat": match.seat_keys[name], "team": "t0"}

    async def send(match, kind, actor, data=None, forwarded=False):
        """A command as a web process sends it, from a socket of its own; forwarded: from another conductor."""
        reply_to = await channel_layer.new_channel()
        message = {"type": "command", "match": match.code, "reply_to": reply_to, "ref": kind,
                   "id": f"{kind}-{rng.random()}", "command": {"type": kind, "actor": actor, "data": data or {}}}
        if forwarded:
            await channel_layer.send(conductor.own_channel, dict(message, forwarded=1))
        else:
            await channel_layer.send(CONDUCTOR_CHANNEL, message)
        reply = await asyncio.wait_for(channel_layer.receive(reply_to), 20)
        forwarded_ok[kind] += forwarded and reply["ok"]
        return reply

    async def play_clocked():  # Ann buzzes and answers (the judge, beside), the moderator rules and moves on
        for _ in range(40):
            await asyncio.sleep(rng.uniform(0.1, 0.4))
            if (await send(clocked, "buzz", player(clocked, "Ann"), {"seen": 1}))["ok"]:
                answered = await send(clocked, "answer", player(clocked, "Ann"), {"text": rng.choice(["Answer 0", "wrong"])})
                if answered["ok"]:
                    await send(clocked, "rule", MOD, {"verdict": rng.choice(["accept", "reject"]), "answer": answered["seqs"][-1]})
            await send(clocked, "next", MOD)
            if stop.is_set():
                return

    async def moderate():  # pauses, resumes and nexts both, from sockets of their own; every other one forwarded
        n = 0
        while not stop.is_set():
            n += 1
            match = rng.choice([clocked, voiced])
            await send(match, rng.choice(["pause", "resume", "resume", "next"]), MOD,
                       {"reason": "A word with the host"}, forwarded=n % 2 == 0)
            await asyncio.sleep(rng.uniform(0.05, 0.3))

    async def bob():  # Bob buzzes now and then too, through another conductor
        while not stop.is_set():
            await asyncio.sleep(rng.uniform(0.2, 0.6))
            if (await send(clocked, "buzz", player(clocked, "Bob"), {"seen": 1}, forwarded=True))["ok"]:
                await send(clocked, "answer", player(clocked, "Bob"), {"text": "Answer 1"}, forwarded=True)

    async def be_the_bot():  # answers most queries at once or late, never buzzing, and lets some go unanswered
        answered = 0
        while not stop.is_set():
            queries = conductor.send_query.queries
            for query in queries[answered:]:
                if rng.random() < 0.7:
                    await asyncio.sleep(rng.uniform(0, 0.2))
                    await channel_layer.send(CONDUCTOR_CHANNEL, {
                        "type": "bot.act", "match": query["match"], "seat": query["seat"], "query_id": query["query_id"],
                        "act": {"guess": "Mars", "confidence": 0.3, "buzz": False}, "error": None, "elapsed_ms": 5})
            answered = len(queries)
            await asyncio.sleep(0.05)

    async def faults():  # a restart's recovery, the channel layer lost and back, the database lost and back
        await asyncio.sleep(1.5)
        for match in (clocked, voiced):
            conductor.hosts[match.code].put({"type": "recover"})
        await asyncio.sleep(1.5)
        await conductor.layer_failed(RuntimeError("Redis went away"))
        await asyncio.sleep(0.2)
        conductor._layer_back()
        await asyncio.sleep(1.5)
        failing["next"] = True

    assert (await conduct(voiced.code, "start", MOD))["ok"]  # measured beside, then started
    assert (await conduct(clocked.code, "start", MOD))["ok"]
    drivers = [asyncio.ensure_future(work()) for work in (play_clocked, moderate, bob, be_the_bot, faults)]
    await asyncio.sleep(DRIVE_S)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*drivers), 30)
    await asyncio.sleep(0.5)  # what is under way settles

    assert not watch.overlaps, watch.overlaps
    for match in (clocked, voiced):
        assert watch.writers[match.pk] == {f"match-{match.code}"}, "every write was made by the match's own loop"
        events = await stored(match)
        assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1)), "every seq once, in order"
    paths = {"tick", "command", "recover", "layer.down", "layer.up", "start.measured", "follow_up"}
    for match in (clocked, voiced):
        assert paths <= set(watch.handled[match.code]), (match.title, watch.handled[match.code])
    assert {"voice.ready", "bot.act", "bot.timeout"} <= set(watch.handled[voiced.code]), watch.handled[voiced.code]
    assert any(handled["storage.retry"] for handled in watch.handled.values()), watch.handled
    assert forwarded_ok["pause"] and forwarded_ok["resume"], f"commands forwarded by another conductor: {forwarded_ok}"
    on_clock = collections.Counter(kind for _, kind, _ in await stored(clocked))
    aloud = collections.Counter(kind for _, kind, _ in await stored(voiced))
    assert on_clock["word_revealed"] and aloud["word_revealed"] and aloud["voice_ready"], "the clocks read, one aloud"
    assert on_clock["judge_suggested"], "the judge's suggestions, from beside"
    assert aloud["bot_guess"] and aloud["bot_missed"], "the bot's acts and its silences"
    assert aloud["snippets_shown"], "the phase's search, from beside"
    assert (await stored(voiced))[1][2]["bot_sizes"], "the start, with what was measured beside"
