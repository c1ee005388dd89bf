"""What each audience receives: the moderator sees everything; players, bots and the big screen see
only what is public, and every audience gets every seq so that a gap always means a lost frame."""
from __future__ import annotations

import pytest

from game.engine.api import AUDIENCES, create_match, make_rules, project, snapshot

from .support import SYS, TEAMS, Match, question, quizbowl_seats

TEXT = "Bakadu bekedu, bikidu (*) bokodu bukudu."
ANSWER = "Quvexo Pilandre"


@pytest.fixture
def m() -> Match:
    match = Match("quizbowl", {"questions": 1}, questions=[question(TEXT, ANSWER), question(TEXT, ANSWER)])
    match.start(0)
    match.reveal_until(2)
    return match


def _seen(event, audience, team="t0"):
    return project(event, audience, team)["type"]


@pytest.mark.parametrize("audience, team, shown", [
    ("moderator", None, True),
    ("spectator", None, True),
    ("player", "t0", True),
    ("player", "t1", True),
    ("bot", None, False),  # a bot never reads another bot's mind
])
def test_with_the_live_rule_bot_guesses_reach_the_hall_and_the_phones_as_they_come(audience, team, shown):
    m = Match("quizbowl", {"questions": 1, "hall_bot_guesses": "live"},
              questions=[question(TEXT, ANSWER), question(TEXT, ANSWER)])
    m.start(0)
    m.reveal_until(2)
    event = m.send("bot_guess", "bot", {"guess": "Isaac Newton", "confidence": 0.4, "buzz": False,
                                        "alternatives": [["Isaac Newton", 0.4]], "threshold": 0.5})[0]
    frame = project(event, audience, team)
    assert (frame["type"] == "bot_guess") == shown
    assert ("Isaac Newton" in str(frame)) == shown
    assert bool(snapshot(m.state, audience, team)["question"]["bot_guesses"]) == shown


def test_by_default_a_guess_made_while_the_humans_may_buzz_waits_for_them(m):
    event = m.send("bot_guess", "bot", {"guess": "Isaac Newton", "confidence": 0.4, "buzz": False,
                                        "alternatives": [["Isaac Newton", 0.4]], "threshold": 0.5})[0]
    assert event["data"]["held"] is True
    assert project(event, "moderator")["type"] == "bot_guess"
    for audience, team in (("spectator", None), ("player", "t0"), ("player", "t1"), ("bot", None)):
        assert project(event, audience, team)["type"] == "hidden"
        assert "Isaac Newton" not in str(snapshot(m.state, audience, team))
    assert snapshot(m.state, "moderator")["question"]["bot_guesses"]["bot"]["guess"] == "Isaac Newton"


@pytest.mark.parametrize("type, data", [
    ("judge", {"for": 5, "verdict": "accept", "confidence": 0.9, "reason": "exact match"}),
])
def test_staff_notes_reach_only_the_moderator(m, type, data):
    event = m.send(type, SYS, data)[-1]
    assert _seen(event, "moderator") == event["type"]
    for audience in ("spectator", "player", "bot"):
        assert _seen(event, audience) == "hidden"


def test_the_hall_hears_that_a_bot_missed_but_not_why(m):
    event = m.send("bot_missed", SYS, {"seat": "bot", "status": "timed_out",
                                       "reason": "worker bots-6gib@10.0.0.7 gave no answer within 3000 ms"})[-1]
    assert project(event, "moderator")["data"]["reason"].startswith("worker")
    for audience in ("spectator", "player"):
        frame = project(event, audience, "t0")
        assert frame["data"] == {"seat": "bot", "status": "timed_out"}
        card = snapshot(m.state, audience, "t0")["question"]["bot_cards"]["bot"]
        assert card["state"] == "missed" and card["missed"] == "timed_out" and "worker" not in str(card)
    assert project(event, "bot")["type"] == "hidden"


def test_every_audience_gets_a_frame_for_every_event_with_its_seq_and_time(m):
    m.send("bot_guess", "bot", {"guess": "x"})
    for seq, event in enumerate(m.events, 1):
        event = dict(event, seq=seq)
        for audience in AUDIENCES:
            frame = project(event, audience, "t0")
            assert (frame["seq"], frame["t"]) == (seq, event["t"]) and set(frame) == {"seq", "t", "type", "data"}


def test_the_roster_is_public_but_the_packet_is_not(m):
    created = m.events[0]
    for audience in ("spectator", "player", "bot"):
        data = project(created, audience, "t0")["data"]
        assert "questions" not in data and data["question_count"] == 1
        assert [t["name"] for t in data["teams"]] == ["Humans", "Computer"]
    assert project(created, "moderator")["data"]["questions"][0]["answer"] == ANSWER


def test_the_question_order_and_its_seed_are_the_moderators():
    """With the seed and a public packet anyone could work out the questions to come."""
    order = {"order": "shuffled", "seed": 90210, "start_at": 3, "categories": ["History"], "prefer_power": True}
    [created] = create_match(make_rules("quizbowl"), TEAMS, quizbowl_seats(), [question(TEXT, ANSWER)], 0,
                             question_order=order)
    assert project(created, "moderator")["data"]["question_order"] == order
    for audience in ("spectator", "player", "bot"):
        frame = project(created, audience, "t0")
        assert "question_order" not in frame["data"] and "90210" not in repr(frame), audience


@pytest.mark.parametrize("audience", ["spectator", "player", "bot"])
def test_a_snapshot_shows_only_the_words_read_so_far_until_the_question_closes(m, audience):
    view = snapshot(m.state, audience, "t0")
    assert view["question"]["words"] == ["Bakadu", "bekedu,"]
    assert view["question"]["answer"] is None and view["question"]["power_index"] is None
    assert view["questions"] is None
    m.play_to_close()
    view = snapshot(m.state, audience, "t0")
    assert view["question"]["answer"] == ANSWER and len(view["question"]["words"]) == 5
    assert view["history"][0]["answer"] == ANSWER


def test_the_moderator_snapshot_has_the_whole_question_from_the_start(m):
    view = snapshot(m.state, "moderator")
    assert view["question"]["words"] == ["Bakadu", "bekedu,", "bikidu", "bokodu", "bukudu."]
    assert view["question"]["answer"] == ANSWER and view["question"]["power_index"] == 3
    assert view["questions"][0]["text"] == TEXT


def test_an_unknown_audience_is_an_error(m):
    with pytest.raises(ValueError):
        project(m.events[-1], "press")
    with pytest.raises(ValueError):
        snapshot(m.state, "press")


def test_the_moderator_may_undo_only_once_something_was_ruled(m):
    assert snapshot(m.state, "moderator")["question"]["can_undo"] is False
    m.buzz("h0")
    m.rule("reject")
    assert snapshot(m.state, "moderator")["question"]["can_undo"] is True
    assert snapshot(m.state, "player", "t0")["question"]["can_undo"] is None
