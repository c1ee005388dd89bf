"""An import's bytes, read within limits: unpacked as a stream with a running count, and cut into lines
no longer than a limit, so neither a bomb nor a huge line is ever held whole.

gzip, bz2 and xz are recognised by their first bytes and unpacked a chunk at a time. A question file
has a cap on its whole unpacked size; a stream that may rightly be large (a passage corpus, a Wikipedia
dump) has a cap on how much each packed byte may unpack to instead.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from typing import BinaryIO, Callable, Iterator

from intake.limits import RATIO, RATIO_FREE_BYTES, Limit, LimitExceeded
from intake.problems import ImportProblem

PACKINGS = {  # first bytes: (name, reader of the unpacked bytes)
    b"\x1f\x8b": ("gzip", lambda packed: gzip.GzipFile(fileobj=packed, mode="rb")),
    b"BZh": ("bz2", bz2.BZ2File),
    b"\xfd7zXZ\x00": ("xz", lzma.LZMAFile),
}
ZIP_MAGIC = b"PK\x03\x04"
CHUNK = 64 * 1024


def packing(start: bytes) -> tuple[str, Callable | None]:
    """("gzip" | "bz2" | "xz", its reader), or ("", None) when not packed, from a file's first bytes."""
    return next((packed for magic, packed in PACKINGS.items() if start.startswith(magic)), ("", None))


class Unpacked(io.RawIOBase):
    """The unpacked bytes of a seekable binary file; LimitExceeded once past `total` or the unpacking ratio."""

    def __init__(self, packed: BinaryIO, name: str, total: Limit | None = None, ratio: bool = False):
        start = packed.read(8)
        packed.seek(0)
        if start.startswith(ZIP_MAGIC):
            raise ImportProblem(f"{name} is a zip archive; unzip it and import the file inside (gzip, bz2 and xz are read as they are).")
        self.kind, reader = packing(start)
        self.packed, self.name, self.total, self.ratio = packed, name, total, ratio and bool(self.kind)
        self.inner = reader(packed) if reader else packed
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:  # a chunk at a time, so the limits are checked every CHUNK even when one read asks for megabytes
            data = self.inner.read(min(len(buffer), CHUNK))
        except (OSError, EOFError, zlib.error, lzma.LZMAError):
            raise ImportProblem(f"{self.name} looks {self.kind}-packed but cannot be unpacked; upload it again or unpack it first.") from None
        self.count += len(data)
        self._check()
        buffer[: len(data)] = data
        return len(data)

    def _check(self) -> None:
        if self.total and self.count > self.total.value:
            raise LimitExceeded(self.total, self.name)
        if self.ratio and self.count > RATIO_FREE_BYTES and self.count > RATIO.value * max(1, self.packed.tell()):
            raise LimitExceeded(RATIO, f"{self.name} (at unpacked byte {self.count:,})")


def unpacked(packed: BinaryIO, name: str, total: Limit | None = None, ratio: bool = False, buffer: int = CHUNK) -> io.BufferedReader:
    """A buffered reader of the unpacked bytes; see Unpacked."""
    return io.BufferedReader(Unpacked(packed, name, total, ratio), buffer_size=buffer)


def lines(stream: io.BufferedReader, limit: Limit) -> Iterator[bytes | None]:
    """Each line of the stream (with its newline), or None for a line longer than `limit`.

    At most limit + 1 bytes of a line are ever read at once; the rest of a long line is skipped only
    when the caller asks for the next line, so a caller that stops at the None reads no further.
    """
    most = limit.value
    while line := stream.readline(most + 1):
        if len(line) <= most or line.endswith(b"\n"):
            yield line
            continue
        yield None
        while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
            pass


def text_lines(stream: io.BufferedReader, limit: Limit, name: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line; a line over `limit`, or one that is not UTF-8, stops the import."""
    for number, line in enumerate(lines(stream, limit), 1):
        if line is None:
            raise LimitExceeded(limit, f"{name} line {number:,}")
        try:
            yield number, line.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            raise not_utf8(f"{name} line {number:,}", f"its byte {error.start + 1:,}") from None


def not_utf8(where: str, byte: str) -> ImportProblem:
    return ImportProblem(f"{where} is not UTF-8 text ({byte} is not valid); save the file as UTF-8 and import it again.")
