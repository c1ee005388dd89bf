"""The shapes every importer shares: a row per source line, and the checks a question must pass."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from game.importers.guides import mark_guides

KINDS = ("short", "tossup", "bonus")
_LIMITS = {"category": 100, "subcategory": 100}
# A bonus as tournaments write it: ACF's have three parts of 10; some formats have up to six, or one
# part of 30, 20 or 10 by clue (a 30-20-10). More parts than this is a packet read wrongly.
BONUS_PARTS = 6
PART_VALUES = range(5, 31)
PART_VALUE = 10  # a part's value where a format lets the writer leave it out


@dataclass(frozen=True)
class Row:
    """One question read from the file, or the reason the line at `line` could not be read."""

    line: int
    question: dict | None = None
    error: str | None = None


@dataclass
class Parsed:
    """What a format module returns: packet details found in the file, and its rows."""

    rows: Iterable[Row]
    meta: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LineError:
    line: int
    message: str

    def to_dict(self) -> dict:
        return {"line": self.line, "message": self.message}


def _text(value) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else str(value).strip()


def check_question(data: dict, name: str = "") -> tuple[dict | None, str | None]:
    """A question in the packet-JSON shape, cleaned; or the sentence saying what is wrong with it.
    `name` names a bonus in its sentences ("Bonus 3"), where the file numbers it."""
    if not isinstance(data, dict):
        return None, "This entry is not an object with question fields; give it at least a text and an answer."
    kind = _text(data.get("kind")) or "short"
    if kind not in KINDS:
        return None, f'The kind "{kind}" is not one we play; use "short", "tossup" or "bonus".'
    text, answer = _text(data.get("text")), _text(data.get("answer"))
    missing = [] if kind == "bonus" else [n for n, value in (("text", text), ("answer", answer)) if not value]
    if missing:
        return None, f"The question has no {' and no '.join(missing)}; fill it in or remove the line."
    accepted = data.get("accepted") or []
    if isinstance(accepted, str):
        accepted = [accepted]
    if not isinstance(accepted, list):
        return None, "The accepted answers must be a list of strings."
    source = data.get("source") or {}
    if not isinstance(source, dict):
        return None, "The source must be an object (for example ids, tournament and year)."
    parts, error = check_parts(data.get("parts"), kind, name or "The bonus")
    if error:
        return None, error
    question = {
        "kind": kind,
        "text": mark_guides(text),
        "answer": "" if kind == "bonus" else answer,  # a bonus's answers are its parts'; none is said before its part closes
        "accepted": [] if kind == "bonus" else [_text(a) for a in accepted if _text(a)],
        "source": source,
        "parts": parts,
    }
    for field_name, limit in _LIMITS.items():
        question[field_name] = _text(data.get(field_name))[:limit]
    return question, None


def check_parts(parts, kind: str, name: str) -> tuple[list[dict], str | None]:
    """A bonus's parts, cleaned ({text, answer, value} each), or the sentence naming the part to fix.
    A bonus's leadin may be empty (some packets start a bonus at its first part); its parts may not."""
    if kind != "bonus":
        return [], None if not parts else f'Only a bonus has parts; make its kind "bonus", or remove its parts.'
    if not isinstance(parts, list) or not parts:
        return [], f"{name} has no parts; give it 1 to {BONUS_PARTS} parts, each with its text, answer line and value."
    if len(parts) > BONUS_PARTS:
        return [], f"{name} has {len(parts)} parts; a bonus has at most {BONUS_PARTS}, so split it or remove some."
    cleaned = []
    for number, part in enumerate(parts, 1):
        where = f"{name}, part {number}"
        if not isinstance(part, dict):
            return [], f"{where} is not an object with a text, an answer and a value."
        text, answer, value = _text(part.get("text")), _text(part.get("answer")), _points(part.get("value"))
        if not text:
            return [], f"{where} has no text; write the part's question after its value, e.g. [10]."
        if not answer:
            return [], f"{where} has no answer line; add its ANSWER: line after the part."
        if value is None:
            return [], (f"{where} has the value {_text(part.get('value'))[:20] or 'nothing'!r}, not a whole number of "
                        "points; write it as 10 (in a Word packet, [10] before the part).")
        if value not in PART_VALUES:
            return [], f"{where} is worth {value}; a part is worth {PART_VALUES[0]} to {PART_VALUES[-1]} points."
        cleaned.append({"text": mark_guides(text), "answer": answer, "value": value})
    return cleaned, None


def _points(value) -> int | None:
    """A part's value as a whole number: a number, or a number written as text ("10" in a CSV cell)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 3:
        return int(value.strip())
    return None


def checked(line: int, data, name: str = "") -> Row:
    """A row for one entry: the cleaned question, or its error (`name`: a bonus's, as check_question)."""
    question, error = check_question(data, name)
    return Row(line, question, error)


def named(line: int, data, name: str) -> Row:
    """A row for a question its file numbers ("Tossup 3", "Bonus 2"): each error says which."""
    row = checked(line, data, name)
    if row.error is None or row.error.startswith(name):
        return row
    return Row(line, error=f"{name}: {row.error}")


def rows_from(entries, to_question) -> Iterable[Row]:
    """Rows from (line, record, error) triples, each record turned into a question and checked."""
    for line, record, error in entries:
        yield Row(line, error=error) if error else checked(line, to_question(record))
