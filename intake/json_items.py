"""Read JSON lists and JSON lines with the line each entry starts on, and carry on past a broken entry.

A broken item is reported by line; reading resumes at the next line that opens an object, so one
bad question does not lose the rest of a file. Before the parser sees an entry, its nesting depth
and its length are checked (json_limits): those stop the import rather than skip the entry.
"""
from __future__ import annotations

import json
import re
from typing import Iterable, Iterator

from intake.json_limits import value_end
from intake.limits import LINE
from intake.problems import ImportProblem

_DECODER = json.JSONDecoder()
_WHITESPACE = re.compile(r"\s*")
_NEXT_OBJECT = re.compile(r"\n\s*\{")


class Lines:
    """Line numbers of character offsets, counted forward as reading moves on."""

    def __init__(self, text: str, name: str):
        self.text, self.name, self.offset, self.line = text, name, 0, 1

    def at(self, position: int) -> int:
        if position < self.offset:
            return self.text.count("\n", 0, position) + 1
        self.line += self.text.count("\n", self.offset, position)
        self.offset = position
        return self.line

    def where(self, position: int) -> str:
        return f"{self.name} line {self.at(position):,}"


def _skip(text: str, position: int) -> int:
    return _WHITESPACE.match(text, position).end()


def _problem(error: ValueError) -> str:
    """The parser's reason, also for a number too long to read (a plain ValueError)."""
    return error.msg if isinstance(error, json.JSONDecodeError) else str(error).split(";")[0]


def array_items(text: str, start: int, lines: Lines) -> Iterator[tuple[int, object, str | None]]:
    """(line, item, error) for each item of the array opening at `start`; each item within the line limit."""
    position = _skip(text, start + 1)
    while position < len(text) and text[position] != "]":
        line = lines.at(position)
        value_end(text, position, lines.where, LINE)
        try:
            item, position = _DECODER.raw_decode(text, position)
        except ValueError as error:
            at = getattr(error, "pos", position)
            yield lines.at(at), None, f"This is not valid JSON ({_problem(error)}); fix the line or remove the entry."
            resume = _NEXT_OBJECT.search(text, max(at, position + 1))
            if not resume:
                return
            position = resume.end() - 1
            continue
        yield line, item, None
        position = _skip(text, position)
        if position < len(text) and text[position] == ",":
            position = _skip(text, position + 1)


def _fields_besides(text: str, start: int, spans: list[tuple[int, int]], lines: Lines) -> dict:
    """The object's own fields, parsed with its (long) arrays, (start, end) each, left out; {} when they do not parse."""
    pieces, cursor = [], start
    for array_start, array_end in spans:
        pieces += [text[cursor:array_start], "[]"]
        cursor = array_end
    rest = "".join(pieces) + text[cursor:]
    value_end(rest, 0, lambda _: f"{lines.name}, the fields around the list", LINE)
    try:
        whole = json.loads(rest)
    except ValueError:
        return {}  # a broken item somewhere: the items still come, one by one, with their errors
    return whole if isinstance(whole, dict) else {}


def object_with_array(text: str, key: str, name: str) -> tuple[dict, Iterator[tuple[int, object, str | None]]]:
    """The other top-level fields of a JSON object, and the items of its list under `key`.

    A bare top-level list is read as the items themselves (with no other fields).
    """
    lines = Lines(text, name)
    position = _skip(text, 0)
    if text.startswith("[", position):
        return {}, array_items(text, position, lines)
    fields, arrays = _object_arrays(text, (key,), lines, position)
    return fields, arrays[key]


def object_with_arrays(text: str, keys: tuple[str, ...], name: str) -> tuple[dict, dict[str, Iterator[tuple[int, object, str | None]]]]:
    """The other top-level fields of a JSON object, and the items of each of its lists under `keys` that
    it has (at least one), in the order the lists come in the file (read them in that order)."""
    lines = Lines(text, name)
    return _object_arrays(text, keys, lines, _skip(text, 0))


def _object_arrays(text: str, keys: tuple[str, ...], lines: Lines, position: int):
    if not text.startswith("{", position):
        raise ImportProblem("The file does not start with a JSON list or object; check it is the right file.")
    opening = re.compile(r'"(%s)"\s*:\s*\[' % "|".join(re.escape(key) for key in keys))
    spans: dict[str, tuple[int, int]] = {}
    cursor = position
    while len(spans) < len(keys) and (found := opening.search(text, cursor)):
        array_start = found.end() - 1
        cursor = value_end(text, array_start, lines.where)  # a key inside this list is its items', not the file's
        spans.setdefault(found.group(1), (array_start, cursor))
    if not spans:
        named = " or ".join(f'"{key}"' for key in keys)
        raise ImportProblem(f'The JSON object has no {named} list; put the questions in a list under {named}.')
    fields = {k: v for k, v in _fields_besides(text, position, sorted(spans.values()), lines).items() if k not in keys}
    return fields, {key: array_items(text, spans[key][0], lines) for key in sorted(spans, key=spans.get)}


def json_lines(lines: Iterable[tuple[int, str]], name: str) -> Iterator[tuple[int, object, str | None]]:
    """(line number, record, error) for each non-blank line of JSON lines (each already within a length limit)."""
    for number, line in lines:
        start = _skip(line, 0)
        if start == len(line):
            continue
        value_end(line, start, lambda _: f"{name} line {number:,}")
        try:
            yield number, json.loads(line), None
        except ValueError as error:
            yield number, None, f"This line is not valid JSON ({_problem(error)}); fix it or remove it."
