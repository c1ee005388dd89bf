"""Whether a clause's qualifier held when the player buzzed: "before mention", 'until "Angkor" is read'.

Answer lines allow some answers only at some point of the reading. Told how many words had been
read at the buzz and the question's words, the judge can say whether such a clause was in force;
without them it says the moderator must check.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from game.judging.match import stem
from game.judging.normalize import tokens
from game.judging.memo import memo

_QUOTED = re.compile(r"[\"“']([^\"”']+)[\"”']")
_BEFORE = re.compile(r"^(?:only\s+)?(?:before|until|till|prior\s+to|up\s+to)\b\s*(.*)$", re.I)
_AFTER = re.compile(r"^(?:only\s+)?(?:after|once|following)\b\s*(.*)$", re.I)
_DURING = re.compile(r"^(?:only\s+)?(?:during|in|within)\b\s*(.*)$", re.I)
# "... is read", "it is mentioned", "mention": the point named is where a text is first read.
_MENTION = re.compile(r"^(?:the\s+)?(?:(.*?)\s+(?:is|are|has\s+been|have\s+been|gets?)\s+)?(?:first\s+)?"
                      r"(?:mention(?:ed)?|read|said|given|revealed|stated)\b", re.I)
_SENTENCE = re.compile(r"^(?:the\s+)?(?:(?:end|start|beginning)\s+of\s+(?:the\s+)?)?(first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th))"
                       r"\s+(?:sentence|line|clue)s?\b", re.I)
_END_OF_QUESTION = re.compile(r"^(?:the\s+)?end(?:\s+of\s+(?:the\s+)?(?:question|tossup))?$", re.I)
_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4}
_SENTENCE_END = (".", "?", "!", ".\"", ".”", "?\"", "?”", "!\"", "!”")
_THEM = {"it", "they", "them", "this", "that", "either", "both", "any", "mention", "mentioned", "read"}


@dataclass(frozen=True)
class Buzz:
    """Where the player buzzed: `read` words of the question's `words` had been read."""

    read: int
    words: tuple[str, ...]

    @property
    def heard(self) -> tuple[str, ...]:
        return self.words[: self.read]


@memo
def _stems(text: str) -> tuple[str, ...]:
    return tuple(stem(word) for word in tokens(text))


def _mentioned(text: str, buzz: Buzz) -> bool:
    """Whether the words of `text` had been read, in order, by the buzz."""
    wanted = _stems(text)
    heard = _stems(" ".join(buzz.heard))
    if not wanted:
        return False
    return any(heard[i: i + len(wanted)] == wanted for i in range(len(heard) - len(wanted) + 1))


def _sentence_of_buzz(buzz: Buzz) -> int:
    """The number of sentences finished before the last word heard (0: still in the first)."""
    return sum(word.endswith(_SENTENCE_END) for word in buzz.heard[:-1])


def _sentence_count(buzz: Buzz) -> int:
    return max(1, sum(word.endswith(_SENTENCE_END) for word in buzz.words))


def _sentence_number(word: str, buzz: Buzz) -> int:
    word = word.lower()
    if word == "last":
        return _sentence_count(buzz) - 1
    return _ORDINALS.get(word, int(re.sub(r"\D", "", word) or 1) - 1)


def _point_reached(point: str, texts: tuple[str, ...], buzz: Buzz, after: bool = False) -> bool | None:
    """Whether the reading had reached `point` at the buzz; None when the point is not understood.

    A sentence named after "after" (or "the end of" one) is reached when it ends; after "before",
    when it starts.
    """
    point = point.strip(" ,.;")
    quoted = _QUOTED.findall(point)
    mention = _MENTION.match(point)
    if quoted and (mention or len(quoted[0].split()) == len(point.strip("\"“”' ").split())):
        return any(_mentioned(text, buzz) for text in quoted)
    if mention:
        subject = (mention.group(1) or "").strip().lower()
        named = (subject,) if subject and subject not in _THEM else texts
        return any(_mentioned(text, buzz) for text in named) if named else None
    sentence = _SENTENCE.match(point)
    if sentence:
        number = _sentence_number(sentence.group(1), buzz)
        ends = after or bool(re.match(r"^(?:the\s+)?end\b", point, re.I))
        return _sentence_of_buzz(buzz) > number if ends else _sentence_of_buzz(buzz) >= number
    if _END_OF_QUESTION.match(point):
        return buzz.read >= len(buzz.words)
    return None


def in_force(qualifier: str, texts: tuple[str, ...], buzz: Buzz | None) -> bool | None:
    """Whether a clause with this qualifier applied at the buzz: True, False, or None (cannot tell)."""
    if buzz is None or not qualifier:
        return None
    qualifier = qualifier.strip()
    before, after, during = _BEFORE.match(qualifier), _AFTER.match(qualifier), _DURING.match(qualifier)
    if before:
        reached = _point_reached(before.group(1), texts, buzz)
        return None if reached is None else not reached
    if after:
        return _point_reached(after.group(1), texts, buzz, after=True)
    if during:
        sentence = _SENTENCE.match(during.group(1).strip())
        return _sentence_of_buzz(buzz) == _sentence_number(sentence.group(1), buzz) if sentence else None
    return None
