"""Features every built-in bot's buzzer reads besides its own scores (see bots.builtin.buzzer).

They answer "have I ever seen anything like this?" and "is my guess even the right kind of thing?":
how many of the question's words the bot's index knows, how much the bot knows about its top answer
(its prior: how many documents or questions back it), whether the guess is already named in the
question (quizbowl never names its answer), whether the question asks for a type the guess never
was, and where in a question of typical length we are.
"""
from __future__ import annotations

import math

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from bots.builtin.answer_types import TypeProfiles, asked_types
from bots.text import normalize_answer

COMMON = ("named", "asks_type", "type_share", "clash", "familiar", "prior", "fraction", "final")


def named_share(guess: str, text: str) -> float:
    """Share of the guess's content words already in the revealed text."""
    words = [w for w in normalize_answer(guess).split() if w not in ENGLISH_STOP_WORDS]
    if not words:
        return 0.0
    said = set(normalize_answer(text).split())
    return sum(w in said for w in words) / len(words)


def common(text: str, guess: str, answer: int, profiles: TypeProfiles | None, familiar: float, support: int,
           word_index: int, final: bool, typical: float) -> list[float]:
    """The COMMON features of one act; answer is the guess's index in profiles (-1 for none)."""
    typed = profiles.match(asked_types(text), answer) if profiles is not None else (0.0, 0.0, 0.0)
    return [
        named_share(guess, text),
        *typed,
        familiar,
        math.log1p(support),
        min(word_index / max(typical, 1.0), 1.5),
        1.0 if final else 0.0,
    ]
