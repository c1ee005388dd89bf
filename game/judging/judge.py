"""Suggest a ruling on one answer, with the reason, so the moderator rules in one keystroke.

`judge()` holds a response against an answer line and/or a list of reference answers and returns
accept, prompt or reject, a confidence, and a sentence saying which text matched and how. It is a
suggestion: the moderator overrules when trivia sense says otherwise.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from game.judging import lexicon
from game.judging.answerline import ACCEPT, MORE_SPECIFIC, PROMPT, REJECT, AnswerLine, parse_answer_line
from game.judging.candidates import Candidate, candidates, latin
from game.judging.judgement import RANK, Judgement
from game.judging.learned import model as equivalence
from game.judging.match import FORM, INITIALS, PLACE, deep_stem, ROUNDED, SHORT, SPELLING, STRICT, TYPO, VARIANT, WITHIN, Comparison, compare
from game.judging.names import looks_like_person
from game.judging.normalize import articles, clean_text, spelled_words, squad_normalize, tokens
from game.judging.numbers import is_number
from game.judging.open_domain import OPEN_DOMAIN, QUIZBOWL, another_person, reading, rules_for
from game.judging.partial import covers_marked_part, more_than_answer, overlapping_answer, part_of_answer, place_conflict
from game.judging.quantities import conflicting_date
from game.judging.qualifiers import Buzz, in_force
from game.judging.memo import memo

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")
# Where a description of the answer starts: ", the president of ...", ", who ...", " - a city in ...".
_DESCRIPTION = re.compile(r",\s+(?=(?:the|a|an|who|which|whose|where|when|known|born|also|[a-z]+ed)\b)|\s+[-–—]\s+")
# What people type around an answer: "what is Paris?", "I think Paris", "um, Paris".
_FILLER = re.compile(r"^(?:(?:um+|uh+|er+|hmm+|ok(?:ay)?|so|well)\b[\s,.]*)*(?:(?:i\s+think|i\s+believe|i\s+guess|maybe|perhaps|probably|is\s+it|"
                     r"it\s+is|it'?s|the\s+answer\s+is|my\s+answer\s+is|(?:what|who|where|when)\s+(?:is|are|was|were))\b[\s,:]*)?", re.I)
# Two answers in one: "lake or pond", "Cain/Abel" (a slash with no spaces is one name under quizbowl rules: "CRISPR/Cas9").
_TWO_ANSWERS = {OPEN_DOMAIN: re.compile(r"\s+or\s+|\s*/\s*", re.I), QUIZBOWL: re.compile(r"\s+or\s+|\s+/\s+", re.I)}
_FILLER_STARTS = frozenset("um umm uh uhh er hmm ok okay so well i maybe perhaps probably is it it's its the my what who where when".split())
_HOW = {
    FORM: '"{said}" as a form of "{wanted}"',
    TYPO: '"{said}" as a misspelling of "{wanted}"',
    SHORT: '"{said}" as a short form of "{wanted}"',
    VARIANT: '"{said}" as another spelling (transliteration) of "{wanted}"',
    ROUNDED: '"{said}" as "{wanted}" rounded',
    SPELLING: '"{said}" as the British or American spelling of "{wanted}"',
    PLACE: '"{said}" and "{wanted}" as a place and its adjective in WordNet (rule: place adjective)',
    WITHIN: '"{said}" as a year within "{wanted}", more precise than the line; check the year (rule: year within)',
}


_MISSPELT = frozenset({TYPO, VARIANT, SPELLING})


def _how(response: str, candidate: Candidate, comparison: Comparison) -> str:
    phrases = []
    for said, wanted, how in comparison.pairs:
        if how == INITIALS:
            phrases.append(f'"{said}" as the initials of "{wanted}"' if len(said) < len(wanted) else f'"{said}" for the initials "{wanted}"')
        elif how in _HOW:
            phrases.append(_HOW[how].format(said=said, wanted=wanted))
    if phrases:
        return "reading " + ", ".join(phrases)
    if response.casefold() == candidate.text.casefold():
        return "exactly"
    return "once case, accents, punctuation, articles and number forms are set aside"


def _timing(candidate: Candidate, buzz: Buzz | None) -> bool | None:
    clause = candidate.clause
    return in_force(clause.qualifier, clause.texts, buzz) if clause and clause.qualifier else None


def _qualified(candidate: Candidate, confidence: float, reason: str, state: bool | None) -> tuple[float, str]:
    clause = candidate.clause
    if not clause or not clause.qualifier:
        return confidence, reason
    if state is None:
        return confidence * 0.85, f"{reason} The line allows this only {clause.qualifier}; check when the buzz came."
    return confidence, f"{reason} The line allows this only {clause.qualifier}, as it was at the buzz."


def _lapsed(response: str, candidate: Candidate, buzz: Buzz) -> tuple[str, Judgement]:
    clause = candidate.clause
    reason = (f'Reject: "{response}" matches {candidate.describe()}, but that holds only {clause.qualifier}, '
              f"and the buzz came after {buzz.read} words, when it no longer held.")
    return "lapsed clause", Judgement(REJECT, 0.85, reason, candidate.text)


def _full_match(response: str, candidate: Candidate, comparison: Comparison, how: str | None, strict: bool,
                buzz: Buzz | None) -> tuple[str, Judgement] | None:
    how = how or _how(response, candidate, comparison)
    score = comparison.score if comparison.pairs else 0.85
    state = _timing(candidate, buzz)
    if state is False:
        return None if candidate.kind == REJECT else _lapsed(response, candidate, buzz)
    if candidate.kind == REJECT:
        if strict and not articles_agree(response, candidate.text):
            return None  # "do not accept The Invisible Man" does not reach "Invisible Man"
        confidence, reason = _qualified(candidate, 0.95 * score, f'Reject: "{response}" is ruled out by {candidate.describe()} ({how}).', state)
        return ("reject clause" if strict else "fuzzy reject clause"), Judgement(REJECT, confidence, reason, candidate.text)
    if candidate.kind == PROMPT:
        question = candidate.clause.prompt_question if candidate.clause else MORE_SPECIFIC
        confidence, reason = _qualified(candidate, 0.9 * score, f'Prompt: "{response}" matches {candidate.describe()} ({how}); ask "{question}"', state)
        return ("prompt clause" if strict else "fuzzy prompt clause"), Judgement(PROMPT, confidence, reason, candidate.text, question)
    if candidate.clause and candidate.clause.anti_prompt:
        reason = (f'Accept: "{response}" matches {candidate.describe()} ({how}): it is more specific than the answer, '
                  f'which the line accepts; ask "{candidate.clause.prompt_question}" only if the rules want the general answer.')
    else:
        reason = f'Accept: "{response}" matches {candidate.describe()}, {how}.'
    confidence, reason = _qualified(candidate, score, reason, state)
    return ("accept" if strict else "fuzzy accept"), Judgement(ACCEPT, confidence, reason, candidate.text)


def articles_agree(response: str, text: str) -> bool:
    """Every article the text spells is in the response too."""
    wanted = Counter(articles(text))
    return not wanted or not wanted - Counter(articles(response))


def _synonym(said: tuple[str, ...], candidate: Candidate, question_text: str | None) -> bool:
    if candidate.kind == REJECT or candidate.word_forms or not lexicon.senses("_".join(said)):
        return False
    if not _same_sense(said, candidate.words):
        return False
    # Part of a person's name is for the name rules ("Adams" for "John Adams").
    return not (candidate.names and set(said) & set(candidate.words) and looks_like_person(candidate.text, question_text))


@memo
def _same_sense(said: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    if said == wanted or {w for w in said if is_number(w)} != {w for w in wanted if is_number(w)} and any(
            is_number(w) for w in said):
        return False  # "World War I" may be "Great War"; 1812 is never 1813
    return lexicon.shared_sense("_".join(said), "_".join(wanted))


def _rule(response, said, candidate, comparison, line, references, question_text, buzz):
    strict = set(comparison.hows) <= STRICT
    if not strict and comparison.hows & _MISSPELT and lexicon.different_words("_".join(said), "_".join(candidate.words)):
        return None  # "Lake Eyre" is no misspelling of "Lake Erie": WordNet knows both, as two things
    if WITHIN in comparison.hows:
        other = _other_year(said, candidate, line, references)
        if other:
            reason = (f'Reject: "{response}" is a year within {candidate.describe()}, but "{other}" is also given, '
                      f'a year of its own that the response is not (rule: year within).')
            return "firm reject", Judgement(REJECT, 0.8, reason, candidate.text)
    if comparison.complete:
        return _full_match(response, candidate, comparison, None, strict, buzz)
    clause = candidate.clause
    if comparison.pairs and not comparison.missing and clause and clause.contains:
        how = f'it contains "{candidate.text}", and the line accepts any answer about that'
        return _full_match(response, candidate, comparison, how, strict, buzz)
    if clause and clause.combined and comparison.pairs and not comparison.missing and line:
        names = set(tokens(" ".join(w for w in re.split(r"[\s\-–]+", line.main) if w[:1].isupper()))) - set(candidate.words)
        if set(comparison.extra) & names and set(comparison.extra) <= set(tokens(line.main)):
            how = (f'it gives "{candidate.text}" with "{" ".join(comparison.extra)}", another name of the answer, as the clause allows '
                   f'(rule: part the clause makes sufficient)')
            return _full_match(response, candidate, comparison, how, strict, buzz)
    if _synonym(said, candidate, question_text):
        how = f'"{response}" and "{candidate.text}" name the same thing in WordNet (synonyms)'
        ruled = _full_match(response, candidate, comparison, how, False, buzz)
        return (ruled[0].replace("fuzzy", "synonym"), ruled[1]) if ruled and ruled[0].startswith("fuzzy") else ruled
    if not comparison.pairs and len(said) == 1 and said[0] in _initials_with_articles(candidate.text):
        how = f'"{response}" as the initials of "{candidate.text}", small words and all (rule: initialism)'
        return _full_match(response, candidate, comparison, how, False, buzz)
    if not comparison.pairs and _adjective_form(said, candidate):
        reason = (f'Accept: "{response}" is another form of {candidate.describe()}, an adjective, the word the question '
                  f'asks for (rule: adjective word form).')
        return "partial accept", Judgement(ACCEPT, 0.7, reason, candidate.text)
    if not comparison.pairs or _timing(candidate, buzz) is False:
        return None
    if candidate.kind == PROMPT and not comparison.extra and covers_marked_part(candidate, comparison):
        how = f'it gives the underlined part of "{candidate.text}"'
        return _full_match(response, candidate, comparison, how, strict, buzz)
    if candidate.kind != ACCEPT:
        return None
    if not comparison.extra:
        return part_of_answer(response, said, candidate, comparison, line, references, question_text)
    if not comparison.missing:
        return more_than_answer(response, said, candidate, comparison, question_text)
    return overlapping_answer(response, said, candidate, comparison, question_text)


@memo
def _initials_with_articles(text: str) -> frozenset[str]:
    """ "lotr" for "The Lord of the Rings": the first letters of every word, articles inside it included, with and
    without a leading article (the judge's other initials leave articles out)."""
    words = spelled_words(text)
    if len(words) < 3 or not all(word.isalpha() for word in words):
        return frozenset()
    every = "".join(word[0] for word in words)
    return frozenset({every, every[1:]} if words[0] in ("the", "a", "an") else {every})


def _other_year(said: tuple[str, ...], candidate: Candidate, line, references) -> str | None:
    """A text of the line or the references that gives a year of its own inside the decade, other than the
    response's ("1963" for "the 1960s" when "1968" is given too): then the decade is no licence for any year."""
    years = {word for word in said if word.isdigit()}
    for other in candidates(line, references):
        if other.kind == ACCEPT and other is not candidate:
            given = {word for word in other.words if word.isdigit() and len(word) == 4}
            if given and not given & years and any(WITHIN in compare((year,), candidate.words).hows for year in given):
                return other.text
    return None


def _numbers_agree(said: tuple[str, ...], candidate: Candidate) -> bool:
    """Whether the response gives numbers, each of them in this text too."""
    numbers = {word for word in said if is_number(word)}
    return bool(numbers) and numbers <= set(candidate.words)


def _adjective_form(said: tuple[str, ...], candidate: Candidate) -> bool:
    """ "linearity" for "linear": a one-word answer that WordNet knows only as an adjective, in another form of the word."""
    if candidate.kind != ACCEPT or len(candidate.words) != 1 or len(said) != 1 or said == candidate.words:
        return False
    word = candidate.words[0]
    return (lexicon.describes(word) and not lexicon.senses(word) and deep_stem(said[0]) == deep_stem(word)
            and len(said[0]) > len(word))


@dataclass(frozen=True)
class _Reading:
    """One way to read a response: the place it names after a comma, and a note on how it was read."""

    place: str = ""
    note: str = ""


def _response_forms(response: str) -> dict[tuple[str, ...], _Reading]:
    """The response as typed, and read without a parenthesis, the words typed around an answer,
    a place or a description after a comma, or in Latin letters."""
    forms = {tokens(response): _Reading()}
    if "(" in response:
        forms.setdefault(tokens(_PARENTHETICAL.sub("", response)), _Reading(note="Read without the words in brackets."))
    if response.split(maxsplit=1)[0].lower().strip(",.") in _FILLER_STARTS:
        unwrapped = _FILLER.sub("", response, count=1).rstrip(" ?!.")
        if unwrapped and unwrapped != response:
            forms.setdefault(tokens(unwrapped), _Reading(note=f'Read without the words around "{unwrapped}".'))
    head, comma, tail = response.partition(",")
    if comma and len(tail.split()) <= 4 and not any(char.isdigit() for char in tail):
        # "Plymouth, Massachusetts": read without the place, which must then agree.
        forms.setdefault(tokens(head), _Reading(place=tail.strip(), note=f'Read without the place "{tail.strip()}".'))
    described = _DESCRIPTION.split(response, maxsplit=1)
    if len(described) == 2 and described[0].strip():
        # "Jefferson Davis, the president of the Confederacy"
        forms.setdefault(tokens(described[0]), _Reading(note=f'Read without the description "{described[1].strip()}".'))
    if not response.isascii() and not all(w.isascii() for w in tokens(response)):
        forms.setdefault(latin(response), _Reading(note="Read in Latin letters."))  # "Άργος" for "Argos"
    forms.pop((), None)
    return forms


def _squad_match(response: str, references: tuple[str, ...]) -> Judgement | None:
    if not references:
        return None
    said = squad_normalize(response)
    for reference in references:
        if said and said == squad_normalize(reference):
            reason = f'Accept: "{response}" equals the reference answer "{reference}" under SQuAD normalisation.'
            return Judgement(ACCEPT, 1.0, reason, reference)
    return None


def _as_buzz(buzz) -> Buzz | None:
    if buzz is None or isinstance(buzz, Buzz):
        return buzz
    read, words = buzz
    return Buzz(int(read), tuple(words))


def judge(response: str, answer_line: AnswerLine | str | None = None, references=None, question_text: str | None = None,
          buzz: Buzz | tuple[int, tuple[str, ...]] | None = None, rules: str | None = None, learned: bool = True) -> Judgement:
    """Suggest accept, prompt or reject for a response, with a confidence and the reason.

    `question_text` (what was read, or the whole question) helps with people's names: a surname
    alone is prompted when another person of that name appears in it. `buzz` is where the player
    buzzed, (words read, the question's words): it decides clauses such as "prompt on X before mention".
    `rules` is "quizbowl" (a tossup's answer line) or "open-domain" (a short answer against references,
    as EfficientQA's raters read them); by default open-domain when there are references and no answer
    line beyond one of them. `learned`: whether the learned equivalence model may read an open-domain answer no rule
    relates to any reference (its build turns it off to see what the rules alone say).
    """
    response = clean_text(response or "").strip()
    references = tuple(str(r) for r in references or ())
    if not tokens(response):
        return Judgement(REJECT, 1.0, "Reject: no answer was given.")
    if not answer_line and not references:
        return Judgement(REJECT, 0.0, "There is no answer line or reference answer to judge against; rule by hand.")
    rules = rules_for(answer_line, references, rules)
    judgement = _judge(response, answer_line, references, question_text, buzz, rules)
    parts = [part for part in _TWO_ANSWERS[rules].split(response) if tokens(part)]
    if len(parts) > 1 and not (judgement.verdict == ACCEPT and judgement.confidence >= _WHOLE):
        judgement = _two_answers(response, parts, judgement, answer_line, references, question_text, buzz, rules)
    if learned and rules == OPEN_DOMAIN and references and judgement.reason == _nothing(response):
        judgement = _learned(response, judgement, references)
    if judgement.verdict != ACCEPT and lexicon.index() is None:
        judgement = _noting(judgement, f"({lexicon.missing_reason()}.)")
    return judgement


# Parts judged one by one at most: a longer list is never all right, and the judge's time stays bounded.
_MOST_PARTS = 4
# A two-part response accepted this surely was read whole ("Colfax massacre or riot" for that line): no two answers.
_WHOLE = 0.95


def _two_answers(response, parts, judgement, answer_line, references, question_text, buzz, rules) -> Judgement:
    """ "lake or pond": under open-domain rules accepted when every part is right, prompted when only some are;
    under quizbowl rules a tossup answer that gives two is wrong, unless one text of the line reads it whole."""
    listed = " or ".join(f'"{part}"' for part in parts)
    if rules == QUIZBOWL:
        # The parts matter only to a prompt (judged, they may hold a right guess); a reject stays one, with this reason
        # first, and an accept of two guesses becomes one.
        if judgement.verdict == PROMPT and not any(
                _judge(part, answer_line, references, question_text, buzz, rules).verdict == ACCEPT for part in parts[:_MOST_PARTS]):
            return judgement
        reason = (f'Reject: "{response}" gives more than one answer ({listed}); under quizbowl rules a tossup answer with two '
                  f"guesses is wrong (rule: two answers).")
        if judgement.verdict == REJECT:
            return replace(judgement, reason=f"{reason} {judgement.reason}")
        return Judgement(REJECT, 0.8, reason, judgement.matched)
    ruled = [_judge(part, answer_line, references, question_text, buzz, rules) for part in parts[:_MOST_PARTS]]
    right = [part for part, each in zip(parts, ruled) if each.verdict == ACCEPT]
    if len(right) == len(parts):  # never for more than _MOST_PARTS: only those are judged
        reason = (f'Accept: "{response}" gives answers joined by "or" ({listed}), and each is right under open-domain '
                  f"rules: {ruled[0].reason[len('Accept: '):]} (rule: two answers)")
        return Judgement(ACCEPT, min(each.confidence for each in ruled) * 0.9, reason, ruled[0].matched)
    if right:
        reason = (f'Prompt: "{response}" gives answers joined by "or" ({listed}), and only "{right[0]}" is right; '
                  f'ask which one (rule: two answers).')
        return Judgement(PROMPT, 0.6, reason, judgement.matched, "Which one do you mean?")
    return judgement


def _judge(response: str, answer_line, references: tuple[str, ...], question_text, buzz, rules: str) -> Judgement:
    line = parse_answer_line(answer_line) if isinstance(answer_line, str) else answer_line
    buzz = _as_buzz(buzz)
    pool = candidates(line, references)
    best: tuple[float, float, Judgement] | None = None
    agreeing: tuple[float, float, Judgement] | None = None  # the best accept by a text with every number the response gives
    exact = _squad_match(response, references)
    if exact:
        best = (RANK["accept"], exact.confidence, exact)
    for said, reading in _response_forms(response).items():
        for candidate in pool:
            words = said
            comparison = compare(words, candidate.words, candidate.names, candidate.word_forms)
            ruled = _rule(response, words, candidate, comparison, line, references, question_text, buzz)
            if ruled and reading.place and ruled[1].verdict == ACCEPT:
                ruled = place_conflict(response, reading.place, candidate) or ruled
            if ruled and reading.note and ruled[1].verdict == ACCEPT:
                ruled = ruled[0], _noting(ruled[1], reading.note)
            if ruled:
                rank, judgement = ruled
                key = (RANK[rank], judgement.confidence, judgement)
                if best is None or key[:2] > best[:2]:
                    best = key
                if judgement.verdict == ACCEPT and _numbers_agree(words, candidate) and (agreeing is None or key[:2] > agreeing[:2]):
                    agreeing = key
    if best is not None and best[0] == RANK["firm reject"] and agreeing is not None:
        # "Piano Sonata No. 8 (Beethoven)" against "... Piano Sonata No. 8 in C Minor; or ... opus 13": the text whose
        # number the response gives decides, not the one it differs from.
        best = agreeing[:2] + (_noting(agreeing[2], f"({best[2].reason[len('Reject: '):].rstrip('.')}, but this text agrees: "
                                                   f"rule: agreeing number wins.)"),)
    if best is None:
        judgement = Judgement(REJECT, 0.95, _nothing(response))
    else:
        judgement = conflicting_date(response, best[2], pool) or best[2]
    if rules == OPEN_DOMAIN and judgement.verdict != ACCEPT and (best is None or best[0] < RANK["firm reject"]):
        judgement = _open_reading(response, judgement, pool, question_text)
    elif rules == OPEN_DOMAIN and best[0] < RANK["accept"]:
        judgement = another_person(response, tokens(response), judgement, pool, question_text) or judgement
    return judgement


def _nothing(response: str) -> str:
    return f'Reject: "{response}" matches nothing in the answer line or the references.'


def _learned(response: str, judgement: Judgement, texts: tuple[str, ...]) -> Judgement:
    """The learned equivalence model (learned/) on an open-domain answer that no rule relates to any reference: a
    prompt where it finds the two likely equivalent, an accept only from the score at which its held-out precision
    reached 98%."""
    found = equivalence.closest(response, texts)
    prompt_at, accept_at = equivalence.thresholds()
    if found is None or found[0] < prompt_at:
        return judgement
    score, reference = found
    said = f'the learned equivalence model finds "{response}" close to "{reference}" ({score:.2f}), though no rule relates them'
    if accept_at is not None and score >= accept_at:
        return Judgement(ACCEPT, score, f"Accept: {said} (rule: learned equivalence).", reference)
    return Judgement(PROMPT, score, f'Prompt: {said}; ask "{MORE_SPECIFIC}" (rule: learned equivalence).', reference, MORE_SPECIFIC)


def _open_reading(response: str, judgement: Judgement, pool, question_text) -> Judgement:
    """The open-domain readings (open_domain.py) where the words alone did not accept: the best accept they give,
    else a prompt over a reject, else a reject that names its kind over one that names none."""
    said = tokens(_FILLER.sub("", response, count=1)) or tokens(response)
    found = [ruled for candidate in pool if (ruled := reading(response, said, candidate, pool, question_text))]
    if not found:
        return judgement
    best = max(found, key=lambda ruled: (RANK[ruled[0]], ruled[1].confidence))[1]
    if best.verdict == ACCEPT or best.verdict == PROMPT and judgement.verdict == REJECT:
        return best
    if best.verdict == REJECT and judgement.verdict == REJECT and "(rule:" not in judgement.reason:
        return best
    return judgement


def _noting(judgement: Judgement, note: str) -> Judgement:
    return replace(judgement, reason=f"{judgement.reason} {note}")
