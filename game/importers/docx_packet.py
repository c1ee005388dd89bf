"""Quizbowl packets as they are written: a Word .docx of numbered tossups, each followed by its ANSWER: line.

    1. This man's laws of motion (*) appear in the Principia. For 10 points, name this physicist.
    ANSWER: Isaac <b><u>Newton</u></b>
    <Science, Physics>

A tossup starts at "1." / "1)" / "Tossup 1"; its text may run over several paragraphs up to the
paragraph (or line, after a soft line break) starting "ANSWER:". The answer line keeps what the writer made bold or underlined as
<b>/<u> tags, which the judge reads as the line's required part (game/judging/answerline.py). "(*)"
stays in the text as the power mark. A paragraph in angle brackets after the answer is the category.
Bonuses follow a "Bonuses" heading (or are numbered items with [10] parts, or start "Bonus 1"): a
leadin, then parts, each starting with its value ("[10]"; "[10e]", "[10m]", "[10h]" mark the part's
difficulty, kept in the source) and followed by its ANSWER: line, which may run over more lines up
to the next part. A tossup with no ANSWER line, a bonus part without one, and a value that is not a
number are listed as errors, each with its item's number and first paragraph.

A .docx is a zip: before python-docx opens it, the zip's directory is read from the file's last
bytes and each member's size checked (limits.DOCX_*), so a zip bomb costs a few reads to refuse.
"""
from __future__ import annotations

import re
import struct
import zipfile
from dataclasses import dataclass, field
from typing import BinaryIO

from intake.limits import DOCX_DEPTH, DOCX_MEMBER, DOCX_MEMBERS, DOCX_PARAGRAPHS, FILE, UNPACKED, LimitExceeded
from intake.problems import ImportProblem

from game.importers.parsed_rows import Parsed, Row, named

DOCUMENT = "word/document.xml"
END_OF_DIRECTORY = b"PK\x05\x06"
END_RECORD = 22  # bytes of the end-of-directory record, before its comment (at most 65,535 bytes)
NUMBERED = re.compile(r"^\s*(?:(?:tossup|toss-up|question)\s*#?\s*(\d{1,4})\s*[.):]?|(\d{1,4})\s*[.)])\s*(.*)$", re.I | re.S)
ANSWER = re.compile(r"^\s*answer\s*:\s*", re.I)
BONUS_HEADING = re.compile(r"^\s*bonus(?:es)?\s*$|^\s*bonus\s+(\d{1,4})\b", re.I)
TOSSUP_HEADING = re.compile(r"^\s*toss-?ups?\s*$", re.I)
# A bonus part starts with its value in brackets: [10], or [10e]/[10m]/[10h] where the writer marks its
# difficulty. In a bonus, any short bracketed word there is read as a value (and "[ten]" is named as not one).
BONUS_PART = re.compile(r"^\s*\[\s*([^\]\s]{1,8})\s*\]")
BONUS_PART_NUMBER = re.compile(r"^\s*\[\s*\d{1,2}\s*[a-z]?\s*\]")
PART_VALUE_MARK = re.compile(r"^(\d{1,2})\s*([emh])?$", re.I)
CATEGORY = re.compile(r"^\s*<([^<>]{1,200})>\s*$")


def is_docx(name: str, fmt: str) -> bool:
    """Whether this import reads a .docx: chosen, or (auto) by the file's name."""
    return fmt == "docx" or (fmt == "auto" and name.lower().endswith(".docx"))


def check_archive(packed: BinaryIO, name: str, size: int) -> None:
    """Refuse a file that is not a zip, or whose zip holds too many members or members too large,
    from its directory alone: nothing is unpacked here."""
    if size > FILE.value:
        raise LimitExceeded(FILE, name, f"{size:,} bytes")
    packed.seek(0)
    if packed.read(4) != b"PK\x03\x04":
        raise ImportProblem(f"{name} is not a .docx (Word saves .docx files as zip archives, and this is not one); "
                            "save the packet from Word as .docx and import that file.")
    tail_start = max(0, size - END_RECORD - 65_535)
    packed.seek(tail_start)
    tail = packed.read()
    at = tail.rfind(END_OF_DIRECTORY)
    if at < 0 or len(tail) - at < END_RECORD:
        raise ImportProblem(f"{name} is a broken zip archive (its directory is missing); save it from Word again.")
    entries = struct.unpack("<H", tail[at + 10: at + 12])[0]
    if entries == 0xFFFF or entries > DOCX_MEMBERS.value:  # 0xFFFF: a zip64 count, far above any packet
        raise LimitExceeded(DOCX_MEMBERS, name, f"{entries:,} files" if entries != 0xFFFF else "")
    packed.seek(0)
    try:
        with zipfile.ZipFile(packed) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ImportProblem(f"{name} is a broken zip archive; save it from Word again.") from None
    if len(members) > DOCX_MEMBERS.value:
        raise LimitExceeded(DOCX_MEMBERS, name, f"{len(members):,} files")
    total = 0
    for member in members:
        if member.file_size > DOCX_MEMBER.value:
            raise LimitExceeded(DOCX_MEMBER, f"{name} ({member.filename[:100]})", f"{member.file_size:,} bytes")
        total += member.file_size
        if total > UNPACKED.value:
            raise LimitExceeded(UNPACKED, name)
    if DOCUMENT not in {m.filename for m in members}:
        raise ImportProblem(f"{name} is a zip archive but not a Word document (it has no {DOCUMENT}); "
                            "save the packet from Word as .docx, or unzip it and import the file inside.")


def check_depth(packed: BinaryIO, name: str) -> None:
    """Refuse a document nested deeper than the limit, counted while streaming its XML (zipfile
    never unpacks more than a member's checked size)."""
    from lxml import etree

    packed.seek(0)
    depth = 0
    try:
        with zipfile.ZipFile(packed) as archive, archive.open(DOCUMENT) as xml:
            for event, _ in etree.iterparse(xml, events=("start", "end"), resolve_entities=False, no_network=True,
                                            huge_tree=False):
                depth += 1 if event == "start" else -1
                if depth > DOCX_DEPTH.value:
                    raise LimitExceeded(DOCX_DEPTH, name)
    except (etree.XMLSyntaxError, zipfile.BadZipFile, OSError, EOFError) as error:
        raise ImportProblem(f"{name} cannot be read as a Word document ({str(error)[:120]}); save it from Word again.") from None


def open_document(packed: BinaryIO, name: str, size: int):
    """The python-docx Document, once the archive and its XML passed the limits."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    check_archive(packed, name, size)
    check_depth(packed, name)
    packed.seek(0)
    try:
        return docx.Document(packed)
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile, OSError) as error:
        raise ImportProblem(f"{name} cannot be read as a Word document ({str(error)[:120]}); save it from Word again.") from None


Piece = tuple[str, bool, bool]  # text, bold, underlined


def styled_lines(paragraph) -> list[list[Piece]]:
    """The paragraph's lines (Word's soft line breaks split a paragraph: writers often put a tossup and
    its ANSWER line in one), each as pieces of text with their bold and underline, runs alike joined."""
    lines: list[list[Piece]] = [[]]
    for item in paragraph.iter_inner_content():
        for run in getattr(item, "runs", None) or [item]:
            style = (bool(run.bold), bool(run.underline))  # underline: True, a WD_UNDERLINE style, or None/False/NONE
            for n, text in enumerate(run.text.split("\n")):
                if n:
                    lines.append([])
                pieces = lines[-1]
                if text and pieces and pieces[-1][1:] == style:  # Word splits runs anywhere
                    pieces[-1] = (pieces[-1][0] + text, *style)
                elif text:
                    pieces.append((text, *style))
    return lines


def plain(pieces: list[Piece]) -> str:
    return "".join(text for text, _, _ in pieces)


def marked_up(pieces: list[Piece], skip: int = 0) -> str:
    """The line with bold parts in <b> and underlined parts in <u>, leaving out its first `skip`
    characters (the "ANSWER:" label, bold or not)."""
    out = []
    for text, bold, underline in pieces:
        cut = min(skip, len(text))
        text, skip = text[cut:], skip - cut
        core = text.strip()
        if not core or not (bold or underline):
            out.append(text)
            continue
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        core = f"<u>{core}</u>" if underline else core
        core = f"<b>{core}</b>" if bold else core
        out.append(lead + core + trail)
    return " ".join("".join(out).split())


@dataclass
class Part:
    """A bonus part being read: its value as written ("10", "10e"), its text, its answer line's lines."""

    value: str
    text: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    answers: int = 0  # ANSWER: lines: more than one means a part's value was left out


@dataclass
class Item:
    """A numbered item of the packet being read: where it starts, its paragraphs, its answer line, and a
    bonus's parts."""

    line: int
    number: int
    bonus: bool
    text: list[str] = field(default_factory=list)  # a tossup's text, a bonus's leadin
    answer: str | None = None
    category: str = ""
    answers: int = 0  # ANSWER: lines seen outside parts
    parts: list[Part] = field(default_factory=list)

    def take(self, text: str, pieces: list[Piece]) -> None:
        """A paragraph (or line) of this item that is not its ANSWER: line: a bonus part's start, or the rest."""
        part = BONUS_PART.match(text) if self.bonus or not self.answers else None
        if part and (self.bonus or BONUS_PART_NUMBER.match(text)):
            self.bonus = True
            self.parts.append(Part(part.group(1)))
            if rest := text[part.end():].strip():
                self.parts[-1].text.append(rest)
        else:
            self.add(text, pieces)

    def add(self, text: str, pieces: list[Piece]) -> None:
        """A paragraph (or line) of this item that starts nothing new: text, a multi-line answer's next
        line, or the category after the last answer."""
        part = self.parts[-1] if self.parts else None
        if (self.answer is not None or (part and part.answer)) and (category := CATEGORY.match(text)):
            self.category = category.group(1)
        elif part is None:
            if self.answer is None:
                self.text.append(text)
        elif part.answer:
            part.answer.append(marked_up(pieces))
        else:
            part.text.append(text)

    def row(self, packet: str) -> Row:
        category, _, subcategory = self.category.partition(",")
        data = {"category": category.strip(), "subcategory": subcategory.strip(),
                "source": {"packet": packet, "number": self.number}}
        if self.bonus or self.parts:
            return self.bonus_row(data)
        label = f"Tossup {self.number}"
        if self.answer is None:
            return Row(self.line, error=f"{label} has no ANSWER: line; add one after its text (or remove the tossup).")
        if self.answers > 1:
            return Row(self.line, error=f"{label} has {self.answers} ANSWER: lines; keep one, or number the "
                                        "parts of a bonus [10].")
        text = " ".join(" ".join(self.text).split())
        if text.count("(*)") > 1:
            return Row(self.line, error=f"{label} has {text.count('(*)')} power marks (*); keep the one where power ends.")
        return named(self.line, {"kind": "tossup", "text": text, "answer": self.answer, **data}, label)

    def bonus_row(self, data: dict) -> Row:
        label = f"Bonus {self.number}"
        if self.answers:
            return Row(self.line, error=f"{label} has an ANSWER: line before its first part; start each part with "
                                        "its value, e.g. [10], and put its ANSWER: line after it.")
        for number, part in enumerate(self.parts, 1):
            if part.answers > 1:
                return Row(self.line, error=f"{label}, part {number} has {part.answers} ANSWER: lines; start the part "
                                            "after its first one with its value, e.g. [10].")
        values = [PART_VALUE_MARK.match(part.value) for part in self.parts]
        marks = [(value.group(2) or "").lower() if value else "" for value in values]  # one a part, "" unmarked
        if any(marks):
            data["source"]["difficulty_modifiers"] = marks
        parts = [{"text": " ".join(" ".join(part.text).split()), "answer": " ".join(part.answer),
                  "value": value.group(1) if value else part.value} for part, value in zip(self.parts, values)]
        return named(self.line, {"kind": "bonus", "text": " ".join(" ".join(self.text).split()), "parts": parts,
                                 **data}, label)


def read_items(paragraphs, name: str) -> tuple[list[Row], str]:
    """(a row per numbered item, the packet's title: its first line when that is not a question). A row's
    line is the number of the paragraph the item starts in."""
    items: list[Item] = []
    rows: list[Row] = []
    title, in_bonuses, current = "", False, None
    lines = ((number, pieces) for number, paragraph in enumerate(paragraphs, 1) for pieces in styled_lines(paragraph))
    for line, pieces in lines:
        text = plain(pieces).strip()
        if not text:
            continue
        numbered = NUMBERED.match(text)
        if ANSWER.match(text):
            answer = marked_up(pieces, skip=ANSWER.match(plain(pieces)).end())
            if current is None:
                rows.append(Row(line, error="This ANSWER: line has no numbered tossup before it; number the tossup "
                                            "(\"1.\", \"1)\" or \"Tossup 1\")."))
            elif current.parts:
                current.parts[-1].answers += 1
                current.parts[-1].answer = current.parts[-1].answer or [answer]
            else:
                current.answers += 1
                current.answer = answer if current.answer is None else current.answer
        elif TOSSUP_HEADING.match(text):
            in_bonuses = False
        elif (heading := BONUS_HEADING.match(text)) and not heading.group(1):
            in_bonuses = True
        elif numbered or (heading and heading.group(1)):
            number = int(numbered.group(1) or numbered.group(2)) if numbered else int(heading.group(1))
            current = Item(line, number, bonus=in_bonuses or bool(heading))
            items.append(current)
            rest = numbered.group(3) if numbered else text[heading.end():].lstrip(" .):")
            if rest.strip():
                current.take(rest.strip(), pieces)
        elif current is None:
            title = title or text[:200]
        else:
            current.take(text, pieces)
    rows += [item.row(name) for item in items]
    rows.sort(key=lambda row: row.line)
    return rows, title


def parse(packed: BinaryIO, name: str, size: int) -> Parsed:
    """The packet's rows (tossups, and the numbered items that are not, each with its reason), read
    from the packed file itself; each row's line is the paragraph the item starts on."""
    document = open_document(packed, name, size)
    body = document.element.body
    count = sum(1 for _ in body.iter("{*}p"))
    if count > DOCX_PARAGRAPHS.value:
        raise LimitExceeded(DOCX_PARAGRAPHS, name, f"{count:,} paragraphs")
    rows, title = read_items(document.paragraphs, name)
    if not rows:
        raise ImportProblem(f"{name} has no numbered tossups (\"1.\", \"1)\" or \"Tossup 1\" followed by an ANSWER: line).")
    return Parsed(rows, {"title": title, "source": name[:200]})
