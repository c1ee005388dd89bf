"""The fair-audience rule, per question: while a human may still score on a question (in this phase or
a later one), no bot's guess for it, nor the computer's answer in a team phase, reaches the big screen
or a phone; once no human can, the room sees them all (with hall_bot_guesses "live", a buzz phase that
is the question's last shows them as they come); the hall sees the clean answer. Checked on every event
of the played matches of both formats (tests/engine/hall.py), and at the moments the issue named."""
from __future__ import annotations

import pytest

from game.engine.api import apply, fold, project, snapshot

from .hall import check_hall_fairness
from .played import PLAYED
from .support import MOD, Match, question
from .test_efficientqa import ANSWER, new_match, to_phase, to_question

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


HALL_VIEWS = (("spectator", None), ("player", "t0"), ("player", "t1"))


def hall_sees(m: Match, text: str) -> bool:
    """Whether the big screen or any team's phones show `text` now."""
    return any(text in str(snapshot(m.state, audience, team)) for audience, team in HALL_VIEWS)


def test_a_phase_1_guess_stays_off_the_screens_through_phases_2_and_3_until_the_question_closes():
    """The hint between phases: the humans locked out of phase 1 still play phases 2 and 3."""
    m = new_match()  # question 1: the humans have priority
    m.reveal_until(2)
    assert m.send("bot_guess", "b500", GUESS)[0]["data"]["held"]
    m.buzz("h0", at=m.now + 100)
    m.answer("h0", "the moon")
    events = m.rule("reject")  # locked out of phase 1, not of the question
    assert "bot_guesses_released" not in [e["type"] for e in events]
    to_phase(m, 2)
    assert not hall_sees(m, "Zebulon") and not hall_sees(m, "Lake Placid")
    m.submit("h0", "the sun")
    m.rule("reject")
    to_phase(m, 3)
    assert not hall_sees(m, "Zebulon") and not hall_sees(m, "Lake Placid")
    m.submit("h0", ANSWER)
    events = m.rule("accept")
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["question_closed", "bot_guesses_released"]
    for audience, team in HALL_VIEWS:
        card = snapshot(m.state, audience, team)["question"]["bot_cards"]["b500"]
        assert (card["state"], card["guess"]) == ("settled", "Zebulon Pike")
        assert [g for g, _ in card["guesses"]] == ["Zebulon Pike", "Lake Placid"]


def test_a_buzz_phase_that_dies_starts_the_next_phase_with_the_guess_still_held():
    m = new_match()
    m.reveal_until(2)
    m.send("bot_guess", "b500", GUESS)
    events = []
    while m.q.phase == 0:
        events += m.advance()
    kinds = [e["type"] for e in events]
    assert kinds[kinds.index("timeout"):] == ["timeout", "phase_started"]
    assert not hall_sees(m, "Zebulon")


def test_the_computers_phase_2_answer_and_its_ruling_keep_their_text_from_everyone_but_the_moderator_until_phase_3_is_over():
    m = new_match()
    to_question(m, 2)  # question 2: the computer has priority
    to_phase(m, 2)
    held = m.send("bot_guess", "b6", GUESS)[0]
    assert held["data"]["held"] and project(held, "spectator")["type"] == "hidden"
    submission = m.submit("b6", "Zebulon Pike")[0]
    for audience, team in HALL_VIEWS:  # not even the computer team's own phones
        assert project(submission, audience, team)["data"]["text"] is None
    ruling = m.rule("reject")[0]
    assert ruling["data"]["held"] and project(ruling, "moderator")["data"]["text"] == "Zebulon Pike"
    public = project(ruling, "spectator")["data"]
    assert public["text"] is None and public["verdict"] == "reject" and public["held"]
    m.submit("h0", "the moon")
    m.rule("reject")
    to_phase(m, 3)  # both wrong in phase 2: phase 3 is still to play
    assert not hall_sees(m, "Zebulon") and not hall_sees(m, "Lake Placid")
    m.send("bot_guess", "bunl", dict(GUESS, guess="Pike's Peak", alternatives=[["Pike's Peak", 0.8]]))
    m.submit("bunl", "Pike's Peak")
    m.rule("reject")
    assert not hall_sees(m, "Pike's Peak")
    m.submit("h0", ANSWER)
    events = m.rule("accept")
    released = next(e for e in events if e["type"] == "bot_guesses_released")
    assert {r["text"] for r in released["data"]["rulings"]} == {"Zebulon Pike", "Pike's Peak"}
    assert set(released["data"]["guesses"]) == {"b6", "bunl"}
    record = next(r for r in snapshot(m.state, "spectator")["rulings"] if r["id"] == ruling["data"]["id"])
    assert record["text"] == "Zebulon Pike" and "held" not in record
    assert project(released, "bot")["type"] == "hidden"


def test_in_quizbowl_the_guess_goes_out_once_every_human_team_is_locked_out():
    m = PLAYED["quizbowl"]()
    bots = {"bot"}
    assert check_hall_fairness(event_steps(m.events), bots) > 0
    q1 = [e for e in m.events if e["type"] in ("ruling", "bot_guesses_released", "question_closed")]
    first = next(i for i, e in enumerate(q1) if e["type"] == "bot_guesses_released")
    assert q1[first - 1]["type"] == "ruling" and q1[first - 1]["data"]["team"] == "t0", \
        "the humans' neg on the one-phase question ends their chance: the hold lifts then"


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
