"""Search snippets for phase 3: the passages that best match a question, with the matched words marked.

Providers share one call, `top_snippets(question_text, k=3) -> [{"title", "text", "marked"}]`, where
`marked` is the text HTML-escaped with the matched words in <mark>…</mark>:
- DatabaseSnippetProvider searches the passages the host imported (SnippetPassage) with the
  database's own full-text index: SQLite FTS5 in the embedded default, tsvector/GIN on PostgreSQL;
- RemoteSnippetProvider asks a search service over HTTP (GET url?q=…&k=… -> [{"title", "text"}]);
- EmptySnippetProvider has nothing to offer.
A search that fails logs a warning and raises SearchFailed, whose message is a sentence for the room
(the phase goes on without snippets, and every screen says why); finding nothing is not a failure.
A search can take a while (the service's time-out): the conductor runs it beside the match's writes
(game/runner.py), never inside one.
"""
from __future__ import annotations

import html
import logging
import re

import httpx
from django.conf import settings
from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)

START, STOP = "\u27e6", "\u27e7"  # markers the database puts round matches, turned into <mark> after escaping
MAX_TERMS = 24
_WORD = re.compile(r"[^\W_]+", re.U)
# Words that say nothing about what a question is after, quizbowl's set phrases included.
STOPWORDS = frozenset(
    "a an the and or but of in on at to for from by with as is are was were be been being it its this that these "
    "those he she his her they their them who whom whose which what when where why how not no than then there "
    "into onto over under after before about also one two may can could would should will did does do has have "
    "had such only other name points point ftp identify give answer".split()
)


def query_terms(question_text: str) -> list[str]:
    """The distinct content words of a question, in order, at most MAX_TERMS."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(question_text.lower()):
        if len(word) > 2 and word not in STOPWORDS:
            seen.setdefault(word, None)
    return list(seen)[:MAX_TERMS]


def marked_html(text_with_markers: str) -> str:
    """Escape text for HTML and turn the match markers into <mark> elements."""
    escaped = html.escape(text_with_markers, quote=False)
    return escaped.replace(START, "<mark>").replace(STOP, "</mark>")


def mark_terms(text: str, terms: list[str]) -> str:
    """Put markers round the words of `text` that are query terms (or their plurals)."""
    wanted = set(terms)

    def mark(match: re.Match) -> str:
        word = match.group(0).lower()
        hit = word in wanted or word.rstrip("s") in wanted or f"{word}s" in wanted
        return f"{START}{match.group(0)}{STOP}" if hit else match.group(0)

    return _WORD.sub(mark, text)


class SearchFailed(Exception):
    """The search could not give snippets; the message says so in a sentence every screen may show."""


def snippet(title: str, text: str, text_with_markers: str) -> dict:
    return {"title": title, "text": text, "marked": marked_html(text_with_markers)}


class SnippetProvider:
    def top_snippets(self, question_text: str, k: int = 3) -> list[dict]:
        raise NotImplementedError


class EmptySnippetProvider(SnippetProvider):
    def top_snippets(self, question_text: str, k: int = 3) -> list[dict]:
        return []


_SQLITE_SEARCH = f"""
    SELECT p.title, p.text, highlight(game_snippetpassage_fts, 1, '{START}', '{STOP}')
    FROM game_snippetpassage_fts JOIN game_snippetpassage p ON p.id = game_snippetpassage_fts.rowid
    WHERE game_snippetpassage_fts MATCH %s {{corpus}}
    ORDER BY bm25(game_snippetpassage_fts, 2.0, 1.0) LIMIT %s
"""
_POSTGRES_SEARCH = f"""
    SELECT title, text, ts_headline('english', text, query, 'StartSel={START}, StopSel={STOP}, HighlightAll=true')
    FROM game_snippetpassage, to_tsquery('english', %s) AS query
    WHERE to_tsvector('english', title || ' ' || text) @@ query {{corpus}}
    ORDER BY ts_rank_cd(to_tsvector('english', title || ' ' || text), query) DESC, id LIMIT %s
"""


class DatabaseSnippetProvider(SnippetProvider):
    """Passages imported with `manage.py import_passages`, searched by the database's full-text index."""

    def __init__(self, corpus: str | None = None):
        self.corpus = corpus or None

    def _query(self, terms: list[str]) -> tuple[str, str]:
        if connection.vendor == "sqlite":
            return _SQLITE_SEARCH, " OR ".join(f'"{term}"' for term in terms)
        if connection.vendor == "postgresql":
            return _POSTGRES_SEARCH, " | ".join(terms)
        logger.warning("Search snippets need SQLite or PostgreSQL; the %s database has no search here.", connection.vendor)
        raise SearchFailed(f"The {connection.vendor} database has no search; the phase goes on without snippets.")

    def top_snippets(self, question_text: str, k: int = 3) -> list[dict]:
        terms = query_terms(question_text or "")
        if not terms or k <= 0:
            return []
        sql, match = self._query(terms)
        sql = sql.format(corpus="AND corpus = %s" if self.corpus else "")
        params = [match] + ([self.corpus] if self.corpus else []) + [k]
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                rows = cursor.fetchall()
        except DatabaseError as error:
            logger.warning("The snippet search failed (%s); is the search migration applied? Going on without snippets.", error)
            raise SearchFailed("The search of the imported passages failed; the phase goes on without snippets.") from error
        return [snippet(title, text, marked) for title, text, marked in rows]


class RemoteSnippetProvider(SnippetProvider):
    """A search service over HTTP: GET url?q=<question>&k=<k> answers a JSON list of {"title", "text"}."""

    def __init__(self, url: str, timeout: float = 2.0, client: httpx.Client | None = None):
        self.url, self.timeout, self.client = url, timeout, client

    def _fetch(self, question_text: str, k: int):
        params = {"q": question_text, "k": k}
        if self.client is not None:
            return self.client.get(self.url, params=params, timeout=self.timeout)
        return httpx.get(self.url, params=params, timeout=self.timeout)

    def top_snippets(self, question_text: str, k: int = 3) -> list[dict]:
        try:
            response = self._fetch(question_text, k)
            response.raise_for_status()
            items = response.json()
        except httpx.TimeoutException as error:
            logger.warning("The snippet service at %s did not answer within %.1f s; going on without snippets.", self.url, self.timeout)
            raise SearchFailed(f"The search did not answer within {self.timeout:g} s; the phase goes on without snippets.") from error
        except (httpx.HTTPError, ValueError) as error:
            logger.warning("The snippet service at %s failed (%s); going on without snippets.", self.url, error)
            raise SearchFailed("The search service failed; the phase goes on without snippets.") from error
        if not isinstance(items, list):
            logger.warning("The snippet service at %s did not answer a list; going on without snippets.", self.url)
            raise SearchFailed("The search service gave an answer it cannot read; the phase goes on without snippets.")
        terms = query_terms(question_text)
        found = []
        for item in items[:k]:
            if isinstance(item, dict) and isinstance(item.get("text"), str):
                title, text = str(item.get("title", "")), item["text"]
                found.append(snippet(title, text, mark_terms(text, terms)))
        return found


def default_provider() -> SnippetProvider:
    """EXHIBITION_SNIPPETS_URL picks a remote service; else the imported passages (of EXHIBITION_SNIPPETS_CORPUS)."""
    if settings.EXHIBITION_SNIPPETS_URL:
        return RemoteSnippetProvider(settings.EXHIBITION_SNIPPETS_URL)
    return DatabaseSnippetProvider(settings.EXHIBITION_SNIPPETS_CORPUS or None)


def top_snippets(question_text: str, k: int = 3) -> list[dict]:
    """The k best snippets for a question from the configured provider."""
    return default_provider().top_snippets(question_text, k)
