"""Everything a response may be held against, read once per answer line and kept.

Each candidate is one text from the answer line (the main answer, an alternative, a prompt or a
rejection) or one reference answer, already in canonical words, with the clause it came from.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from anyascii import anyascii

from game.judging.answerline import ACCEPT, REJECT, AnswerLine, Clause, implied_required, parse_answer_line
from game.judging.normalize import articles, tokens
from game.judging.memo import memo


@dataclass(frozen=True)
class Candidate:
    text: str  # as written in the line or the reference list
    words: tuple[str, ...]
    kind: str  # accept | prompt | reject
    origin: str  # "main", "clause" or "reference"
    clause: Clause | None = None
    required: tuple[tuple[str, ...], ...] = ()  # canonical words of each required part
    required_source: str = "whole"  # how the required part is known (see AnswerLine.required_source)
    word_forms: bool = False  # the line accepts any form of the words ("or word forms")
    names: bool = False  # a proper name (capitalised), whose spelling may vary by transliteration

    def describe(self) -> str:
        """Where this text came from, as a phrase for a reason sentence."""
        if self.origin == "main":
            return f'the answer "{self.text}"'
        if self.origin == "reference":
            return f'the reference answer "{self.text}"'
        return f'the clause "{self.clause.raw}"' if self.clause and self.clause.raw else f'"{self.text}"'


def latin(text: str) -> tuple[str, ...]:
    """The canonical words of a text in another script, transliterated: "Άργος" -> ("argos",)."""
    return tokens(anyascii(text))


def in_latin_letters(found: list[Candidate]) -> list[Candidate]:
    """Each text written in another script once more in Latin letters, so "Argos" meets "Άργος"."""
    return [replace(c, words=latin(c.text), required=(), required_source="whole")
            for c in found if not all(w.isascii() for w in c.words) and latin(c.text)]


def _words_of(parts) -> tuple[tuple[str, ...], ...]:
    return tuple(tokens(part) for part in parts if tokens(part))


_SMALL_WORDS = frozenset("of and the a an in on for to by at from with or as de la le du von van der des di da y et".split())


def is_proper_name(text: str) -> bool:
    """Every word capitalised but the small ones: "Ludmilla Savelyeva", not "spin angular momentum"."""
    words = [w for w in text.replace("-", " ").split() if w.lower() not in _SMALL_WORDS and not w[:1].isdigit()]
    return bool(words) and all(w[:1].isupper() for w in words) and not all(w.isupper() for w in words if len(w) > 1)


def _candidate(text: str, kind: str, origin: str, clause: Clause | None = None, marked: tuple[str, ...] = ()) -> Candidate:
    parts, source = (marked, "markup") if marked else implied_required(text)
    return Candidate(text, tokens(text), kind, origin, clause, _words_of(parts), source, names=is_proper_name(text))


@memo
def _parsed_candidates(line: AnswerLine) -> tuple[Candidate, ...]:
    return tuple(_from_line(line))


def _from_line(line: AnswerLine) -> list[Candidate]:
    found: list[Candidate] = []
    for text, required, source in line.alternatives:
        if tokens(text):
            parts, source = (required, source) if source in ("braces", "markup", "caps") else implied_required(text)
            found.append(Candidate(text, tokens(text), ACCEPT, "main", None, _words_of(parts), source, names=is_proper_name(text)))
    for clause in line.clauses:
        marks = clause.required or ((),) * len(clause.texts)
        found += [_candidate(text, clause.kind, "clause", clause, marked)
                  for text, marked in zip(clause.texts, marks) if tokens(text)]
    main = {(c.words, articles(c.text)) for c in found if c.origin == "main"}
    # A rejection of the main answer itself is a remark ("the clues reference the term X"), not a rule;
    # one that spells an article the answer lacks is a rule ("do not accept The Invisible Man").
    found = [c for c in found if not (c.kind == REJECT and (c.words, articles(c.text)) in main)]
    found += in_latin_letters(found)
    if line.word_forms:  # each accepted text once more, in any form of its words
        found += [replace(c, required=(), required_source="whole", word_forms=True)
                  for c in found if c.kind == ACCEPT]
    return found


@memo
def _line_candidates(raw: str) -> tuple[Candidate, ...]:
    return tuple(_from_line(parse_answer_line(raw)))


@memo
def _reference_candidates(references: tuple[str, ...]) -> tuple[Candidate, ...]:
    found = [_candidate(ref, ACCEPT, "reference") for ref in references if tokens(ref)]
    return tuple(found + in_latin_letters(found))


def candidates(line: AnswerLine | str | None, references: tuple[str, ...] = ()) -> list[Candidate]:
    """The candidates of an answer line (text or parsed) and of a reference list, line first."""
    if isinstance(line, AnswerLine):
        found = list(_parsed_candidates(line))
    else:
        found = list(_line_candidates(line)) if line else []
    return found + list(_reference_candidates(references))
