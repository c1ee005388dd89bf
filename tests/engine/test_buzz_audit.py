"""Every buzz is on the record: the winner's as a buzz event, each loser's as buzz_refused, so a close
call can be audited afterwards (receipt time, the word revealed, the word on the player's screen)."""
from __future__ import annotations

import pytest

from game.engine.api import Rejected, apply, decide, project

from .support import Match, question

TEXT = "Bakadu bekedu, bikidu (*) bokodu bukudu."


def started() -> Match:
    m = Match("quizbowl", {"questions": 1}, questions=[question(TEXT, qid=f"q{i}") for i in range(3)])
    m.start(0)
    m.reveal_until(3, step=1)
    return m


def buzz_refused(m: Match, seat: str, received: int, seen: int) -> Rejected:
    with pytest.raises(Rejected) as caught:
        decide(m.state, {"type": "buzz", "actor": m.actor(seat), "data": {"seen": seen}, "received": received},
               max(m.now, received) + 5)
    return caught.value


def test_a_buzz_that_lost_a_close_race_is_recorded_with_its_timing_and_the_hall_hears_only_the_race():
    m = started()
    won = m.buzz("h0", received=m.now)[-1]
    refusal = buzz_refused(m, "bot", received=won["data"]["received"] + 3, seen=2)
    assert refusal.code == "beaten" and refusal.record
    record = refusal.events[-1]
    assert record["type"] == "buzz_refused"
    received = won["data"]["received"]
    assert record["data"] == {"seat": "bot", "team": "t1", "received": received + 3, "word": 3, "seen": 2,
                              "pressed": received + 3, "claimed": None, "rtt": None, "clamp": None,
                              "code": "beaten", "reason": "Ann buzzed first.", "holder": "h0",
                              "holder_received": received, "margin": 3}
    race = {"seat": "bot", "team": "t1", "word": 3, "code": "beaten", "holder": "h0", "margin": 3}
    for audience, team in (("player", "t0"), ("player", "t1"), ("spectator", None)):
        assert project(record, audience, team)["data"] == race, "who lost, at which word, by how much: no more"
    assert project(record, "bot")["type"] == "hidden"
    assert project(record, "moderator")["data"]["seat"] == "bot"


def test_a_buzz_that_lost_by_more_than_a_race_stays_moderator_only():
    m = started()
    won = m.buzz("h0", received=m.now)[-1]
    record = buzz_refused(m, "bot", received=won["data"]["received"] + 1500, seen=3).events[-1]
    for audience, team in (("player", "t0"), ("spectator", None), ("bot", None)):
        assert project(record, audience, team)["type"] == "hidden"


def test_a_teammate_who_pressed_first_but_could_not_take_the_floor_is_no_race():
    m = started()
    m.buzz("h0", received=m.now)
    teammate = buzz_refused(m, "h1", received=m.now - 20, seen=3).events[-1]  # same team: the floor stays
    assert teammate["data"]["code"] == "beaten" and teammate["data"]["margin"] == -20
    assert project(teammate, "spectator")["type"] == "hidden"


def test_a_player_mashing_the_button_is_recorded_once_until_the_floor_changes():
    m = started()
    m.buzz("h0", received=m.now)
    first = buzz_refused(m, "bot", received=m.now, seen=3)
    for event in first.events:
        m.state = apply(m.state, event)
    again = buzz_refused(m, "bot", received=m.now, seen=3)
    assert again.code == "beaten" and not again.events, "the second press adds nothing to the record"
    m.answer("h0", "wrong")
    m.rule("reject")
    locked = buzz_refused(m, "h1", received=m.now + 1, seen=4)
    assert locked.code == "locked_out" and locked.events[-1]["data"]["holder"] is None
