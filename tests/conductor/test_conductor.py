"""The conductor over the in-memory channel layer: commands, replies, broadcasts, clock, recovery."""
import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from game.conductor.core import Conductor
from game.conductor.groups import MODERATOR, SPECTATOR, team_key
from game.conductor.host import RESTART_REASON
from game.models import Match, MatchEvent, Seat
from game.event_log import load_state
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}
TEAM_PHASE = {"phases": [{"mode": "team", "points": 2, "discussion_seconds": 60}]}


def player(match, name):
    return {"role": "player", "seat": match.seat_keys[name], "team": "t0"}


@sync_to_async
def stored(match) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "t_ms", "type", "data"))


async def test_a_command_is_stored_answered_and_projected_for_each_audience(conductor, conduct, live_match, listen):
    match = await sync_to_async(live_match)(overrides=TEAM_PHASE, bots=[("Robot", "6gib", {"bot": "r"})])
    mod, screen = await listen(match.code, MODERATOR), await listen(match.code, SPECTATOR)
    humans, computer = await listen(match.code, team_key("t0")), await listen(match.code, team_key("t1"))
    assert (await conduct(match.code, "start", MOD))["seqs"] == [2, 3, 4]

    reply = await conduct(match.code, "chat", player(match, "Bob"), {"text": "I think it is Answer 0"})
    assert reply == {"type": "conductor.reply", "ref": "chat", "ok": True, "seqs": [5], "error": None}
    assert (await mod.next("chat"))["data"]["text"] == "I think it is Answer 0"
    assert (await humans.next("chat"))["seq"] == 5
    assert (await computer.next())["seq"] == 2  # frames arrive for every seq ...
    assert [(await computer.next())["type"] for _ in range(3)] == ["question_started", "phase_started", "hidden"]
    assert [(await screen.next())["type"] for _ in range(4)][-1] == "hidden"  # ... hidden where not theirs
    assert [e["seq"] for e in await stored(match)] == [1, 2, 3, 4, 5]


async def test_a_refused_command_stores_nothing_and_says_why(conductor, conduct, live_match):
    match = await sync_to_async(live_match)()
    reply = await conduct(match.code, "buzz", player(match, "Ann"), {"seen": 0})
    assert reply["ok"] is False and reply["seqs"] == []
    assert reply["error"] == {"code": "not_live", "message": "The match is not live."}
    forged = await conduct(match.code, "buzz", {"role": "player", "seat": "s999", "team": "t0"})
    assert forged["error"]["code"] in {"not_live", "forbidden"}
    assert [e["type"] for e in await stored(match)] == ["match_created"]


async def test_a_command_for_an_unknown_match_is_answered(conductor, conduct):
    reply = await conduct("NOSUCH", "start", MOD)
    assert reply["ok"] is False and reply["error"]["code"] == "no_match"
    assert "check the link" in reply["error"]["message"]


async def test_the_clock_reveals_words_without_any_command(conductor, conduct, live_match, listen):
    match = await sync_to_async(live_match)(overrides={"reveal": "clock", "words_per_minute": 600,
                                                       "lead_in_seconds": 0})
    screen = await listen(match.code, SPECTATOR)
    await conduct(match.code, "start", MOD)
    words = [(await screen.next("word_revealed"))["data"] for _ in range(3)]
    assert [w["word"] for w in words] == ["One", "two", "three"]
    assert [e["type"] for e in await stored(match)][-3:] == ["word_revealed"] * 3


async def test_buzzes_are_arbitrated_by_when_the_web_layer_received_them(conductor, conduct, live_match):
    match = await sync_to_async(live_match)(bots=[("Robot", "500mib", {"bot": "r"})])
    robot = {"role": "bot", "seat": match.seat_keys["Robot"], "team": "t1"}
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    state = await sync_to_async(load_state)(match)
    first_word_at = state.q.reveal_times[0]
    await asyncio.sleep(0.01)  # both stamps in the conductor's past, as the web layer's always are
    late = await conduct(match.code, "buzz", player(match, "Ann"), {"seen": 1}, received=first_word_at + 2)
    early = await conduct(match.code, "buzz", robot, {}, received=first_word_at + 1)
    assert late["ok"] and early["ok"], (late["error"], early["error"])
    buzzes = [e["data"] for e in await stored(match) if e["type"] == "buzz"]
    assert buzzes[1]["seat"] == match.seat_keys["Robot"] and buzzes[1]["replaces"] == match.seat_keys["Ann"]
    assert [b["seen"] for b in buzzes] == [1, None]
    state = await sync_to_async(load_state)(match)
    assert state.q.possession["seat"] == match.seat_keys["Robot"]


async def run_new_conductor(layer):
    conductor = Conductor(layer=layer, send_query=lambda payload, tier, loop=None: None)
    return conductor, asyncio.get_running_loop().create_task(conductor.run())


async def stop(task):
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_after_a_restart_a_live_match_is_paused_where_it_stood(channel_layer, live_match, listen):
    match = await sync_to_async(live_match)(overrides={"reveal": "clock", "lead_in_seconds": 30})
    waiting = await sync_to_async(live_match)(title="Not started")

    @sync_to_async
    def start_without_conductor():
        runner = MatchRunner(match)
        runner.handle({"type": "start", "actor": MOD})
        return runner.state

    before = await start_without_conductor()
    mod = await listen(match.code, MODERATOR)
    _, task = await run_new_conductor(channel_layer)
    paused = await mod.next("paused")
    await stop(task)
    assert paused["seq"] == before.seq + 1 and paused["data"]["reason"] == RESTART_REASON
    assert paused["t"] == before.t  # stamped where play stood, so the downtime is not played

    _, task = await run_new_conductor(channel_layer)  # a second restart does not pause twice
    await asyncio.sleep(0)
    await stop(task)
    events = await stored(match)
    assert [e["type"] for e in events].count("paused") == 1
    assert [e["type"] for e in await stored(waiting)] == ["match_created"]


async def test_resuming_after_a_restart_keeps_the_time_players_had_left(conductor, conduct, live_match):
    match = await sync_to_async(live_match)(overrides={"reveal": "clock", "lead_in_seconds": 30})
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "pause", {"role": "moderator", "system": True}, {"reason": RESTART_REASON})
    await asyncio.sleep(0.05)
    await conduct(match.code, "resume", MOD)
    state = await sync_to_async(load_state)(match)
    events = await stored(match)
    paused, resumed = events[-2], events[-1]
    assert resumed["data"]["shift"] == resumed["t_ms"] - paused["t_ms"] > 0
    assert state.q.next_word_at == events[3]["data"]["next_word_at"] + resumed["data"]["shift"]


async def test_wake_seats_a_player_the_host_added(conductor, live_match, listen, channel_layer):
    from game.conductor import send_wake

    match = await sync_to_async(live_match)()
    mod = await listen(match.code, MODERATOR)

    @sync_to_async
    def add_seat():
        return Seat.objects.create(team=match.teams.get(position=0), name="Cy").key

    key = await add_seat()
    await send_wake(match.code, layer=channel_layer)
    joined = await mod.next("seat_joined")
    assert joined["data"]["seat"]["id"] == key and joined["data"]["seat"]["team"] == "t0"
    await send_wake(match.code, layer=channel_layer)  # waking again seats nobody twice
    await asyncio.sleep(0.05)
    assert [e["type"] for e in await stored(match)].count("seat_joined") == 1


async def test_the_last_command_of_a_match_finishes_it(conductor, conduct, live_match):
    match = await sync_to_async(live_match)(overrides={"questions": 1})
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    await conduct(match.code, "buzz", player(match, "Ann"), {"seen": 1})
    answered = await conduct(match.code, "answer", player(match, "Ann"), {"text": "Answer 0"})
    await conduct(match.code, "rule", MOD, {"verdict": "accept", "answer": answered["seqs"][-1]})
    assert (await conduct(match.code, "next", MOD))["ok"]
    refreshed = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert refreshed.status == "finished"
    assert (await stored(match))[-1]["data"] == {"scores": {"t0": 15, "t1": 0}, "winner": "t0",
                                             "reason": "questions_played"}


async def test_a_database_that_fails_during_recovery_does_not_silence_the_conductor(channel_layer, transactional_db,
                                                                                   conduct, live_match, monkeypatch):
    """A restart while the database is briefly unavailable: the conductor waits for it, then serves."""
    from game import leases
    from game.conductor import core

    real, failures = leases.unserved_live_codes, []

    def flaky_live_codes(now):
        if len(failures) < 2:
            failures.append(1)
            raise RuntimeError("database is starting up")
        return real(now)

    monkeypatch.setattr(leases, "unserved_live_codes", flaky_live_codes)
    monkeypatch.setattr(core, "RECOVER_RETRY_S", 0.01)
    match = await sync_to_async(live_match)()
    running = Conductor(layer=channel_layer, send_query=lambda *a, **k: None)
    task = asyncio.get_running_loop().create_task(running.run())
    try:
        reply = await conduct(match.code, "start", MOD)
        assert reply["ok"] and len(failures) == 2
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_match_gets_one_host_however_many_messages_open_it_at_once(conductor, live_match, channel_layer):
    """A double Start from two windows and joins racing it, arriving on the shared channel and on
    the conductor's own at the same moment: one loop, every command answered, the log without a gap."""
    match = await sync_to_async(live_match)()
    while conductor.own_channel is None:
        await asyncio.sleep(0.01)
    replies = []
    for n in range(12):
        reply_to = await channel_layer.new_channel()
        replies.append(reply_to)
        kind = "start" if n < 2 else "join"
        actor = MOD if kind == "start" else {"role": "system"}
        seat = {"id": f"s{900 + n}", "name": f"Player {n}", "team": "t0", "kind": "human"}
        message = {"type": "command", "match": match.code, "id": f"concurrent-{n:04d}", "reply_to": reply_to,
                   "ref": n, "command": {"type": kind, "actor": actor, "data": {"seat": seat}}}
        # alternate the two channels the conductor reads, and hand some straight to dispatch
        if n % 3 == 0:
            await channel_layer.send("conductor", message)
        elif n % 3 == 1:
            await channel_layer.send(conductor.own_channel, dict(message, forwarded=1))
        else:
            asyncio.ensure_future(conductor.dispatch(message))
    answers = [await asyncio.wait_for(channel_layer.receive(r), 20) for r in replies]
    assert sum(1 for a in answers[:2] if a["ok"]) == 1, "one Start applies, the other is refused"
    assert all(a["ok"] for a in answers[2:]), answers
    assert len(conductor.hosts) == 1
    assert [t.get_name() for t in asyncio.all_tasks()].count(f"match-{match.code}") == 1, "one loop"
    seqs = [e["seq"] for e in await stored(match)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [e["type"] for e in await stored(match)].count("seat_joined") == 10, "every join answered is in the log"


async def test_matches_whose_words_fall_due_at_one_instant_share_a_transaction(conductor, conduct, live_match):
    """Each match's clock is its own loop's (one writer per match), and still the matches whose words
    fall due at one instant of the grid are stored together: one transaction for all (database.py)."""
    clock_rules = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 600}
    matches = [await sync_to_async(live_match)(overrides=clock_rules) for _ in range(4)]
    await asyncio.gather(*(conduct(m.code, "start", MOD) for m in matches))
    database = conductor._db
    batches, writes = database.batches, database.writes
    await asyncio.sleep(0.6)  # about six words each, with nothing else to write
    assert database.writes - writes >= 4 * 3, "the clocks read their words"
    assert database.batches > batches and database.largest >= 2, "words due at one instant shared a transaction"
    for match in matches:
        seqs = [e["seq"] for e in await stored(match)]
        assert seqs == list(range(1, len(seqs) + 1))


async def test_a_command_beside_a_tick_waits_for_it_and_every_frame_goes_out_once_in_order(
        conductor, conduct, live_match, listen, channel_layer, monkeypatch):
    """Eight matches read by the clock while the moderator pauses and resumes each of them over and
    over, with sends that take a while: a command that comes while its match's tick is being stored
    and sent waits for it (one writer per match), so every screen gets each match's frames once, in
    seq order, with no gap, and the log is whole."""
    import json
    import random

    real_group_send = channel_layer.group_send

    async def over_the_network(group, message):  # a send takes a while and lets others run meanwhile
        await asyncio.sleep(random.uniform(0, 0.01))
        await real_group_send(group, message)

    monkeypatch.setattr(channel_layer, "hand_over", None)
    monkeypatch.setattr(channel_layer, "group_send", over_the_network)
    clock_rules = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 600}
    matches = [await sync_to_async(live_match)(overrides=clock_rules) for _ in range(8)]
    listeners = [await listen(m.code, MODERATOR) for m in matches]
    started = await asyncio.gather(*(conduct(m.code, "start", MOD) for m in matches))

    async def pause_and_resume(match):
        for _ in range(10):
            await asyncio.sleep(random.uniform(0, 0.1))
            assert (await conduct(match.code, "pause", MOD, {"reason": "A word with the host"}))["ok"]
            await asyncio.sleep(random.uniform(0, 0.02))
            assert (await conduct(match.code, "resume", MOD))["ok"]

    await asyncio.gather(*(pause_and_resume(m) for m in matches))
    await asyncio.sleep(0.3)
    for match, listener, start in zip(matches, listeners, started):
        seqs = []
        while True:  # every frame sent so far, in the order it came
            try:
                message = await asyncio.wait_for(channel_layer.receive(listener.channel), 0.5)
            except asyncio.TimeoutError:
                break
            if message["type"] == "hub.frames":
                seqs += [json.loads(text)["seq"] for _, text in message["audiences"][MODERATOR]]
        events = await stored(match)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "the log is whole"
        assert seqs == [e["seq"] for e in events if e["seq"] >= start["seqs"][0]], "each frame once, in order, as stored"
        kinds = [e["type"] for e in events]
        assert kinds.count("paused") == kinds.count("resumed") == 10 and kinds.count("word_revealed") >= 3


async def test_a_fault_after_a_tick_holds_that_match_a_moment_and_its_clock_goes_on(
        conductor, conduct, live_match, listen, monkeypatch):
    """Something that fails after a tick (here the bots' catching up) is logged; the match's loop waits
    TICK_RETRY_S (a fault must not spin the clock), then its words go on; the other match, whose words
    fall due at the same instants, never waited."""
    from game.conductor import host as host_module
    from game.conductor.bots import BotDriver

    monkeypatch.setattr(host_module, "TICK_RETRY_S", 0.3)
    clock_rules = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 600}
    faulty, healthy = [await sync_to_async(live_match)(overrides=clock_rules) for _ in range(2)]
    listeners = {m.code: await listen(m.code, MODERATOR) for m in (faulty, healthy)}
    real_refresh, failed = BotDriver.refresh, []

    async def refresh(self):
        if self.host.code == faulty.code and not failed and self.state.q is not None and self.state.q.revealed >= 2:
            failed.append(conductor.clock())
            raise RuntimeError("a bot's catching up failed")
        await real_refresh(self)

    monkeypatch.setattr(BotDriver, "refresh", refresh)
    await asyncio.gather(*(conduct(m.code, "start", MOD) for m in (faulty, healthy)))

    async def heard(listener) -> list[float]:  # when each of the first six words reached the screen (ms)
        times = []
        while len(times) < 6:
            await listener.next("word_revealed")
            times.append(time.monotonic() * 1000)
        return times

    faulty_words, healthy_words = await asyncio.gather(heard(listeners[faulty.code]), heard(listeners[healthy.code]))
    assert failed, "the fault happened"
    gaps = lambda times: [b - a for a, b in zip(times, times[1:])]  # noqa: E731
    assert max(gaps(faulty_words)) >= 280, "the faulty match waited before its next word"
    assert max(gaps(healthy_words)) < 250, "the other match went on at its pace"
    events = await stored(faulty)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


async def test_a_finished_match_left_idle_is_let_go_and_opened_again_by_a_later_command(conductor, conduct, live_match,
                                                                                         monkeypatch):
    from game.conductor import core

    finished, playing = await sync_to_async(live_match)(), await sync_to_async(live_match)(title="Still live")
    assert (await conduct(playing.code, "start", MOD))["ok"]
    assert (await conduct(finished.code, "end", MOD))["ok"]  # ended before it started: finished
    await conductor.let_go_of_finished()
    assert {finished.code, playing.code} <= set(conductor.hosts)  # not idle long enough yet

    monkeypatch.setattr(core, "FINISHED_IDLE_MS", 0)
    await conductor.let_go_of_finished()
    assert finished.code not in conductor.hosts and playing.code in conductor.hosts  # a live match is kept
    again = await conduct(finished.code, "end", MOD)  # answered from the log, by a host opened again
    assert again["error"]["code"] == "finished" and finished.code in conductor.hosts
    assert [e["type"] for e in await stored(finished)][-1] == "match_ended"
