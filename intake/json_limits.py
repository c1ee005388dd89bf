"""The shape of a JSON value, checked before the parser sees it: how deep it nests and how long it runs.

Python's parser recurses once per level, so a document nested 100,000 deep ends in RecursionError,
and it builds every object of a value before it can say the value was too big. This scan only looks
at brackets outside strings, so it holds nothing and cannot recurse.
"""
from __future__ import annotations

import re
from typing import Callable

from intake.limits import DEPTH, Limit, LimitExceeded

# A whole string (its brackets do not count), or a run of opening or of closing brackets.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]+|[\]}]+')


def value_end(text: str, start: int, where: Callable[[int], str], length: Limit | None = None) -> int:
    """Where the JSON value at `start` ends (the text's end when it never closes).

    LimitExceeded when it nests deeper than DEPTH, or runs longer than `length`; `where(position)`
    names the place for the message. A value that is not an array, object or string ends at once:
    the parser reads numbers and words without recursing.
    """
    if start >= len(text) or text[start] not in '[{"':
        return start
    longest = length.value if length else len(text)
    most, depth = DEPTH.value, 0
    for token in _TOKENS.finditer(text, start):
        if token.end() - start > longest:
            raise LimitExceeded(length, where(start))
        run = token.end() - token.start()
        opening = text[token.start()]
        if opening in "[{":
            if depth + run > most:
                raise LimitExceeded(DEPTH, where(token.start() + most - depth))
            depth += run
        elif opening in "]}":
            if run >= depth:
                return token.start() + depth
            depth -= run
        elif depth == 0:
            return token.end()  # the value is this string
    if len(text) - start > longest:
        raise LimitExceeded(length, where(start))
    return len(text)
