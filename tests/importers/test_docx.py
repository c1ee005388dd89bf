""".docx packets in: tossups with their ANSWER lines, the bold/underlined required parts, power marks and
categories; per-question errors (no ANSWER line, a bonus); and files that are not packets or are built to
cost memory, refused before python-docx opens them, from the command and the host page alike."""
from __future__ import annotations

import io
import sqlite3
import zipfile

import docx
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from game.engine.questions import split_words
from intake.limits import LimitExceeded
from intake.problems import ImportProblem
from game.importers.run import import_bytes
from game.judging.answerline import parse_answer_line
from game.models import Packet
from tests.hostile import MB, PEAK_RSS_LIMIT, database, run_command  # noqa: F401 (database is a fixture)

NEWTON = ("This man's three laws of motion appear in a 1687 book, and he quarrelled with Leibniz over calculus. "
          "He (*) described gravity as a force acting at a distance. For 10 points, name this English physicist.")


def add(document, *runs):
    """A paragraph of runs, each text or (text, bold, underline)."""
    paragraph = document.add_paragraph()
    for run in runs:
        text, bold, underline = (run, False, False) if isinstance(run, str) else run
        made = paragraph.add_run(text)
        made.bold, made.underline = bold or None, underline or None
    return paragraph


def as_bytes(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def packet(missing_answer: bool = False) -> bytes:
    """A packet as writers send them: a title, tossups numbered three ways (one over two paragraphs), bold
    labels and bold-underlined required parts split across runs, a category line, an answer line after a
    soft line break in its tossup's paragraph, and a bonus whose second answer line runs onto a second line."""
    d = docx.Document()
    add(d, ("Exhibition Open 2026 — Packet 3", True, False))
    add(d, "Tossups")
    add(d, "1. " + NEWTON)
    add(d, ("ANSWER:", True, False), " Isaac ", ("New", True, True), ("ton", True, True))
    add(d, "<Science, Physics>")
    add(d, "2) In one story this creature outwits a (*) tiger. It is often drawn")
    add(d, "with long ears. For 10 points, name this animal.")
    if not missing_answer:
        add(d, ("Answer: ", True, False), ("rabbit", False, True), " [accept ", ("hare", False, True), "; prompt on animal]")
    tossup = add(d, "Tossup 3: This city on the Bosporus was once called Constantinople. Name this city.")
    tossup.runs[-1].add_break()  # a soft line break: the answer line in the same paragraph
    answer = add(d, ("ANSWER: ", True, False), ("Istanbul", True, True), " [or ", ("Byzantium", True, True), " before mention]")
    for run in answer.runs:
        tossup._p.append(run._r)
    answer._p.getparent().remove(answer._p)
    add(d, "Bonuses")
    add(d, "1. For 10 points each, name these moons of Jupiter.")
    add(d, "[10] This moon has the most volcanic activity.")
    add(d, ("ANSWER: ", True, False), ("Io", True, True))
    add(d, "[10] This moon is the largest in the Solar System.")
    add(d, ("ANSWER: ", True, False), ("Ganymede", True, True))
    add(d, "[accept Jupiter ", ("III", False, True), "]")
    add(d, "<Science, Astronomy>")
    return as_bytes(d)


@pytest.mark.django_db
def test_a_realistic_packet_imports_its_tossups_with_required_parts_and_power_marks():
    report = import_bytes(packet(), "Packet 3.docx", "open-3")
    assert report.format == "docx" and report.imported == 4 and report.by_kind == "3 tossups and 1 bonus"
    questions = list(report.packet.questions.order_by("position"))
    assert report.packet.title == "Exhibition Open 2026 — Packet 3"
    newton, rabbit, istanbul, moons = questions
    assert newton.text == NEWTON and newton.kind == "tossup"
    assert (newton.category, newton.subcategory) == ("Science", "Physics")
    assert newton.answer == "Isaac <b><u>Newton</u></b>", "runs alike are joined, the bold ANSWER: label is not kept"
    words, power = split_words(newton.text)
    assert words[power - 1] == "He" and words[power] == "described"
    assert rabbit.text == "In one story this creature outwits a (*) tiger. It is often drawn with long ears. For 10 points, name this animal."
    assert rabbit.answer == "<u>rabbit</u> [accept <u>hare</u>; prompt on animal]"
    assert istanbul.text == "This city on the Bosporus was once called Constantinople. Name this city."
    assert istanbul.answer == "<b><u>Istanbul</u></b> [or <b><u>Byzantium</u></b> before mention]"
    line = parse_answer_line(istanbul.answer)
    assert line.main == "Istanbul" and line.required == ("Istanbul",) and line.required_source == "markup"
    assert parse_answer_line(newton.answer).required == ("Newton",)
    assert (moons.kind, moons.text, moons.answer) == ("bonus", "For 10 points each, name these moons of Jupiter.", "")
    assert moons.parts == [
        {"text": "This moon has the most volcanic activity.", "answer": "<b><u>Io</u></b>", "value": 10},
        {"text": "This moon is the largest in the Solar System.", "answer": "<b><u>Ganymede</u></b> [accept Jupiter <u>III</u>]",
         "value": 10}]
    assert (moons.category, moons.subcategory, moons.source) == ("Science", "Astronomy", {"packet": "Packet 3.docx", "number": 1})
    assert parse_answer_line(moons.parts[1]["answer"]).required == ("Ganymede",)
    assert report.errors == []


@pytest.mark.django_db
def test_a_tossup_without_its_answer_line_is_named_and_the_others_come_in():
    report = import_bytes(packet(missing_answer=True), "p.docx", "p")
    assert report.imported == 3 and report.by_kind == "2 tossups and 1 bonus"
    assert report.errors[0].line == 6
    assert report.errors[0].message == "Tossup 2 has no ANSWER: line; add one after its text (or remove the tossup)."
    assert [q.answer for q in report.packet.questions.filter(kind="tossup").order_by("position")] == [
        "Isaac <b><u>Newton</u></b>", "<b><u>Istanbul</u></b> [or <b><u>Byzantium</u></b> before mention]"]


@pytest.mark.django_db
def test_two_power_marks_an_orphan_answer_line_and_an_empty_answer_are_per_question_errors():
    d = docx.Document()
    add(d, "ANSWER: nothing before me")
    add(d, "1. One (*) two (*) three.")
    add(d, "ANSWER: three")
    add(d, "2. A tossup whose answer line is empty.")
    add(d, "ANSWER:")
    add(d, "3. A good one, at last.")
    add(d, "ANSWER: ", ("last", False, True))
    report = import_bytes(as_bytes(d), "mixed.docx", "mixed")
    assert report.imported == 1 and report.packet.questions.get().answer == "<u>last</u>"
    messages = {e.line: e.message for e in report.errors}
    assert messages[1].startswith("This ANSWER: line has no numbered tossup before it")
    assert messages[2] == "Tossup 1 has 2 power marks (*); keep the one where power ends."
    assert messages[4].startswith("Tossup 2: The question has no answer")


def zip_of(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def with_document_xml(xml: bytes) -> bytes:
    """A real .docx whose word/document.xml is replaced."""
    real = zipfile.ZipFile(io.BytesIO(packet()))
    return zip_of({i.filename: (xml if i.filename == "word/document.xml" else real.read(i)) for i in real.infolist()})


DEEP = (b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        + b"<w:p>" * 200 + b"</w:p>" * 200 + b"</w:body></w:document>")

REFUSED = {
    "not a zip": (b"1. A tossup typed in a text file.\nANSWER: text\n", "is not a .docx (Word saves .docx files as zip archives"),
    "a zip but not Word": (zip_of({"notes.txt": b"hello"}), "is a zip archive but not a Word document (it has no word/document.xml)"),
    "cut short": (packet()[:3000], "is a broken zip archive"),
    "nested too deep": (with_document_xml(DEEP), "the XML nesting depth of the .docx goes over the limit of 64 levels"),
    "too many files": (zip_of({f"f{i}.xml": b"" for i in range(501)}), "the number of files inside the .docx is 501 files, over the limit of 500"),
    "not XML": (with_document_xml(b"<w:document>&broken;<"), "cannot be read as a Word document"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", REFUSED)
def test_a_file_that_is_not_a_readable_packet_is_refused_with_nothing_saved(case):
    data, message = REFUSED[case]
    with pytest.raises(ImportProblem) as refused:
        import_bytes(data, "packet.docx", "bad")
    assert message in str(refused.value)
    assert not Packet.objects.filter(slug="bad").exists()


@pytest.mark.django_db
def test_the_paragraph_limit_is_checked_before_reading_the_questions(settings):
    settings.EXHIBITION_IMPORT_MAX_DOCX_PARAGRAPHS = 10
    with pytest.raises(LimitExceeded, match="number of paragraphs is 17 paragraphs, over the limit of 10 paragraphs"):
        import_bytes(packet(), "p.docx", "p")
    settings.EXHIBITION_IMPORT_MAX_DOCX_PARAGRAPHS = 17
    assert import_bytes(packet(), "p.docx", "p").imported == 4


@pytest.mark.django_db
def test_the_command_and_the_host_page_take_a_docx(tmp_path, client):
    path = tmp_path / "Packet 3.docx"
    path.write_bytes(packet())
    out, err = io.StringIO(), io.StringIO()
    call_command("import_questions", str(path), "--slug", "cmd", stdout=out, stderr=err)
    assert 'Imported 4 questions (3 tossups and 1 bonus) as Word packet (.docx) into packet "cmd"' in out.getvalue()
    assert err.getvalue() == ""
    call_command("import_questions", str(path), "--slug", "chosen", "--format", "docx", stdout=io.StringIO(), stderr=io.StringIO())
    assert Packet.objects.get(slug="chosen").questions.count() == 4
    (tmp_path / "text.docx").write_text("not a packet")
    with pytest.raises(CommandError, match="is not a .docx.*Nothing was imported"):
        call_command("import_questions", str(tmp_path / "text.docx"), "--slug", "no", stdout=io.StringIO())

    client.force_login(get_user_model().objects.create_user("host", password="pw", is_staff=True))
    page = client.post("/host/import/", {"file": SimpleUploadedFile("Packet 3.docx", packet()), "slug": "page",
                                         "title": "", "format": "auto"})
    assert page.status_code == 200 and Packet.objects.get(slug="page").questions.count() == 4
    assert b'<span id="imported-kinds">3 tossups and 1 bonus</span>' in page.content
    assert b"Word packet (.docx)" in page.content


def bomb(path, unpacked=1024 * MB) -> None:
    """A .docx-named zip about 1 MB on disk whose document part unpacks to `unpacked` bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            chunk = bytes(MB)
            for _ in range(unpacked // MB):
                member.write(chunk)


@pytest.mark.slow
def test_a_zip_bomb_is_refused_from_its_directory_with_little_memory(database, tmp_path):
    path = tmp_path / "bomb.docx"
    bomb(path)
    code, stderr, peak = run_command(["import_questions", str(path), "--slug", "bomb"], database, tmp_path)
    print(f"bomb.docx: {path.stat().st_size:,} bytes on disk, exit {code}, peak RSS {peak / MB:.0f} MB")
    assert code != 0 and stderr.startswith("CommandError: bomb.docx (word/document.xml): the unpacked size of one file "
                                            "inside the .docx is 1,024,000,000 bytes, over the limit of 16 MiB")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT (SELECT COUNT(*) FROM game_packet) + (SELECT COUNT(*) FROM game_question)").fetchone() == (0,)
    assert peak < PEAK_RSS_LIMIT


def lying(real: bytes, member: str = "word/document.xml", claimed: int = 2000) -> bytes:
    """The zip with `member`'s unpacked size in its directory and local header rewritten to `claimed`
    bytes: the directory passes the checks, and what unpacks is cut off at the claim."""
    import struct

    data = bytearray(real)
    archive = zipfile.ZipFile(io.BytesIO(real))
    info = archive.getinfo(member)
    data[info.header_offset + 22: info.header_offset + 26] = struct.pack("<I", claimed)  # local header
    at = 0
    while (at := bytes(data).find(b"PK\x01\x02", at)) >= 0:
        name_length = struct.unpack("<H", data[at + 28: at + 30])[0]
        if bytes(data[at + 46: at + 46 + name_length]).decode() == member:
            data[at + 24: at + 28] = struct.pack("<I", claimed)
            break
        at += 46
    return bytes(data)


@pytest.mark.django_db
def test_a_zip_that_lies_about_a_member_size_is_refused_as_unreadable():
    """20 MB of XML (over the member limit) claimed as 2,000 bytes: zipfile unpacks only the claim, which is no document."""
    big = with_document_xml(packet_xml_padded(20 * MB))
    with pytest.raises(ImportProblem, match="cannot be read as a Word document"):
        import_bytes(lying(big), "liar.docx", "liar")
    assert not Packet.objects.filter(slug="liar").exists()


def packet_xml_padded(size: int) -> bytes:
    """A real packet's document XML with `size` bytes of spaces inside it (a 20 MB member packs to a few KB)."""
    xml = zipfile.ZipFile(io.BytesIO(packet())).read("word/document.xml")
    at = xml.index(b"<w:body>")
    return xml[:at] + b" " * size + xml[at:]
