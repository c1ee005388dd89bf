"""The conductor under faults, over the in-memory layer: retried commands, two conductors on one
match, a conductor that dies holding matches, a database that stops answering, a channel layer
that fails. The same faults against the real stack (Daphne, Redis, PostgreSQL) are in
test_integration_faults.py."""
import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from game.conductor import host as host_module
from game import leases
from game.conductor.core import Conductor
from game.conductor.groups import CONDUCTOR_CHANNEL, MODERATOR
from game.conductor.host import LAYER_REASON, RESTART_REASON, STORAGE_REASON
from game.models import CommandReceipt, MatchEvent, MatchLease
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}


def player(match, name):
    return {"role": "player", "seat": match.seat_keys[name], "team": "t0"}


@sync_to_async
def stored(match) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "t_ms", "type", "data"))


def contiguous(events) -> bool:
    return [e["seq"] for e in events] == list(range(1, len(events) + 1))


async def start_conductor(layer, **kwargs):
    conductor = Conductor(layer=layer, send_query=lambda *a, **k: None, **kwargs)
    task = asyncio.get_running_loop().create_task(conductor.run())
    for _ in range(200):
        if conductor.own_channel:
            break
        await asyncio.sleep(0.01)
    return conductor, task


async def stop(task):
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


# -- exactly once -----------------------------------------------------------------------------------

async def test_a_retried_command_gets_its_first_answer_and_applies_once(conductor, conduct, live_match):
    match = await sync_to_async(live_match)()
    await conduct(match.code, "start", MOD, command_id="start-1")
    first = await conduct(match.code, "adjust", MOD, {"team": "t0", "points": 5, "reason": "protest"},
                          command_id="adjust-1")
    again = await conduct(match.code, "adjust", MOD, {"team": "t0", "points": 5, "reason": "protest"},
                          command_id="adjust-1")
    assert first["ok"] and again == first, "a retry is answered with the first answer"
    events = await stored(match)
    assert [e["type"] for e in events].count("score_adjusted") == 1
    # A refusal is an answer too: retried after the match moved on, the command still does nothing.
    refused = await conduct(match.code, "rule", MOD, {"verdict": "accept", "answer": 0}, command_id="rule-1")
    assert refused["error"]["code"] == "nothing_to_rule"
    await conduct(match.code, "reveal", MOD)
    buzzed = await conduct(match.code, "buzz", player(match, "Ann"))
    assert buzzed["ok"]
    retried = {"verdict": "accept", "answer": buzzed["seqs"][-1]}  # even naming the buzz now on the floor
    assert await conduct(match.code, "rule", MOD, retried, command_id="rule-1") == refused
    assert "ruling" not in [e["type"] for e in await stored(match)]


async def test_after_a_restart_a_retry_is_answered_from_the_stored_receipt(channel_layer, conduct, live_match):
    match = await sync_to_async(live_match)()
    first_conductor, task = await start_conductor(channel_layer)
    await conduct(match.code, "start", MOD, command_id="start-1")
    ack = await conduct(match.code, "pause", MOD, {"reason": "tea"}, command_id="pause-1")
    await stop(task)  # a clean stop gives the lease back
    _, task = await start_conductor(channel_layer)
    try:
        assert await conduct(match.code, "pause", MOD, {"reason": "tea"}, command_id="pause-1") == ack
        assert await conduct(match.code, "start", MOD, command_id="start-1") == await conduct(
            match.code, "start", MOD, command_id="start-1")
    finally:
        await stop(task)
    types = [e["type"] for e in await stored(match)]
    assert types.count("paused") == 1 and types.count("match_started") == 1
    assert await sync_to_async(CommandReceipt.objects.filter(match=match).count)() == 2


async def test_a_player_cannot_claim_another_seats_command_id(conductor, conduct, live_match):
    match = await sync_to_async(live_match)()
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    ann = await conduct(match.code, "buzz", player(match, "Ann"), command_id="same-id-1")
    bob = await conduct(match.code, "buzz", player(match, "Bob"), command_id="same-id-1")
    assert ann["ok"] and bob["error"]["code"] == "beaten", "receipts are kept per sender"


# -- one writer per match -------------------------------------------------------------------------

async def test_a_second_conductor_hands_commands_to_the_owner_and_pauses_nothing(channel_layer, conduct, live_match):
    """Two conductors on one layer (one started by mistake). The in-memory layer cannot share one
    channel between two readers, so the second is handed commands on its own channel, as if it had
    read them from the shared one; test_integration_faults.py runs two real ones on Redis."""
    a, b = await sync_to_async(live_match)(), await sync_to_async(live_match)(title="Other")
    first, task1 = await start_conductor(channel_layer)
    await conduct(a.code, "start", MOD)
    second, task2 = await start_conductor(channel_layer)
    try:
        replies = []
        for i in range(6):
            inbox = await channel_layer.new_channel()
            await channel_layer.send(second.own_channel, {
                "type": "command", "match": a.code, "id": f"via-second-{i}", "reply_to": inbox, "ref": str(i),
                "command": {"type": "reveal", "actor": MOD, "data": {}}})
            replies.append(await asyncio.wait_for(channel_layer.receive(inbox), 10))
        await asyncio.sleep(leases.RENEW_S + 0.5)  # a renewal round of both
        assert list(first.hosts) == [a.code] and second.hosts == {}, "no match is run by two conductors"
        assert second.forwarded == 6
    finally:
        await stop(task2)
        await stop(task1)
    assert all(r["ok"] for r in replies)
    events = await stored(a)
    assert contiguous(events) and [e["type"] for e in events].count("word_revealed") == 6
    assert "paused" not in [e["type"] for e in events], "the second conductor paused nothing"
    assert [e["type"] for e in await stored(b)] == ["match_created"]


async def test_a_conductor_that_dies_holding_a_match_is_replaced_and_the_match_paused(
        channel_layer, conduct, live_match, listen, monkeypatch):
    monkeypatch.setattr(leases, "LEASE_MS", 800)
    monkeypatch.setattr(leases, "RENEW_S", 0.2)
    match = await sync_to_async(live_match)(overrides={"reveal": "clock", "lead_in_seconds": 30})
    first, task1 = await start_conductor(channel_layer)
    await conduct(match.code, "start", MOD)
    monkeypatch.setattr(leases, "release", lambda *a, **k: None)  # it dies: no clean hand-back
    await stop(task1)
    mod = await listen(match.code, MODERATOR)
    second, task2 = await start_conductor(channel_layer)
    try:
        paused = await mod.next("paused")
        assert paused["data"]["reason"] == RESTART_REASON
        assert (await conduct(match.code, "resume", MOD))["ok"]
        lease = await sync_to_async(MatchLease.objects.get)(match=match)
        assert lease.owner == second.id
    finally:
        await stop(task2)
    assert contiguous(await stored(match))


async def test_a_conductor_that_lost_its_lease_writes_nothing_more(conductor, conduct, live_match):
    match = await sync_to_async(live_match)()
    await conduct(match.code, "start", MOD)
    await sync_to_async(MatchLease.objects.filter(match=match).update)(owner="someone-else", expires_ms=2**62)
    before = await stored(match)
    reply = await conduct(match.code, "reveal", MOD)
    assert not reply["ok"] and reply["error"]["code"] == "unavailable"
    assert await stored(match) == before
    assert match.code not in conductor.hosts


async def read_by_the_clock(live_match, listen, conduct):
    """A match read by the clock (a word every 100 ms), started, with its first word out; the match
    and its moderator's socket."""
    match = await sync_to_async(live_match)(overrides={"reveal": "clock", "lead_in_seconds": 0.2,
                                                       "words_per_minute": 600})
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "start", MOD)
    await mod.next("word_revealed")
    return match, mod


# -- the database stops answering -------------------------------------------------------------------

async def test_while_the_database_fails_the_clock_stops_and_the_match_is_paused_once_it_answers(
        conductor, conduct, live_match, listen, monkeypatch):
    monkeypatch.setattr(host_module, "STORAGE_RETRY_MS", 50)
    match, mod = await read_by_the_clock(live_match, listen, conduct)
    real, down = MatchRunner.handle, [True]

    def failing(self, *args, **kwargs):
        if down[0]:
            raise OperationalError("the database went away")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(MatchRunner, "handle", failing)
    reply = await conduct(match.code, "reveal", MOD, command_id="reveal-during-outage")
    assert reply["error"]["code"] == "unavailable"
    words_before = [e for e in await stored(match) if e["type"] == "word_revealed"]
    await asyncio.sleep(0.6)  # several words would be due by now
    down[0] = False
    paused = await mod.next("paused")
    assert paused["data"]["reason"] == STORAGE_REASON
    events = await stored(match)
    assert contiguous(events)
    words = [e for e in events if e["type"] == "word_revealed"]
    assert len(words) == len(words_before), "no word was read while nobody could store it"
    assert paused["t"] == events[paused["seq"] - 2]["t_ms"], "paused where play stood"
    assert (await conduct(match.code, "resume", MOD))["ok"]
    await mod.next("word_revealed")


# -- the channel layer fails ---------------------------------------------------------------------------

async def test_when_the_layer_fails_the_match_pauses_and_what_was_not_sent_goes_out_later(
        conductor, conduct, live_match, listen, channel_layer, monkeypatch):
    monkeypatch.setattr(host_module, "FLUSH_RETRY_MS", 50)
    match = await sync_to_async(live_match)()
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "start", MOD)
    await mod.next("phase_started")  # the start's frames are out before the layer breaks
    real, broken = channel_layer.group_send, [True]

    async def failing_group_send(group, message):
        if broken[0]:
            raise ConnectionError("Redis is restarting")
        await real(group, message)

    monkeypatch.setattr(channel_layer, "group_send", failing_group_send)
    monkeypatch.setattr(channel_layer, "hand_over", None)  # every send goes the way a network layer's does
    assert (await conduct(match.code, "reveal", MOD))["ok"], "the event is stored and the command answered"
    await asyncio.sleep(0.1)
    broken[0] = False
    frames = []
    while not any(f["type"] == "paused" for f in frames):
        frames.append(await mod.next())
    word = next(f for f in frames if f["type"] == "word_revealed")
    paused = next(f for f in frames if f["type"] == "paused")
    assert paused["data"]["reason"] == LAYER_REASON and paused["seq"] > word["seq"]
    seqs = [f["seq"] for f in mod.frames]
    assert seqs == sorted(set(seqs)), "frames go out in order, each once per flush"
    assert contiguous(await stored(match))


async def test_a_receive_that_fails_does_not_end_the_conductor(channel_layer, conduct, live_match, monkeypatch):
    monkeypatch.setattr("game.conductor.core.RECEIVE_BACKOFF_S", (0.01, 0.05))
    real, failures = channel_layer.receive, []

    async def flaky_receive(channel):
        if channel == CONDUCTOR_CHANNEL and len(failures) < 3:
            failures.append(channel)
            raise TimeoutError("Timeout reading from Redis")
        return await real(channel)

    monkeypatch.setattr(channel_layer, "receive", flaky_receive)
    match = await sync_to_async(live_match)()
    _, task = await start_conductor(channel_layer)
    try:
        assert (await conduct(match.code, "start", MOD))["ok"]
        assert len(failures) == 3
    finally:
        await stop(task)


def broken_group_send(channel_layer, monkeypatch, hang_s: float = 0.0):
    """Redis gone for the conductor's broadcasts: each send waits out `hang_s` (a connect time-out),
    then fails, until the returned switch is set to False. Returns (switch, seqs of the first failed send)."""
    real, broken, first_failed = channel_layer.group_send, [True], []

    async def failing(group, message):
        if broken[0]:
            if not first_failed:
                first_failed.extend(seq for frames in message.get("audiences", {}).values() for seq, _ in frames)
            await asyncio.sleep(hang_s)
            raise ConnectionError("Timeout connecting to server")
        await real(group, message)

    monkeypatch.setattr(channel_layer, "group_send", failing)
    monkeypatch.setattr(channel_layer, "hand_over", None)  # every send goes the way a network layer's does
    return broken, first_failed


async def test_while_the_screens_cannot_be_reached_no_word_is_read_unseen(
        conductor, conduct, live_match, listen, channel_layer, monkeypatch):
    """A broadcast to an unreachable Redis takes a connect time-out to fail; the words due meanwhile
    must not be read into the log as if the room had heard them: the clock stops where contact was lost."""
    monkeypatch.setattr(host_module, "FLUSH_RETRY_MS", 50)
    match, mod = await read_by_the_clock(live_match, listen, conduct)
    broken, first_failed = broken_group_send(channel_layer, monkeypatch, hang_s=0.5)
    await asyncio.sleep(1.5)  # a word is due every 100 ms
    broken[0] = False
    paused = await mod.next("paused")
    assert paused["data"]["reason"] == LAYER_REASON
    events = await stored(match)
    assert contiguous(events)
    unseen = [e for e in events if e["type"] == "word_revealed" and e["seq"] > max(first_failed)]
    assert unseen == [], "no word was read after the screens stopped hearing the conductor"
    assert paused["t"] - events[paused["seq"] - 2]["t_ms"] < 100, "paused where play stood when contact was lost"
    # Nothing runs until the moderator resumes, then the reading goes on from the next word.
    await asyncio.sleep(0.3)
    assert (await stored(match))[-1]["seq"] == paused["seq"]
    assert (await conduct(match.code, "resume", MOD))["ok"]
    word = await mod.next("word_revealed")
    assert word["seq"] == paused["seq"] + 2 and contiguous(await stored(match))


async def test_a_bot_is_not_counted_late_for_an_answer_it_could_not_send(
        conductor, conduct, live_match, listen, channel_layer, monkeypatch):
    """Bot answers come back through Redis too: while it is down a bot's silence is not the bot's
    fault, so no time-out is recorded against it, and it is asked again once the match resumes."""
    monkeypatch.setattr(host_module, "FLUSH_RETRY_MS", 50)
    match = await sync_to_async(live_match)(overrides={"bot_reaction_ms": 0, "bot_act_timeout_ms": 100},
                                            bots=[("Robot", "500mib", {"bot": "robot"})])
    mod = await listen(match.code, MODERATOR)
    bots = conductor.send_query
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    asked = await bots.wait_for(1)
    broken, _ = broken_group_send(channel_layer, monkeypatch)
    await conduct(match.code, "reveal", MOD)  # its broadcast finds Redis gone
    await asyncio.sleep(1.0)  # the bot's time limit and its grace are long past
    broken[0] = False
    paused = await mod.next("paused")
    assert paused["data"]["reason"] == LAYER_REASON
    assert "bot_missed" not in [e["type"] for e in await stored(match)], "no time-out counted while Redis was down"
    assert (await conduct(match.code, "resume", MOD))["ok"]
    again = await bots.wait_for(2)
    assert again["seat"] == asked["seat"] and again["query"]["text"] == "One two"
