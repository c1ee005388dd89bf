"""The shapes every importer shares: a row per source line, and the checks a question must pass."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from game.importers.guides import mark_guides

KINDS = ("short", "tossup")
_LIMITS = {"category": 100, "subcategory": 100}


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


def check_question(data: dict) -> tuple[dict | None, str | None]:
    """A question in the packet-JSON shape, cleaned; or the sentence saying what is wrong with it."""
    if not isinstance(data, dict):
        return None, "This entry is not an object with question fields; give it at least a text and an answer."
    text, answer = _text(data.get("text")), _text(data.get("answer"))
    missing = [name for name, value in (("text", text), ("answer", answer)) if not value]
    if missing:
        return None, f"The question has no {' and no '.join(missing)}; fill it in or remove the line."
    kind = _text(data.get("kind")) or "short"
    if kind not in KINDS:
        return None, f'The kind "{kind}" is not one we play; use "short" or "tossup".'
    accepted = data.get("accepted") or []
    if isinstance(accepted, str):
        accepted = [accepted]
    if not isinstance(accepted, list):
        return None, "The accepted answers must be a list of strings."
    source = data.get("source") or {}
    if not isinstance(source, dict):
        return None, "The source must be an object (for example ids, tournament and year)."
    question = {
        "kind": kind,
        "text": mark_guides(text),
        "answer": answer,
        "accepted": [_text(a) for a in accepted if _text(a)],
        "source": source,
    }
    for name, limit in _LIMITS.items():
        question[name] = _text(data.get(name))[:limit]
    return question, None


def checked(line: int, data) -> Row:
    """A row for one entry: the cleaned question, or its error."""
    question, error = check_question(data)
    return Row(line, question, error)


def rows_from(entries, to_question) -> Iterable[Row]:
    """Rows from (line, record, error) triples, each record turned into a question and checked."""
    for line, record, error in entries:
        yield Row(line, error=error) if error else checked(line, to_question(record))
