"""Marking pronunciation guides in a question's text, so the hall's voice says them and no screen shows them.

Quizbowl writers follow a hard name with how to say it in brackets: Nietzsche ("NEE-chuh"). On import
such a bracket becomes ⟦"NEE-chuh"⟧ (game/engine/questions.py): split_words leaves it out of the words
shown, and spoken_words gives it to the voice in place of the word before it. A bracket that is not a
pronunciation (a power mark, a remark, a date) is left as it was.
"""
from __future__ import annotations

import re

from game.engine.api import GUIDE_CLOSE, GUIDE_OPEN
from game.judging.answerline import _is_pronunciation as is_pronunciation

_BRACKETED = re.compile(r"\s*[(\[]([^()\[\]" + GUIDE_OPEN + GUIDE_CLOSE + r"]{1,80})[)\]]")


def mark_guides(text: str) -> str:
    def mark(match) -> str:
        inside = match.group(1).strip()
        if inside == "*" or not is_pronunciation(inside):
            return match.group(0)
        return f" {GUIDE_OPEN}{inside}{GUIDE_CLOSE}"

    return _BRACKETED.sub(mark, text)
