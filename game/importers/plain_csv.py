"""A plain CSV of questions and answers into short-answer questions.

Two columns, question then answer, with or without a header; further columns (or an "accepted"
column with answers split by "|") are more accepted answers.
"""
from __future__ import annotations

from itertools import chain

from intake.csv_rows import first_of, header_and_rows, keyed

from game.importers.parsed_rows import Parsed, rows_from

QUESTION_COLUMNS = ("question", "text")
ANSWER_COLUMNS = ("answer", "answers")


def _is_header(names: list[str]) -> bool:
    return any(n in QUESTION_COLUMNS for n in names) and any(n in ANSWER_COLUMNS for n in names)


def to_question(record: dict) -> dict:
    answer = first_of(record, ANSWER_COLUMNS)
    more = [a.strip() for a in record.get("accepted", "").split("|")] + record.get("_extra", [])
    return {
        "kind": "short",
        "text": first_of(record, QUESTION_COLUMNS),
        "answer": answer,
        "accepted": list(dict.fromkeys(a for a in [answer, *more] if a)),
        "category": record.get("category", ""),
        "subcategory": record.get("subcategory", ""),
        "source": {},
    }


def parse(source) -> Parsed:
    names, first, rows = header_and_rows(source, "The CSV file is empty; put one question and its answer on each line.")
    entries = keyed(names, rows) if _is_header(names) else keyed(["question", "answer"], chain([first], rows))
    return Parsed(rows_from(entries, to_question), {"source": "CSV"})
