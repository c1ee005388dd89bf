"""Packets as written, with their bonuses: a Word packet, qbreader-style JSON, our packet JSON and a CSV each
bring in a bonus's leadin and parts (text, answer line with its required words, value); a broken bonus is
named with its line and part while the rest of the packet comes in; a part over a size limit stops the
import as a tossup over it does; export_packet writes bonuses that import back the same."""
from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path

import docx
import pytest
from django.core.management import call_command

from game.importers.file_kinds import detect
from game.importers.run import import_bytes
from game.judging.answerline import parse_answer_line
from game.models import Packet
from intake.limits import LimitExceeded
from tests.importers.test_docx import add, as_bytes

pytestmark = pytest.mark.django_db

MOONS = ("This moon has the most volcanic activity.", "This moon is the largest in the Solar System.",
         "This moon's icy crust may hide an ocean.")


# What a host reads about a broken bonus, whichever format it came in: its name ("Bonus 3" where the
# file numbers it, "The bonus" where its line does) and the part to fix.
NO_ANSWER = "{}, part {} has no answer line; add its ANSWER: line after the part."
NOT_A_NUMBER = "{}, part {} has the value 'ten', not a whole number of points; write it as 10 (in a Word packet, [10] before the part)."
NO_PARTS = "{} has no parts; give it 1 to 6 parts, each with its text, answer line and value."


def errors_of(report) -> list[tuple[int, str]]:
    return [(e.line, e.message) for e in report.errors]


def bonuses_of(packet) -> list:
    return list(packet.questions.filter(kind="bonus").order_by("position"))


def word_packet(*bonuses) -> bytes:
    """A tossup, then a "Bonuses" heading and the bonuses given, each a list of paragraphs (text or runs)."""
    d = docx.Document()
    add(d, "1. This scientist's laws of (*) motion fill the Principia. For 10 points, name this physicist.")
    add(d, ("ANSWER: ", True, False), "Isaac ", ("Newton", True, True))
    add(d, "Bonuses")
    for bonus in bonuses:
        for paragraph in bonus:
            add(d, *(paragraph if isinstance(paragraph, tuple) else (paragraph,)))
    return as_bytes(d)


def good_bonus(number: int) -> list:
    return [f"{number}. For 10 points each, name these moons of Jupiter.",
            "[10e] " + MOONS[0], ("ANSWER: ", ("Io", True, True)),
            "[10m] " + MOONS[1], ("ANSWER: ", ("Ganymede", True, True), " [accept Jupiter III]"),
            "[10h] " + MOONS[2], ("ANSWER: ", ("Europa", True, True)),
            "<Science, Astronomy>"]


def test_a_word_packet_brings_in_its_bonuses_with_values_difficulty_marks_and_required_words():
    printing = ["2. Printing spread through Europe after 1450.", "For 10 points each:",  # a leadin over two paragraphs
                "[10] Name the German printer whose Bible came out in Mainz around 1455.",
                (("ANSWER:", True, False), " Johannes ", ("Gutenberg", True, True)),
                "[15] The Bible is printed in this language,", "the language of the Vulgate.",
                ("ANSWER: ", ("Latin", True, True)),
                ("[accept ", ("Latina", False, True), "]")]  # an answer line running onto the next paragraph
    report = import_bytes(word_packet(good_bonus(1), printing), "Packet.docx", "bonus-docx")
    assert (report.errors, report.by_kind) == ([], "1 tossup and 2 bonuses")
    moons, gutenberg = bonuses_of(report.packet)
    assert (moons.text, moons.answer, moons.category, moons.subcategory) == (
        "For 10 points each, name these moons of Jupiter.", "", "Science", "Astronomy")
    assert moons.parts == [{"text": MOONS[0], "answer": "<b><u>Io</u></b>", "value": 10},
                           {"text": MOONS[1], "answer": "<b><u>Ganymede</u></b> [accept Jupiter III]", "value": 10},
                           {"text": MOONS[2], "answer": "<b><u>Europa</u></b>", "value": 10}]
    assert moons.source == {"packet": "Packet.docx", "number": 1, "difficulty_modifiers": ["e", "m", "h"]}
    assert gutenberg.text == "Printing spread through Europe after 1450. For 10 points each:"
    assert [(p["text"], p["answer"], p["value"]) for p in gutenberg.parts] == [
        ("Name the German printer whose Bible came out in Mainz around 1455.", "Johannes <b><u>Gutenberg</u></b>", 10),
        ("The Bible is printed in this language, the language of the Vulgate.", "<b><u>Latin</u></b> [accept <u>Latina</u>]", 15)]
    assert parse_answer_line(gutenberg.parts[1]["answer"]).required == ("Latin",)


def test_bonuses_numbered_without_a_heading_are_read_by_their_parts():
    d = docx.Document()
    add(d, "1. This river flows through (*) Vienna and Budapest. For 10 points, name this river.")
    add(d, "ANSWER: ", ("Danube", True, True))
    add(d, "2. For 10 points each, name these rivers.")
    add(d, "[10] This river flows through Cairo.")
    add(d, "ANSWER: ", ("Nile", True, True))
    add(d, "Bonus 3. [10] This river flows through Paris.")
    add(d, "ANSWER: ", ("Seine", True, True))
    report = import_bytes(as_bytes(d), "rivers.docx", "rivers")
    assert (report.errors, report.by_kind) == ([], "1 tossup and 2 bonuses")
    nile, seine = bonuses_of(report.packet)
    assert (nile.parts[0]["answer"], seine.text, seine.parts[0]["answer"]) == (
        "<b><u>Nile</u></b>", "", "<b><u>Seine</u></b>"), "a bonus may start at its first part, with no leadin"


def test_broken_bonuses_in_a_word_packet_are_named_with_their_line_and_the_rest_come_in():
    no_answer = ["2. For 10 points each, name these.", "[10] A part with its answer.", "ANSWER: one",
                 "[10] A part whose answer line is missing.", "[10] A third part.", "ANSWER: three"]
    not_a_number = ["3. For 10 points each:", "[ten] A part worth words.", "ANSWER: words"]
    no_parts = ["4. A bonus whose parts were never written."]
    too_many = ["5. Seven parts:"] + [line for n in range(7) for line in (f"[5] Part {n + 1}.", f"ANSWER: a{n}")]
    report = import_bytes(word_packet(good_bonus(1), no_answer, not_a_number, no_parts, too_many, good_bonus(6)),
                          "broken.docx", "broken")
    assert report.by_kind == "1 tossup and 2 bonuses"
    assert errors_of(report) == [
        (12, NO_ANSWER.format("Bonus 2", 2)), (18, NOT_A_NUMBER.format("Bonus 3", 1)), (21, NO_PARTS.format("Bonus 4")),
        (22, "Bonus 5 has 7 parts; a bonus has at most 6, so split it or remove some.")]
    assert [b.source["number"] for b in bonuses_of(report.packet)] == [1, 6]


def test_a_part_over_the_text_limit_stops_the_import_naming_its_bonus_part(settings):
    settings.EXHIBITION_IMPORT_MAX_TEXT_CHARS = 100
    huge = ["2. For 10 points each:", "[10] Short.", "ANSWER: a", "[10] " + "Long clue, " * 20, "ANSWER: b"]
    with pytest.raises(LimitExceeded, match=r"huge.docx line 12, part 2: the question text length is \d+ characters, over the limit"):
        import_bytes(word_packet(good_bonus(1), huge), "huge.docx", "huge")
    assert not Packet.objects.exists()


QBREADER = {
    "tossups": [{"question": "<b>This physicist's laws of (*)</b> motion. For 10 points, name him.",
                 "question_sanitized": "This physicist's laws of (*) motion. For 10 points, name him.",
                 "answer": "Isaac <b><u>Newton</u></b>", "answer_sanitized": "Isaac Newton", "number": 1,
                 "category": "Science", "subcategory": "Physics"}],
    "bonuses": [
        {"leadin": "For 10 points each, name these moons of <i>Jupiter</i>.", "parts": [f"<i>{m}</i>" for m in MOONS],
         "answers": ["<b><u>Io</u></b>", "<b><u>Ganymede</u></b>", "<b><u>Europa</u></b> [accept Jupiter II]"],
         "values": [10, 10, 10], "difficultyModifiers": ["e", "m", "h"], "number": 1, "category": "Science",
         "set": {"name": "2026 Exhibition Open", "year": 2026}, "packet": {"name": "Packet 3", "number": 3}},
        {"leadin": "A YAPP bonus with no values: 10 each.", "parts": ["Part one.", "Part two &amp; more."],
         "answers": ["<b><u>one</u></b>", "<u>two</u>"], "number": 2},
    ],
}


def test_qbreader_packet_json_brings_in_tossups_and_bonuses_and_is_detected():
    data = json.dumps(QBREADER, indent=1).encode()
    assert detect("packet.json", data.decode()) == "qbreader"
    report = import_bytes(data, "packet.json", "qbr")
    assert (report.format, report.errors, report.by_kind) == ("qbreader", [], "1 tossup and 2 bonuses")
    newton, moons, yapp = report.packet.questions.order_by("position")
    assert (newton.text, newton.answer, newton.category) == (
        "This physicist's laws of (*) motion. For 10 points, name him.", "Isaac <b><u>Newton</u></b>", "Science")
    assert moons.text == "For 10 points each, name these moons of Jupiter."
    assert [p["text"] for p in moons.parts] == list(MOONS), "the parts' HTML is taken out; the answers keep theirs"
    assert moons.parts[2] == {"text": MOONS[2], "answer": "<b><u>Europa</u></b> [accept Jupiter II]", "value": 10}
    assert moons.source == {"number": 1, "set": "2026 Exhibition Open", "packet": "Packet 3",
                            "difficulty_modifiers": ["e", "m", "h"]}
    assert [(p["text"], p["value"]) for p in yapp.parts] == [("Part one.", 10), ("Part two & more.", 10)]


def test_broken_qbreader_bonuses_are_named_by_line_and_the_rest_come_in():
    good = QBREADER["bonuses"][0]
    broken = [dict(good, number=2, answers=good["answers"][:2]),
              dict(good, number=3, values=[10, "ten", 10]),
              dict(good, number=4, parts=[], answers=[]),
              dict(good, number=5, values=[40, 10, 10])]
    text = '{"bonuses": [\n' + ",\n".join(json.dumps(b) for b in [good, *broken]) + "\n]}"
    report = import_bytes(text.encode(), "broken.json", "broken", fmt="qbreader")
    assert report.by_kind == "0 tossups and 1 bonus"
    assert errors_of(report) == [
        (3, NO_ANSWER.format("Bonus 2", 3)), (4, NOT_A_NUMBER.format("Bonus 3", 2)), (5, NO_PARTS.format("Bonus 4")),
        (6, "Bonus 5, part 1 is worth 40; a part is worth 5 to 30 points.")]


def test_packet_json_with_bonuses_round_trips_through_export_packet(tmp_path):
    report = import_bytes(json.dumps(QBREADER).encode(), "packet.json", "original", title="Moons")
    exported = tmp_path / "moons.json"
    call_command("export_packet", "original", "-o", str(exported), stderr=StringIO())
    data = json.loads(exported.read_text())
    assert data["version"] == 1 and "parts" not in data["questions"][0], "tossups are written as before bonuses"
    assert data["questions"][1]["parts"][0] == {"text": MOONS[0], "answer": "<b><u>Io</u></b>", "value": 10}
    out = StringIO()
    call_command("import_questions", str(exported), "--slug", "again", stdout=out, stderr=StringIO())
    assert "Imported 3 questions (1 tossup and 2 bonuses) as Exhibition packet JSON" in out.getvalue()
    fields = ("kind", "text", "answer", "accepted", "category", "subcategory", "source", "parts")
    original, again = (list(Packet.objects.get(slug=s).questions.order_by("position").values(*fields))
                       for s in ("original", "again"))
    assert again == original and report.packet.title == Packet.objects.get(slug="again").title == "Moons"


def test_packet_json_refuses_parts_on_a_tossup_and_bad_parts_by_line():
    part = {"text": "A part.", "answer": "a", "value": 10}
    questions = [{"kind": "tossup", "text": "T (*) for 10 points.", "answer": "t", "parts": [part]},
                 {"kind": "bonus", "text": "Leadin.", "parts": [part, dict(part, answer="")]},
                 {"kind": "bonus", "text": "Leadin.", "parts": [part, "a part as a string"]},
                 {"kind": "bonus", "text": "", "parts": [part]}]
    text = '{"format": "exhibition-packet", "version": 1, "questions": [\n' + ",\n".join(map(json.dumps, questions)) + "\n]}"
    report = import_bytes(text.encode(), "p.json", "p")
    assert errors_of(report) == [
        (2, 'Only a bonus has parts; make its kind "bonus", or remove its parts.'),
        (3, NO_ANSWER.format("The bonus", 2)),
        (4, "The bonus, part 2 is not an object with a text, an answer and a value.")]
    assert report.by_kind == "0 tossups and 1 bonus"


CSV = """kind,text,answer,part1,answer1,value1,part2,answer2,value2,part3,answer3,value3,category
tossup,"This river flows through (*) Vienna. For 10 points, name it.",<b><u>Danube</u></b>,,,,,,,,,,Geography
bonus,"For 10 points each, name these rivers.",,This river flows through Cairo.,<b><u>Nile</u></b>,,This river flows through Paris.,<b><u>Seine</u></b>,15,,,,Geography
short,Which planet is largest?,Jupiter,,,,,,,,,,Science
bonus,A bonus whose second part lost its answer.,,Part one.,one,10,Part two.,,10,,,,
bonus,A bonus with a value in words.,,Part one.,one,ten,,,,,,,
bonus,A bonus with no parts filled in.,,,,,,,,,,,
"""


def test_a_csv_with_a_kind_column_has_a_bonus_a_row():
    assert detect("packet.csv", "question_id," + CSV) == "csv", "its own columns, even beside a tossups.csv id"
    report = import_bytes(CSV.encode(), "packet.csv", "csv-bonus")
    assert report.by_kind == "1 short question, 1 tossup and 1 bonus"
    tossup, bonus, short = report.packet.questions.order_by("position")
    assert (tossup.kind, tossup.answer, tossup.accepted, short.accepted) == ("tossup", "<b><u>Danube</u></b>", [], ["Jupiter"])
    assert bonus.parts == [{"text": "This river flows through Cairo.", "answer": "<b><u>Nile</u></b>", "value": 10},
                           {"text": "This river flows through Paris.", "answer": "<b><u>Seine</u></b>", "value": 15}]
    assert errors_of(report) == [
        (5, NO_ANSWER.format("The bonus", 2)), (6, NOT_A_NUMBER.format("The bonus", 1)), (7, NO_PARTS.format("The bonus"))]


def test_the_packet_csv_the_docs_show_imports_as_they_say():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "judging.md").read_text()
    example = re.search(r"```\n(kind,text,answer,part1.*?)```", docs, re.S).group(1)
    report = import_bytes(example.encode(), "packet.csv", "docs-csv")
    assert (report.errors, report.by_kind) == ([], "1 tossup and 1 bonus")
    assert [p["answer"] for p in bonuses_of(report.packet)[0].parts] == [
        "<b><u>Nile</u></b>", "<b><u>Seine</u></b>", "<b><u>Tiber</u></b>"]


def test_answer_lines_out_of_place_in_a_word_packet_are_named():
    twice = ["2. For 10 points each:", "[10] Part one.", "ANSWER: one", "Part two, its value left out.", "ANSWER: two"]
    early = ["3. For 10 points each:", "ANSWER: an answer before any part", "[10] Part one.", "ANSWER: one"]
    d = docx.Document()
    add(d, "1. A tossup (*) with two answer lines.")
    add(d, "ANSWER: first")
    add(d, "ANSWER: second")
    report = import_bytes(word_packet(twice, early), "lines.docx", "lines")
    assert errors_of(report) == [
        (4, "Bonus 2, part 1 has 2 ANSWER: lines; start the part after its first one with its value, e.g. [10]."),
        (9, "Bonus 3 has an ANSWER: line before its first part; start each part with its value, e.g. [10], and put "
            "its ANSWER: line after it.")]
    tossups = import_bytes(as_bytes(d), "tossup.docx", "tossup")
    assert errors_of(tossups) == [
        (1, "Tossup 1 has 2 ANSWER: lines; keep one, or number the parts of a bonus [10].")]
    assert tossups.imported == 0 and tossups.packet is None
