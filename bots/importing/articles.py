"""Reading articles one at a time out of each source format, never the whole file at once.

Each reader yields Article(position, title, read) from a position on: position counts the source's
entries (ZIM entries, dump pages, JSON lines) so an import can resume where it stopped, and read()
returns the article's (lead, body) as plain text, or raises ArticleError (or anything else) for an
article that cannot be read, which the importer counts and skips. Redirects, pages outside the
article namespace and non-HTML entries are not articles and are passed over silently.
"""
from __future__ import annotations

import bz2
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ZIM_MAGIC = b"ZIM\x04"
BZ2_MAGIC = b"BZh"
GZIP_MAGIC = b"\x1f\x8b"


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
    opener = bz2.open if start.startswith(BZ2_MAGIC) else gzip.open if start.startswith(GZIP_MAGIC) else open
    with opener(path, "rb") as handle:
        head = handle.read(4096).lstrip().lower()
    if head.startswith(b"<mediawiki") or (head.startswith(b"<?xml") and b"<mediawiki" in head):
        return "mediawiki"
    if head.startswith(b"{"):
        return "jsonl"
    raise ArticleError(f"{path} is neither a ZIM file, a MediaWiki XML dump (plain or bz2) nor JSON lines.")


def _open_binary(path: Path):
    with open(path, "rb") as handle:
        start = handle.read(3)
    if start.startswith(BZ2_MAGIC):
        return bz2.open(path, "rb")
    if start.startswith(GZIP_MAGIC):
        return gzip.open(path, "rb")
    return open(path, "rb")


# -- Kiwix ZIM -----------------------------------------------------------------------------------

def zim_articles(path: Path, start: int = 0) -> Iterator[Article]:
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
            try:
                html = bytes(item.content).decode("utf-8")
            except UnicodeDecodeError as error:
                raise ArticleError(f"its HTML is not UTF-8 ({error.reason} at byte {error.start})") from None
            return html_sections(html)

        yield Article(number + 1, entry.title or item.title, read)


# -- MediaWiki XML dump --------------------------------------------------------------------------

def mediawiki_articles(path: Path, start: int = 0) -> Iterator[Article]:
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
                return wikitext_sections(text)

            yield Article(number + 1, page.title, read)


# -- JSON lines ----------------------------------------------------------------------------------

def jsonl_articles(path: Path, start: int = 0) -> Iterator[Article]:
    with _open_binary(path) as handle:
        for number, line in enumerate(handle):
            if number < start or not line.strip():
                continue

            def read(line=line, number=number):
                try:
                    record = json.loads(line)
                except (json.JSONDecodeError, UnicodeDecodeError) as error:
                    raise ArticleError(f"line {number + 1} is not JSON: {error}") from None
                if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                    raise ArticleError(f"line {number + 1} has no text field")
                text = " ".join(record["text"].split())
                return text, text

            title = _peek_title(line)
            yield Article(number + 1, title, read)


def _peek_title(line: bytes) -> str:
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return "(unreadable line)"
    return str(record.get("title", "")) if isinstance(record, dict) else ""


READERS = {"zim": zim_articles, "mediawiki": mediawiki_articles, "jsonl": jsonl_articles}
