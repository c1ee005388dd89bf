"""Our own packet JSON: the one format that carries every field we keep, read and written here.

{"format": "exhibition-packet", "version": 1, "slug", "title", "description", "source",
 "questions": [{"kind", "text", "answer", "accepted", "category", "subcategory", "source", "parts"}]}

"parts" is a bonus's (kind "bonus", its text the leadin): [{"text", "answer", "value"}, ...]. Only
bonuses carry it, so a file of tossups and short questions reads and writes as before bonuses existed.
"""
from __future__ import annotations

import json

from intake.json_items import object_with_array
from intake.problems import ImportProblem

from game.importers.parsed_rows import Parsed, rows_from

FORMAT_NAME = "exhibition-packet"
VERSION = 1
QUESTION_FIELDS = ("kind", "text", "answer", "accepted", "category", "subcategory", "source", "parts")
PACKET_FIELDS = ("slug", "title", "description", "source")


def parse(source) -> Parsed:
    fields, items = object_with_array(source.text(), "questions", source.name)
    if fields and fields.get("format") != FORMAT_NAME:
        raise ImportProblem(f'This JSON is not an Exhibition packet (its "format" is not "{FORMAT_NAME}"); choose its real format.')
    if fields and fields.get("version") != VERSION:
        raise ImportProblem(f"This packet is version {fields.get('version')}; this Exhibition reads version {VERSION}. Export it again.")
    meta = {name: fields[name] for name in PACKET_FIELDS if isinstance(fields.get(name), str)}
    return Parsed(rows_from(items, lambda record: record), meta)


def packet_to_dict(packet) -> dict:
    """A Packet and its questions, in position order, as packet JSON."""
    questions = [{name: getattr(q, name) for name in QUESTION_FIELDS if name != "parts" or q.parts}
                 for q in packet.questions.order_by("position")]
    header = {name: getattr(packet, name) for name in PACKET_FIELDS}
    return {"format": FORMAT_NAME, "version": VERSION, **header, "questions": questions}


def dumps(packet) -> str:
    """Packet JSON text, one question per line so a broken question can be found by its line."""
    data = packet_to_dict(packet)
    questions = data.pop("questions")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    body = ",\n".join("  " + json.dumps(q, ensure_ascii=False) for q in questions)
    return f'{head}, "questions": [\n{body}\n]}}\n'
