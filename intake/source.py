"""An uploaded or local question file (or a bot's data file) as the formats read it: its start, its
lines, or its whole text.

The file's size is checked before a byte is read, and every byte after that comes through one
unpacking stream that stops at the unpacked-size limit; lines come no longer than the line limit.
A bot's data file has limits of its own (it may rightly be gigabytes of JSON lines), passed in.
"""
from __future__ import annotations

import io
from typing import BinaryIO, Iterator

from intake.limits import FILE, LINE, UNPACKED, Limit, LimitExceeded
from intake.streams import not_utf8, text_lines, unpacked

HEAD_BYTES = 64 * 1024  # what format detection looks at


class Source:
    """One question file being imported, read once: by lines (JSONL, CSV) or whole (JSON).

    `file` caps its size as given, `total` what it unpacks to; with `ratio`, a packed file also
    stops unpacking past the unpacking ratio (a bomb stops early even under a large total).
    """

    def __init__(self, packed: BinaryIO, name: str, size: int, file: Limit = FILE, total: Limit = UNPACKED, ratio: bool = False):
        self.name = name or "The file"
        if size > file.value:
            raise LimitExceeded(file, self.name, f"{size:,} bytes")
        self.stream = unpacked(packed, self.name, total=total, ratio=ratio, buffer=HEAD_BYTES)
        self.head = self.stream.peek(HEAD_BYTES)[:HEAD_BYTES].decode("utf-8-sig", errors="replace")

    def lines(self, limit: Limit = LINE) -> Iterator[tuple[int, str]]:
        """(line number, text) of each line, each within `limit`."""
        return text_lines(self.stream, limit, self.name)

    def text(self, most: Limit | None = None) -> str:
        """The whole unpacked text (within the unpacked-size limit, and within `most` when given)."""
        data = self.stream.read(most.value + 1) if most else self.stream.read()
        if most and len(data) > most.value:
            raise LimitExceeded(most, self.name)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise not_utf8(f"{self.name} line {line:,}", f"byte {error.start + 1:,} of the file") from None


def source_of_bytes(data: bytes, name: str) -> Source:
    """A Source over bytes already in memory, with the same limits as a file."""
    return Source(io.BytesIO(data), name, len(data))


def plain_name(name: str) -> str:
    """The file name without .gz, .bz2 or .xz, so detection looks at the real extension."""
    for suffix in (".gz", ".bz2", ".xz"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name
