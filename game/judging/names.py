"""People's names: when a surname alone is enough, and when trivia's "full name on confusion" rule asks for more.

A surname alone is accepted when the answer is a person and nobody else with that surname is named
in the question or the answer line; otherwise the moderator should prompt for the full name.
"""
from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from game.judging.normalize import fix_mojibake, fold, tokens

PARTICLES = frozenset({"van", "von", "de", "da", "di", "del", "della", "der", "den", "du", "la", "le", "ibn", "bin", "al", "el", "ten", "ter", "st"})
TITLES = frozenset(
    "president king queen prince princess emperor empress sir lord lady saint st dr doctor mr mrs ms miss "
    "general colonel captain admiral senator governor pope bishop cardinal chancellor professor judge justice "
    "dom don comte count duke baron marquis secretary minister speaker mayor".split()
)
SUFFIXES = frozenset({"jr", "sr", "2", "3", "4", "junior", "senior"})
# Last words that make a capitalised answer a thing, not a person ("Spanish Civil War").
THING_WORDS = frozenset(
    "war wars revolution rebellion battle treaty act acts accords accord agreement conference congress council "
    "river lake sea ocean bay gulf strait mountains mountain mount island islands peninsula desert canal falls "
    "city county state states province republic kingdom empire dynasty union party church cathedral temple "
    "university college school company corporation bank museum bridge tower palace castle house theory law "
    "effect equation principle theorem paradox syndrome disease symphony concerto overture opera sonata "
    "suite mass requiem ballet novel poem play saga trilogy series cycle movement affair incident crisis "
    "massacre plan doctrine declaration constitution amendment compromise purchase expedition festival".split()
)
_PERSON_CUES = re.compile(
    r"\b(?:he|his|him|she|her|hers|himself|herself|who|whom)\b|^\W*whose\b|\bthis\s+(?:man|woman|person|author|writer|poet|"
    r"composer|artist|painter|sculptor|architect|thinker|philosopher|scientist|physicist|chemist|biologist|"
    r"mathematician|economist|sociologist|psychologist|ruler|king|queen|emperor|empress|leader|general|"
    r"president|figure|playwright|dramatist|novelist|director|explorer|saint|pope|character|artist|"
    r"statesman|politician|monarch|pharaoh|sultan|prophet|god|goddess|hero|heroine|conductor|singer|"
    r"musician|photographer|inventor|engineer|astronomer|theologian|historian|critic|essayist)\b",
    re.I,
)
_NAME_RUN = re.compile(
    r"[A-ZÀ-Þ][\w'’.-]*(?:\s+(?:(?:van|von|de|da|di|del|der|du|la|le|ibn|bin|al|el)\s+)*[A-ZÀ-Þ][\w'’.-]*)+"
)
_ELIDED = re.compile(r"^[dl]['’][A-ZÀ-Þ]")
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def looks_like_person(answer: str, question_text: str | None = None) -> bool:
    """Whether an answer reads as a person's name (and the question, if given, speaks of a person)."""
    head, comma, tail = answer.partition(",")
    if comma and tokens(tail) and not set(tokens(tail)) <= SUFFIXES and tokens(tail)[0] not in TITLES:
        return False  # "Seattle, Washington" is a place; "Martin Luther King, Jr." and "..., Comte d'Artagnan" are people
    words = _WORD.findall(fix_mojibake(answer))
    if any(word.endswith(("'s", "’s")) for word in words[:-1]) or any(ch.isdigit() for ch in answer):
        return False  # "Beethoven's Symphony No. 7" is a work; people's names carry no digits
    titled = len(_WORD.findall(fix_mojibake(tail))) if comma else 0  # ", Comte d'Artagnan" adds a title to the name
    if not 2 <= len([w for w in words if fold(w) not in PARTICLES and fold(w) not in _CONNECTORS]) <= 5 + titled or words[0].lower() == "the" or answer.strip() != answer.strip().strip("\"“”"):
        return False
    capitalised = [w for w in words if fold(w) not in PARTICLES and fold(w) not in _CONNECTORS]
    if not all(w[:1].isupper() or _ELIDED.match(w) for w in capitalised):  # "d'Artagnan" is capitalised after "d'"
        return False
    if fold(capitalised[-1]).strip(".") in THING_WORDS or any(fold(w) == "of" for w in words):
        return False
    return speaks_of_person(question_text)


def speaks_of_person(question_text: str | None) -> bool:
    """Whether a question is about a person; with no question we cannot tell, so we say yes."""
    return question_text is None or bool(_PERSON_CUES.search(question_text))


_CONNECTORS = frozenset({"y", "i", "e"})  # Spanish, Catalan and Portuguese join two surnames with these


def second_surname(answer: str) -> tuple[str, ...]:
    """ "Antoni Gaudí i Cornet" -> ("i", "cornet"): a mother's surname after the connector, not needed alone."""
    words = tokens(answer)
    if len(words) >= 4 and words[-2] in _CONNECTORS:
        return words[-2:]
    return ()


def surname(answer: str) -> tuple[str, ...]:
    """The canonical words of a person's surname, with particles ("van Beethoven") and without "Jr."."""
    words = list(tokens(answer))
    words = words[: len(words) - len(second_surname(answer))]
    while len(words) > 1 and words[-1] in SUFFIXES:
        words.pop()
    last = [words[-1]] if words else []
    for word in reversed(words[:-1]):
        if word not in PARTICLES:
            break
        last.insert(0, word)
    return tuple(last)


def given_names(answer: str) -> tuple[str, ...]:
    words = list(tokens(answer))
    words = [w for w in words[: len(words) - len(second_surname(answer))] if w not in SUFFIXES]
    return tuple(words[: len(words) - len(surname(answer))])


def others_with_surname(answer: str, elsewhere: list[str]) -> list[str]:
    """Full names in other texts that share the answer's surname but have a given name it lacks."""
    family = surname(answer)
    if not family:
        return []
    mine = set(given_names(answer))
    found: list[str] = []
    for text in elsewhere:
        for match in _NAME_RUN.finditer(text or ""):
            words = tokens(match.group(0))
            if len(words) <= len(family) or words[-len(family):] != family:
                continue
            given = set(words[: -len(family)]) - PARTICLES - TITLES
            if given - mine:  # a given name the answer's person does not have: someone else
                found.append(match.group(0))
    return found


@lru_cache(maxsize=1)
def _nicknames() -> dict[str, frozenset[str]]:
    """Given names with their nicknames and diminutives, read both ways ("theodore" <-> "teddy", "william" <->
    "bill"), from the `nicknames` package: Carlton Northern's hand-curated names.csv (Apache-2.0)."""
    from nicknames import name_triplets

    table: dict[str, set[str]] = defaultdict(set)
    for row in name_triplets():
        table[row.name1].add(row.name2)
        table[row.name2].add(row.name1)
    return {name: frozenset(others) for name, others in table.items()}


def nickname(a: str, b: str) -> bool:
    """Whether one given name is a nickname or diminutive of the other ("teddy" and "theodore", "bill" and "william")."""
    return b in _nicknames().get(a, ())


def is_given_name(word: str) -> bool:
    """Whether the word is an English given name or a nickname the names table lists ("paul", "paula", "teddy")."""
    return word in _nicknames()
