"""The match around the questions: priority, tiebreakers, the end, and the moderator's corrections
(override of a closed question, undo on the current one, throw-out with a replacement)."""
from __future__ import annotations

import pytest

from .support import MOD, Match, question

TEXT = "Bakadu bekedu, bikidu (*) bokodu bukudu."  # words at 2000, 2300, 2750, 3050, 3350 from a start at 0
ANSWER = "Quvexo Pilandre"


def quizbowl(overrides=None, n: int = 2, reserve: int = 2) -> Match:
    qs = [question(TEXT, ANSWER, qid=f"q{i}") for i in range(n + reserve)]
    m = Match("quizbowl", dict({"questions": n}, **(overrides or {})), questions=qs)
    m.start(0)
    return m


def close_and_next(m: Match):
    m.play_to_close(step=5000)
    return m.send("next", MOD, at=m.now + 1000)


def score_on_current(m: Match, seat: str, verdict: str = "accept", words: int = 2):
    """A buzz after `words` words of the current question, an answer and a ruling."""
    m.reveal_until(words, step=1)
    m.buzz(seat)
    m.answer(seat, "Isaac Newton")
    return m.rule(verdict)


# -- priority ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["quizbowl", "efficientqa"])
@pytest.mark.parametrize("number, priority", [(1, "t0"), (2, "t1"), (3, "t0"), (4, "t1")])
def test_priority_alternates_odd_to_the_first_team_even_to_the_second(preset, number, priority):
    m = Match(preset, {"questions": 4}, length=5)
    m.start(0)
    while m.q.number < number:
        close_and_next(m)
    started = m.events_of_current("question_started")[0]["data"]
    assert (started["number"], started["priority"]) == (number, priority)
    assert m.q.priority == priority


def test_priority_first_keeps_it_with_the_first_team():
    m = quizbowl({"priority": "first"}, n=3)
    close_and_next(m)
    close_and_next(m)
    assert m.q.number == 3
    assert [e["data"]["priority"] for e in m.events if e["type"] == "question_started"] == ["t0", "t0", "t0"]


# -- ties and the end ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("tiebreaker_goes_to, winner", [("bot", "t1"), ("h0", "t0"), (None, None)])
def test_a_tie_brings_a_tiebreaker_and_then_the_match_ends(tiebreaker_goes_to, winner):
    m = quizbowl({"tiebreakers": 1}, n=1)
    m.play_to_close()
    assert m.scores == {"t0": 0, "t1": 0}
    started = m.send("next", MOD, at=m.now + 1000)[0]["data"]
    assert (started["number"], started["tiebreaker"]) == (2, True)
    if tiebreaker_goes_to:
        score_on_current(m, tiebreaker_goes_to)
    else:
        m.play_to_close()
    ended = m.send("next", MOD, at=m.now + 1000)
    assert [e["type"] for e in ended] == ["match_ended"]
    assert ended[0]["data"]["winner"] == winner
    assert m.state.status == "finished" and m.state.winner == winner


def test_without_a_tie_the_match_ends_after_the_last_question():
    m = quizbowl({"tiebreakers": 3}, n=1)
    score_on_current(m, "h0")
    ended = m.send("next", MOD, at=m.now + 1000)
    assert [e["type"] for e in ended] == ["match_ended"]
    assert ended[0]["data"] == {"scores": {"t0": 15, "t1": 0}, "winner": "t0", "reason": "questions_played"}


def test_tiebreakers_stop_when_the_reserve_runs_out():
    m = quizbowl({"tiebreakers": 5}, n=1, reserve=1)
    m.play_to_close()
    close_and_next(m)  # the only reserve question is the tiebreaker
    assert m.q.tiebreaker
    ended = close_and_next(m)
    assert ended[0]["type"] == "match_ended" and ended[0]["data"]["winner"] is None


def test_the_match_cannot_end_with_a_question_open_and_ends_only_once():
    m = quizbowl()
    assert m.refuse("end", MOD).code == "question_open"
    m.play_to_close()
    m.send("end", MOD)
    assert m.state.status == "finished"
    assert m.refuse("end", MOD).code == "finished"
    assert m.refuse("next", MOD).code == "not_live"
    assert m.refuse("start", MOD).code == "already_started"


# -- override --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("words, first, then, score", [
    (2, "accept", "reject", -5),   # a power that should have been a neg
    (5, "accept", "reject", 0),    # answered after the end: no neg
    (2, "reject", "accept", 15),   # a neg that should have been a power
    (4, "reject", "accept", 10),
])
def test_override_changes_a_closed_question_and_the_scores_follow(words, first, then, score):
    m = quizbowl()
    ruling = score_on_current(m, "bot" if first == "accept" else "h0", first, words)[0]["data"]
    if first == "reject":
        m.play_to_close()
    team = ruling["team"]
    close_and_next(m)  # the question is behind us
    before = dict(m.scores)
    event = m.send("override", MOD, {"ruling": ruling["id"], "verdict": then})[0]["data"]
    assert event["points"] == score
    assert m.scores[team] == score and sum(m.scores.values()) - score == sum(before.values()) - ruling["points"]
    entry = m.state.history[0]
    assert entry["score_changes"] == {team: score}
    assert entry["result"] == ({"team": team, "seat": ruling["seat"], "points": score, "phase": 1}
                               if then == "accept" else None)
    # and back again
    m.send("override", MOD, {"ruling": ruling["id"], "verdict": first})
    assert m.scores == before


def test_override_is_refused_while_the_question_is_still_played_or_when_nothing_changes():
    m = quizbowl()
    rid = score_on_current(m, "h0", "reject")[0]["data"]["id"]
    assert m.refuse("override", MOD, {"ruling": rid, "verdict": "accept"}).code == "question_open"
    m.play_to_close()
    assert m.refuse("override", MOD, {"ruling": rid, "verdict": "reject"}).code == "no_change"
    assert m.refuse("override", MOD, {"ruling": 99, "verdict": "accept"}).code == "bad_ruling"
    assert m.refuse("override", MOD, {"ruling": rid, "verdict": "prompt"}).code == "bad_shape"


def test_a_prompt_cannot_be_overridden_into_a_second_set_of_points():
    m = quizbowl()
    m.reveal_until(2, step=1)
    m.buzz("h0")
    m.answer("h0", "Quvexo")
    prompt = m.rule("prompt")[0]["data"]["id"]
    m.answer("h0", "Quvexo Pilandre")
    m.rule("accept")
    assert m.scores["t0"] == 15
    assert m.refuse("override", MOD, {"ruling": prompt, "verdict": "accept"}).code == "bad_ruling"
    assert m.scores["t0"] == 15


def test_override_right_after_the_close_then_throw_out_leaves_nothing_behind():
    m = quizbowl()
    rid = score_on_current(m, "h0", "accept")[0]["data"]["id"]
    m.send("override", MOD, {"ruling": rid, "verdict": "reject"})
    assert m.scores["t0"] == -5 and m.q.score_changes == {"t0": -5} and m.q.result is None
    m.send("throw_out", MOD, {"reason": "two answers are right"})
    assert m.scores == {"t0": 0, "t1": 0}


def test_a_thrown_out_question_cannot_be_scored_again_by_an_override():
    m = quizbowl()
    rid = score_on_current(m, "h0", "accept")[0]["data"]["id"]
    m.send("throw_out", MOD, {"reason": "typo"})
    assert m.scores == {"t0": 0, "t1": 0}
    assert m.refuse("override", MOD, {"ruling": rid, "verdict": "reject"}).code == "thrown_out"


def test_corrections_after_the_end_move_the_winner_with_the_scores():
    m = quizbowl(n=1)
    rid = score_on_current(m, "h0", "accept")[0]["data"]["id"]
    m.send("next", MOD)
    assert m.state.winner == "t0"
    m.send("override", MOD, {"ruling": rid, "verdict": "reject", "confirm": True})
    assert m.scores == {"t0": -5, "t1": 0} and m.state.winner == "t1"
    m.send("adjust", MOD, {"team": "t0", "points": 5, "reason": "protest upheld", "confirm": True})
    assert m.state.winner is None


# -- undo -------------------------------------------------------------------------------------------------------

def test_undo_of_an_accept_lets_the_moderator_rule_again_but_the_question_stays_closed_to_play():
    m = quizbowl()
    score_on_current(m, "h0", "accept")
    assert m.q.closed and m.scores["t0"] == 15 and len(m.state.history) == 1
    m.send("undo", MOD)
    assert not m.q.closed and m.q.answer_shown and m.scores == {"t0": 0, "t1": 0} and m.state.history == []
    assert m.q.possession["seat"] == "h0" and m.q.possession["answer"] == "Isaac Newton"
    assert m.q.deadline is None and m.wakeup() is None, "no clock while the moderator rules again"
    m.rule("reject")
    assert m.scores["t0"] == -5
    assert m.q.closed and m.state.history[-1]["result"] is None, "everyone saw the answer: the question is dead"


def test_undo_of_a_neg_unlocks_the_team_and_gives_back_the_points():
    m = quizbowl()
    score_on_current(m, "h0", "reject")
    m.reveal_until(4, step=1)
    m.send("undo", MOD)
    assert m.scores == {"t0": 0, "t1": 0} and m.q.locked == []
    assert m.q.possession["seat"] == "h0"
    assert m.q.revealed == 4, "words already shown stay shown"
    assert m.wakeup() is None, "reading waits for the new ruling"
    m.rule("accept")
    assert m.scores["t0"] == 15


def test_undo_walks_back_one_ruling_at_a_time():
    m = quizbowl()
    score_on_current(m, "h0", "reject")
    m.reveal_until(4, step=1)
    m.buzz("bot")
    m.answer("bot", "Quvexo Pilandre")
    m.rule("accept")
    assert m.scores == {"t0": -5, "t1": 10}
    m.send("undo", MOD)
    assert m.scores == {"t0": -5, "t1": 0} and m.q.possession["seat"] == "bot"
    m.send("undo", MOD)
    assert m.scores == {"t0": 0, "t1": 0} and m.q.possession["seat"] == "h0"
    assert m.refuse("undo", MOD).code == "nothing_to_undo"


def test_undo_reaches_only_the_current_question():
    m = quizbowl()
    score_on_current(m, "h0", "accept")
    m.send("next", MOD, at=m.now + 1000)
    assert m.refuse("undo", MOD).code == "nothing_to_undo"
    assert m.scores["t0"] == 15


# -- throw-out ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("when", ["open", "closed"])
def test_a_thrown_out_question_gives_its_points_back_and_its_replacement_keeps_the_number(when):
    m = quizbowl({"tiebreakers": 0})
    close_and_next(m)
    assert m.q.number == 2
    score_on_current(m, "h0", "reject")  # -5
    if when == "closed":
        m.reveal_until(4, step=1)
        m.buzz("bot")
        m.rule("accept")  # +10
        assert m.q.closed
    used = list(m.state.played)
    events = m.send("throw_out", MOD, {"reason": "the answer line was wrong"})
    events = events[[e["type"] for e in events].index("question_thrown_out"):]  # after any words due
    assert [e["type"] for e in events] == ["question_thrown_out", "question_started", "phase_started"]
    assert m.scores == {"t0": 0, "t1": 0}
    started = events[1]["data"]
    assert started["number"] == 2 and started["replaces"] == used[-1] and started["index"] not in used
    assert started["priority"] == "t1", "the replacement is still an even question"
    assert m.q.revealed == 0 and not m.q.closed and m.q.locked == []
    thrown = [h for h in m.state.history if h["thrown_out"]]
    assert [(h["number"], h["reason"]) for h in thrown] == [(2, "the answer line was wrong")]
    assert m.state.history[-1]["thrown_out"]
    # the match still has exactly two regular questions
    m.play_to_close()
    assert m.send("next", MOD, at=m.now + 1000)[0]["type"] == "match_ended"


def test_throw_out_needs_a_reserve_question():
    m = quizbowl(n=1, reserve=0)
    assert m.refuse("throw_out", MOD, {"reason": "typo"}).code == "no_reserve"


def test_a_thrown_out_tiebreaker_does_not_use_up_a_tiebreaker():
    m = quizbowl({"tiebreakers": 2}, n=1, reserve=4)
    m.play_to_close()
    close_and_next(m)
    assert m.q.tiebreaker and m.q.number == 2
    m.send("throw_out", MOD, {"reason": "typo"})
    assert m.q.tiebreaker and m.q.number == 2
    started = close_and_next(m)[0]
    assert started["type"] == "question_started", "a second tiebreaker is still due"
    assert (started["data"]["number"], started["data"]["tiebreaker"]) == (3, True)


def test_a_throw_out_during_a_pause_starts_the_replacement_when_play_resumes():
    m = quizbowl()
    m.send("pause", MOD, at=2500)
    m.send("throw_out", MOD, {"reason": "typo"}, at=10_000)
    m.send("resume", MOD, at=20_000)
    assert m.wakeup() == 20_000 + 2000, "the usual lead-in, counted from the resume"


# -- adjustments --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, code", [
    ({"team": "t9", "points": 5, "reason": "x"}, "bad_team"),
    ({"team": "t0", "points": 0, "reason": "x"}, "bad_points"),
    ({"team": "t0", "points": 2.5, "reason": "x"}, "bad_points"),
    ({"team": "t0", "points": True, "reason": "x"}, "bad_points"),
    ({"team": "t0", "points": 1001, "reason": "x"}, "bad_points"),
    ({"team": "t0", "points": 5, "reason": "  "}, "no_reason"),
])
def test_an_adjustment_needs_a_team_a_whole_number_and_a_reason(data, code):
    assert quizbowl().refuse("adjust", MOD, data).code == code


def test_an_adjustment_moves_the_score_and_is_recorded():
    m = quizbowl()
    event = m.send("adjust", MOD, {"team": "t1", "points": -3, "reason": " buzzer fault "})[0]["data"]
    assert event["reason"] == "buzzer fault" and m.scores == {"t0": 0, "t1": -3}


# -- who may send what ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("type, actor, code", [
    ("rule", {"role": "player", "seat": "h0", "team": "t0"}, "forbidden"),
    ("undo", {"role": "bot", "seat": "bot", "team": "t1"}, "forbidden"),
    ("tick", MOD, "forbidden"),
    ("buzz", MOD, "forbidden"),
    ("buzz", {"role": "player", "seat": "h0", "team": "t1"}, "forbidden"),  # not h0's team
    ("buzz", {"role": "player", "seat": "ghost", "team": "t0"}, "forbidden"),
    ("chat", {"role": "bot", "seat": "bot", "team": "t1"}, "forbidden"),
    ("bot_guess", {"role": "player", "seat": "h0", "team": "t0"}, "forbidden"),
    ("launch", MOD, "unknown_command"),
])
def test_commands_from_the_wrong_people_are_refused(type, actor, code):
    m = quizbowl()
    assert m.refuse(type, actor, {"verdict": "accept"}, at=2500).code == code


def test_a_match_ended_during_a_pause_is_over_not_paused():
    m = quizbowl()
    m.play_to_close()
    m.send("pause", MOD)
    m.send("end", MOD)
    assert m.state.status == "finished" and not m.state.paused
    assert m.refuse("resume", MOD).code == "not_paused"


def test_after_the_answer_was_shown_undo_never_reopens_the_question_to_the_other_team():
    """Review found: accept (answer shown to all), undo, reject; the other team buzzed with the shown answer."""
    m = quizbowl()
    m.reveal_until(1, step=1)
    m.buzz("h0")
    m.rule("accept")  # the close shows the whole question and its answer to everyone
    m.send("undo", MOD)
    assert m.q.answer_shown and m.q.revealed == len(m.question.words), "words once shown stay shown"
    for seat in ("bot", "h2"):
        assert m.refuse("buzz", seat, at=m.now + 100).code == "answer_shown"
    assert m.refuse("rule", MOD, {"verdict": "prompt"}).code == "answer_shown"
    m.rule("reject")
    assert m.q.closed and m.scores == {"t0": -5, "t1": 0}
    assert m.refuse("buzz", "bot", at=m.now + 100).code == "no_question"
    assert [e["type"] for e in m.events].count("question_closed") == 2
