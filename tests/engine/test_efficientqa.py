"""EfficientQA three-phase questions: buzz, then two team phases; captains submit; bot tiers per phase."""
from __future__ import annotations

import pytest

from game.engine.api import project, snapshot

from .support import MOD, SYS, Match, question

TEXT = "Bakadu bekedu, bikidu bokodu bukudu?"
WORDS = ["Bakadu", "bekedu,", "bikidu", "bokodu", "bukudu?"]
ANSWER = "Quvexo Pilandre"
READ_ENDS = 3350 + 600  # words at 2000, 2300, 2750, 3050, 3350; the last one takes 600 ms
PHASE_2_AT = READ_ENDS + 5000
PHASE_3_AT = PHASE_2_AT + 30_000
DIES_AT = PHASE_3_AT + 30_000


def new_match(overrides=None, n: int = 2) -> Match:
    qs = [question(TEXT, ANSWER, kind="short", qid=f"q{i}") for i in range(n + 2)]
    m = Match("efficientqa", dict({"questions": n}, **(overrides or {})), questions=qs)
    m.start(0)
    return m


def to_phase(m: Match, phase: int):
    """Let the clock run (nobody answering) until the given phase starts."""
    while m.q.phase + 1 < phase:
        m.advance()
    assert m.q.phase + 1 == phase and not m.q.closed


def to_question(m: Match, number: int):
    while m.q.number < number:
        m.play_to_close(step=10_000)
        m.send("next", MOD, at=m.now + 1000)


def test_an_unanswered_question_goes_through_three_phases_and_dies_with_its_answer():
    m = new_match()
    while not m.q.closed:
        m.advance()
    phases = [(e["t"], e["data"]["phase"], e["data"]["mode"], e["data"]["points"])
              for e in m.events_of_current("phase_started")]
    assert phases == [(0, 1, "buzz", 3), (PHASE_2_AT, 2, "team", 2), (PHASE_3_AT, 3, "team", 1)]
    timeouts = [(e["t"], e["data"]["kind"], e["data"].get("passed")) for e in m.events_of_current("timeout")]
    assert timeouts == [(PHASE_2_AT, "dead", None), (PHASE_3_AT, "discussion", ["t0", "t1"]),
                        (DIES_AT, "discussion", ["t0", "t1"])]
    closed = m.events[-1]
    assert closed["type"] == "question_closed" and closed["t"] == DIES_AT
    assert closed["data"]["dead"] and closed["data"]["answer"] == ANSWER
    # the answer line reaches everyone once the question is dead
    for audience in ("player", "spectator", "bot"):
        assert project(closed, audience, "t0")["data"]["answer"] == ANSWER
        assert snapshot(m.state, audience, "t0")["question"]["answer"] == ANSWER


def test_when_both_sides_miss_in_phase_one_the_team_phase_shows_the_rest_of_the_question():
    m = new_match()
    m.buzz("h0", at=2400)  # two words out
    m.rule("reject")
    m.buzz("b500")  # reading resumed at once after the first miss, so a third word is out
    assert m.q.revealed == 3
    events = m.rule("reject")
    started = events[-1]
    assert started["type"] == "phase_started" and started["data"]["phase"] == 2
    assert started["data"]["words"] == WORDS[3:]
    assert m.q.revealed == 5 and m.q.locked == [] and m.q.floor == "t0"
    assert snapshot(m.state, "player", "t1")["question"]["words"] == WORDS
    assert m.scores == {"t0": 0, "t1": 0}, "a wrong answer costs nothing by default"


@pytest.mark.parametrize("phase, seat, points", [
    (1, "h0", 3), (1, "b500", 3),
    (2, "h0", 2), (2, "b6", 2),
    (3, "h0", 1), (3, "bunl", 1),
])
def test_a_correct_answer_is_worth_less_in_each_later_phase(phase, seat, points):
    m = new_match()
    to_phase(m, phase)
    team = m.seats[seat]["team"]
    if phase == 1:
        m.buzz(seat, at=m.now + 2500)
        m.answer(seat, "Quvexo Pilandre")
    else:
        m.submit(seat, "Quvexo Pilandre")
        if team == "t1":
            m.send("pass", "h0")  # the humans have priority on question 1; they let it go
    m.rule("accept")
    assert m.scores == {"t0": 0, "t1": 0, team: points}
    assert m.q.closed and m.q.result == {"team": team, "seat": seat, "points": points, "phase": phase}


@pytest.mark.parametrize("number, first, second, first_seat, second_seat", [
    (1, "t0", "t1", "h0", "b6"),   # odd questions: the humans have priority
    (2, "t1", "t0", "b6", "h0"),   # even questions: the computer
])
def test_in_a_team_phase_the_priority_side_is_ruled_first(number, first, second, first_seat, second_seat):
    m = new_match()
    to_question(m, number)
    assert m.q.priority == first
    to_phase(m, 2)
    assert m.q.floor == first
    m.submit(second_seat, "Isaac Newton")  # the other side is quicker to submit...
    looked = {"verdict": "accept", "answer": m.floor_seq()}
    assert m.refuse("rule", MOD, looked).code == "nothing_to_rule"  # ...but waits its turn
    m.submit(first_seat, "the moon")
    assert m.refuse("rule", MOD, looked).code == "stale"  # a press from before is not a ruling of "the moon"
    first_ruling = m.rule("reject")[0]["data"]
    assert (first_ruling["team"], first_ruling["text"]) == (first, "the moon")
    assert m.q.floor == second and m.q.locked == [first]
    second_ruling = m.rule("accept")[0]["data"]
    assert (second_ruling["team"], second_ruling["text"], second_ruling["points"]) == (second, "Isaac Newton", 2)
    assert m.scores == {first: 0, second: 2}


def test_only_the_captain_submits_for_a_human_team():
    m = new_match()
    to_phase(m, 2)
    assert m.refuse("submit", "h1", {"text": "Isaac Newton"}).code == "not_captain"
    assert m.refuse("pass", "h1").code == "not_captain"
    m.send("chat", "h1", {"text": "I think it is Isaac Newton"})
    m.submit("h0", "Isaac Newton")
    assert m.q.submissions["t0"] == {"seat": "h0", "text": "Isaac Newton", "seq": m.state.seq}
    assert m.refuse("submit", "h0", {"text": "the moon"}).code == "already_answered"


@pytest.mark.parametrize("phase, seat, allowed", [
    (1, "b500", True), (1, "b6", False), (1, "bunl", False),
    (2, "b500", False), (2, "b6", True), (2, "bunl", False),
    (3, "b500", False), (3, "b6", False), (3, "bunl", True),
])
def test_each_phase_is_played_by_its_own_bot_tier(phase, seat, allowed):
    m = new_match()
    to_phase(m, phase)
    command = "buzz" if phase == 1 else "submit"
    data = None if phase == 1 else {"text": "Isaac Newton"}
    if allowed:
        event = m.send(command, seat, data, at=m.now + 2500)[-1]
        assert event["type"] in ("buzz", "submission") and event["data"]["seat"] == seat
    else:
        rejection = m.refuse(command, seat, data, at=m.now + 2500)
        assert rejection.code == "wrong_tier"
        assert m.rules["phases"][phase - 1]["bot_tier"] in str(rejection)


@pytest.mark.parametrize("type, phase, code", [
    ("buzz", 2, "bad_phase"),
    ("submit", 1, "bad_phase"),
    ("chat", 1, "bad_phase"),
    ("reveal", 2, "bad_phase"),
])
def test_commands_of_the_wrong_phase_are_refused(type, phase, code):
    m = new_match()
    to_phase(m, phase)
    actor = MOD if type == "reveal" else "h0"
    data = {"text": "Isaac Newton"} if type in ("submit", "chat") else None
    assert m.refuse(type, actor, data).code == code


def test_the_team_discussion_reaches_only_that_team_and_the_moderator():
    m = new_match()
    to_phase(m, 2)
    chat = m.send("chat", "h1", {"text": "Isaac Newton?"})[0]
    sub = m.submit("h0", "Isaac Newton")[0]
    for event in (chat, sub):
        assert project(event, "player", "t0") == project(event, "moderator") == {**event, "seq": None}
    for audience, team in (("player", "t1"), ("spectator", None), ("bot", None)):
        assert project(chat, audience, team) == {"seq": None, "t": chat["t"], "type": "hidden", "data": {}}
    # The rest of the hall learns that the team has submitted (the big screen shows who has), not what.
    for audience, team in (("player", "t1"), ("spectator", None)):
        assert project(sub, audience, team)["data"] == {"seat": "h0", "team": "t0", "text": None}
    assert project(sub, "bot")["type"] == "hidden"
    assert snapshot(m.state, "player", "t1")["question"]["submissions"] == {"t0": {"seat": "h0", "text": None}}
    assert snapshot(m.state, "player", "t1")["question"]["chat"] == {}
    assert snapshot(m.state, "player", "t0")["question"]["chat"]["t0"][0]["text"] == "Isaac Newton?"
    assert snapshot(m.state, "player", "t0")["question"]["submissions"]["t0"]["text"] == "Isaac Newton"


def test_passing_hands_the_floor_over_and_two_passes_end_the_phase():
    m = new_match()
    to_phase(m, 2)
    assert m.send("pass", "h0")[0]["data"]["floor"] == "t1"
    assert m.refuse("submit", "h0", {"text": "late"}).code == "locked_out"
    events = m.send("pass", "b6")
    assert [e["type"] for e in events] == ["pass", "phase_started"]
    assert m.q.phase + 1 == 3


def test_when_discussion_time_runs_out_a_silent_side_passes_and_a_waiting_answer_is_still_ruled():
    m = new_match()
    to_phase(m, 2)
    m.submit("h0", "the moon", at=PHASE_2_AT + 10_000)
    timeout = m.tick(PHASE_2_AT + 30_000)[0]["data"]
    assert timeout == {"kind": "discussion", "passed": ["t1"], "floor": "t0"}
    assert m.q.phase + 1 == 2 and m.wakeup() is None, "the clock waits for the moderator"
    events = m.rule("reject")
    assert [e["type"] for e in events] == ["ruling", "phase_started"]


def test_a_prompt_in_a_team_phase_lets_the_captain_submit_again():
    m = new_match()
    to_phase(m, 2)
    m.submit("h0", "Quvexo", at=PHASE_2_AT + 25_000)
    m.rule("prompt", at=PHASE_2_AT + 26_000)
    assert "t0" not in m.q.submissions
    assert m.q.deadline == {"kind": "discussion", "at": PHASE_2_AT + 36_000}  # at least 10 s to answer
    m.submit("h0", "Quvexo Pilandre", at=PHASE_2_AT + 31_000)
    m.rule("accept")
    assert m.scores["t0"] == 2


def test_a_spoken_answer_in_a_team_phase_is_ruled_for_the_team_with_the_floor():
    m = new_match()
    to_phase(m, 2)
    assert m.refuse("rule", MOD, {"verdict": "accept", "answer": m.floor_seq()}).code == "nothing_to_rule"
    ruling = m.rule("accept", heard="Pilandre")[0]["data"]
    assert (ruling["team"], ruling["seat"], ruling["text"], ruling["points"]) == ("t0", None, "Pilandre", 2)
    assert m.scores == {"t0": 2, "t1": 0}


def test_undo_back_into_phase_two_does_not_bring_phase_three_answers_along():
    m = new_match()
    to_phase(m, 2)
    m.submit("h0", "the moon")
    m.rule("reject")
    m.send("pass", "b6")  # the computer passes too: phase 3 starts
    assert m.q.phase + 1 == 3
    m.submit("bunl", "Quvexo Pilandre")
    m.send("undo", MOD)  # the moderator takes back the ruling on the humans' phase-2 answer
    assert m.q.phase + 1 == 2 and m.q.locked == [] and m.q.floor == "t0"
    assert [(t, sub["text"]) for t, sub in m.q.submissions.items()] == [("t0", "the moon")]
    m.rule("reject")
    # the unlimited bot's phase-3 answer cannot be ruled as the computer's phase-2 answer
    assert m.refuse("rule", MOD, {"verdict": "accept", "answer": m.floor_seq()}).code == "nothing_to_rule"


def test_search_snippets_are_taken_only_in_the_phase_that_allows_them_and_everyone_sees_them():
    m = new_match()
    found = [{"title": "Mars", "text": "The red planet.", "marked": "The <mark>red</mark> planet."}]
    to_phase(m, 2)
    assert m.refuse("snippets", SYS, {"snippets": found}).code == "bad_phase"
    to_phase(m, 3)
    shown = m.send("snippets", SYS, {"snippets": found})[0]
    assert shown["type"] == "snippets_shown" and shown["data"]["phase"] == 3
    for audience, team in (("player", "t0"), ("player", "t1"), ("spectator", None), ("bot", None)):
        assert project(shown, audience, team)["data"]["snippets"] == found
        assert snapshot(m.state, audience, team)["question"]["snippets"] == found
    assert m.refuse("snippets", "h0", {"snippets": found}).code == "forbidden"
    assert "error" not in shown["data"], "a search that answered says nothing of failing"


def test_a_search_that_failed_says_so_to_every_audience_and_the_phase_goes_on():
    m = new_match()
    to_phase(m, 3)
    why = "The search did not answer within 2 s; the phase goes on without snippets."
    shown = m.send("snippets", SYS, {"snippets": [], "error": f"  {why}\n"})[0]
    assert shown["data"] == {"number": 1, "phase": 3, "snippets": [], "error": why}
    for audience, team in (("moderator", None), ("player", "t0"), ("spectator", None), ("bot", None)):
        assert project(shown, audience, team)["data"]["error"] == why
    assert m.state.status == "live" and not m.q.closed


def test_after_the_answer_was_shown_a_team_phase_rules_only_what_was_submitted_before_it():
    m = new_match()
    to_phase(m, 2)
    m.submit("h0", ANSWER)
    m.submit("b6", "something else")
    m.rule("accept")
    assert m.q.closed and m.scores["t0"] == 2
    m.send("undo", MOD)
    m.rule("reject")  # the humans were wrong after all: the computer's earlier submission is ruled next
    assert not m.q.closed and m.q.floor == "t1" and m.q.answer_shown
    assert m.refuse("submit", "h2", {"text": ANSWER}).code == "answer_shown"
    m.rule("reject")
    assert m.q.closed and m.q.phase == 1, "no phase 3 once everyone has seen the answer"
    assert m.scores == {"t0": 0, "t1": 0}
