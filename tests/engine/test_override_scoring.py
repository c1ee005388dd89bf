"""Overriding a ruling recomputes its question from its rulings under the format's rules: the first
correct answer ends the question, so whatever was awarded after it is withdrawn, and banner (the
question's result), history and scores agree."""
from __future__ import annotations

from game.engine.api import snapshot

from .support import MOD, Match, question
from .test_efficientqa import ANSWER, TEXT, new_match, to_phase, to_question


def _phase_two_miss_then_humans_score_in_phase_three(m: Match):
    """Question 2 (the computer has priority): nobody buzzes in phase 1; in phase 2 the computer's
    right answer is wrongly rejected and the humans miss; in phase 3 the humans get it for 1 point."""
    to_question(m, 2)
    assert m.q.priority == "t1"
    to_phase(m, 2)
    m.submit("b6", ANSWER)
    m.submit("h0", "the moon")
    wrong_call = m.rule("reject")[0]["data"]  # the computer was right: the moderator erred
    m.rule("reject")
    assert m.q.phase + 1 == 3
    m.send("pass", "bunl")
    m.submit("h0", ANSWER)
    m.rule("accept")
    assert m.q.closed and m.q.result["team"] == "t0" and m.q.result["phase"] == 3
    return wrong_call


def test_overriding_the_computers_phase_two_rejection_withdraws_the_humans_phase_three_point():
    """The issue's scenario: the override gave the computer +2 while the humans kept their +1."""
    m = new_match()
    wrong_call = _phase_two_miss_then_humans_score_in_phase_three(m)
    assert m.scores == {"t0": 1, "t1": 0}
    m.send("next", MOD, at=m.now + 1000)  # the question is behind us when the protest comes

    assert m.state.status == "finished"  # so the override is a correction after the final, confirmed
    event = m.send("override", MOD, {"ruling": wrong_call["id"], "verdict": "accept", "confirm": True})[0]
    assert event["data"]["score_changes"] == {"t1": 2, "t0": -1}
    assert m.scores == {"t0": 0, "t1": 2}, "at most one side scores on an EfficientQA question"
    entry = next(h for h in m.state.history if h["number"] == 2)
    assert entry["result"] == {"team": "t1", "seat": "b6", "points": 2, "phase": 2}
    assert entry["score_changes"] == {"t0": 0, "t1": 2}
    humans_point = m.state.rulings[entry["rulings"][-1]]
    assert humans_point["verdict"] == "accept" and humans_point["points"] == 0 and humans_point["withdrawn"]
    # Everyone's snapshot tells the same story.
    for audience in ("moderator", "spectator", "player"):
        view = snapshot(m.state, audience, "t0")
        h = next(h for h in view["history"] if h["number"] == 2)
        assert h["result"]["team"] == "t1" and view["scores"] == {"t0": 0, "t1": 2}

    # Overridden back, the humans' phase-3 point is theirs again.
    m.send("override", MOD, {"ruling": wrong_call["id"], "verdict": "reject", "confirm": True})
    assert m.scores == {"t0": 1, "t1": 0}
    entry = next(h for h in m.state.history if h["number"] == 2)
    assert entry["result"] == {"team": "t0", "seat": "h0", "points": 1, "phase": 3}
    assert not m.state.rulings[entry["rulings"][-1]].get("withdrawn")


def test_the_override_on_the_current_closed_question_moves_its_banner_too():
    m = new_match()
    wrong_call = _phase_two_miss_then_humans_score_in_phase_three(m)
    m.send("override", MOD, {"ruling": wrong_call["id"], "verdict": "accept"})
    assert m.q.result == {"team": "t1", "seat": "b6", "points": 2, "phase": 2}
    assert m.q.score_changes == {"t0": 0, "t1": 2} and m.scores == {"t0": 0, "t1": 2}
    banner = snapshot(m.state, "spectator")["question"]
    assert banner["result"]["team"] == "t1"


def test_a_quizbowl_neg_overridden_to_correct_takes_the_tossup_from_the_team_that_answered_after_it():
    qs = [question("Bakadu bekedu, bikidu (*) bokodu bukudu.", ANSWER, qid=f"q{i}") for i in range(4)]
    m = Match("quizbowl", {"questions": 2}, questions=qs)
    m.start(0)
    m.reveal_until(2)
    m.buzz("h0", at=m.now + 10)
    m.answer("h0", "Quvexo")
    neg = m.rule("reject")[0]["data"]
    assert neg["points"] == -5
    m.reveal_until(4)
    m.buzz("h2", at=m.now + 10)
    m.answer("h2", ANSWER)
    m.rule("accept")
    assert m.scores == {"t0": -5, "t1": 10}
    m.send("override", MOD, {"ruling": neg["id"], "verdict": "accept"})
    assert m.scores == {"t0": 15, "t1": 0}, "the power stands and the later ten is withdrawn"
    assert m.state.history[-1]["result"]["team"] == "t0"


def test_undo_is_refused_once_a_ruling_of_the_question_was_overridden():
    """Undo restores the question as it stood before its last ruling, which an override has changed
    under it; the moderator corrects with override from then on."""
    m = new_match()
    wrong_call = _phase_two_miss_then_humans_score_in_phase_three(m)
    m.send("override", MOD, {"ruling": wrong_call["id"], "verdict": "accept"})
    assert m.refuse("undo", MOD).code == "overridden"
    assert m.scores == {"t0": 0, "t1": 2}
