"""One canonical spelling for answers, so case, accents, punctuation, articles and number forms never decide a ruling.

`squad_normalize` is the exact SQuAD/NQ rule for reference lists; `tokens` is the richer form the
judge compares word by word.
"""
from __future__ import annotations

import html
import re
import string
import unicodedata

from game.judging.numbers import dates_to_month_first, numbers_to_digits, spell_numeric_dates
from game.judging.memo import memo

ARTICLES = frozenset({"a", "an", "the"})
_SQUAD_PUNCT = set(string.punctuation)
_SQUAD_ARTICLES = re.compile(r"\b(a|an|the)\b")
_FOLD = str.maketrans({
    "ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
    "ł": "l", "Ł": "L", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i",
    "‘": "'", "’": "'", "ʻ": "'", "ʼ": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-",
})
_POSSESSIVE = re.compile(r"(?<!\d)'s\b")  # "1960's" is the 1960s
_INITIAL_DOT = re.compile(r"(?<=[a-z])\.(?=\s*[a-z])")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_DOTTED_THOUSANDS = re.compile(r"\b\d{1,3}(?:\.\d{3}){2,}\b")  # "7.826.367"; "2.187" stays a decimal
# Words of any script ("Άργος", "Москва"), and decimal numbers whole ("1.8").
_WORDS = re.compile(r"\d+\.\d+|[^\W_]+")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def squad_normalize(text: str) -> str:
    """SQuAD's answer normalisation: lower case, no punctuation, no a/an/the, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _SQUAD_PUNCT)
    return " ".join(_SQUAD_ARTICLES.sub(" ", text).split())


def fix_mojibake(text: str) -> str:
    """Undo UTF-8 read as Windows-1252 ("GÃ©rÃ´me"), which some question sets carry."""
    if "Ã" in text or "Â" in text:
        try:
            return text.encode("cp1252").decode("utf-8")
        except UnicodeError:
            return text
    return text


def clean_text(text: str) -> str:
    """Decode what question sets and typed answers carry by accident: HTML entities ("&amp;"),
    literal "\\u00e9" escapes and mojibake ("GÃ©rÃ´me")."""
    if "\\u" in text:
        text = _ESCAPE.sub(lambda match: chr(int(match.group(1), 16)), text)
    if "&" in text:
        text = html.unescape(text)
    return fix_mojibake(text)


def fold(text: str) -> str:
    """Lower case without accents: "Gérôme" -> "gerome", "Søren" -> "soren"."""
    text = clean_text(text)
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _merge_initials(words: list[str]) -> list[str]:
    """Join runs of single letters, so "J. F. Kennedy" reads as "jf kennedy" and "U.S.A." as "usa"."""
    out: list[str] = []
    run = ""
    for word in words:
        if len(word) == 1 and word.isalpha():
            run += word
            continue
        if run:
            out.append(run)
            run = ""
        out.append(word)
    if run:
        out.append(run)
    return out


@memo
def _words(text: str) -> tuple[str, ...]:
    text = spell_numeric_dates(fold(text)).replace("&", " and ")
    text = _POSSESSIVE.sub("", text).replace("'", "")
    text = _THOUSANDS.sub("", _INITIAL_DOT.sub(" ", text))  # "1,812" -> "1812"; "e.b." -> "e b"
    if "." in text:
        text = _DOTTED_THOUSANDS.sub(lambda match: match.group(0).replace(".", ""), text)
    return tuple(_merge_initials(_WORDS.findall(text)))


def spelled_words(text: str) -> tuple[str, ...]:
    """The canonical words of a text with its articles ("the lord of the rings"), for initialisms."""
    return _words(text)


@memo
def tokens(text: str) -> tuple[str, ...]:
    """The canonical words of a text, articles dropped, numbers and dates in one form."""
    words = _words(text)
    # A final "a" is a letter, not an article: "vitamin a", "hepatitis a".
    words = [w for i, w in enumerate(words) if w not in ARTICLES or (w == "a" and i == len(words) - 1 and i)]
    return tuple(dates_to_month_first(numbers_to_digits(words)))


def articles(text: str) -> tuple[str, ...]:
    """The articles a text spells, in order: a rejection clause that spells one means it."""
    return tuple(word for word in _words(text) if word in ARTICLES)


def plain(text: str) -> str:
    """The canonical words joined by spaces, for display and exact comparison."""
    return " ".join(tokens(text))
