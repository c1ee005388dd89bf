"""Reading the public data formats a host imports, and the text rules the bots share."""
import gzip
import json

import pytest

from bots.builtin.candidates import extract, in_question
from bots.datasets import DataError, read_pairs, read_passages
from bots.text import answer_type, exact_match, normalize_answer

QANTA = [
    {"qanta_id": 1, "text": "This prince (*) of Denmark. For 10 points, name him.", "page": "Hamlet_(character)",
     "tokenizations": [[0, 27], [28, 52]]},
    {"qanta_id": 2, "text": "An answer QANTA could not map.", "page": None, "tokenizations": [[0, 30]]},
]


def test_jsonl_pairs_take_string_or_list_answers(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"question": "q1", "answer": "a1"}\n\n{"question": "q2", "answer": ["a2", "b2"]}\n')
    pairs = read_pairs(path)
    assert [(p.question, p.answers, p.answer) for p in pairs] == [("q1", ("a1",), "a1"), ("q2", ("a2", "b2"), "a2")]


@pytest.mark.parametrize("wrap", [lambda qs: qs, lambda qs: {"version": "x", "questions": qs}])
def test_qanta_json_gives_pairs_answered_by_page_title(tmp_path, wrap):
    path = tmp_path / "qanta.json.gz"
    with gzip.open(path, "wt") as handle:
        json.dump(wrap(QANTA), handle)
    pairs = read_pairs(path)
    assert [(p.question, p.answers) for p in pairs] == [
        ("This prince of Denmark. For 10 points, name him.", ("Hamlet (character)",))
    ]


def test_qanta_json_gives_one_passage_per_sentence(tmp_path):
    path = tmp_path / "qanta.json"
    path.write_text(json.dumps(QANTA))
    assert read_passages(path) == [
        {"title": "Hamlet (character)", "text": "This prince of Denmark.", "source": 1},
        {"title": "Hamlet (character)", "text": "For 10 points, name him.", "source": 1},
    ]


@pytest.mark.parametrize(
    "content, reader, fragment",
    [
        ('{"question": "q"}\n', read_pairs, "has no 'answer' field"),
        ('{"question": "q", "answer": []}\n', read_pairs, "at least one non-empty answer"),
        ('{"question": "q", "answer": "a"}\nnot json\n', read_pairs, "line 2 is not JSON"),
        ("", read_pairs, "holds no question-answer pairs"),
        ('{"title": "t"}\n', read_passages, "has no 'text' field"),
        ('{"title": "t", "text": 5}\n', read_passages, "string title and text"),
    ],
)
def test_unreadable_data_is_refused_with_the_place(tmp_path, content, reader, fragment):
    path = tmp_path / "data.jsonl"
    path.write_text(content)
    with pytest.raises(DataError, match=fragment):
        reader(path)


@pytest.mark.parametrize(
    "text, normal", [("The Beatles!", "beatles"), ("  an  Apple a day ", "apple day"), ("Jørn Utzon", "jørn utzon")]
)
def test_squad_normalisation(text, normal):
    assert normalize_answer(text) == normal


def test_exact_match_uses_any_reference():
    assert exact_match("the Beatles", ["Beatles", "Fab Four"]) and not exact_match("Beatle", ["Beatles"])


@pytest.mark.parametrize(
    "question, kind",
    [
        ("In what year did the Berlin Wall fall?", "year"),
        ("when did apollo 11 land", "date"),
        ("how many sides does a hexagon have", "number"),
        ("who wrote emma", "person"),
        ("This composer wrote an Eroica symphony", "person"),
        ("where is the eiffel tower", "place"),
        ("This novel opens with a whale hunt", "thing"),
    ],
)
def test_answer_type_follows_the_question_wording(question, kind):
    assert answer_type(question) == kind


def test_candidates_of_each_type():
    text = "Neil Armstrong and Buzz Aldrin landed on July 20, 1969, after a flight of 8 days. The crew had three men."
    assert extract(text, "year") == ["1969"]
    assert extract(text, "date") == ["July 20, 1969"]
    assert extract(text, "number") == ["20", "1969", "8", "three"]
    assert extract(text, "person") == ["Neil Armstrong", "Buzz Aldrin"]  # not "The", not the month


def test_a_candidate_made_of_question_words_is_not_an_answer():
    asked = set(normalize_answer("who designed the sydney opera house").split())
    assert in_question("Sydney Opera House", asked) and not in_question("Jørn Utzon", asked)
