"""Importing each shared question file gives exactly as many questions as the file holds."""
import pytest

from game.importers.run import import_path
from game.models import Question

EXPECTED = {
    "qanta/qanta.guessdev.json.gz": (1129, "tossup"),
    "qanta/qanta.buzzdev.json.gz": (1152, "tossup"),
    "qanta/small.guessdev.json": (227, "tossup"),
    "nq-open/NQ-open.dev.jsonl": (3610, "short"),
    "nq-open/NQ-open.efficientqa.dev.1.1.jsonl": (1800, "short"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", EXPECTED)
def test_shared_file_imports_every_question(shared_data, name):
    count, kind = EXPECTED[name]
    report = import_path(shared_data / name, slug="shared")
    assert (report.imported, report.errors, report.kinds) == (count, [], {kind: count}), "none read as a bonus"
    questions = Question.objects.filter(packet=report.packet)
    assert questions.count() == count
    assert sorted(questions.values_list("position", flat=True)) == list(range(1, count + 1))
    assert set(questions.values_list("kind", flat=True)) == {kind}


@pytest.mark.django_db
def test_qanta_fields_land_where_the_moderator_needs_them(shared_data):
    report = import_path(shared_data / "qanta/qanta.guessdev.json.gz", slug="guessdev")
    first = report.packet.questions.get(position=1)
    assert first.accepted == ["Texas annexation"]
    assert first.source["qanta_id"] == 93135 and first.source["page"] == "Texas_annexation"
    assert (first.source["tournament"], first.source["year"], first.source["difficulty"]) == ("ACF Regionals", 2015, "College")
    assert first.category == "History" and first.answer.startswith("annexation of the Republic of Texas")


@pytest.mark.django_db
def test_nq_references_become_the_accepted_list(shared_data):
    report = import_path(shared_data / "nq-open/NQ-open.dev.jsonl", slug="nq")
    first = report.packet.questions.get(position=1)
    assert first.text == "when was the last time anyone was on the moon"
    assert (first.answer, first.accepted) == ("14 December 1972 UTC", ["14 December 1972 UTC", "December 1972"])
