"""What kind of thing a question asks for, and whether a guess is that kind of thing.

A quizbowl question names the type of its answer ("this poet", "this Shakespeare play", "name these
particles"). Each known answer gets a profile of such words: from the questions it answered in the
training data, and from the first sentence of its article ("Pablo Neruda was a Chilean poet").
When the revealed text asks for a type and the top guess's profile never had that word, the guess
is most likely an answer related to the right one (the poet's book for the poet, the country for a
play set there): the buzzer holds back.
"""
from __future__ import annotations

import re
from collections import Counter

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

_THIS = re.compile(r"\b(?:[Tt]his|[Tt]hese)\s+([A-Za-z][\w\-]*)(?:\s+([a-z][a-z\-]*))?")
_FIRST_SENTENCE = re.compile(r"^(.{20,400}?[.!?])(?:\s|$)", re.S)
_IS_A = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the|one of the)\s+(.{3,200})", re.S)
_WORD = re.compile(r"[a-z][a-z\-]*")
# Words after "this" that say nothing about the answer's type.
_NOT_TYPES = set(ENGLISH_STOP_WORDS) | {"one", "time", "year", "day", "way", "period", "point", "points", "work"}


def _keep(word: str) -> bool:
    return len(word) > 2 and word not in _NOT_TYPES


def asked_types(text: str) -> set[str]:
    """The word after each "this"/"these" in a question: the type it asks for ("this poet"); after a
    proper adjective ("this Chilean poet", "this Shakespeare play") the next word too."""
    found = set()
    for first, second in _THIS.findall(text):
        words = (first, second) if first[0].isupper() and second else (first,)
        found.update(w.lower() for w in words if _keep(w.lower()))
    return found


def article_types(text: str) -> set[str]:
    """Words describing what an article is about, from "X is a ..." in its first sentence."""
    sentence = _FIRST_SENTENCE.match(text.strip())
    described = _IS_A.search((sentence.group(1) if sentence else text[:400]).lower())
    return {w for w in _WORD.findall(described.group(1))[:12] if _keep(w)} if described else set()


class TypeProfiles:
    """answer index -> the type words seen for that answer."""

    def __init__(self, profiles: list[dict]):
        self.profiles = [Counter(p) for p in profiles]

    @classmethod
    def from_texts(cls, questions_per_answer: list[list[str]], articles_per_answer: list[list[str]] | None = None):
        profiles = []
        for i, questions in enumerate(questions_per_answer):
            counts = Counter()
            for question in questions:
                counts.update(asked_types(question))
            for article in (articles_per_answer[i] if articles_per_answer else []):
                counts.update(article_types(article))
            profiles.append(counts)
        return cls(profiles)

    def to_json(self) -> list[dict]:
        return [dict(p) for p in self.profiles]

    def match(self, asked: set[str], answer: int) -> tuple[float, float, float]:
        """(asks a type, share of asked words in the answer's profile, 1.0 when they clash)."""
        if not asked:
            return 0.0, 0.0, 0.0
        profile = self.profiles[answer] if 0 <= answer < len(self.profiles) else Counter()
        share = sum(1 for w in asked if profile[w]) / len(asked)
        return 1.0, share, 1.0 if profile and share == 0 else 0.0
