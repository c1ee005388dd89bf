"""On the shared QANTA question sets: every answer line parses, and the page title is accepted for 90%."""
import pytest

from game.importers.qanta import parse
from intake.source import source_of_bytes
from game.judging.answerline import parse_answer_line
from game.judging.judge import judge

FILES = ["qanta.guessdev.json.gz", "qanta.buzzdev.json.gz", "small.guessdev.json"]


def questions(shared_data, name):
    path = shared_data / "qanta" / name
    return [row.question for row in parse(source_of_bytes(path.read_bytes(), path.name)).rows]


@pytest.mark.parametrize("name", FILES)
def test_every_answer_line_parses(shared_data, name):
    lines = [q["answer"] for q in questions(shared_data, name)]
    parsed = [parse_answer_line(line) for line in lines]
    assert len(parsed) == len(lines) > 200
    assert all(p.main or p.clauses for p in parsed)


@pytest.mark.parametrize("name", FILES)
def test_the_page_title_is_accepted_for_nine_in_ten(shared_data, name):
    with_page = [q for q in questions(shared_data, name) if q["source"].get("page")]
    accepted = sum(
        judge(q["source"]["page"].replace("_", " "), q["answer"], question_text=q["text"]).verdict == "accept"
        for q in with_page
    )
    assert accepted / len(with_page) >= 0.90
