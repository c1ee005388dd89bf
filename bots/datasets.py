"""Readers for the data a host imports to build a bot, whatever public format it comes in.

- question-answer pairs: JSONL {"question", "answer"} where answer is a string or a list (the
  NQ-open form), or QANTA JSON (a list, or {"questions": [...]}, optionally gzipped) whose answer
  is the Wikipedia page title;
- passages: JSONL {"title", "text"} (what import_knowledge writes from Wikipedia), or QANTA JSON
  split into its sentences, each titled with the question's answer page.

Pairs and passages read from QANTA JSON carry the number of the question they came from (source),
so a bot trained by cross-validation can leave a held-out question's own sentences out. JSON lines
are read one line at a time, so a large knowledge file is never held in memory as text.
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

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


def _open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def _records(path):
    """('qanta', question) for each question of QANTA JSON, ('jsonl', object) for each JSON line."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"There is no data file at {path}.")
    with _open_text(path) as handle:
        start = handle.read(1)
        while start and start.isspace():
            start = handle.read(1)
        if start in ("[", "{"):
            rest = handle.read()
            data = _qanta(start + rest)
            if data is not None:
                yield from (("qanta", record) for record in data)
                return
            lines = (start + rest).splitlines()
        else:
            handle.seek(0)
            lines = handle
        for number, line in enumerate(lines, 1):
            if line.strip():
                try:
                    yield "jsonl", json.loads(line)
                except json.JSONDecodeError as error:
                    raise DataError(f"{path} line {number} is not JSON: {error}") from None


def _qanta(content: str):
    """The questions of a QANTA JSON document, or None when content is JSON lines instead."""
    if content.startswith("["):
        return json.loads(content)
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return None
    return data["questions"] if isinstance(data, dict) and isinstance(data.get("questions"), list) else None


def holds_questions(path) -> bool:
    """Whether a data file holds questions with answers (QANTA JSON, JSONL pairs) rather than passages."""
    for form, record in _records(path):
        return form == "qanta" or (isinstance(record, dict) and "question" in record)
    return False


def _field(record, name: str, where: str):
    if not isinstance(record, dict) or name not in record:
        raise DataError(f"{where} has no {name!r} field.")
    return record[name]


def _each_record(path):
    """(form, record, where-it-is, number) for every record of the file."""
    for i, (form, record) in enumerate(_records(path), 1):
        yield form, record, f"{path} record {i}", i


def read_pairs(path) -> list[Pair]:
    pairs = []
    for form, record, where, number in _each_record(path):
        if form == "qanta":
            if not _field(record, "page", where):
                continue  # QANTA leaves a few answers unmapped to a page: nothing to learn from them
            question = strip_power_mark(_field(record, "text", where))
            answers = (page_title(record["page"]),)
        else:
            question = _field(record, "question", where)
            answer = _field(record, "answer", where)
            answers = tuple(answer) if isinstance(answer, list) else (answer,)
        if not isinstance(question, str) or not answers or not all(isinstance(a, str) and a for a in answers):
            raise DataError(f"{where} needs a question string and at least one non-empty answer string.")
        pairs.append(Pair(question, answers, number))
    if not pairs:
        raise DataError(f"{path} holds no question-answer pairs.")
    return pairs


def _qanta_sentences(record, where: str, number: int) -> list[dict]:
    text = _field(record, "text", where)
    if not _field(record, "page", where):
        return []
    spans = record.get("tokenizations") or [[0, len(text)]]
    title = page_title(record["page"])
    return [{"title": title, "text": strip_power_mark(text[a:b]), "source": number}
            for a, b in spans if text[a:b].strip()]


def read_passages(path) -> list[dict]:
    passages = []
    for form, record, where, number in _each_record(path):
        if form == "qanta":
            passages.extend(_qanta_sentences(record, where, number))
            continue
        title, text = _field(record, "title", where), _field(record, "text", where)
        if not isinstance(title, str) or not isinstance(text, str):
            raise DataError(f"{where} needs string title and text fields.")
        passages.append({"title": title, "text": text})
    if not passages:
        raise DataError(f"{path} holds no passages.")
    return passages
