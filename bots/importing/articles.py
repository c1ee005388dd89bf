"""Reading articles one at a time out of each source format, never the whole file at once.

Each reader yields Article(position, title, read) from a position on: position counts the source's
entries (ZIM entries, dump pages, JSON lines) so an import can resume where it stopped, and read()
returns the article's (lead, body) as plain text, or raises ArticleError (or anything else) for an
article that cannot be read, which the importer counts and skips. Redirects, pages outside the
article namespace and non-HTML entries are not articles and are passed over silently.

A dump may rightly be many gigabytes, so its size is not capped; each article (a line, a page's
text, a ZIM entry) is, by the record length limit, and a packed file by its unpacking ratio
(intake.limits): an article over the limit is skipped like a broken one, and a file that
unpacks too far stops the import.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from intake.json_limits import value_end
from intake.limits import RECORD, LimitExceeded
from intake.streams import lines, unpacked

ZIM_MAGIC = b"ZIM\x04"


class ArticleError(ValueError):
    """One article cannot be read; the import goes on without it."""


@dataclass
class Article:
    position: int  # how many source entries come before the next one to read
    title: str
    read: Callable[[], tuple[str, str]]  # (lead, body) as plain text


def source_format(path: Path) -> str:
    """zim, mediawiki or jsonl, from the file's first bytes (a compressed file is looked into)."""
    with open(path, "rb") as handle:
        start = handle.read(4)
    if start == ZIM_MAGIC:
        return "zim"
    with _open_binary(path) as handle:
        head = handle.read(4096).lstrip().lower()
    if head.startswith(b"<mediawiki") or (head.startswith(b"<?xml") and b"<mediawiki" in head):
        return "mediawiki"
    if head.startswith(b"{"):
        return "jsonl"
    raise ArticleError(f"{path} is neither a ZIM file, a MediaWiki XML dump (plain or bz2) nor JSON lines.")


@contextmanager
def _open_binary(path: Path):
    """The file's bytes, unpacked from gzip, bz2 or xz as they are read, within the unpacking ratio."""
    with open(path, "rb") as packed:
        yield unpacked(packed, path.name, ratio=True)


def _too_long(size: str) -> ArticleError:
    return ArticleError(RECORD.over(size))


# -- Kiwix ZIM -----------------------------------------------------------------------------------

def zim_articles(path: Path, start: int = 0) -> Iterator[Article]:
    # Each format's parsers are imported when a file of that format is read: libzim and lxml here.
    from libzim.reader import Archive

    from bots.importing.html import html_sections

    archive = Archive(str(path))
    # The reader has no public iterator yet; its maintainers call looping over the ids safe.
    for number in range(start, archive.all_entry_count):
        entry = archive._get_entry_by_id(number)
        if entry.is_redirect:
            continue
        item = entry.get_item()
        if not item.mimetype.startswith("text/html"):
            continue

        def read(item=item):
            if item.size > RECORD.value:
                raise _too_long(f"{item.size:,} bytes")
            try:
                html = bytes(item.content).decode("utf-8")
            except UnicodeDecodeError as error:
                raise ArticleError(f"its HTML is not UTF-8 ({error.reason} at byte {error.start})") from None
            return html_sections(html)

        yield Article(number + 1, entry.title or item.title, read)


# -- MediaWiki XML dump --------------------------------------------------------------------------

def mediawiki_articles(path: Path, start: int = 0) -> Iterator[Article]:
    # Each format's parsers are imported when a file of that format is read: mwxml and mwparserfromhell here.
    import mwxml

    from bots.importing.wikitext import wikitext_sections

    with _open_binary(path) as handle:
        dump = mwxml.Dump.from_file(handle)
        for number, page in enumerate(dump):
            if number < start:
                continue  # a dump cannot be sought in: resuming reads past the pages already done
            if page.namespace != 0 or page.redirect:
                continue
            text = None
            for revision in page:  # a dump of current pages has one revision; keep the last
                text = revision.text

            def read(text=text):
                if text is None:
                    raise ArticleError("its revision has no text (deleted or missing)")
                if len(text) > RECORD.value:  # mwxml has already read it; the markup parser need not
                    raise _too_long(f"{len(text):,} characters")
                return wikitext_sections(text)

            yield Article(number + 1, page.title, read)


# -- JSON lines ----------------------------------------------------------------------------------

def jsonl_articles(path: Path, start: int = 0) -> Iterator[Article]:
    with _open_binary(path) as handle:
        for number, line in enumerate(lines(handle, RECORD)):
            if number < start or (line is not None and not line.strip()):
                continue

            def read(line=line, number=number):
                record = _record(line, number)
                if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                    raise ArticleError(f"line {number + 1} has no text field")
                text = " ".join(record["text"].split())
                return text, text

            yield Article(number + 1, _peek_title(line, number), read)


def _record(line: bytes | None, number: int):
    """The JSON of one line (None: a line over the record length limit); ArticleError when it cannot be read."""
    if line is None:
        raise ArticleError(f"line {number + 1}: {RECORD.over()}")
    try:
        text = line.decode("utf-8")
        value_end(text, len(text) - len(text.lstrip()), lambda _: f"line {number + 1}")
        return json.loads(text)
    except LimitExceeded as error:
        raise ArticleError(str(error)) from None
    except ValueError as error:  # also UnicodeDecodeError
        raise ArticleError(f"line {number + 1} is not JSON: {error}") from None


def _peek_title(line: bytes | None, number: int) -> str:
    try:
        record = _record(line, number)
    except ArticleError:
        return "(unreadable line)"
    return str(record.get("title", "")) if isinstance(record, dict) else ""


READERS = {"zim": zim_articles, "mediawiki": mediawiki_articles, "jsonl": jsonl_articles}
