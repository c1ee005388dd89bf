"""QANTA quizbowl JSON (a list, or {"questions": [...]}, also gzipped) into tossups.

The answer line stays as written; the Wikipedia page (underscores read as spaces) becomes the one
accepted answer, and the ids, tournament, year and difficulty go into the source.
"""
from __future__ import annotations

from intake.json_items import object_with_array

from game.importers.parsed_rows import Parsed, rows_from

SOURCE_FIELDS = ("qanta_id", "page", "tournament", "year", "difficulty", "fold", "dataset", "proto_id", "qdb_id")


def to_question(record: dict) -> dict:
    if not isinstance(record, dict):
        return record
    page = record.get("page") or ""
    return {
        "kind": "tossup",
        "text": record.get("text"),
        "answer": record.get("answer"),
        "accepted": [page.replace("_", " ")] if page else [],
        "category": record.get("category") or "",
        "subcategory": record.get("subcategory") or "",
        "source": {name: record[name] for name in SOURCE_FIELDS if record.get(name) is not None},
    }


def parse(source) -> Parsed:
    fields, items = object_with_array(source.text(), "questions", source.name)
    meta = {"source": "QANTA" + (f" {fields['version']}" if fields.get("version") else "")}
    return Parsed(rows_from(items, to_question), meta)
