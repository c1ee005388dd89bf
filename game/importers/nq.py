"""NQ-open JSONL ({"question": ..., "answer": [...]} a line) into short-answer questions.

The first reference is the answer shown; every reference is accepted, as EfficientQA scores them.
"""
from __future__ import annotations

from intake.json_items import json_lines

from game.importers.parsed_rows import Parsed, rows_from


def to_question(record: dict) -> dict:
    if not isinstance(record, dict):
        return record
    references = record.get("answer", record.get("answers"))
    if isinstance(references, str):
        references = [references]
    references = [str(r).strip() for r in references or [] if str(r).strip()]
    source = {"dataset": "nq-open"} | ({"id": record["id"]} if "id" in record else {})
    return {
        "kind": "short",
        "text": record.get("question"),
        "answer": references[0] if references else "",
        "accepted": references,
        "source": source,
    }


def parse(source) -> Parsed:
    return Parsed(rows_from(json_lines(source.lines(), source.name), to_question), {"source": "NQ-open"})
