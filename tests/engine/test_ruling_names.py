"""A ruling names what it rules: the seq of the event that put the answer on the floor (rule's "answer").

The console sends what it showed when the key was pressed; an answer that reached the floor in between
(a captain's submission, an answer to a prompt, an earlier press taking the floor) is never ruled unseen:
the ruling is refused with a sentence saying what the floor holds now, and the moderator rules again.
"""
from __future__ import annotations

from game.engine.api import fold, possessive

from .support import MOD
from .test_efficientqa import new_match, to_phase


def test_a_ruling_of_a_superseded_answer_is_refused_and_the_answer_on_the_floor_is_ruled():
    """The team phase of the issue: the computer's answer is in, the humans hold the floor and have not
    answered; the moderator looks, the humans' captain submits a wrong answer a second before the key."""
    m = new_match()
    to_phase(m, 2)
    assert m.q.floor == "t0"
    m.submit("b6", "Quvexo Pilandre")  # the computer's right answer, which the judge suggests accepting
    looked = m.floor_seq()  # what the console showed: the humans' floor, nothing typed yet
    m.submit("h0", "the moon", at=m.now + 1000)  # arrives before the keypress
    pressed = {"verdict": "accept", "answer": looked, "heard": "Quvexo Pilandre"}
    refused = m.refuse("rule", MOD, pressed, at=m.now + 1000)
    assert refused.code == "stale"
    assert str(refused) == "Humans' answer changed to “the moon” since you looked: rule again."
    assert m.scores == {"t0": 0, "t1": 0} and not m.q.ruling_ids

    submitted = m.state.seq  # the humans' submission is the last event
    assert m.floor_seq() == submitted
    ruling = m.send("rule", MOD, {"verdict": "reject", "answer": submitted})[0]["data"]
    assert (ruling["team"], ruling["text"], ruling["verdict"], ruling["answer"]) == ("t0", "the moon", "reject", submitted)
    # The floor passes to the computer, whose answer was already in: that submission is what is named now.
    computers = next(a["seq"] for a in m.q.answers if a["team"] == "t1")
    assert m.q.floor == "t1" and m.floor_seq() == computers
    assert m.refuse("rule", MOD, {"verdict": "accept", "answer": submitted}).code == "stale"  # a double press
    m.send("rule", MOD, {"verdict": "accept", "answer": computers})
    assert m.scores == {"t0": 0, "t1": 2}


def test_an_answer_given_after_a_prompt_is_not_ruled_by_a_press_made_before_it():
    m = new_match()
    m.reveal_until(3)
    m.buzz("h0")
    m.answer("h0", "the red one")
    m.rule("prompt")
    looked = m.floor_seq()  # prompted: waiting for the answer to the prompt
    m.answer("h0", "Mars")
    refused = m.refuse("rule", MOD, {"verdict": "reject", "answer": looked})
    assert str(refused) == "Humans' answer changed to “Mars” since you looked: rule again."
    m.rule("accept")
    assert m.scores["t0"] == 3


def test_a_buzz_that_took_the_floor_with_no_answer_yet_is_said_so():
    m = new_match()
    m.reveal_until(3)
    m.buzz("h0")
    looked = m.floor_seq()
    m.rule("reject")
    m.buzz("h2")  # Cho, of the computer's team
    refused = m.refuse("rule", MOD, {"verdict": "accept", "answer": looked, "heard": "Mars"})
    assert refused.code == "stale"
    assert str(refused) == ("The floor changed since you looked: Computer's answer is not in yet. "
                            "Rule again when it is (or type what you heard).")


def test_a_ruling_that_names_no_answer_is_refused_with_what_to_send():
    m = new_match()
    m.reveal_until(3)
    m.buzz("h0")
    m.answer("h0", "Mars")
    answered = m.state.seq
    for data in ({"verdict": "accept"}, {"verdict": "accept", "answer": True}, {"verdict": "accept", "answer": "12"}):
        refused = m.refuse("rule", MOD, data)
        assert refused.code == "bad_shape" and "names the answer it rules" in str(refused)
    assert m.send("rule", MOD, {"verdict": "accept", "answer": answered})[0]["data"]["answer"] == answered


def test_every_ruling_records_the_answer_it_ruled_and_logs_without_it_fold_alike():
    """The clock's and a pass's rulings name the floor too; a log written before rulings named anything
    folds to the same state (the fold works the floor out from the events' seqs, never from the name)."""
    m = new_match()
    m.reveal_until(3)
    m.buzz("h0")
    buzz_seq = m.state.seq
    m.advance()  # the answer clock runs out: the clock rejects the buzz
    to_phase(m, 2)
    m.submit("h0", "the moon")
    m.rule("reject")
    m.send("pass", "b6")
    rulings = [e["data"] for e in m.events if e["type"] == "ruling"]
    assert [(r["by"], r["answer"]) for r in rulings][0] == ("clock", buzz_seq)
    assert all(isinstance(r["answer"], int) for r in rulings)
    old = [dict(e, data={k: v for k, v in e["data"].items() if k != "answer"}) if e["type"] == "ruling" else e
           for e in m.events]
    assert fold(old) == fold(m.events)


def test_a_possessive_reads_right():
    assert [possessive(n) for n in ("Humans", "Computer", "Ann", "The Brains ", "BOTS")] == [
        "Humans'", "Computer's", "Ann's", "The Brains'", "BOTS'"]
