"""Readers for the data a host imports to build a bot, whatever public format it comes in.

- question-answer pairs: JSONL {"question", "answer"} where answer is a string or a list (the
  NQ-open form), or QANTA JSON (a list, or {"questions": [...]}, optionally gzipped) whose answer
  is the Wikipedia page title;
- passages: JSONL {"title", "text"} (what import_knowledge writes from Wikipedia), or QANTA JSON
  split into its sentences, each titled with the question's answer page.

Pairs and passages read from QANTA JSON carry the number of the question they came from (source),
so a bot trained by cross-validation can leave a held-out question's own sentences out.

A data file can be gigabytes of JSON lines, a packed bomb or JSON nested too deep for the parser, so
it is read through intake.source.Source within the limits of intake/limits.py: over
one, the read stops with one sentence naming the limit and the line, and nothing is built.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from intake.json_items import json_lines, object_with_array
from intake.json_limits import value_end
from intake.limits import (ANSWER, BOT_DATA, BOT_DOCUMENT, LINE, PASSAGES, RECORD, TEXT, TRAINING, Limit,
                            LimitExceeded, check_length)
from intake.source import Source, plain_name

from bots.text import page_title, strip_power_mark


@dataclass(frozen=True)
class Pair:
    question: str
    answers: tuple[str, ...]
    source: int | None = None  # the record it came from

    @property
    def answer(self) -> str:
        return self.answers[0]


class DataError(ValueError):
    """The data file cannot be read as the kind of data a bot needs."""


@contextmanager
def _source(path):
    """The data file as a Source within the bot data limits; DataError when there is none."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"There is no data file at {path}.")
    with open(path, "rb") as packed:
        yield Source(packed, str(path), path.stat().st_size, file=BOT_DATA, total=BOT_DATA, ratio=True)


def _is_document(source: Source) -> bool:
    """Whether the file is one JSON document (QANTA's list, or {"questions": [...]}) rather than JSON lines."""
    start = source.head.lstrip()
    if start.startswith("["):
        return True
    if not start.startswith("{") or plain_name(source.name).endswith(".jsonl"):
        return False
    first = start.split("\n", 1)[0]
    try:
        value_end(first, 0, str)
        record = json.loads(first)
    except (ValueError, LimitExceeded):
        return True  # an object that goes on past its first line
    return isinstance(record, dict) and isinstance(record.get("questions"), list)


def _records(path, line: Limit, most: Limit):
    """(form, record, where-it-is, number) for every record of the file: ('qanta', question) for each
    question of QANTA JSON, ('jsonl', object) for each JSON line, each line within `line`, at most `most`."""
    with _source(path) as source:
        if _is_document(source):
            form, entries = "qanta", object_with_array(source.text(BOT_DOCUMENT), "questions", source.name)[1]
        else:
            form, entries = "jsonl", json_lines(source.lines(line), source.name)
        for number, (line_number, record, error) in enumerate(entries, 1):
            where = f"{source.name} line {line_number:,}"
            if error:
                raise DataError(f"{where}: {error}")
            if number > most.value:
                raise LimitExceeded(most, where)
            yield form, record, where, number


def holds_questions(path) -> bool:
    """Whether a data file holds questions with answers (QANTA JSON, JSONL pairs) rather than passages."""
    with _source(path) as source:
        if _is_document(source):
            return True
        _, record, _ = next(json_lines(source.lines(RECORD), source.name), (0, None, None))
        return isinstance(record, dict) and "question" in record


def _field(record, name: str, where: str):
    if not isinstance(record, dict) or name not in record:
        raise DataError(f"{where} has no {name!r} field.")
    return record[name]


def _answers(form: str, record, where: str) -> tuple:
    if form == "qanta":  # the answer is the question's Wikipedia page
        page = _field(record, "page", where)
        return (page_title(page) if isinstance(page, str) else page,) if page else ()
    answer = _field(record, "answer", where)
    return tuple(answer) if isinstance(answer, list) else (answer,)


def read_pairs(path) -> list[Pair]:
    pairs = []
    for form, record, where, number in _records(path, LINE, TRAINING):
        answers = _answers(form, record, where)
        if form == "qanta" and not answers:
            continue  # QANTA leaves a few answers unmapped to a page: nothing to learn from them
        question = _field(record, "text" if form == "qanta" else "question", where)
        if not isinstance(question, str) or not answers or not all(isinstance(a, str) and a for a in answers):
            raise DataError(f"{where} needs a question string and at least one non-empty answer string.")
        check_length(TEXT, question, where)
        for answer in answers:
            check_length(ANSWER, answer, where)
        pairs.append(Pair(strip_power_mark(question) if form == "qanta" else question, answers, number))
    if not pairs:
        raise DataError(f"{path} holds no question-answer pairs.")
    return pairs


def _qanta_sentences(record, where: str, number: int) -> list[dict]:
    text, page = _field(record, "text", where), _field(record, "page", where)
    if not page:
        return []
    if not isinstance(text, str) or not isinstance(page, str):
        raise DataError(f"{where} needs string text and page fields.")
    try:
        spans = [(int(a), int(b)) for a, b in record.get("tokenizations") or [[0, len(text)]]]
    except (TypeError, ValueError):
        raise DataError(f"{where} has tokenizations that are not [start, end] pairs.") from None
    title = page_title(page)
    return [{"title": title, "text": strip_power_mark(text[a:b]), "source": number}
            for a, b in spans if text[a:b].strip()]


def read_passages(path) -> list[dict]:
    passages = []
    for form, record, where, number in _records(path, RECORD, PASSAGES):
        if form == "qanta":
            passages.extend(_qanta_sentences(record, where, number))
            continue
        title, text = _field(record, "title", where), _field(record, "text", where)
        if not isinstance(title, str) or not isinstance(text, str):
            raise DataError(f"{where} needs string title and text fields.")
        check_length(ANSWER, title, where)  # a passage's title is the answer a bot gives from it
        passages.append({"title": title, "text": text})
    if not passages:
        raise DataError(f"{path} holds no passages.")
    return passages
