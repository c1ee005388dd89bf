"""Every input limit stops the import with one sentence naming the limit and the place, and saves nothing.

Limits are set small here (they are settings) so each file stays small; test_hostile_files.py runs
the real command on full-size hostile files at the shipped limits.
"""
import bz2
import gzip
import json
import lzma

import pytest

from intake.limits import LimitExceeded
from intake.problems import ImportProblem
from game.importers.run import import_bytes, import_path
from game.models import Packet, Question

pytestmark = pytest.mark.django_db


def nq_lines(count: int, **extra) -> str:
    return "".join(json.dumps({"question": f"question {i}?", "answer": [f"a{i}"], **extra}) + "\n" for i in range(count))


def refused(data: bytes, name: str, match: str, **options) -> str:
    with pytest.raises(LimitExceeded, match=match) as caught:
        import_bytes(data, name, "refused", **options)
    assert not Packet.objects.exists() and not Question.objects.exists()
    message = str(caught.value)
    assert "\n" not in message and "(setting EXHIBITION_IMPORT_" in message
    return message


def test_ten_good_questions_and_one_too_long_import_none():
    text = nq_lines(10) + json.dumps({"question": "x" * 2001, "answer": ["long"]}) + "\n"
    message = refused(text.encode(), "eleven.jsonl", "question text length")
    assert message.startswith("eleven.jsonl line 11: the question text length is 2,001 characters, over the limit of 2,000")


def test_a_too_long_answer_and_a_too_large_question_are_refused():
    long_answer = json.dumps({"question": "Which?", "answer": ["y" * 501]}) + "\n"
    assert "line 3: the answer length is 501 characters" in refused((nq_lines(2) + long_answer).encode(), "a.jsonl", "answer length")
    many_accepted = json.dumps({"question": "Which?", "answer": [f"answer number {i}" for i in range(300)]}) + "\n"
    assert "line 1: the question size is" in refused(many_accepted.encode(), "b.jsonl", "question size")


@pytest.mark.parametrize("pack, name", [(gzip.compress, "bomb.json.gz"), (bz2.compress, "bomb.json.bz2"), (lzma.compress, "bomb.json.xz")])
def test_a_packed_file_stops_unpacking_at_the_limit(settings, pack, name):
    settings.EXHIBITION_IMPORT_MAX_UNPACKED_BYTES = 64 * 1024
    bomb = pack(b"[" + b" " * (10 * 1024 * 1024) + b"]")
    assert refused(bomb, name, "unpacked size").startswith(f"{name}: the unpacked size goes over the limit of 64 KiB")


def test_packed_files_within_the_limit_import():
    text = nq_lines(3).encode()
    for pack, name in ((gzip.compress, "q.jsonl.gz"), (bz2.compress, "q.jsonl.bz2"), (lzma.compress, "q.jsonl.xz")):
        assert import_bytes(pack(text), name, name.replace(".", "-")).imported == 3


def test_the_file_size_is_checked_before_reading(settings, tmp_path):
    settings.EXHIBITION_IMPORT_MAX_FILE_BYTES = 1024
    path = tmp_path / "big.jsonl"
    path.write_text(nq_lines(100))
    with pytest.raises(LimitExceeded, match="big.jsonl: the file size is 4,780 bytes, over the limit of 1 KiB"):
        import_path(path, "big")


def test_deep_nesting_is_refused_before_parsing_in_each_json_form():
    deep = "[" * 100_000 + "]" * 100_000
    assert refused(deep.encode(), "deep.json", "nesting depth").startswith("deep.json line 1: the JSON nesting depth")
    in_item = '[\n{"text": "q", "answer": "a"},\n{"text": ' + deep + "}\n]"
    assert refused(in_item.encode(), "item.json", "nesting depth").startswith("item.json line 3:")
    wrapped = '{"format": "exhibition-packet", "version": 1, "x": ' + deep + ', "questions": []}'
    refused(wrapped.encode(), "wrapped.json", "nesting depth")
    in_line = nq_lines(2) + '{"question": "q", "answer": ' + "[" * 10_000 + "]" * 10_000 + "}\n"  # deep, yet a short line
    assert refused(in_line.encode(), "deep.jsonl", "nesting depth").startswith("deep.jsonl line 3:")


def test_json_lines_and_list_entries_longer_than_the_line_limit(settings):
    settings.EXHIBITION_IMPORT_MAX_LINE_BYTES = 1024
    long_line = json.dumps({"question": "q" * 2000, "answer": ["a"]}) + "\n"
    assert refused((nq_lines(4) + long_line).encode(), "long.jsonl", "entry length").startswith("long.jsonl line 5: the line or entry length goes over the limit of 1 KiB")
    items = [{"text": "short?", "answer": "a"}, {"text": "x" * 2000, "answer": "a"}]
    listed = "[\n" + ",\n".join(json.dumps(item) for item in items) + "\n]"
    assert refused(listed.encode(), "list.json", "entry length").startswith("list.json line 3:")


def test_csv_fields_and_lines_over_their_limits(settings):
    settings.EXHIBITION_IMPORT_MAX_CSV_FIELD_CHARS = 1000
    field = "\n".join(["y" * 99] * 20)  # 2,000 characters on short lines: only the field limit sees it
    message = refused(f'question,answer\nQ1?,A1\n"{field}",A2\n'.encode(), "field.csv", "CSV field length")
    assert message.startswith("field.csv record starting on line 3: the CSV field length goes over the limit of 1,000 characters")
    settings.EXHIBITION_IMPORT_MAX_LINE_BYTES = 1024
    assert refused(("Q1?,A1\n" + "z" * 2000 + ",A2\n").encode(), "line.csv", "entry length").startswith("line.csv line 2:")


def test_more_questions_than_the_limit(settings):
    settings.EXHIBITION_IMPORT_MAX_QUESTIONS = 10
    message = refused(nq_lines(11).encode(), "many.jsonl", "number of questions")
    assert message.startswith("many.jsonl line 11: the number of questions goes over the limit of 10 questions")
    assert import_bytes(nq_lines(10).encode(), "ten.jsonl", "ten").imported == 10


def test_a_zip_file_and_a_huge_number_are_explained_not_crashed_on():
    with pytest.raises(ImportProblem, match="zip archive; unzip it"):
        import_bytes(b"PK\x03\x04rest of a zip", "q.zip", "zip")
    report = import_bytes((nq_lines(1) + '{"question": "q", "answer": [' + "9" * 5000 + "]}\n").encode(), "n.jsonl", "n")
    assert report.imported == 1 and report.errors[0].line == 2 and "not valid JSON" in report.errors[0].message
