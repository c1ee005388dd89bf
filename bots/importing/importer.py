"""A resumable import: articles in, {"title", "text"} passages out, with progress and an error count.

Passages are appended to the output file and a checkpoint beside it (<out>.progress.json) records,
every CHECKPOINT_EVERY articles and at the end, how far into the source the import is and how long
the output was then. A run that stops (Ctrl-C, a crash, a full disk) is resumed by running the same
import again: the output is cut back to the checkpoint's length and reading goes on from there, so
no passage is lost or written twice. An article that cannot be read is counted, named in the report
(the first few), and skipped.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bots.importing.articles import READERS, source_format

CHECKPOINT_EVERY = 500
EXAMPLES = 20
KEEP = ("lead", "passages")


class KnowledgeImportError(ValueError):
    """The import cannot start as asked; the message says what to change."""


@dataclass
class Checkpoint:
    source: str
    format: str
    keep: str
    words: int
    position: int = 0  # source entries fully handled
    bytes: int = 0  # output length at that point
    articles: int = 0  # articles that gave passages
    passages: int = 0
    empty: int = 0  # articles with no text once markup is dropped
    errors: int = 0
    error_examples: list = field(default_factory=list)
    finished: bool = False


def split_words(text: str, words: int) -> list[str]:
    """text in pieces of at most `words` words (0: one piece)."""
    tokens = text.split()
    if not tokens:
        return []
    if words <= 0:
        return [" ".join(tokens)]
    return [" ".join(tokens[i: i + words]) for i in range(0, len(tokens), words)]


def passages_of(lead: str, body: str, keep: str, words: int) -> list[str]:
    if keep == "lead":
        cut = split_words(lead or body, 0)[0].split() if (lead or body).strip() else []
        return [" ".join(cut[:words] if words else cut)] if cut else []
    return split_words(body, words)


def checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".progress.json")


def _save(state: Checkpoint, out: Path) -> None:
    path = checkpoint_path(out)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(asdict(state), indent=1), encoding="utf-8")
    os.replace(temporary, path)


def _resume(source: Path, out: Path, keep: str, words: int, restart: bool) -> Checkpoint:
    fresh = Checkpoint(str(source.resolve()), source_format(source), keep, words)
    path = checkpoint_path(out)
    if restart or not path.is_file():
        return fresh
    saved = Checkpoint(**json.loads(path.read_text(encoding="utf-8")))
    if (saved.source, saved.keep, saved.words) != (fresh.source, keep, words):
        raise KnowledgeImportError(
            f"{out} holds an import of {saved.source} (keep {saved.keep}, {saved.words} words); "
            "pass --restart to start it over, or choose another --out."
        )
    return saved


def import_knowledge(source, out, keep: str = "lead", words: int = 0, limit: int | None = None,
                     restart: bool = False, report=print) -> Checkpoint:
    """Import source into out (resuming an unfinished import of the same source); the final checkpoint."""
    source, out = Path(source), Path(out)
    if keep not in KEEP:
        raise KnowledgeImportError(f"keep must be one of {', '.join(KEEP)}, not {keep!r}.")
    if not source.is_file():
        raise KnowledgeImportError(f"There is no file at {source}.")
    state = _resume(source, out, keep, words, restart)
    if state.finished:
        report(f"{out} already holds the whole import ({state.passages:,} passages); pass --restart to redo it.")
        return state
    out.parent.mkdir(parents=True, exist_ok=True)
    if state.position:
        report(f"resuming after source entry {state.position:,}: {state.articles:,} articles already imported")
    started = last_report = time.monotonic()
    with open(out, "ab") as handle:
        handle.truncate(state.bytes)  # drop whatever was written after the last checkpoint
        handle.seek(state.bytes)
        since_checkpoint, whole = 0, state.bytes  # whole: the output's length after the last whole article
        try:
            for article in READERS[state.format](source, state.position):
                try:
                    lead, body = article.read()
                except Exception as error:  # one broken article must not stop the import
                    state.errors += 1
                    if len(state.error_examples) < EXAMPLES:
                        state.error_examples.append(f"{article.title or '(untitled)'}: {error}")
                else:
                    pieces = passages_of(lead, body, keep, words)
                    for text in pieces:
                        line = json.dumps({"title": article.title, "text": text}, ensure_ascii=False) + "\n"
                        handle.write(line.encode("utf-8"))
                    state.articles += bool(pieces)
                    state.empty += not pieces
                    state.passages += len(pieces)
                state.position, whole = article.position, handle.tell()
                since_checkpoint += 1
                if since_checkpoint >= CHECKPOINT_EVERY:
                    _checkpoint(handle, state, out, whole)
                    since_checkpoint = 0
                if time.monotonic() - last_report >= 2:
                    last_report = time.monotonic()
                    report(_line(state, started))
                if limit and state.articles >= limit:
                    break
            else:
                state.finished = True
        finally:
            _checkpoint(handle, state, out, whole)
    report(_line(state, started) + (" - done" if state.finished else f" - stopped at the limit of {limit:,}"))
    for example in state.error_examples:
        report(f"  skipped: {example}")
    return state


def _checkpoint(handle, state: Checkpoint, out: Path, whole: int) -> None:
    """Make the output durable up to the last whole article, then record how far it goes."""
    handle.flush()
    handle.truncate(whole)  # an interrupted article's first passages go; it is read again on resume
    os.fsync(handle.fileno())
    state.bytes = whole
    _save(state, out)


def _line(state: Checkpoint, started: float) -> str:
    elapsed = time.monotonic() - started
    return (f"[{elapsed:7.1f}s] {state.articles:,} articles, {state.passages:,} passages, {state.empty:,} empty, "
            f"{state.errors:,} errors; {state.position:,} source entries read")
