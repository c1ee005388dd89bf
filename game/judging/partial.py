"""Rulings on a response that gives part of an answer, or the answer and more.

This is where trivia sense lives: a surname alone, a name without its middle names, a place
without "Republic of", a head phrase without its leading modifier, the answer plus "Battle of".
Each rule says why in its reason, so the moderator can overrule it at a glance.
"""
from __future__ import annotations

import re

from game.judging import lexicon
from game.judging.answerline import ACCEPT, MORE_SPECIFIC, PROMPT, REJECT, AnswerLine, parse_answer_line
from game.judging.candidates import Candidate, candidates
from game.judging.judgement import Judgement
from game.judging.match import FUNCTION_WORDS, INITIALS, Comparison, stem
from game.judging.names import (PARTICLES, SUFFIXES, TITLES, given_names, is_given_name, looks_like_person, nickname, others_with_surname,
                    second_surname, speaks_of_person, surname)
from game.judging.normalize import tokens
from game.judging.numbers import date_parts, is_number
from game.judging.quantities import more_than_number, number_ruling
from game.judging.vocabulary import (ADDED_KINDS, ADDED_TITLES, CHANGING_WORDS, GENERIC, INSTITUTIONS, KEY_WORDS, PLACE_KINDS, RELATIONS,
                         WORK_TITLES, is_generic)

MARKED = ("braces", "markup", "caps")  # required parts the line itself marks
def matched_words(comparison: Comparison) -> set[str]:
    return {word for _, wanted, _ in comparison.pairs for word in wanted.split()}


def _covers(part: tuple[str, ...], matched: set[str]) -> bool:
    return all(word in matched or word in FUNCTION_WORDS for word in part)


def _known_by_one_name(said: tuple[str, ...], candidate: Candidate) -> bool:
    """ "Rembrandt", "Leonardo": WordNet lists the given name alone for the person the full name names."""
    if len(said) != 1 or lexicon.index() is None:
        return False
    family = surname(candidate.text)
    full = lexicon.senses("_".join(candidate.words))
    short = lexicon.senses("_".join((said[0],) + family)) if family else ()
    alone = lexicon.senses(said[0])
    return bool(alone and set(alone[:2]) & set(full + short))


def _name_ruling(response, said, candidate, comparison, line, references, question_text):
    """Part of a person's name: first and last names are enough; a surname alone unless it is ambiguous."""
    family = surname(candidate.text)
    matched = matched_words(comparison)
    if not family or not looks_like_person(candidate.text, question_text):
        return None
    if not set(family) - PARTICLES <= matched:
        if said and said[0] == candidate.words[0] and _known_by_one_name(said, candidate):
            reason = f'Accept: "{response}" is the name WordNet gives alone for the person {candidate.describe()} names.'
            return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
        return None
    given = set(given_names(candidate.text))
    if not set(comparison.missing) <= given | PARTICLES | TITLES | SUFFIXES | set(second_surname(candidate.text)):
        return None
    if matched & given and any(_qualifier(word, candidate.words, matched) for word in comparison.missing):
        return None  # "Goodman Brown" for "Young Goodman Brown": a word that changes the answer is left out
    if matched & given:
        reason = f'Accept: "{response}" gives the given and family names of {candidate.describe()}; the rest of the name is not needed.'
        return "partial accept", Judgement(ACCEPT, 0.9 * comparison.score, reason, candidate.text)
    elsewhere = [question_text or ""] + [c.text for c in candidates(line, references) if _may_name_someone_else(c)]
    others = others_with_surname(candidate.text, elsewhere)
    name = " ".join(family).title()
    if others:
        reason = (f'Prompt: "{response}" is the surname of {candidate.describe()}, but {others[0]} is also named '
                  f"here; ask for the full name.")
        return "partial prompt", Judgement(PROMPT, 0.8 * comparison.score, reason, candidate.text, f"Which {name}?")
    accepted = [c for c in candidates(line, references) if not _may_name_someone_else(c)]
    ambiguous = _ambiguous_surname(response, "is the surname of", candidate, comparison, family, accepted, 0.8)
    if ambiguous:
        return ambiguous
    reason = f'Accept: "{response}" is the surname of {candidate.describe()}, and no other {name} is named in the question or the answer line'
    reason += ", nor known to WordNet by that name alone." if lexicon.index() is not None else "."
    return "partial accept", Judgement(ACCEPT, 0.85 * comparison.score, reason, candidate.text)


def _qualifier(word: str, words: tuple[str, ...], matched: set[str]) -> bool:
    """A word left out before the name that is no given name but a common word that makes another thing of it:
    "Young" in "Young Goodman Brown", the story, not the man (rule: qualifier word). Given names that are words
    too ("Rose", "Will") are in the names table."""
    first = min(words.index(w) for w in matched if w in words)
    return (len(word) > 2 and words.index(word) < first and not is_given_name(word)
            and (lexicon.is_common(word) or word in CHANGING_WORDS))


def answer_people(candidate: Candidate) -> frozenset:
    """The people WordNet knows the answer's name for: the whole name, or the first given name and the surname
    ("Pyotr Ilyich Tchaikovsky" is unknown to it, "John Adams" one person)."""
    family, given = surname(candidate.text), given_names(candidate.text)
    keys = {"_".join(candidate.words)} | ({"_".join(given[:1] + family)} if given else set())
    return frozenset(sense for key in keys for sense in lexicon.people(key))


def _ambiguous_surname(response, what, candidate, comparison, family, accepted, factor):
    """A prompt for the full name when WordNet knows others by the surname (rule: ambiguous surname); None if not."""
    known = _notable_others(candidate, family, accepted)
    if not known:
        return None
    reason = (f'Prompt: "{response}" {what} {candidate.describe()}, but WordNet knows {known} by that name alone; '
              f"ask for the full name (rule: ambiguous surname).")
    question = f"Which {' '.join(family).title()}?"
    return "partial prompt", Judgement(PROMPT, factor * comparison.score, reason, candidate.text, question)


def _notable_others(candidate: Candidate, family: tuple[str, ...], accepted: list[Candidate]) -> str:
    """The people WordNet calls by the surname alone, when it names someone besides the answer's person
    (rule: ambiguous surname): "Roosevelt" is Franklin, Eleanor and Theodore; "Tchaikovsky" one person; "Kennedy"
    alone is John F. Kennedy, so it is ambiguous only for another Kennedy. People the line or the references accept
    as well ("Marie Curie" and "Pierre Curie") are no confusion. Empty when nobody else is known by it."""
    called = lexicon.people_called(family[-1])
    if not called:
        return ""
    mine = answer_people(candidate)
    also = frozenset(sense for other in accepted for sense in answer_people(other))
    others = [name for sense, name in called if sense not in mine | also]
    if not others or len(others) == 1 and len(called) == 1 and not mine:
        return ""  # the one person WordNet knows by the name may be the answer's, under a name it does not list
    names = [name for _, name in called]
    return names[0] if len(names) == 1 else f"{len(names)} people ({', '.join(names)})"


def _may_name_someone_else(candidate: Candidate) -> bool:
    """Unconditional alternatives name the same answer ("Il Bronzino" or "Agnolo Bronzino"); the rest may not."""
    return candidate.kind != ACCEPT or bool(candidate.clause and candidate.clause.qualifier)


def _without_affiliation(candidate: Candidate, matched: set[str]) -> bool:
    """ "Louis XIII" for "Louis XIII of France": a proper name without the "of ..." that places it."""
    text = candidate.text
    head, of, tail = text.partition(" of ")
    if not of or not head[:1].isupper() or not tail.lstrip("the ")[:1].isupper() or head.isupper():
        return False  # "PM of Australia": an office in capitals is no name
    head_words = set(tokens(head)) - FUNCTION_WORDS
    return head_words == matched and not head_words & (GENERIC | TITLES)


def _names_the_head(candidate: Candidate, matched: set[str]) -> bool:
    """ "uncertainty principle" for "Heisenberg uncertainty principle": two or more final words, fewer left out.

    One final word is left to the other rules. The final words must be common words: in a title,
    a name at the end ("Who's Afraid of Virginia Woolf?") is not the title.
    """
    content = [word for word in candidate.words if word not in FUNCTION_WORDS]
    given = len(matched)
    if not (2 <= given and given >= len(content) - given and set(content[-given:]) == matched):
        return False
    written = candidate.text.rstrip(" ?!.\"”").split()[-given:]
    return all(word[:1].islower() for word in written)


def _without_formal_title(candidate: Candidate, matched: set[str]) -> bool:
    """ "Iran" for "Islamic Republic of Iran", "Hamlet" for "The Tragedy of Hamlet, Prince of Denmark":
    the response is the name after a formal "... of" (up to a comma that only adds a description)."""
    words = tokens(candidate.text.partition(",")[0]) if "," in candidate.text else candidate.words
    if "of" not in words:
        return False
    cut = words.index("of")
    head, tail = words[:cut], [w for w in words[cut + 1:] if w not in FUNCTION_WORDS]
    return bool(tail) and set(tail) == matched and any(is_generic(word) or word in WORK_TITLES for word in head)


def _required_ruling(response, candidate, comparison, parsed, matched):
    """Rule by the required part when the line marks one (or a place or subtitle is left out)."""
    if not candidate.required or candidate.required_source == "whole":
        return None
    either = bool(parsed and parsed.accept_either and candidate.origin == "main")
    parts = candidate.required
    if either and len(parts) == 1 and len(parts[0]) > 1:  # "<u>Paul Bäumer</u> [accept either name]"
        parts = tuple((word,) for word in parts[0] if word not in FUNCTION_WORDS)
    covered = [part for part in parts if _covers(part, matched)]
    if covered and (either or len(covered) == len(parts)):
        reason = f'Accept: "{response}" gives the required part "{" ".join(covered[0])}" of {candidate.describe()}.'
        return "partial accept", Judgement(ACCEPT, 0.9 * comparison.score, reason, candidate.text)
    if candidate.required_source not in MARKED:
        return None
    required = " / ".join(" ".join(part) for part in candidate.required)
    if parsed and parsed.prompt_on_partial:
        reason = f'Prompt: "{response}" leaves out the required part "{required}", and the line prompts on partial answers.'
        return "partial prompt", Judgement(PROMPT, 0.8 * comparison.score, reason, candidate.text, MORE_SPECIFIC)
    reason = f'Reject: "{response}" leaves out the required part "{required}" of {candidate.describe()}.'
    return "weak reject", Judgement(REJECT, 0.8, reason, candidate.text)


def _only_described(candidate: Candidate, comparison: Comparison) -> bool:
    """ "momentum" for "linear momentum", "quantum tunneling" for "quantum mechanical tunneling".

    Only for plain (lower-case, unmarked) answers whose left-out words WordNet's tagged texts use
    mostly as adjectives ("linear", "human", "mechanical"), with a noun that is not a general word
    left, and not a term WordNet lists whole ("cell division"): a noun before a noun ("light
    pollution") makes a kind of its own, so its last word alone is more general. Without WordNet, never.
    """
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    kept = [w for w in content if w not in comparison.missing]
    if (candidate.names or candidate.required_source != "whole" or not 2 <= len(content) <= 4 or not kept
            or all(is_generic(w) for w in kept) or not candidate.text.islower() or lexicon.index() is None):
        return False
    if not all(lexicon.describes(word) or is_generic(word) for word in comparison.missing):
        return False
    return not lexicon.senses("_".join(content)) and not lexicon.senses("_".join(content[-2:]))


def _person_inside(candidate: Candidate, matched: set[str]) -> str | None:
    """The person's name in a longer text that the response gives exactly ("Virginia Woolf" in the play's title)."""
    if looks_like_person(candidate.text):
        return None
    for match in _NAME_INSIDE.finditer(candidate.text):
        name = match.group(0)
        if set(tokens(name)) == matched and looks_like_person(name):
            return name
    return None


def _described(candidate: Candidate, person: str) -> bool:
    """ "the actress Glynis Johns": only lower-case words describe the person named at the end."""
    before = candidate.text[: candidate.text.rindex(person)]
    return candidate.text.rstrip(" .").endswith(person) and all(w[:1].islower() for w in before.split())


def _only_dated(candidate: Candidate, comparison: Comparison) -> bool:
    """ "Boston Police Strike" for "Boston Police Strike of 1919": the year after "of" or "in" only dates it."""
    words = candidate.words
    missing = comparison.missing
    return (len(missing) == 1 and missing[0].isdigit() and len(missing[0]) == 4 and words[-1] == missing[0]
            and len(words) >= 3 and words[-2] in ("of", "in"))


def _key_left_out(candidate: Candidate, comparison: Comparison) -> bool:
    """ "Cello Concerto (Elgar)": a work given with its composer's surname, without its key ("in E minor")."""
    return bool({"major", "minor"} & set(comparison.missing)) and _given_names_inside(candidate, comparison, keys=True)


_CODE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9]{2,6}$")


def _code_name(candidate: Candidate, comparison: Comparison) -> bool:
    """ "p53" for "tumor protein p53", "B12" for "vitamin B12": the letters-and-digits code that ends the answer, alone."""
    words = candidate.words
    return (len(words) >= 2 and bool(_CODE.match(words[-1])) and not is_number(words[-1]) and comparison.missing == tuple(words[:-1])
            and len(comparison.pairs) == 1 and comparison.pairs[0][1] == words[-1])


_THIS = re.compile(r"\b(?:this|these)\s+([a-z]+)", re.I)


def _kind_asked(candidate: Candidate, comparison: Comparison, question_text: str | None) -> str | None:
    """ "drag" for "drag force" when the question says "name this force": the left-out last word is the kind of
    thing the question asks for, and the rest is no adjective in WordNet ("Red" is no "Red Army")."""
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    if (not question_text or len(content) < 2 or comparison.missing != (content[-1],) or lexicon.index() is None
            or INITIALS in comparison.hows):
        return None
    kept = content[:-1]
    if len(kept) == 1 and lexicon.describes(kept[0]) or all(is_generic(w) for w in kept):
        return None
    wanted = stem(content[-1])
    return next((match.group(0) for match in _THIS.finditer(question_text) if stem(match.group(1).lower()) == wanted), None)


def _modifier_in_question(candidate: Candidate, comparison: Comparison, question_text: str | None) -> str | None:
    """ "determinant" for "matrix determinants" when the question speaks of a matrix: a plain lower-case first word
    left out that the question itself uses, so the context already gives it. Not a name or a place's adjective
    ("Revolution" is not "French Revolution"), nor a word that changes the thing ("North"), nor a general head."""
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    if (not question_text or len(content) < 2 or comparison.missing != (content[0],) or "of" in candidate.words
            or INITIALS in comparison.hows or not candidate.text.islower()):
        return None
    modifier, kept = content[0], content[1:]
    if modifier in CHANGING_WORDS or is_number(modifier) or lexicon.place_of(modifier) or all(is_generic(w) for w in kept):
        return None
    wanted = stem(modifier)
    return next((word.strip(".,;:!?\"'()“”") for word in question_text.split() if tokens(word) and stem(tokens(word)[0]) == wanted), None)


def _adjective_with_noun(said, candidate: Candidate, comparison: Comparison, question_text: str | None) -> bool:
    """ "normal distribution" for "normal" when the question asks for the adjective that names that distribution:
    a one-word answer WordNet uses mostly as an adjective, followed by nouns the question itself uses. Where the
    line accepts word forms, the adjective may be the response's form of the answer ("convex polygon" for
    "convexity [accept any word forms]")."""
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    adjective = len(content) == 1 and (lexicon.describes(content[0]) or candidate.word_forms and any(
        lexicon.describes(word) for word, _, _ in comparison.pairs))
    if not question_text or not adjective or len(comparison.extra) > 2:
        return False
    position = {word: index for index, word in enumerate(said)}
    first = min((position.get(said_word, 0) for said_word, _, _ in comparison.pairs), default=0)
    return all(_asks_for(word, question_text) and position[word] > first for word in comparison.extra)


def _short_given_name(short: str, full: str) -> bool:
    """ "Dan" for "Daniel", "Alex" for "Alexander": the given name's start, three letters or more, and at least two
    letters shorter ("Paul" is not "Paula")."""
    return len(short) >= 3 and len(full) >= len(short) + 2 and full.startswith(short)


def _place_run(words: tuple[str, ...], text: str) -> str | None:
    """The words, if together they are the name of a place in WordNet written as a name in the text
    ("United States", "Florida"), and not a word that changes a place ("North", "New")."""
    if not words or set(words) & CHANGING_WORDS or all(is_generic(w) for w in words) or not lexicon.is_place("_".join(words)):
        return None
    written = {word for word in tokens(" ".join(w for w in text.split() if w[:1].isupper()))}
    return " ".join(words) if set(words) <= written else None


def _without_place(candidate: Candidate, comparison: Comparison) -> bool:
    """ "Everglades" for "Florida Everglades": a name without the place it lies in, as WordNet says it does
    (so "Festinger" is not "Leon Festinger" without a city of León)."""
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    missing = tuple(comparison.missing)
    kept = [w for w in content if w not in missing]
    return (lexicon.index() is not None and bool(kept) and _place_run(missing, candidate.text) is not None
            and lexicon.lies_in("_".join(kept), "_".join(missing)))


_NAME_INSIDE = re.compile(r"[A-ZÀ-Þ][\w.-]*(?:\s+(?:(?:van|von|de|da|di|del|der|du|la|le)\s+)*[A-ZÀ-Þ][\w.-]*)+")
def _given_names_inside(candidate: Candidate, comparison: Comparison, keys: bool = False) -> bool:
    """ "Symphony No. 7 (Beethoven)" for "Ludwig van Beethoven's Symphony No. 7": only a named person's given names left out
    (with `keys`, the key of the work too: "Cello Concerto (Elgar)" for "Edward Elgar's Cello Concerto in E Minor")."""
    missing = set(comparison.missing)
    for match in _NAME_INSIDE.finditer(candidate.text):
        name = match.group(0)
        if name.strip() == candidate.text.strip() or not looks_like_person(name):
            continue  # a whole name is for the name rules; "Spanish Civil War" is no person
        family = set(surname(name))
        numbered = any(is_number(word) for word in candidate.words)
        allowed = set(given_names(name)) | PARTICLES | (KEY_WORDS if numbered or keys else set())
        if family - PARTICLES and family - PARTICLES <= matched_words(comparison) and missing <= allowed:
            return True
    return False


# Readings of part of an answer: (test, confidence factor, reason).
# Readings that leave out nothing that identifies the answer: a line that prompts on partial answers
# does not prompt on these.
_COMPLETE_READINGS = (
    (lambda c, comparison, matched: all(is_generic(w) for w in comparison.missing), 0.8,
     'Accept: "{response}" matches {answer} but for the general word(s) "{missing}".'),
    (lambda c, comparison, matched: _without_affiliation(c, matched), 0.75,
     'Accept: "{response}" is {answer} without the place or house it belongs to.'),
    (lambda c, comparison, matched: _without_formal_title(c, matched), 0.8,
     'Accept: "{response}" is {answer} without its formal title.'),
    (lambda c, comparison, matched: _given_names_inside(c, comparison), 0.75,
     'Accept: "{response}" is {answer} without "{missing}", which only completes the name of the person it names '
     '(or gives the key of the numbered work).'),
    (lambda c, comparison, matched: _only_dated(c, comparison), 0.8,
     'Accept: "{response}" is {answer} without the year "{missing}" that only dates it.'),
    (lambda c, comparison, matched: _key_left_out(c, comparison), 0.75,
     'Accept: "{response}" is {answer} without "{missing}": the composer named, the key is not needed (rule: key left out).'),
    (lambda c, comparison, matched: _code_name(c, comparison), 0.75,
     'Accept: "{response}" is the code that names {answer}, without "{missing}" (rule: code name).'),
    (lambda c, comparison, matched: _without_place(c, comparison), 0.75,
     'Accept: "{response}" is {answer} without "{missing}", the place WordNet says it lies in (rule: place it lies in left out).'),
)
# Readings of a partial answer that a moderator would accept when the line does not say to prompt.
_PARTIAL_ACCEPTS = (
    (lambda c, comparison, matched: _names_the_head(c, matched), 0.7,
     'Accept: "{response}" gives the last words of {answer} and leaves out only "{missing}" before them.'),
    (lambda c, comparison, matched: _only_described(c, comparison), 0.65,
     'Accept: "{response}" is the thing {answer} names, without "{missing}", which only describes it '
     '(an adjective, and WordNet lists no term for the whole).'),
)


def covers_marked_part(candidate: Candidate, comparison: Comparison) -> bool:
    """Whether the response gives every part the line underlines in this text."""
    if candidate.required_source not in ("braces", "markup") or not candidate.required:
        return False
    matched = matched_words(comparison)
    return all(_covers(part, matched) for part in candidate.required)


def _rest_is_prompted(candidate: Candidate, comparison: Comparison, parsed: AnswerLine | None) -> str | None:
    """ "spin" for "spin angular momentum [prompt on "angular momentum"]": the line prompts on the rest of
    the answer (two or more words), so the word it leaves is the one that counts. Returns that prompt text."""
    if not parsed or candidate.origin != "main" or candidate.required_source != "whole" or len(comparison.missing) < 2:
        return None
    for text in parsed.texts(PROMPT):
        rest = tokens(text)
        if rest == tuple(comparison.missing) and candidate.words[-len(rest):] == rest:
            return text
    return None


def part_of_answer(response, said, candidate, comparison, line, references, question_text):
    """The response gives some of the answer's words and nothing else."""
    parsed = line if isinstance(line, AnswerLine) else parse_answer_line(line) if line else None
    ruled = _part_of_answer(response, said, candidate, comparison, parsed, line, references, question_text)
    if parsed and parsed.no_partial and ruled and ruled[1].verdict == PROMPT:
        reason = f'Reject: "{response}" gives only part of {candidate.describe()}, and the line says not to prompt on partial answers.'
        return "weak reject", Judgement(REJECT, 0.8, reason, candidate.text)
    return ruled


def _part_of_answer(response, said, candidate, comparison, parsed, line, references, question_text):
    matched = matched_words(comparison)
    missing = " ".join(comparison.missing)
    prompted = _rest_is_prompted(candidate, comparison, parsed)
    if prompted:
        reason = f'Accept: "{response}" is the word of {candidate.describe()} that counts: the line prompts on the rest, "{prompted}".'
        return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
    ruled = number_ruling(response, said, candidate, comparison) or _required_ruling(
        response, candidate, comparison, parsed, matched) or _name_ruling(
        response, said, candidate, comparison, line, references, question_text
    )
    if ruled:
        return ruled
    ruled = _reading(_COMPLETE_READINGS, response, candidate, comparison, matched)
    if ruled:
        return ruled
    if parsed and parsed.prompt_on_partial:
        reason = f'Prompt: the line prompts on partial answers, and "{response}" gives part of {candidate.describe()} (not "{missing}").'
        return "partial prompt", Judgement(PROMPT, 0.8 * comparison.score, reason, candidate.text, MORE_SPECIFIC)
    if parsed and parsed.accept_either and candidate.origin == "main" and _is_end_of(candidate.words, matched):
        reason = f'Accept: the line accepts either portion, and "{response}" is one end of {candidate.describe()}; check it is an underlined portion.'
        return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
    ruled = _reading(_PARTIAL_ACCEPTS, response, candidate, comparison, matched)
    if ruled:
        return ruled
    given = _modifier_in_question(candidate, comparison, question_text)
    if given:
        reason = (f'Accept: "{response}" is {candidate.describe()} without "{missing}", which the question itself '
                  f'says ("{given}") (rule: modifier the question gives).')
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    asked = _kind_asked(candidate, comparison, question_text)
    if asked:
        reason = (f'Accept: "{response}" is {candidate.describe()} without "{missing}", the kind of thing the question '
                  f'asks for ("{asked}") (rule: kind asked for).')
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    if all(is_generic(word) or word in FUNCTION_WORDS for word in matched):
        reason = f'Reject: "{response}" shares only general words with {candidate.describe()}.'
        return "weak reject", Judgement(REJECT, 0.75, reason, candidate.text)
    person = _person_inside(candidate, matched)
    if person and _described(candidate, person):
        reason = f'Accept: "{response}" is the person {candidate.describe()} names, without the description "{missing}".'
        return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
    if person:
        reason = f'Reject: "{response}" is the person "{person}" named inside {candidate.describe()}, not the answer.'
        return "weak reject", Judgement(REJECT, 0.7, reason, candidate.text)
    reason = f'Prompt: "{response}" gives only part of {candidate.describe()} (it leaves out "{missing}").'
    return "partial prompt", Judgement(PROMPT, 0.55 * comparison.score, reason, candidate.text, MORE_SPECIFIC)


def _reading(readings, response, candidate, comparison, matched):
    for test, factor, template in readings:
        if test(candidate, comparison, matched):
            reason = template.format(response=response, answer=candidate.describe(), missing=" ".join(comparison.missing))
            return "partial accept", Judgement(ACCEPT, factor * comparison.score, reason, candidate.text)
    return None


def _is_end_of(words: tuple[str, ...], matched: set[str]) -> bool:
    content = [w for w in words if w not in FUNCTION_WORDS]
    hits = [w in matched for w in content]
    count = sum(hits)
    return 0 < count < len(content) and (all(hits[:count]) or all(hits[-count:]))


def _belongs_to(said: tuple[str, ...], comparison: Comparison) -> bool:
    """ "George III of the United Kingdom": the answer, then "of" and only the added words."""
    if "of" not in said:
        return False
    cut = said.index("of")
    return set(comparison.extra) == set(said[cut + 1:]) - FUNCTION_WORDS and bool(comparison.extra)


def _asks_for(word: str, question_text: str | None) -> bool:
    """Whether the question asks for this kind of thing ("this battle"); with no question, assume so."""
    if question_text is None:
        return True
    return stem(word) in {stem(w) for w in tokens(question_text)}


def _describing_word_added(said, candidate: Candidate, comparison: Comparison) -> bool:
    """ "economic bubble" for "bubbles": an adjective added to a plain answer, where the whole is no term of its own."""
    if candidate.names or not candidate.text.islower() or lexicon.index() is None or len(comparison.extra) != 1:
        return False
    return lexicon.describes(comparison.extra[0]) and not lexicon.senses("_".join(said))


def _middle_names(said: tuple[str, ...], candidate: Candidate, comparison: Comparison, question_text) -> bool:
    """ "Alexander Stirling Calder" for "Alexander Calder": names added between the given name and the surname."""
    family = surname(candidate.text)
    if len(candidate.words) < 2 or not family or not looks_like_person(candidate.text, question_text):
        return False
    inner = said[1: len(said) - len(family)]
    return said[0] == candidate.words[0] and said[-len(family):] == family and set(comparison.extra) <= set(inner)


def more_than_answer(response, said, candidate, comparison, question_text):
    """The response gives all of the answer and more words besides."""
    extra = " ".join(comparison.extra)
    extras = comparison.extra
    numbered = any(is_number(word) for word in candidate.words) or date_parts(candidate.words)
    if numbered and any(is_number(word) for word in extras) or all(is_number(w) or w in FUNCTION_WORDS for w in candidate.words):
        return more_than_number(response, said, candidate, comparison)
    if _beside_required(candidate, comparison, question_text):
        return _required_with_more(response, candidate, comparison)
    # A kind of thing is added freely unless the question is about a person ("Lake Victoria" for the queen).
    kind_added = len(extras) == 1 and (
        (extras[0] in ADDED_KINDS and (extras[0] not in PLACE_KINDS or not question_text
                                       or not speaks_of_person(question_text) or _asks_for(extras[0], question_text)))
        or (extras[0] in GENERIC and extras[0] not in INSTITUTIONS and question_text and _asks_for(extras[0], question_text)))
    if all(word in ADDED_TITLES for word in extras) or kind_added:
        reason = f'Accept: "{response}" matches {candidate.describe()} and adds only "{extra}", which names the same thing.'
        return "partial accept", Judgement(ACCEPT, 0.85 * comparison.score, reason, candidate.text)
    if _describing_word_added(said, candidate, comparison):
        reason = (f'Accept: "{response}" is {candidate.describe()} with "{extra}", which only describes it '
                  f'(an adjective, and WordNet lists no term for the whole).')
        return "partial accept", Judgement(ACCEPT, 0.65 * comparison.score, reason, candidate.text)
    if _middle_names(said, candidate, comparison, question_text):
        family = " ".join(surname(candidate.text)).title()
        if lexicon.index() is not None and lexicon.any_shared_sense("_".join(said), "_".join(candidate.words)):
            reason = f'Accept: "{response}" is {candidate.describe()} with the middle name(s) "{extra}"; WordNet gives both names to one person.'
            return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
        theirs, mine = lexicon.people("_".join(said)), answer_people(candidate)
        if theirs and mine and not theirs & mine:
            reason = (f'Reject: "{response}" is another person of the surname {family} in WordNet, not {candidate.describe()} '
                      f"(rule: another person of that surname).")
            return "firm reject", Judgement(REJECT, 0.85, reason, candidate.text)
        reason = (f'Prompt: "{response}" adds the middle name(s) "{extra}" to {candidate.describe()}; '
                  f"it may be another {family} (John Quincy Adams is not John Adams), so ask.")
        return "partial prompt", Judgement(PROMPT, 0.6 * comparison.score, reason, candidate.text, f"Which {family}?")
    if _belongs_to(said, comparison):
        reason = f'Accept: "{response}" is {candidate.describe()} with what it belongs to ("of {extra}").'
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    place = _place_added(response, said, candidate, comparison, question_text)
    if place:
        reason = (f'Accept: "{response}" is {candidate.describe()} with the place "{place}" it belongs to; '
                  f'check it is the right place (rule: place added).')
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    if _kind_named_before(response, said, candidate, comparison) and not (question_text and speaks_of_person(question_text)):
        reason = f'Accept: "{response}" is {candidate.describe()} with "{extra}" before it, which only says what kind of thing it is.'
        return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
    if _described_person(response, said, candidate, comparison, question_text):
        reason = f'Accept: "{response}" is {candidate.describe()} with a description ("{extra}") before the name.'
        return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
    single_name = len(candidate.words) == 1 and candidate.text[:1].isupper() and not is_generic(candidate.words[0])
    if single_name and said[0] == candidate.words[0] and len(said) <= 3 and question_text \
            and looks_like_person(response, question_text):
        reason = f'Accept: "{response}" adds the surname "{extra}" to {candidate.describe()}; check it is the right person.'
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    if single_name and all(word.isdigit() for word in comparison.extra):
        reason = f'Accept: "{response}" is {candidate.describe()} with a number ("{extra}"); check it is the right one.'
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    names_first = said[-1] == candidate.words[0] and not set(comparison.extra) & (CHANGING_WORDS | GENERIC | ADDED_KINDS)
    if single_name and names_first and speaks_of_person(question_text):
        reason = f'Accept: "{response}" adds the given name(s) "{extra}" to {candidate.describe()}; check they belong to the right person.'
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    if _adjective_with_noun(said, candidate, comparison, question_text):
        reason = (f'Accept: "{response}" is {candidate.describe()}, an adjective, with "{extra}", the thing the question '
                  f'says it describes (rule: adjective with its noun).')
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    reason = f'Reject: "{response}" contains {candidate.describe()} but adds "{extra}", which the line does not have; overrule if the extra words are right.'
    return "weak reject", Judgement(REJECT, 0.6, reason, candidate.text)


def _place_added(response, said, candidate: Candidate, comparison: Comparison, question_text) -> str | None:
    """ "United States Secretary of the Interior" for "Secretary of the Interior": the added words, one run,
    name a place in WordNet. Not for a place ("Paris Texas" is not Paris) nor a person, nor a one-word answer."""
    extras = comparison.extra
    content = [w for w in candidate.words if w not in FUNCTION_WORDS]
    if lexicon.index() is None or len(content) < 2 or lexicon.is_place("_".join(content)) or "and" in said or candidate.names and \
            looks_like_person(candidate.text, question_text):
        return None
    start = said.index(extras[0])
    if tuple(said[start:start + len(extras)]) != tuple(extras):
        return None
    return _place_run(tuple(extras), response)


def _kind_named_before(response, said, candidate: Candidate, comparison: Comparison) -> bool:
    """ "the planet Jupiter", "the city of Paris", "the band Queen": lower-case words before a proper name
    that say what it is. Words after it ("Indiana State University") make another thing; in a question
    about a person, "the state of Washington" is not Washington."""
    if not candidate.names or said[-len(candidate.words):] != candidate.words:
        return False
    extras = set(comparison.extra)
    written = set(tokens(" ".join(w for w in response.split() if w[:1].islower())))
    return extras <= written and not extras & (RELATIONS | CHANGING_WORDS) and not any(is_number(w) for w in extras)


def _described_person(response, said, candidate, comparison, question_text) -> bool:
    """ "the actress Glynis Johns", "written by Thomas Chisholm": lower-case words before a person's whole name."""
    if not looks_like_person(candidate.text, question_text) or said[-len(candidate.words):] != candidate.words:
        return False
    written = {word for word in tokens(" ".join(w for w in response.split() if w[:1].islower()))}
    return set(comparison.extra) <= written and not set(comparison.extra) & RELATIONS


def place_conflict(response: str, place: str, candidate: Candidate):
    """ "Plymouth, England" for "Plymouth, Massachusetts": the places after the commas must agree."""
    head, comma, tail = candidate.text.partition(",")
    if not comma or not tokens(tail) or any(is_number(word) for word in tokens(place) + tokens(tail)):
        return None
    mine, theirs = set(tokens(place)), set(tokens(tail))
    if mine & theirs or not mine:
        return None
    reason = f'Reject: "{response}" places it in "{place}", but {candidate.describe()} is in "{tail.strip()}".'
    return "firm reject", Judgement(REJECT, 0.85, reason, candidate.text)


def _beside_required(candidate: Candidate, comparison: Comparison, question_text) -> bool:
    """ "Eucharist bread" for "sacramental <u>bread</u>": every underlined part is given, and the other
    words neither name a person nor change the thing ("North", a number)."""
    extras = set(comparison.extra)
    return (candidate.required_source in ("braces", "markup") and covers_marked_part(candidate, comparison)
            and not looks_like_person(candidate.text, question_text) and not extras & CHANGING_WORDS
            and not any(is_number(word) for word in extras))


def _required_with_more(response, candidate, comparison):
    required = " / ".join(" ".join(part) for part in candidate.required)
    reason = (f'Accept: "{response}" gives the underlined part "{required}" of {candidate.describe()}; '
              f'the words "{" ".join(comparison.extra)}" beside it do not change it (overrule if they are wrong).')
    return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)


def overlapping_answer(response, said, candidate, comparison, question_text):
    """The response shares some words with the answer and has others of its own: another answer."""
    if any(is_number(word) for word in comparison.extra) and any(is_number(word) for word in comparison.missing):
        what = "date" if date_parts(said) and date_parts(candidate.words) else "number"
        reason = f'Reject: "{response}" gives a different {what} from {candidate.describe()}.'
        return "firm reject", Judgement(REJECT, 0.85, reason, candidate.text)
    if _beside_required(candidate, comparison, question_text):
        return _required_with_more(response, candidate, comparison)
    if all(is_generic(word) or word in TITLES for word in comparison.missing) and _belongs_to(said, comparison):
        reason = (f'Accept: "{response}" is {candidate.describe()} without "{" ".join(comparison.missing)}" '
                  f'and with what it belongs to ("of {" ".join(comparison.extra)}").')
        return "partial accept", Judgement(ACCEPT, 0.7 * comparison.score, reason, candidate.text)
    family = surname(candidate.text)
    matched = matched_words(comparison)
    if family and matched == set(family) and looks_like_person(candidate.text, question_text):
        given = given_names(candidate.text)
        if given and len(comparison.extra) == 1 and said[0] == comparison.extra[0] and _short_given_name(said[0], given[0]):
            reason = (f'Accept: "{response}" gives "{said[0]}", a short form of the given name "{given[0]}", and the family name '
                      f'of {candidate.describe()} (rule: short given name).')
            return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
        if given and len(comparison.extra) == 1 and said[0] == comparison.extra[0] and nickname(said[0], given[0]):
            reason = (f'Accept: "{response}" gives "{said[0]}" for the given name "{given[0]}" (a name and its nickname in the '
                      f'names table) and the family name of {candidate.describe()} (rule: nickname).')
            return "partial accept", Judgement(ACCEPT, 0.8 * comparison.score, reason, candidate.text)
        if set(comparison.extra) <= TITLES and said[-len(family):] == family and not any(map(is_given_name, comparison.extra)):
            # "President Roosevelt": a title and the surname say no more than the surname alone
            ambiguous = _ambiguous_surname(response, "gives a title and the surname of", candidate, comparison, family, [], 0.75)
            if ambiguous:
                return ambiguous
            reason = f'Accept: "{response}" is a title and the surname of {candidate.describe()}'
            reason += ", which names no one else in WordNet." if lexicon.index() is not None else "."
            return "partial accept", Judgement(ACCEPT, 0.75 * comparison.score, reason, candidate.text)
        reason = f'Reject: "{response}" names a different person from {candidate.describe()}.'
        return "weak reject", Judgement(REJECT, 0.85, reason, candidate.text)
    reason = f'Reject: "{response}" shares only "{" ".join(sorted(matched))}" with {candidate.describe()}.'
    return "weak reject", Judgement(REJECT, 0.7, reason, candidate.text)
