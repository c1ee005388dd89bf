"""Each format reads its own files; a broken line is reported by number and the rest still come in."""
import gzip
import json

import pytest

from intake.problems import ImportProblem
from game.importers.file_kinds import detect
from game.importers.run import import_bytes, import_path

QANTA_RECORD = {"qanta_id": 7, "text": "This city hosts the Louvre.", "answer": "Paris", "page": "Paris", "category": "Geography",
                "subcategory": "Europe", "tournament": "ACF", "year": 2015, "difficulty": "College"}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def lines_of(report):
    return [(e.line, e.message) for e in report.errors]


pytestmark = pytest.mark.django_db


def test_qanta_list_and_wrapped_forms_and_gzip(tmp_path):
    records = [QANTA_RECORD, dict(QANTA_RECORD, qanta_id=8, page="Lyon_(city)", answer="Lyon")]
    listed = import_path(write(tmp_path, "a.json", json.dumps(records)), "a")
    wrapped = import_path(write(tmp_path, "b.json", json.dumps({"version": "v1", "questions": records})), "b")
    zipped = import_path(write(tmp_path, "c.json.gz", gzip.compress(json.dumps(records).encode())), "c")
    assert listed.imported == wrapped.imported == zipped.imported == 2
    second = zipped.packet.questions.get(position=2)
    assert (second.kind, second.accepted, second.source["qanta_id"]) == ("tossup", ["Lyon (city)"], 8)


def test_qanta_broken_item_is_reported_by_line_and_the_rest_imported(tmp_path):
    good = json.dumps(QANTA_RECORD)
    text = "[\n" + ",\n".join([good, '{"text": "no answer here", "page": "X"}', '{"text": "broken", "answer": }', good]) + "\n]"
    report = import_path(write(tmp_path, "q.json", text), "q", fmt="qanta")
    assert report.imported == 2
    assert [line for line, _ in lines_of(report)] == [3, 4]
    assert "no answer" in report.errors[0].message and "not valid JSON" in report.errors[1].message


def test_nq_jsonl_broken_and_incomplete_lines(tmp_path):
    text = "\n".join([
        '{"question": "who wrote hamlet", "answer": ["Shakespeare", "William Shakespeare"]}',
        '{"question": "broken", "answer": [',
        "",
        '{"question": "", "answer": ["x"]}',
        '{"question": "capital of france", "answer": ["Paris"]}',
    ])
    report = import_path(write(tmp_path, "nq.jsonl", text), "nq")
    assert report.imported == 2 and [line for line, _ in lines_of(report)] == [2, 4]
    first = report.packet.questions.get(position=1)
    assert (first.kind, first.answer, first.accepted) == ("short", "Shakespeare", ["Shakespeare", "William Shakespeare"])
    assert report.packet.questions.get(position=2).text == "capital of france"


def test_tossups_csv_columns_and_multiline_fields(tmp_path):
    text = (
        "qid,question,answer,page,category,tournament\n"
        '1,"This city, on the Seine,\nhosts the Louvre.",Paris,Paris,Geography,ACF\n'
        "2,This has no answer,,X,History,ACF\n"
        "3,This river flows through Cairo.,Nile [or Nile River],Nile,Geography,NAQT\n"
    )
    report = import_path(write(tmp_path, "tossups.csv", text), "t")
    assert report.format == "tossups-csv" and report.imported == 2
    assert lines_of(report)[0][0] == 4  # the multi-line record took lines 2 and 3
    first = report.packet.questions.get(position=1)
    assert (first.kind, first.text, first.accepted) == ("tossup", "This city, on the Seine,\nhosts the Louvre.", ["Paris"])
    assert first.source == {"question_id": "1", "page": "Paris", "tournament": "ACF"}


def test_tossups_csv_without_the_needed_header_says_what_to_add(tmp_path):
    with pytest.raises(ImportProblem, match="question_id"):
        import_path(write(tmp_path, "tossups.csv", "a,b\n1,2\n"), "t", fmt="tossups-csv")


def test_plain_csv_with_and_without_header(tmp_path):
    bare = import_path(write(tmp_path, "qa.csv", "Capital of France?,Paris,Paree\nNo answer here,\nLargest ocean?,Pacific\n"), "bare")
    assert bare.format == "csv" and bare.imported == 2 and lines_of(bare)[0][0] == 2
    assert bare.packet.questions.get(position=1).accepted == ["Paris", "Paree"]
    headed = import_path(write(tmp_path, "h.csv", "question,answer,accepted\nCapital of Peru?,Lima,Ciudad de los Reyes|Lima\n"), "headed")
    only = headed.packet.questions.get()
    assert (only.text, only.answer, only.accepted) == ("Capital of Peru?", "Lima", ["Lima", "Ciudad de los Reyes"])


def test_packet_json_keeps_its_title_and_rejects_other_versions(tmp_path):
    packet = {"format": "exhibition-packet", "version": 1, "slug": "p", "title": "My packet", "description": "d", "source": "us",
              "questions": [{"kind": "short", "text": "Q?", "answer": "A", "accepted": ["A"], "category": "", "subcategory": "", "source": {}},
                            {"kind": "essay", "text": "Q?", "answer": "A"}]}
    report = import_path(write(tmp_path, "p.json", json.dumps(packet, indent=1)), "p")
    assert (report.format, report.imported, report.packet.title, report.packet.description) == ("packet", 1, "My packet", "d")
    assert "essay" in report.errors[0].message
    with pytest.raises(ImportProblem, match="version 2"):
        import_path(write(tmp_path, "p2.json", json.dumps(dict(packet, version=2))), "p2")


def test_detection_by_name_and_content():
    assert detect("x.json.gz", "[{}]") == "qanta"
    assert detect("x.jsonl", '{"question": "q", "answer": ["a"]}') == "nq"
    assert detect("upload", '{"question": "q", "answer": ["a"]}\n{"question": "r", "answer": ["b"]}') == "nq"
    assert detect("tossups.csv", "question_id,text,answer\n") == "tossups-csv"
    assert detect("mine.csv", "question,answer\n") == "csv"
    assert detect("p.json", '{"format": "exhibition-packet", "version": 1}') == "packet"
    with pytest.raises(ImportProblem, match="choose one of"):
        detect("notes.txt", "hello")


def test_whole_file_problems_are_sentences(tmp_path):
    with pytest.raises(ImportProblem, match="not UTF-8"):
        import_bytes(b"\xff\xfe\x00bad", "x.csv", "x")
    with pytest.raises(ImportProblem, match="no file"):
        import_path(tmp_path / "missing.json", "x")
    with pytest.raises(ImportProblem, match="slug"):
        import_bytes(b"q,a\n", "x.csv", "Not A Slug")


def test_nothing_saved_when_every_line_is_broken(tmp_path):
    report = import_path(write(tmp_path, "bad.jsonl", "nope\nalso nope\n"), "bad")
    assert report.imported == 0 and report.packet is None and len(report.errors) == 2


def test_slug_clash_and_replace(tmp_path):
    path = write(tmp_path, "qa.csv", "Q1?,A1\nQ2?,A2\n")
    import_path(path, "same")
    with pytest.raises(ImportProblem, match="already exists"):
        import_path(path, "same")
    replaced = import_path(write(tmp_path, "qa2.csv", "Q3?,A3\n"), "same", replace=True)
    assert list(replaced.packet.questions.values_list("position", "text")) == [(1, "Q3?")]


def test_progress_is_reported_every_n_lines(tmp_path):
    text = "".join(f"Q{i}?,A{i}\n" for i in range(7))
    calls = []
    import_path(write(tmp_path, "qa.csv", text), "p", progress=lambda lines, imported: calls.append((lines, imported)), every=3)
    assert calls == [(3, 3), (6, 6)]
