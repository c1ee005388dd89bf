"""One import from bytes to packet, shared by the management command and the host page."""
from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable

from intake.limits import QUESTIONS, LimitExceeded
from intake.problems import ImportProblem
from intake.source import Source, plain_name

from game.engine.api import NOUNS
from game.importers import docx_packet
from game.importers.parsed_rows import KINDS, LineError
from game.importers.question_size import check_question_size
from game.importers.file_kinds import FORMATS, parse
from game.importers.save import check_slug, save_packet

PROGRESS_EVERY = 500


@dataclass
class ImportReport:
    format: str = ""
    imported: int = 0
    lines_read: int = 0
    errors: list[LineError] = field(default_factory=list)
    packet: object = None
    kinds: Counter = field(default_factory=Counter)  # questions imported, by kind

    @property
    def format_label(self) -> str:
        return FORMATS[self.format][0] if self.format in FORMATS else self.format

    @property
    def by_kind(self) -> str:
        """What came in, by kind: "12 tossups and 4 bonuses"; a quizbowl file always says both counts,
        so a host sees at once when a packet's bonuses (or tossups) did not come in."""
        counts = Counter(self.kinds)
        if counts["tossup"] or counts["bonus"]:
            counts.update({"tossup": 0, "bonus": 0})
        said = [f"{n} {NOUNS[kind][n != 1]}" for kind, n in sorted(counts.items(), key=lambda item: KINDS.index(item[0]))]
        return " and ".join([", ".join(said[:-1]), said[-1]]) if len(said) > 1 else "".join(said)


def import_file(
    packed: BinaryIO,
    name: str,
    size: int,
    slug: str,
    title: str = "",
    fmt: str = "auto",
    replace: bool = False,
    progress: Callable[[int, int], None] | None = None,
    every: int = PROGRESS_EVERY,
) -> ImportReport:
    """Import a binary file of `size` bytes into the packet `slug`; broken lines go into the report, not the packet.

    `progress(lines_read, imported)` is called every `every` lines. Nothing is saved when no line
    could be imported. Problems with the whole file, and any input over a limit, raise ImportProblem
    (LimitExceeded) and nothing is saved.
    """
    slug = check_slug(slug)
    report = ImportReport()
    if docx_packet.is_docx(name, fmt):  # a zip, read by its own checks rather than as a text stream
        shown = name or "The file"
        report.format, parsed = "docx", docx_packet.parse(packed, shown, size)
    else:
        source = Source(packed, name, size)
        shown = source.name
        report.format, parsed = parse(source, fmt)
    questions: list[dict] = []
    for row in parsed.rows:
        report.lines_read += 1
        where = f"{shown} line {row.line:,}"
        if report.lines_read > QUESTIONS.value:
            raise LimitExceeded(QUESTIONS, where)
        if row.error:
            report.errors.append(LineError(row.line, row.error))
        else:
            check_question_size(row.question, where)
            questions.append(row.question)
            report.kinds[row.question["kind"]] += 1
        if progress and report.lines_read % every == 0:
            progress(report.lines_read, len(questions))
    report.imported = len(questions)
    if questions:
        meta = parsed.meta
        title = title or meta.get("title") or Path(plain_name(name)).stem
        report.packet = save_packet(questions, slug, title, meta.get("description", ""), meta.get("source", ""), replace)
    return report


def import_bytes(data: bytes, name: str, slug: str, **options) -> ImportReport:
    """Import bytes already in memory, with the same limits as a file."""
    return import_file(io.BytesIO(data), name, len(data), slug, **options)


def import_path(path: str | Path, slug: str, **options) -> ImportReport:
    path = Path(path)
    if not path.is_file():
        raise ImportProblem(f"There is no file at {path}; check the path and try again.")
    with open(path, "rb") as packed:
        return import_file(packed, path.name, path.stat().st_size, slug, **options)


__all__ = ["ImportProblem", "ImportReport", "import_bytes", "import_file", "import_path"]
