"""Rulings on numbers, dates and quantities: the same number in other words, hedged, rounded or with its unit.

A response of numbers must be the answer's number ("14" is not "14 December 1972"); a year alone for
a full date is a prompt; a more precise date that agrees is an accept unless a reference gives
another date.
"""
from __future__ import annotations

from game.judging.answerline import ACCEPT, PROMPT, REJECT
from game.judging.candidates import Candidate
from game.judging.judgement import Judgement
from game.judging.match import FUNCTION_WORDS
from game.judging.normalize import tokens
from game.judging.numbers import date_parts, is_number
from game.judging.vocabulary import HEDGES, is_generic

def number_ruling(response, said, candidate, comparison):
    """A response of numbers only must be the answer's number: "14" is not "14 December 1972"."""
    if not said or not all(is_number(word) for word in said):
        return None
    numbers = [word for word in candidate.words if is_number(word)]
    others = [word for word in candidate.words if not is_number(word) and word not in FUNCTION_WORDS]
    date = date_parts(candidate.words)
    if date and date[1] and date[0] and set(said) == {date[0]}:
        reason = f'Prompt: "{response}" gives only the year of the date {candidate.describe()}; ask for the full date.'
        return "partial prompt", Judgement(PROMPT, 0.7, reason, candidate.text, "Can you give the full date?")
    paired = {pair[0]: pair[1] for pair in comparison.pairs}
    same = set(said) == set(numbers) or set(said) <= set(paired) and {paired[w] for w in said} == set(numbers)  # "1350" in "1300s"
    if same and others and set(others) <= HEDGES:
        reason = f'Accept: "{response}" is the number of {candidate.describe()} without "{" ".join(others)}".'
        return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
    if same:
        if others and not date and not candidate.names and candidate.words.index(numbers[0]) < candidate.words.index(others[0]):
            reason = f'Accept: "{response}" is the number of {candidate.describe()}, without its unit "{" ".join(others)}".'
            return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
        return None  # the number of a name ("1812" for "1812 Overture"): the other rules decide
    reason = f'Reject: "{response}" is a different number from {candidate.describe()}, though it appears in it.'
    return "firm reject", Judgement(REJECT, 0.85, reason, candidate.text)


def more_than_number(response, said, candidate, comparison):
    """The answer has a number: the response may hedge it or add its unit, or give a date more precisely."""
    extras = comparison.extra
    extra = " ".join(extras)
    numbers_added = [word for word in extras if is_number(word)]
    date = date_parts(candidate.words)
    said_date = date_parts(said)
    if date and said_date and said_date[0] == date[0] and (not date[1] or said_date[1] == date[1]) and said_date[1]:
        reason = f'Accept: "{response}" gives the date {candidate.describe()} more precisely ("{extra}").'
        return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
    if numbers_added:
        reason = f'Reject: "{response}" adds the number(s) "{" ".join(numbers_added)}" to {candidate.describe()}: a different number.'
        return "firm reject", Judgement(REJECT, 0.8, reason, candidate.text)
    if all(is_number(word) or word in FUNCTION_WORDS for word in candidate.words):
        hedges = [word for word in extras if word in HEDGES]
        units = [word for word in extras if word not in HEDGES]
        # The unit follows the number as the response gives it (the number may be rounded: "8.3 million").
        given = [said.index(word) for pair in comparison.pairs for word in pair[0].split() if word in said]
        if len(units) <= 2 and (not units or said.index(units[0]) > max(given, default=-1)):
            what = " and ".join(part for part in (f'the hedge "{" ".join(hedges)}"' if hedges else "",
                                                  f'the unit "{" ".join(units)}"' if units else "") if part)
            reason = f'Accept: "{response}" is the number of {candidate.describe()} with {what}.'
            return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
    if all(is_generic(word) or word in HEDGES for word in extras):
        reason = f'Accept: "{response}" matches {candidate.describe()} and adds only the general word(s) "{extra}".'
        return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
    reason = f'Reject: "{response}" contains {candidate.describe()} but adds "{extra}", which the line does not have; overrule if the extra words are right.'
    return "weak reject", Judgement(REJECT, 0.6, reason, candidate.text)


def conflicting_date(response: str, judgement: Judgement, pool: list[Candidate]) -> Judgement | None:
    """A more precise date is accepted only if no reference gives the same year a different day or month."""
    said = date_parts(tokens(response))
    if judgement.verdict != ACCEPT or not said or not said[1]:
        return None
    full = [(c, date_parts(c.words)) for c in pool if c.kind == ACCEPT]
    full = [(c, d) for c, d in full if d and d[1] and d[0] == said[0]]
    agrees = [c for c, d in full if d[1] == said[1] and (not d[2] or not said[2] or d[2] == said[2])]
    if not full or agrees:
        return None
    other = full[0][0]
    reason = f'Reject: "{response}" is a different date from {other.describe()}.'
    return Judgement(REJECT, 0.85, reason, other.text)
