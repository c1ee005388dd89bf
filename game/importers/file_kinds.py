"""Which importer reads which file: by the name the host chose, or guessed from the file itself."""
from __future__ import annotations

import io
import json

from intake.csv_rows import header_names, records
from intake.json_limits import value_end
from intake.limits import LimitExceeded
from intake.problems import ImportProblem
from intake.source import Source, plain_name

from game.importers import docx_packet, nq, packet_json, plain_csv, qanta, qbreader_packet, tossups_csv
from game.importers.parsed_rows import Parsed

FORMATS = {
    "qanta": ("QANTA JSON", qanta.parse),
    "qbreader": ("qbreader packet JSON (tossups and bonuses)", qbreader_packet.parse),
    "nq": ("NQ-open JSONL", nq.parse),
    "tossups-csv": ("tossups.csv (qb-tournament-runner)", tossups_csv.parse),
    "csv": ("CSV (question, answer; or kind, text, answer and bonus parts)", plain_csv.parse),
    "packet": ("Exhibition packet JSON", packet_json.parse),
    "docx": ("Word packet (.docx)", docx_packet.parse),  # reads the packed file itself (a zip): run.import_file
}
CHOICES = ("auto", *FORMATS)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def detect(name: str, text: str) -> str:
    """The format of a file, from its extension first and its opening text (up to 64 KiB) second."""
    name = plain_name(name.lower())
    head = text[:4096]
    if name.endswith((".csv", ".tsv")):
        first = next(records(io.StringIO(head, newline=""), name), (0, []))[1]
        names = header_names(first)
        return "tossups-csv" if tossups_csv.has_tossup_header(names) and not plain_csv.has_kind_header(names) else "csv"
    if name.endswith(".jsonl"):
        return "nq"
    if f'"{packet_json.FORMAT_NAME}"' in head:
        return "packet"
    if qbreader_packet.looks_like(head):
        return "qbreader"
    first = _first_line(text)
    if not name.endswith(".json") and first.startswith("{") and first.endswith("}") and _is_json(first):
        return "nq"  # one complete object on the first line: JSON lines
    if name.endswith(".json") or first.startswith(("[", "{")):
        return "qanta"
    raise ImportProblem(
        f"Cannot tell the format of {name or 'this file'}; choose one of: {', '.join(FORMATS)}."
    )


def _is_json(line: str) -> bool:
    try:
        value_end(line, 0, str)  # a line nested too deep is not parsed here; reading the file says where
        json.loads(line)
    except (ValueError, LimitExceeded):
        return False
    return True


def parse(source: Source, fmt: str = "auto") -> tuple[str, Parsed]:
    """(format used, parsed file)."""
    if fmt == "auto":
        fmt = detect(source.name, source.head)
    if fmt == "docx":
        raise ImportProblem(f"{source.name} was read as text; a .docx packet is read from the file itself (run.import_file).")
    if fmt not in FORMATS:
        raise ImportProblem(f'"{fmt}" is not a format we read; choose one of: {", ".join(CHOICES)}.')
    return fmt, FORMATS[fmt][1](source)
