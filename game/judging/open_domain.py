"""Open-domain readings: how EfficientQA's raters read a short answer against NQ-style references.

A quizbowl answer line says what it takes; a list of references does not, and raters accepted answers
the words alone miss: a date inside a reference's span, a person's full name with a rank for a nickname,
an actor without the role, a name without the place that leads it, words the question itself says, a
qualifier that narrows ("New Jersey State"), another form of a word ("Welsh" for "Wales"). The judge
applies these rules only to open-domain questions (`rules_for`); each reading names its kind, and each has
its negative twin (the date outside the span, another person of the surname, "North Korea" for "Korea").
"""
from __future__ import annotations


from game.judging import lexicon
from game.judging.answerline import ACCEPT, MORE_SPECIFIC, PROMPT, REJECT, AnswerLine
from game.judging.candidates import Candidate
from game.judging.judgement import Judgement
from game.judging.match import EXACT, FORM, FUNCTION_WORDS, STRICT, compare, deep_stem, stem, word_match
from game.judging.names import PARTICLES, SUFFIXES, THING_WORDS, TITLES, is_given_name, looks_like_person, nickname, speaks_of_person
from game.judging.normalize import tokens
from game.judging.numbers import is_number
from game.judging.spans import AROUND, APART, INSIDE, SAME, period, relation, describe
from game.judging.vocabulary import COMPASS_ADJECTIVES, NARROWING_KINDS, RANKS, REFERENT_CHANGING, is_generic
from game.judging.memo import memo

OPEN_DOMAIN, QUIZBOWL = "open-domain", "quizbowl"
RULES = (OPEN_DOMAIN, QUIZBOWL)
# The rules each kind of question is judged by (game/engine/questions.py: "short" or "tossup").
RULES_OF_KIND = {"short": OPEN_DOMAIN, "tossup": QUIZBOWL}
# A span given for a date inside it is the answer when it is this narrow ("2016-17" for "2017"); wider, a prompt.
NARROW_SPAN_YEARS = 2
# Questions that ask for a language or a people, where "French" is not "France".
_LANGUAGE_WORDS = frozenset("language languages tongue dialect speak speaks spoken speaking nationality demonym".split())


def rules_for(answer_line: AnswerLine | str | None, references: tuple[str, ...], rules: str | None) -> str:
    """Which rules a judgement follows: as told, or open-domain when there are references and no answer line
    beyond one of them (an NQ question's line is its first reference), else quizbowl."""
    if rules is not None:
        if rules not in RULES:
            raise ValueError(f"rules must be one of {RULES}, not {rules!r}")
        return rules
    if not references:
        return QUIZBOWL
    if not answer_line:
        return OPEN_DOMAIN
    text = answer_line if isinstance(answer_line, str) else answer_line.raw
    return OPEN_DOMAIN if text.strip() in {r.strip() for r in references} else QUIZBOWL


def reading(response: str, said: tuple[str, ...], candidate: Candidate, pool: list[Candidate],
            question_text: str | None) -> tuple[str, Judgement] | None:
    """The open-domain reading of a response against one accepted text: an accept or prompt naming its kind,
    a reject for a date outside the reference's span, or None."""
    if candidate.kind != ACCEPT:
        return None
    return (_dated(response, said, candidate, pool) or _same_person(response, said, candidate, question_text)
            or _given_by_question(response, said, candidate, question_text) or _without_role(response, said, candidate)
            or _place_left_out(response, said, candidate, question_text)
            or _narrowed(response, said, candidate, question_text) or _word_forms(response, said, candidate, question_text))


def _without_role(response, said, candidate):
    """ "Elijah Wood" for "Elijah Wood as Frodo Baggins": the person a cast list's reference names, without the role
    (rule: role left out); the role alone is no answer to who played it."""
    person, role_said, role = candidate.text.partition(" as ")
    if not role_said or not _person_like(person.strip(), None):
        return None
    comparison = compare(said, tokens(person), True, False)
    if not comparison.complete or not set(comparison.hows) <= STRICT:
        return None
    reason = f'Accept: "{response}" is the person of the reference "{candidate.text}", without the role "{role.strip()}" (rule: role left out).'
    return "partial accept", Judgement(ACCEPT, 0.8, reason, candidate.text)


def _place_left_out(response, said, candidate, question_text):
    """ "the Lakers" for "Los Angeles Lakers", "the Red Cross" for "American Red Cross": a name without the place (or
    its adjective) that leads it, when what is left is a name of its own: no place ("Virginia" of "West Virginia"
    keeps a compass word, never left out), no kind of thing ("Revolution" of "French Revolution")
    (rule: place left out). A one-word rest must be unknown to WordNet as a common word, so "Celtics" of "Boston
    Celtics" is left to the moderator (WordNet knows "Celtic")."""
    comparison = compare(said, candidate.words, candidate.names, False)
    missing, kept = comparison.missing, tuple(word for word in candidate.words if word not in comparison.missing)
    if not comparison.pairs or comparison.extra or not missing or not set(comparison.hows) <= STRICT:
        return None
    if (candidate.words[: len(missing)] != missing or not candidate.names or set(candidate.words) & FUNCTION_WORDS
            or _person_like(candidate.text, question_text)):
        return None  # "China" of "Japan and China" is one of two answers
    key = "_".join(missing)
    if not (lexicon.is_place(key) or all(lexicon.place_of(word) for word in missing)):
        return None
    if lexicon.is_place("_".join(kept)) or any(is_generic(w) or w in THING_WORDS for w in kept):
        return None
    if len(kept) == 1 and lexicon.senses(kept[0]):
        return None  # a word WordNet knows is more than this name: "bulldogs" of "American Bulldog", "Open" of "French Open"
    reason = (f'Accept: "{response}" is the reference "{candidate.text}" without "{" ".join(missing)}", the place that '
              f"leads the name (rule: place left out).")
    return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)


def _given_by_question(response, said, candidate, question_text):
    """ "legislative" for "legislative branch" when the question asks "which branch ...": the words of the reference
    the response leaves out are the question's own, so the question already says them (rule: rest in the question).
    Not a person's name (the name rules decide), a number, or a word that changes the referent ("North")."""
    if not question_text or _person_like(candidate.text, question_text):
        return None
    comparison = compare(said, candidate.words, candidate.names, False)
    missing = comparison.missing
    if not comparison.pairs or comparison.extra or not missing or not set(comparison.hows) <= STRICT:
        return None
    if any(is_number(word) or word in REFERENT_CHANGING for word in missing):
        return None
    asked = {stem(word) for word in tokens(question_text)}
    if not all(stem(word) in asked for word in missing):
        return None
    reason = (f'Accept: "{response}" is the reference "{candidate.text}" without "{" ".join(missing)}", which the question '
              f"itself says (rule: rest in the question).")
    return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)


def _dated(response, said, candidate, pool):
    """A date or span against a reference's date or span (rule: date inside span, approximate date, span around
    the date, date outside span)."""
    mine, theirs = period(said), period(candidate.words)
    if mine is None or theirs is None:
        return None
    how = relation(mine, theirs)
    shown = describe(candidate.text)
    stretch = "span" if theirs.span or theirs.vague or theirs.years > 1 else "date"
    if how == SAME:
        if said == candidate.words:
            return None
        reason = f'Accept: "{response}" is the date of the reference "{shown}", given approximately or in other words (rule: approximate date).'
        return "partial accept", Judgement(ACCEPT, 0.85, reason, candidate.text)
    if how == INSIDE:
        other = _narrower_elsewhere(mine, theirs, candidate, pool)
        if other:
            reason = (f'Reject: "{response}" lies inside the reference {stretch} {shown}, but the reference "{other}" '
                      f"says more precisely when, and the response is outside it (rule: date outside span).")
            return "weak reject", Judgement(REJECT, 0.75, reason, candidate.text)
        what = "a season or part" if mine.vague else "a date"
        reason = f'Accept: "{response}" is {what} inside the reference {stretch} {shown} (rule: date inside span).'
        return "partial accept", Judgement(ACCEPT, 0.8, reason, candidate.text)
    if how == AROUND:
        if mine.span and not (mine.vague or mine.approximate) and mine.years <= NARROW_SPAN_YEARS:
            reason = f'Accept: "{response}" is a span of {mine.years} years that holds the reference date {shown} (rule: span around the date).'
            return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)
        reason = f'Prompt: "{response}" holds the reference date {shown}, but says less precisely when (rule: span around the date).'
        return "partial prompt", Judgement(PROMPT, 0.7, reason, candidate.text, MORE_SPECIFIC)
    if how == APART:
        reason = f'Reject: "{response}" is a date outside the reference {stretch} {shown} (rule: date outside span).'
        return "weak reject", Judgement(REJECT, 0.85, reason, candidate.text)
    return None


def _narrower_elsewhere(mine, theirs, candidate, pool) -> str | None:
    """Another accepted text whose date lies inside this one's, apart from the response's: "1965" is not
    inside "the 1960s" when "1968" is given too."""
    for other in pool:
        if other is candidate or other.kind != ACCEPT:
            continue
        when = period(other.words)
        if when and relation(when, theirs) == INSIDE and relation(mine, when) == APART:
            return other.text
    return None


@memo
def _person(words: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(given names, surname) of a name's canonical words without the ranks and titles before it."""
    start = 0
    while start < len(words) - 2 and (words[start] in TITLES or words[start] in RANKS):
        start += 1
    words = words[start:]
    while len(words) > 2 and words[-1] in SUFFIXES:
        words = words[:-1]
    if len(words) < 2:
        return None
    cut = len(words) - 1
    while cut > 1 and words[cut - 1] in PARTICLES:  # "van Beethoven"
        cut -= 1
    return words[:cut], words[cut:]


@memo
def _person_like(text: str, question_text: str | None) -> bool:
    """names.looks_like_person, kept: each reading asks it of every reference."""
    return looks_like_person(text, question_text)


def _same_given(a: str, b: str) -> bool:
    """One given name for another: the same, a nickname ("Bill"/"William"), an initial, or its start ("Alex"), both
    names in the names table ("Western" is no "West")."""
    if a == b or nickname(a, b):
        return True
    short, full = sorted((a, b), key=len)
    if len(short) == 1:
        return full.startswith(short)
    return len(short) >= 3 and len(full) >= len(short) + 2 and full.startswith(short) and is_given_name(full)


def another_person(response: str, said: tuple[str, ...], judgement: Judgement, pool: list[Candidate],
                   question_text: str | None) -> Judgement | None:
    """ "Dennis Zakarian" accepted for the reference "Zakarian" when "Geoffrey Zakarian" is a reference too: a given
    name added to a bare surname that no reference of the surname has, nor spells otherwise, is another person of
    the surname (rule: another person of the surname)."""
    mine = _person(said)
    if not mine or judgement.verdict != ACCEPT or tuple(tokens(judgement.matched or "")) != mine[1]:
        return None
    named = [c for c in pool if c.kind == ACCEPT and _person_like(c.text, question_text)]
    people = [(c, person) for c in named if (person := _person(c.words)) and person[1] == mine[1]]
    if not people or any(_same_given(mine[0][0], given) or word_match(mine[0][0], given, True)
                         for _, person in people for given in person[0]):
        return None
    other = people[0][0]
    reason = (f'Reject: "{response}" gives the given name "{mine[0][0]}", but the reference "{other.text}" names the '
              f"person of that surname otherwise (rule: another person of the surname).")
    return Judgement(REJECT, 0.8, reason, other.text)


def _same_person(response, said, candidate, question_text):
    """ "Colonel William Henry Smith" for "Bill Smith": one surname, the first given names alike (a nickname, an
    initial), the middle names of the shorter within the longer, any rank or title before (rule: full name)."""
    if said[-1] not in candidate.words:
        return None  # no surname in common
    mine, theirs = _person(said), _person(candidate.words)
    if not mine or not theirs or mine == theirs or mine[1] != theirs[1] or not _same_given(mine[0][0], theirs[0][0]):
        return None
    if not _person_like(candidate.text, question_text):
        return None
    written = set(tokens(" ".join(word for word in response.split() if word[:1].isupper())))
    if not all(name in written or len(name) == 1 or is_given_name(name) for name in mine[0]):
        return None  # "bilingual German author B. Traven": words before a name are no given names
    shorter, longer = sorted((mine[0][1:], theirs[0][1:]), key=len)
    if not all(any(_same_given(name, other) for other in longer) for name in shorter):
        return None
    if len(mine[0]) > len(theirs[0]):
        if mine[0][0] == theirs[0][0]:
            return None  # "Alexander Stirling Calder" may be another Calder: the name rules prompt (partial.py)
        people = lexicon.people("_".join(mine[0] + mine[1]))
        known = lexicon.people("_".join(theirs[0] + theirs[1])) | lexicon.people("_".join(theirs[0][:1] + theirs[1]))
        if people and known and not people & known:
            return None  # "John Quincy Adams" is another person than John Adams
    titles = [word for word in said[: len(said) - len(mine[0]) - len(mine[1])] if word in TITLES or word in RANKS]
    parts = ["the middle names" if len(mine[0]) > len(theirs[0]) else "", f'the title "{" ".join(titles)}"' if titles else "",
             "another form of the given name" if mine[0][0] != theirs[0][0] else ""]
    what = ", ".join(part for part in parts if part) or "the name in full"
    reason = (f'Accept: "{response}" names the person of the reference "{candidate.text}", with {what} '
              f"(rule: full name).")
    return "partial accept", Judgement(ACCEPT, 0.75, reason, candidate.text)


def _narrowed(response, said, candidate, question_text):
    """ "New Jersey State" for "New Jersey", "mammalian liver" for "liver": the reference with qualifiers that
    narrow it and change nothing (rule: qualifier that narrows); "North Korea" for "Korea" is another place."""
    comparison = compare(said, candidate.words, candidate.names, False)
    extras = comparison.extra
    if not comparison.pairs or comparison.missing or not extras or not set(comparison.hows) <= STRICT:
        return None
    if _person_like(candidate.text, question_text) or any(is_number(word) for word in said):
        return None  # "at least 1997" is no narrower 1997: numbers are for the number rules
    lowered = set(tokens(" ".join(word for word in response.split() if not word[:1].isupper())))
    changing = [word for word in extras if word in REFERENT_CHANGING and not (word in COMPASS_ADJECTIVES and word in lowered)]
    if changing:
        reason = (f'Reject: "{response}" adds "{" ".join(changing)}" to the reference "{candidate.text}", a qualifier that makes '
                  f"another thing of it (rule: qualifier that changes the referent).")
        return "weak reject", Judgement(REJECT, 0.85, reason, candidate.text)
    about_person = question_text is not None and speaks_of_person(question_text)
    for word in extras:
        kind = word in NARROWING_KINDS and not about_person
        describing = word in lowered and (word in COMPASS_ADJECTIVES or lexicon.describes(word))
        if not (kind or describing):
            return None
    whole = lexicon.senses("_".join(said))
    if whole and not set(whole) & set(lexicon.senses("_".join(candidate.words))):
        return None  # "white house" is a thing of its own, no narrowed "house"
    extra = " ".join(extras)
    reason = (f'Accept: "{response}" is the reference "{candidate.text}" with "{extra}", a qualifier that narrows it '
              f"without making it another thing (rule: qualifier that narrows).")
    return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)


def _placed(words: tuple[str, ...], other: tuple[str, ...]) -> tuple[str, ...]:
    """The words with each adjective or people's name of a place that the other words name written as that place:
    "welsh" -> "wales" beside "wales"; a place is never read as another place ("Taiwan" is no "China")."""
    return tuple(next((place for place in sorted(lexicon.place_of(word)) if place in other), word) for word in words)


def _word_forms(response, said, candidate, question_text):
    """ "Welsh" for "Wales", "Slavic folk tales" for "Slav folk tales", "transportation" for "transport": the same
    words in another form, a place's adjective for the place (rule: word form)."""
    formed = {deep_stem(word) for word in said} & {deep_stem(word) for word in candidate.words}
    mine, theirs = _placed(said, candidate.words), _placed(candidate.words, said)
    if not formed and mine == said and theirs == candidate.words:
        return None  # no word in common in any form, and no place's adjective: nothing to read
    if formed:
        comparison = compare(said, candidate.words, candidate.names, True)
        if comparison.complete and comparison.hows == {FORM}:
            changed = [(a, b) for a, b, how in comparison.pairs if how == FORM and deep_stem(a) == deep_stem(b) and a != b]
            exact = [pair for pair in comparison.pairs if pair[2] == EXACT]
            if changed and (exact or not any(lexicon.different_words(a, b) for a, b in changed)):
                pairs = ", ".join(f'"{a}" for "{b}"' for a, b in changed)
                reason = f'Accept: "{response}" is the reference "{candidate.text}" in other forms of its words ({pairs}) (rule: word form).'
                return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)
    if (mine == said and theirs == candidate.words) or question_text and set(tokens(question_text)) & _LANGUAGE_WORDS:
        return None
    placed = compare(mine, theirs, candidate.names, False)
    if placed.complete and set(placed.hows) <= STRICT:
        read = [f'"{word}" for "{place}"' for word, place in zip(said + candidate.words, mine + theirs) if word != place]
        reason = (f'Accept: "{response}" and the reference "{candidate.text}" name one place, by its adjective or its people\'s '
                  f'name ({", ".join(read)}) (rule: place word form).')
        return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)
    return None
