"""Exported logs of several played matches, for the report's tests: simulated matches played through
the engine and the event log and exported as `export_match` does, plus the hand-played matches of
tests/engine/played.py (a neg, a prompt, an undo, a throw-out, an override and an adjustment)."""
from __future__ import annotations

import json

from game.demo import ensure_demo_packet
from game.management.commands.simulate import play_simulated_match
from game.archive.match_archive import export_lines
from game.archive.replay import load_log
from tests.engine.played import PLAYED


def exported(format_name: str, seeds=(1, 2, 3), questions: int = 8) -> list[str]:
    """The JSONL text of each simulated match (in the database; needs django_db), as exported."""
    packet = ensure_demo_packet()
    texts = []
    for seed in seeds:
        _, match = play_simulated_match(packet, format_name, seed=seed, questions=questions)
        texts.append("".join(export_lines(match, load_log(match))))
    return texts


def played_text(format_name: str, names: dict | None = None) -> str:
    """The hand-played match of that format as a JSONL export (a header, then its events); `names`
    renames teams and seats (id -> name), as if people had typed those names."""
    # A copy through JSON, as an export is: renaming must not touch the played match's own team list.
    events = [dict(e, seq=i) for i, e in enumerate(json.loads(json.dumps(PLAYED[format_name]().events)), 1)]
    for item in events[0]["data"]["teams"] + events[0]["data"]["seats"]:
        item["name"] = (names or {}).get(item["id"], item["name"])
    head = {"format": "exhibition-match", "version": 1, "events": len(events),
            "match": {"code": f"PLAY{format_name[:2].upper()}", "title": f"Played {format_name}"}}
    return "".join(json.dumps(line) + "\n" for line in [head, *events])


def parsed(text: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    return lines[0]["match"], lines[1:]
