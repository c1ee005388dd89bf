"""What the learned equivalence model reads of a (response, reference) pair: cheap numbers that carry meaning
beyond the words (character and word overlap, WordNet's relations between the two, numbers and dates that
agree or not, the kind of answer each is). The same code makes the features for training (build.py) and for
judging (model.py), so the two never drift.
"""
from __future__ import annotations

from functools import lru_cache

from rapidfuzz import fuzz

from game.judging import lexicon
from game.judging.match import FUNCTION_WORDS, stem
from game.judging.names import looks_like_person
from game.judging.normalize import tokens
from game.judging.numbers import is_number
from game.judging.spans import AROUND, APART, INSIDE, SAME, period, relation

# The kinds of answer, in the order they are tried: the judge's own rules say which (a date or span it can read,
# a number, a person's name, a place WordNet knows, anything else).
DATE, NUMBER, PERSON, PLACE, OTHER = "date", "number", "person", "place", "other"
TYPES = (DATE, NUMBER, PERSON, PLACE, OTHER)
_RELATIONS = (SAME, INSIDE, AROUND, APART)
_TYPE_NAMES = tuple((each, f"reference is a {each}") for each in TYPES)
_RELATION_NAMES = tuple((each, f"dates: {each}") for each in _RELATIONS)


@lru_cache(maxsize=65536)
def answer_type(text: str) -> str:
    """Which kind of answer a text is, by the judge's rules."""
    words = tokens(text)
    if period(words) is not None:
        return DATE
    if any(is_number(word) for word in words):
        return NUMBER
    if looks_like_person(text):
        return PERSON
    place = tokens(text.partition(",")[0])  # "Salzburg, Austria"
    if words and lexicon.is_place("_".join(words)) or place and lexicon.is_place("_".join(place)):
        return PLACE
    return OTHER


# Kinds the rules read to the end: two numbers or dates that no rule relates differ ("2.2 billion" is no "1.8
# billion"), as do two people (the name rules know nicknames and full names) and two places ("Taiwan" is no "China").
_RULED = ({DATE, NUMBER}, {PERSON}, {PLACE})
_FEWEST_LETTERS = 3


def askable(response: str, reference: str) -> bool:
    """Whether the model may be asked about the pair: not when both are of one kind the rules read to the end, nor
    about a response of a letter or two ("M" is no "Marie Curie": a lone letter says too little)."""
    if len("".join(tokens(response))) < _FEWEST_LETTERS:
        return False
    kinds = {answer_type(response), answer_type(reference)}
    return not any(kinds <= ruled for ruled in _RULED)


def _head(words: tuple[str, ...]) -> str:
    """The phrase as WordNet may know it whole, else its last word."""
    whole = "_".join(words)
    return whole if lexicon.senses(whole) or len(words) == 1 else words[-1]


def _initials(words: tuple[str, ...]) -> str:
    return "".join(word[0] for word in words if word not in FUNCTION_WORDS)


@lru_cache(maxsize=65536)
def _read(text: str) -> tuple:
    words = tokens(text)
    return words, " ".join(words), frozenset(stem(w) for w in words), answer_type(text), period(words)


def _nearest(head: str, their_head: str) -> int:
    """The fewest WordNet links between the two as a kind of the other ("poodle", "dog") or a member of it ("John
    Lennon", "the Beatles"), one feature: NQ's references hold too few members of a group to learn them apart."""
    return min((steps for link in ("hypernyms", "groups") if (steps := lexicon.relation(head, their_head, link))), default=0)


def _steps(distance: int) -> float:
    return 1 / distance if distance else 0.0


def features(response: str, reference: str) -> dict[str, float]:
    """The pair's features by name; the model file lists the names it was trained on, in this order."""
    words, joined, stems, kind, when = _read(response)
    their_words, their_joined, their_stems, their_kind, their_when = _read(reference)
    common = stems & their_stems
    numbers, their_numbers = {w for w in words if is_number(w)}, {w for w in their_words if is_number(w)}
    how = relation(when, their_when) if when and their_when else None
    head, their_head = _head(words) if words else "", _head(their_words) if their_words else ""
    known = bool(head and their_head)
    compact, their_compact = joined.replace(" ", ""), their_joined.replace(" ", "")
    return {
        "character ratio": fuzz.ratio(joined, their_joined) / 100,
        "token set ratio": fuzz.token_set_ratio(joined, their_joined) / 100,
        "partial ratio": fuzz.partial_ratio(joined, their_joined) / 100,
        "word overlap": len(common) / max(len(stems | their_stems), 1),
        "word containment": len(common) / max(min(len(stems), len(their_stems)), 1),
        "length ratio": min(len(words), len(their_words)) / max(len(words), len(their_words), 1),
        "same type": float(kind == their_kind),
        **{name: float(their_kind == each) for each, name in _TYPE_NAMES},
        "both give numbers": float(bool(numbers and their_numbers)),
        "same numbers": float(bool(numbers) and numbers == their_numbers),
        "a number in common": float(bool(numbers & their_numbers)),
        **{name: float(how == each) for each, name in _RELATION_NAMES},
        "WordNet: a sense in common": float(known and lexicon.any_shared_sense(head, their_head)),
        "WordNet: a kind or a member of (1/steps)": _steps(_nearest(head, their_head)) if known else 0.0,
        "initials": float(len(words) > 1 and _initials(words) == their_compact
                          or len(their_words) > 1 and _initials(their_words) == compact),
        "same last word": float(bool(words and their_words) and words[-1] == their_words[-1]),
        "WordNet: a place in the other": float(known and (lexicon.lies_in(head, their_head) or lexicon.lies_in(their_head, head))),
    }
