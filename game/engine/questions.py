"""Questions as the engine sees them: words to reveal, where the power mark falls, the answer line."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from game.judging.answerline import parse_answer_line  # plain Python, like the engine

POWER_MARK = "(*)"
_SPACE = re.compile(r"\s+")
# A pronunciation guide, as the importers mark it (game/importers/guides.py): spoken, never shown.
GUIDE_OPEN, GUIDE_CLOSE = "\u27e6", "\u27e7"
_GUIDE = re.compile(r"\s*" + GUIDE_OPEN + r"([^" + GUIDE_OPEN + GUIDE_CLOSE + r"]{0,80})" + GUIDE_CLOSE)
_PLACE = re.compile(r"\x00(\d+)\x00")
_TRAILING = re.compile(r"\W*$")  # a word's closing punctuation: the voice pauses on it after a guide too


@dataclass(frozen=True)
class Question:
    qid: str
    kind: str  # "short", "tossup" or "bonus"
    text: str  # as printed, power mark included (a bonus: its leadin)
    answer: str  # the answer line, shown to the moderator and revealed at close
    accepted: tuple[str, ...] = ()
    category: str = ""
    subcategory: str = ""
    source: dict = field(default_factory=dict, compare=False, hash=False)
    # A bonus's parts, in order: each {"text", "answer", "value"} (answer: an answer line as a tossup's).
    parts: tuple[dict, ...] = field(default=(), compare=False, hash=False)
    words: tuple[str, ...] = field(init=False)
    power_index: int | None = field(init=False)  # number of words read before the power mark

    def __post_init__(self):
        words, power = split_words(self.text)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "power_index", power)

    @classmethod
    def from_dict(cls, data: dict) -> "Question":
        return cls(
            qid=str(data["qid"]),
            kind=data.get("kind", "short"),
            text=data["text"],
            answer=data.get("answer", ""),
            accepted=tuple(data.get("accepted") or ()),
            category=data.get("category", ""),
            subcategory=data.get("subcategory", ""),
            source=dict(data.get("source") or {}),
            parts=tuple(dict(part) for part in data.get("parts") or ()),
        )

    @property
    def clean_answer(self) -> str:
        return clean_answer(self.answer)

    def to_dict(self) -> dict:
        return {
            "qid": self.qid,
            "kind": self.kind,
            "text": self.text,
            "answer": self.answer,
            "accepted": list(self.accepted),
            "category": self.category,
            "subcategory": self.subcategory,
            "source": dict(self.source),
            **({"parts": [dict(part) for part in self.parts]} if self.parts else {}),
        }


def split_words(text: str) -> tuple[tuple[str, ...], int | None]:
    """Split text into the words a reader says, and find the power mark.

    The mark is not a word: it takes no reading time and is never shown. Its position is the number
    of words before it, so a buzz with at most that many words revealed earns power. The mark may
    stand alone ("word (*) word") or touch a word ("word(*) word").
    """
    words: list[str] = []
    power: int | None = None
    for token in _SPACE.split(_GUIDE.sub("", text).strip()):
        if not token:
            continue
        if POWER_MARK in token:
            before, _, after = token.partition(POWER_MARK)
            if before:
                words.append(before)
            if power is None:
                power = len(words)
            if after:
                words.append(after)
            continue
        words.append(token)
    return tuple(words), power


def spoken_words(text: str) -> list[tuple[str, str]]:
    """(shown word, what the voice says for it) for each word of split_words(text): the word itself, or
    the pronunciation guide that follows it, its quotes dropped and its syllables apart."""
    guides: list[str] = []

    def place(match) -> str:
        guides.append(match.group(1))
        return f"\x00{len(guides) - 1}\x00"

    words, _ = split_words(_GUIDE.sub(place, text))
    pairs = []
    for word in words:
        found = _PLACE.findall(word)
        shown = _PLACE.sub("", word)
        if not shown:
            continue
        said = " ".join(guides[int(found[-1])].strip("\"“”'’ ").replace("-", " ").split()) if found else ""
        pairs.append((shown, said.lower() + _TRAILING.search(shown).group(0) if said else shown))
    return pairs


@lru_cache(maxsize=4096)
def clean_answer(line: str) -> str:
    """The answer as the hall is shown it: the main answer of the line without its directives
    ("[accept …; do not accept …]"), markup or braces; the line itself when nothing is left."""
    return parse_answer_line(line or "").main or (line or "")
