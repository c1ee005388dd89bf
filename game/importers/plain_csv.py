"""A CSV of questions and answers, as a person keeps them in a spreadsheet.

Two columns, question then answer, with or without a header; further columns (or an "accepted"
column with answers split by "|") are more accepted answers: short-answer questions.

With a header, a "kind" column says each row's kind: short (the default), tossup or bonus. A bonus
is one row: its leadin in the text (or question) column, its answer column left empty, and each part
in three columns numbered from 1: part1, answer1, value1, part2, answer2, value2, … A part's value
left empty is 10.
"""
from __future__ import annotations

import re
from itertools import chain

from intake.csv_rows import first_of, header_and_rows, keyed

from game.importers.parsed_rows import PART_VALUE, Parsed, rows_from

QUESTION_COLUMNS = ("question", "text")
ANSWER_COLUMNS = ("answer", "answers")
PART_COLUMN = re.compile(r"^(part|answer|value)_?(\d{1,2})$")  # "Part 1" in a header reads as part_1


def _is_header(names: list[str]) -> bool:
    return any(n in QUESTION_COLUMNS for n in names) and any(n in ANSWER_COLUMNS for n in names)


def has_kind_header(names: list[str]) -> bool:
    """Whether the header has our own columns (a kind, or bonus parts): this layout, not a tossups.csv."""
    return _is_header(names) and any(n == "kind" or PART_COLUMN.match(n) for n in names)


def parts_of(record: dict) -> list[dict]:
    """A bonus row's parts, in number order: each numbered column trio with anything in it."""
    cells: dict[int, dict] = {}
    for name, value in record.items():
        if (column := PART_COLUMN.match(name)) and value:
            cells.setdefault(int(column.group(2)), {})[column.group(1)] = value
    return [{"text": found.get("part", ""), "answer": found.get("answer", ""), "value": found.get("value") or PART_VALUE}
            for _, found in sorted(cells.items())]


def to_question(record: dict) -> dict:
    kind = record.get("kind", "").lower() or "short"
    answer = first_of(record, ANSWER_COLUMNS)
    more = [a.strip() for a in record.get("accepted", "").split("|")] + record.get("_extra", [])
    return {
        "kind": kind,
        "text": first_of(record, QUESTION_COLUMNS),
        "answer": answer,
        "accepted": list(dict.fromkeys(a for a in ([answer] if kind == "short" else []) + more if a)),
        "category": record.get("category", ""),
        "subcategory": record.get("subcategory", ""),
        "source": {},
        **({"parts": parts_of(record)} if kind == "bonus" else {}),
    }


def parse(source) -> Parsed:
    names, first, rows = header_and_rows(source, "The CSV file is empty; put one question and its answer on each line.")
    entries = keyed(names, rows) if _is_header(names) else keyed(["question", "answer"], chain([first], rows))
    return Parsed(rows_from(entries, to_question), {"source": "CSV"})
