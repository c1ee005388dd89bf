"""The NQ-open-style rows of open_domain_table.py: no wrong answer is accepted, and most right ones are.

A proxy for the held-out open-domain measure (see the table's docstring): the rows were written
knowing the rules, so the share asserted here is a floor on these forms, not a forecast.
"""
import pytest

from game.judging.judge import judge

from .open_domain_table import ROWS

WRONG = [row for row in ROWS if not row.correct]
RIGHT = [row for row in ROWS if row.correct]


def _judged(row):
    return judge(row.response, references=row.refs, question_text=row.question)


@pytest.mark.parametrize("row", WRONG, ids=[f"{row.form}-{row.response}" for row in WRONG])
def test_a_wrong_answer_is_never_accepted(row):
    judgement = _judged(row)
    assert judgement.verdict != "accept", judgement.reason


@pytest.mark.wordnet
def test_most_answers_people_rate_correct_are_accepted():
    accepted = [row for row in RIGHT if _judged(row).verdict == "accept"]
    assert len(RIGHT) >= 60 and len(WRONG) >= 30
    assert len(accepted) >= 0.75 * len(RIGHT), [row.response for row in RIGHT if row not in accepted]


@pytest.mark.parametrize("form", ["number", "date", "name", "place", "thing"])
def test_every_form_has_right_and_wrong_rows(form):
    assert any(row.form == form for row in RIGHT) and any(row.form == form for row in WRONG)
