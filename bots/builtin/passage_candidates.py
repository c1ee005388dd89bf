"""Candidate answers a reader can pull out of a passage, by the type of answer the question asks for.

Years for "what year", dates and years for "when", numbers for "how many", capitalised name spans for people, places and
things. Without a trained reader these patterns are what turn retrieved text into short answers.
"""
import re

from bots.text import normalize_answer

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATE = re.compile(
    rf"\b(?:\d{{1,2}} (?:{_MONTHS})(?:,? \d{{3,4}})?|(?:{_MONTHS}) \d{{1,2}}(?:st|nd|rd|th)?(?:, \d{{3,4}})?"
    rf"|(?:{_MONTHS}) \d{{4}}|\d{{3,4}}s?(?: (?:BC|BCE|AD|CE))?)\b"
)
_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")
_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion"
)
_NUMBER = re.compile(
    rf"\b(?:\d+(?:[.,]\d+)*(?: (?:million|billion|thousand|hundred|percent))?|(?:{_NUMBER_WORDS}))\b", re.I
)
_NAME_WORD = r"[A-Z][\w'\u2019\-]*"
_NAME = re.compile(rf"\b{_NAME_WORD}(?:\s+(?:(?:of|the|de|da|del|von|van|der|la|le|du)\s+)*{_NAME_WORD})*")
_NOT_NAMES = {
    "the", "a", "an", "in", "on", "at", "for", "this", "that", "these", "those", "he", "she", "it", "they",
    "his", "her", "its", "their", "one", "after", "before", "during", "when", "while", "with", "by", "from",
    "as", "if", "name", "points", "for 10 points", "ftp", "i", "we", "you", "and", "but", "or", "what", "who",
    *_MONTHS.lower().split("|"),
}


def _names(text: str) -> list[str]:
    found = []
    for match in _NAME.finditer(text):
        span = re.sub(r"^(?:The|A|An)\s+", "", match.group(0))
        if span.lower() not in _NOT_NAMES and len(span) > 1:
            found.append(span)
    return found


def extract(text: str, answer_type: str) -> list[str]:
    """Distinct candidate spans of the wanted type in text, in order of first appearance."""
    if answer_type == "year":
        spans = _YEAR.findall(text)
    elif answer_type == "date":
        spans = _DATE.findall(text)
    elif answer_type == "number":
        spans = _NUMBER.findall(text)
    else:
        spans = _names(text)
    seen, unique = set(), []
    for span in spans:
        key = normalize_answer(span)
        if key and key not in seen:
            seen.add(key)
            unique.append(span)
    return unique


def in_question(candidate: str, question_words: set[str]) -> bool:
    """A candidate made only of words the question already uses is not its answer."""
    words = normalize_answer(candidate).split()
    return bool(words) and all(w in question_words for w in words)
