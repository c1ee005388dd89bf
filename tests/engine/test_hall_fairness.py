"""The fair-audience rule (issue 9): a bot's guess reaches the big screen and the phones only once the
humans can no longer answer the phase (or, in buzz phases, as it comes when the format says "live");
the computer's answer in a team phase likewise; the hall sees the clean answer. Checked on every event
of the played matches of both formats (tests/engine/hall.py), and at chosen moments."""
from __future__ import annotations

import pytest

from game.engine.api import apply, fold, project, snapshot

from .hall import check_hall_fairness
from .played import PLAYED
from .support import MOD, Match, question
from .test_efficientqa import ANSWER, new_match, to_phase

GUESS = {"guess": "Zebulon Pike", "confidence": 0.8, "buzz": False,
         "alternatives": [["Zebulon Pike", 0.8], ["Lake Placid", 0.1]], "threshold": 0.5}


def event_steps(events):
    """(state before, event, state after) for every event after match_created, folded afresh from the log."""
    state = fold(events[:1])
    for seq, event in enumerate(events[1:], 2):
        after = apply(state, dict(event, seq=seq))
        yield state, dict(event, seq=seq), after
        state = after


@pytest.mark.parametrize("fmt", sorted(PLAYED))
@pytest.mark.parametrize("rule", ["after_humans", "live"])
def test_the_hall_never_sees_a_guess_while_the_humans_may_answer_on_any_event_of_a_played_match(fmt, rule):
    m = PLAYED[fmt](rule)
    bots = {s["id"] for s in m.state.seats.values() if s["kind"] == "bot"}
    holds = check_hall_fairness(event_steps(m.events), bots)
    if rule == "after_humans" or fmt == "efficientqa":  # a team phase holds guesses whatever the rule
        assert holds > 0, "the played match never held a guess back: the check saw nothing"
    released = [e for e in m.events if e["type"] == "bot_guesses_released"]
    assert bool(released) == (holds > 0)


def test_the_check_would_notice_a_guess_on_the_big_screen():
    """Guard the guard: the same played match with the guesses let through must fail the check."""
    m = PLAYED["efficientqa"]()
    leaky = [dict(e, data={k: v for k, v in e["data"].items() if k != "held"}) for e in m.events]
    with pytest.raises(AssertionError):
        check_hall_fairness(event_steps(leaky), {"b500", "b6", "bunl"})


def test_in_a_team_phase_the_bots_guess_waits_until_the_humans_submit_and_are_ruled():
    m = new_match()  # question 1: the humans have priority
    to_phase(m, 2)
    held = m.send("bot_guess", "b6", GUESS)[0]
    assert held["data"]["held"] and project(held, "spectator")["type"] == "hidden"
    m.submit("b6", "Zebulon Pike")
    m.submit("h0", "the moon")
    assert "Zebulon" not in str(snapshot(m.state, "spectator")) and "Zebulon" not in str(snapshot(m.state, "player", "t0"))
    events = m.rule("reject")  # the humans are wrong: they can no longer answer this phase
    assert [e["type"] for e in events] == ["ruling", "bot_guesses_released"]
    released = project(events[1], "spectator")
    assert released["data"]["guesses"]["b6"]["guess"] == "Zebulon Pike"
    for audience, team in (("spectator", None), ("player", "t0")):
        card = snapshot(m.state, audience, team)["question"]["bot_cards"]["b6"]
        assert (card["state"], card["guess"], card["confidence"]) == ("guessing", "Zebulon Pike", 0.8)
    assert project(events[1], "bot")["type"] == "hidden"


def test_the_computers_answer_ruled_first_keeps_its_text_from_the_hall_until_the_humans_are_done():
    m = new_match()
    m.play_to_close(step=10_000)
    m.send("next", MOD, at=m.now + 1000)  # question 2: the computer has priority
    to_phase(m, 2)
    m.submit("b6", "Zebulon Pike")
    ruling = m.rule("reject")[0]  # ruled while the humans are still discussing
    assert ruling["data"]["held"] and project(ruling, "moderator")["data"]["text"] == "Zebulon Pike"
    public = project(ruling, "spectator")["data"]
    assert public["text"] is None and public["verdict"] == "reject" and public["held"]
    assert "Zebulon" not in str(snapshot(m.state, "spectator")) and "Zebulon" not in str(snapshot(m.state, "player", "t0"))
    m.submit("h0", ANSWER)
    events = m.rule("accept")
    released = next(e for e in events if e["type"] == "bot_guesses_released")
    assert released["data"]["rulings"] == [{"id": ruling["data"]["id"], "text": "Zebulon Pike", "heard": None}]
    record = next(r for r in snapshot(m.state, "spectator")["rulings"] if r["id"] == ruling["data"]["id"])
    assert record["text"] == "Zebulon Pike" and "held" not in record


def test_in_a_buzz_phase_the_guess_waits_until_the_humans_are_locked_out():
    m = new_match()
    m.reveal_until(2)
    assert m.send("bot_guess", "b500", GUESS)[0]["data"]["held"]
    m.buzz("h0", at=m.now + 100)
    m.answer("h0", "the moon")
    events = m.rule("reject")
    assert events[1]["type"] == "bot_guesses_released" and events[1]["data"]["phase"] == 1
    later = m.send("bot_guess", "b500", dict(GUESS, confidence=0.9))[-1]
    assert "held" not in later["data"] and project(later, "spectator")["type"] == "bot_guess"


def test_a_guess_held_when_the_buzz_phase_dies_goes_out_before_the_next_phase():
    m = new_match()
    m.reveal_until(2)
    m.send("bot_guess", "b500", GUESS)
    events = []
    while m.q.phase == 0:
        events += m.advance()
    kinds = [e["type"] for e in events]
    assert kinds[kinds.index("timeout"):] == ["timeout", "bot_guesses_released", "phase_started"]


def test_the_hall_sees_the_clean_answer_and_the_moderator_the_whole_line():
    line = 'Zanzibar [accept Unguja; do not accept "Pemba"]'
    qs = [question("Bakadu bekedu, bikidu (*) bokodu bukudu.", line, qid=f"q{i}") for i in range(3)]
    m = Match("quizbowl", {"questions": 1}, questions=qs)
    m.start(0)
    m.play_to_close()
    closed = m.events[-1]
    assert closed["type"] == "question_closed"
    assert project(closed, "moderator")["data"]["answer"] == line
    assert snapshot(m.state, "moderator")["question"]["answer"] == line
    for audience in ("spectator", "player", "bot"):
        assert project(closed, audience, "t0")["data"]["answer"] == "Zanzibar"
        view = snapshot(m.state, audience, "t0")
        assert view["question"]["answer"] == "Zanzibar" and view["history"][0]["answer"] == "Zanzibar"
        assert "do not accept" not in str(view)
