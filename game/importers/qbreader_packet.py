"""Quizbowl packets as JSON, in the shape qbreader serves and YAPP (the packet parser MODAQ reads) writes.

    {"tossups": [{"question", "answer", ...}],
     "bonuses": [{"leadin", "parts": [...], "answers": [...], "values": [10, 10, 10], "difficultyModifiers": ["e", "m", "h"]}]}

qbreader stores each text twice: as written (HTML: the power part and the required words bold) and
"_sanitized" (plain). A question's text is read plain (the sanitized one, or the HTML with its tags
taken out), its answer lines as written, so the <b>/<u> of the required words reach the judge as in a
Word packet's answer line. A bonus without "values" is worth 10 a part (YAPP's older files); its
difficulty marks, the number, set and packet go into the source. Tossups come first, then bonuses.
"""
from __future__ import annotations

import html
import re
from itertools import zip_longest

from intake.json_items import object_with_arrays

from game.importers.parsed_rows import PART_VALUE, Parsed, Row, named

KEYS = ("tossups", "bonuses")
OPENING = re.compile(r'"(?:tossups|bonuses)"\s*:\s*\[')  # how detection tells this JSON from QANTA's
_TAG = re.compile(r"<[^<>]{0,200}>")
SOURCE_FIELDS = ("number", "difficulty", "year", "metadata", "_id")
NAMED_FIELDS = ("set", "packet")  # qbreader: objects with a "name"; others: the name itself


def looks_like(head: str) -> bool:
    return bool(OPENING.search(head))


def plain(value) -> str:
    """A text written as HTML, as read: its tags out, its entities as the characters they stand for."""
    return html.unescape(_TAG.sub("", value)) if isinstance(value, str) else ""


def _text(record: dict, name: str) -> str:
    sanitized = record.get(f"{name}_sanitized")
    return sanitized if isinstance(sanitized, str) and sanitized.strip() else plain(record.get(name))


def _listed(record: dict, name: str) -> list:
    value = record.get(name)
    return value if isinstance(value, list) else []


def _source(record: dict) -> dict:
    source = {name: record[name] for name in SOURCE_FIELDS if isinstance(record.get(name), (str, int))}
    for name in NAMED_FIELDS:
        value = record.get(name)
        value = value.get("name") if isinstance(value, dict) else value
        if isinstance(value, str):
            source[name] = value[:200]
    return source


def _category(record: dict) -> dict:
    return {name: record[name] for name in ("category", "subcategory") if isinstance(record.get(name), str)}


def tossup(record) -> dict:
    if not isinstance(record, dict):
        return record
    answer = record.get("answer") if isinstance(record.get("answer"), str) else record.get("answer_sanitized")
    return {"kind": "tossup", "text": _text(record, "question"), "answer": answer, "source": _source(record),
            **_category(record)}


def bonus(record) -> dict:
    if not isinstance(record, dict):
        return record
    texts = [part for part in record.get("parts_sanitized") or () if isinstance(part, str)] or \
        [plain(part) for part in _listed(record, "parts")]
    answers = _listed(record, "answers") or _listed(record, "answers_sanitized")
    values = _listed(record, "values") if "values" in record else [PART_VALUE] * len(texts)
    source = _source(record)
    if _listed(record, "difficultyModifiers"):
        source["difficulty_modifiers"] = [str(mark)[:1] for mark in _listed(record, "difficultyModifiers")]
    count = max(len(texts), len(answers))  # a value with neither text nor answer is no part
    parts = [{"text": text, "answer": answer, "value": value}
             for text, answer, value in zip_longest(texts, answers, values[:count])]
    return {"kind": "bonus", "text": _text(record, "leadin"), "parts": parts, "source": source, **_category(record)}


def rows(items, read, label: str):
    for number, (line, record, error) in enumerate(items, 1):
        if error:
            yield Row(line, error=error)
            continue
        number = record.get("number") if isinstance(record, dict) and isinstance(record.get("number"), int) else number
        yield named(line, read(record), f"{label} {number}")


def parse(source) -> Parsed:
    fields, arrays = object_with_arrays(source.text(), KEYS, source.name)
    readers = {"tossups": (tossup, "Tossup"), "bonuses": (bonus, "Bonus")}

    def every_row():
        for key, items in arrays.items():  # in the file's order, as line numbers are counted
            yield from rows(items, *readers[key])

    meta = {"source": "qbreader packet JSON"}
    if isinstance(fields.get("name"), str):
        meta["title"] = fields["name"][:200]
    return Parsed(every_row(), meta)
