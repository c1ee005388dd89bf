"""Reading the public data formats a host imports, and the text rules the bots share."""
import gzip
import json

import pytest

from bots.builtin.passage_candidates import extract, in_question
from bots.datasets import DataError, holds_questions, read_pairs, read_passages
from intake.limits import LimitExceeded
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
        ('{"question": "q", "answer": "a"}\nnot json\n', read_pairs, "line 2: This line is not valid JSON"),
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


def test_a_broken_question_in_qanta_json_is_refused_with_its_line(tmp_path):
    path = tmp_path / "qanta.json"
    path.write_text('[\n' + json.dumps(QANTA[0]) + ',\n{"text": "q", "page": nope}\n]')
    with pytest.raises(DataError, match=r"qanta.json line 3: This is not valid JSON \(Expecting value\)"):
        read_pairs(path)


def lines(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


PAIRS = lines({"question": f"question {i}?", "answer": [f"answer {i}"]} for i in range(4))
PASSAGES = lines({"title": f"Title {i}", "text": f"Text {i}."} for i in range(3))
DEEP = "[" * 10_000 + "]" * 10_000


# (setting, its value, file name, content, reader, the sentence's start after the path)
OVER = {
    "file": ("EXHIBITION_IMPORT_MAX_BOT_DATA_BYTES", 100, "p.jsonl", PAIRS, read_pairs,
             ": the bot data size is 208 bytes, over the limit of 100 bytes"),
    "unpacked": ("EXHIBITION_IMPORT_MAX_BOT_DATA_BYTES", 64 * 1024, "p.jsonl.gz", gzip.compress(PAIRS.encode() * 500),
                 read_pairs, ": the bot data size goes over the limit of 64 KiB"),
    "document": ("EXHIBITION_IMPORT_MAX_BOT_DOCUMENT_BYTES", 1024, "q.json", json.dumps(QANTA * 10), read_pairs,
                 ": the JSON document size goes over the limit of 1 KiB"),
    "questions": ("EXHIBITION_IMPORT_MAX_TRAINING_QUESTIONS", 3, "p.jsonl", PAIRS, read_pairs,
                  " line 4: the number of training questions goes over the limit of 3 questions"),
    "passages": ("EXHIBITION_IMPORT_MAX_PASSAGES", 2, "t.jsonl", PASSAGES, read_passages,
                 " line 3: the number of passages goes over the limit of 2 passages"),
    "pair line": ("EXHIBITION_IMPORT_MAX_LINE_BYTES", 1024, "p.jsonl", PAIRS + lines([{"question": "x" * 2000, "answer": "a"}]),
                  read_pairs, " line 5: the line or entry length goes over the limit of 1 KiB"),
    "qanta entry": ("EXHIBITION_IMPORT_MAX_LINE_BYTES", 1024, "q.json", json.dumps([dict(QANTA[0], text="x" * 2000)]),
                    read_pairs, " line 1: the line or entry length goes over the limit of 1 KiB"),
    "passage line": ("EXHIBITION_IMPORT_MAX_RECORD_BYTES", 1024, "t.jsonl", lines([{"title": "t", "text": "x" * 2000}]),
                     read_passages, " line 1: the record length goes over the limit of 1 KiB"),
    "question": ("EXHIBITION_IMPORT_MAX_TEXT_CHARS", 20, "p.jsonl", PAIRS + lines([{"question": "y" * 21, "answer": "a"}]),
                 read_pairs, " line 5: the question text length is 21 characters, over the limit of 20 characters"),
    "answer": ("EXHIBITION_IMPORT_MAX_ANSWER_CHARS", 10, "p.jsonl", lines([{"question": "q", "answer": ["a", "b" * 11]}]),
               read_pairs, " line 1: the answer length is 11 characters, over the limit of 10 characters"),
    "title": ("EXHIBITION_IMPORT_MAX_ANSWER_CHARS", 10, "t.jsonl", lines([{"title": "T" * 11, "text": "t"}]), read_passages,
              " line 1: the answer length is 11 characters, over the limit of 10 characters"),
    "deep line": ("EXHIBITION_IMPORT_MAX_JSON_DEPTH", 32, "p.jsonl", PAIRS + '{"question": "q", "answer": ' + DEEP + "}\n",
                  read_pairs, " line 5: the JSON nesting depth goes over the limit of 32 levels"),
    "deep document": ("EXHIBITION_IMPORT_MAX_JSON_DEPTH", 32, "q.json", DEEP, read_passages,
                      " line 1: the JSON nesting depth goes over the limit of 32 levels"),
}


@pytest.mark.parametrize("case", OVER)
def test_data_over_a_limit_is_refused_in_one_sentence_naming_it_and_the_place(settings, tmp_path, case):
    setting, value, name, content, reader, message = OVER[case]
    setattr(settings, setting, value)
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(LimitExceeded) as refused:
        reader(path)
    assert str(refused.value) == f"{path}{message} (setting {setting})."


def test_a_packed_bomb_stops_at_the_unpacking_ratio(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(PAIRS.encode() * 100_000))  # 18 MB from 60 KB
    with pytest.raises(LimitExceeded, match=r"bomb.jsonl.gz \(at unpacked byte [\d,]+\): the unpacking ratio goes over"):
        read_pairs(path)


def test_a_one_line_qanta_document_holds_questions_and_json_lines_hold_what_their_first_line_says(tmp_path):
    document, pairs, passages = tmp_path / "qanta.data", tmp_path / "pairs.data", tmp_path / "passages.data"
    document.write_text(json.dumps({"questions": QANTA}))
    pairs.write_text(PAIRS)
    passages.write_text(PASSAGES)
    assert holds_questions(document) and holds_questions(pairs) and not holds_questions(passages)
    assert len(read_pairs(document)) == 1 and len(read_pairs(pairs)) == 4 and len(read_passages(passages)) == 3


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
