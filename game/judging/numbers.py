"""Numbers and dates in one spelling, so "eighteen twelve" meets "1812" and "4th of July" meets "July 4".

Works on lists of lower-case tokens that normalize.py has already split; returns new lists.
"""
from __future__ import annotations

import re
from decimal import Decimal

from game.judging.memo import memo

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINAL_UNITS = "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
_ORDINAL_TENS = "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split()

SMALL = {word: n for n, word in enumerate(_UNITS)} | {word: n for n, word in enumerate(_ORDINAL_UNITS)}
TENS = {word: 20 + 10 * n for n, word in enumerate(_TENS)} | {word: 20 + 10 * n for n, word in enumerate(_ORDINAL_TENS)}
SCALES = {"hundred": 100, "hundredth": 100, "thousand": 1000, "thousandth": 1000, "million": 10**6, "millionth": 10**6,
          "billion": 10**9, "trillion": 10**12}
NUMBER_WORDS = set(SMALL) | set(TENS) | set(SCALES)

MONTHS = {
    name: name
    for name in "january february march april may june july august september october november december".split()
} | {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december",
}

_ORDINAL_DIGITS = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_DECIMAL_NUMBER = re.compile(r"^\d+\.\d+$")
_DECADE = re.compile(r"^(\d{2}|\d{4})s$")  # "1980s", "80s" (the apostrophe of "'80s" is gone already)
_DECADE_WORDS = {word + "ies": value for word, value in (("twent", 20), ("thirt", 30), ("fort", 40), ("fift", 50),
                                                         ("sixt", 60), ("sevent", 70), ("eight", 80), ("ninet", 90))}
_WORLD_WAR = re.compile(r"^ww(i{1,2}|[12])$")  # "WWII", "ww2"
_CENTURY = {"century", "centuries"}
_ROMAN = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_LETTERS = frozenset("mdclxvi")
_ROMAN_VALUES = {"m": 1000, "d": 500, "c": 100, "l": 50, "x": 10, "v": 5, "i": 1}
# Words that happen to be valid Roman numerals but are far more often words or name parts.
_NOT_ROMAN = {"mix", "di", "mi", "li", "ci", "dc", "cd", "md", "cv", "mcc", "dim", "lid", "mild", "civic", "vid",
              "cm", "mm", "ml", "cl", "dl", "mc", "xl", "cc", "dm",  # units and sizes, not numbers
              "dix", "liv"}  # names: Otto and Dorothea Dix, Liv Ullmann
_AFTER_NUMERAL = {"", "of", "and", "the", "de", "von", "van", "du"}


def roman_value(token: str) -> int | None:
    """The value of a Roman numeral token, or None when it is not one we should read as a number."""
    if not token or token in _NOT_ROMAN or not _ROMAN.match(token):
        return None
    total = 0
    for char, following in zip(token, token[1:] + " "):
        value = _ROMAN_VALUES[char]
        total += -value if following != " " and _ROMAN_VALUES[following] > value else value
    return total


def _compound_value(words: list[str]) -> int:
    """Value of number words with scales: "two hundred and five" -> 205."""
    total, current = 0, 0
    for word in words:
        if word in SCALES:
            scale = SCALES[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            current += SMALL.get(word, TENS.get(word, 0))
    return total + current


def _pairs(words: list[str]) -> list[int] | None:
    """Split scale-free number words into spoken groups: "nineteen eighty four" -> [19, 84]."""
    groups: list[int] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in TENS and i + 1 < len(words) and words[i + 1] in SMALL and 0 < SMALL[words[i + 1]] < 10:
            groups.append(TENS[word] + SMALL[words[i + 1]])
            i += 2
        elif word in ("oh", "zero") and groups and i + 1 < len(words) and words[i + 1] in SMALL:
            groups.append(SMALL[words[i + 1]])  # "nineteen oh five": the "oh" pads to two digits
            i += 2
        elif word in TENS:
            groups.append(TENS[word])
            i += 1
        elif word in SMALL:
            groups.append(SMALL[word])
            i += 1
        else:
            return None
    return groups


def _words_to_number(words: list[str]) -> str:
    if any(word in SCALES for word in words):
        return str(_compound_value(words))
    groups = _pairs(words) or [0]
    if len(groups) == 1:
        return str(groups[0])
    # Years and codes are said in pairs: "eighteen twelve" is 1812, "nineteen oh five" is 1905.
    return str(groups[0]) + "".join(f"{group:02d}" for group in groups[1:])


def _scaled(number: str, scale: int) -> str:
    """ "1.8" and a billion: "1800000000"; the value in its shortest exact digits."""
    value = Decimal(number) * scale
    return str(int(value)) if value == value.to_integral_value() else format(value.normalize(), "f")


def plain_decimal(token: str) -> str:
    """ "1.50" -> "1.5", "2.0" -> "2": one spelling for one value."""
    whole, _, fraction = token.partition(".")
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def short_forms(tokens: list[str]) -> list[str]:
    """Spell out the short forms numbers hide in: "ww2" is "world war 2"; "eighties" is "80s"."""
    out: list[str] = []
    for index, token in enumerate(tokens):
        if not (token.startswith("ww") or token.endswith("ies") or token[0].isdigit()):
            out.append(token)
            continue
        war = _WORLD_WAR.match(token)
        if war:
            out.extend(["world", "war", str(roman_value(war.group(1)) or war.group(1))])
        elif token == "ww" and index + 1 < len(tokens):
            out.extend(["world", "war"])
        elif token in _DECADE_WORDS:
            out.append(f"{_DECADE_WORDS[token]}s")
        elif _DECIMAL_NUMBER.match(token):
            out.append(plain_decimal(token))
        else:
            out.append(token)
    return out


@memo
def decade(token: str) -> tuple[int, bool] | None:
    """ "1980s" -> (1980, True); "80s" -> (80, False): the decade and whether its century is given."""
    match = _DECADE.match(token)
    return (int(match.group(1)), len(match.group(1)) == 4) if match else None


@memo
def is_number(token: str) -> bool:
    return token.isdigit() or bool(_DECIMAL_NUMBER.match(token)) or decade(token) is not None


def _centuries(tokens: list[str]) -> list[str]:
    """ "14th century" is the 1300s: one spelling for both."""
    out: list[str] = []
    for token in tokens:
        if token in _CENTURY and out and out[-1].isdigit() and 1 <= int(out[-1]) <= 21:
            out[-1] = f"{int(out[-1]) - 1}00s" if int(out[-1]) > 1 else "0s"
            continue
        out.append(token)
    return out


def _may_hold_number(token: str) -> bool:
    return (token[0].isdigit() or token in NUMBER_WORDS or token.startswith("ww") or token.endswith("ies")
            or _ROMAN_LETTERS.issuperset(token))


def numbers_to_digits(tokens: list[str]) -> list[str]:
    """Replace runs of number words, ordinals and Roman numerals with digit strings."""
    if not any(_may_hold_number(token) for token in tokens):
        return list(tokens)  # most answers hold no number: nothing to rewrite
    return _centuries(_numbers_to_digits(short_forms(tokens)))


def _numbers_to_digits(tokens: list[str]) -> list[str]:
    out: list[str] = []
    run: list[str] = []

    def flush():
        if run:
            out.append(_words_to_number(run))
            run.clear()

    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in SCALES and not run and out and (out[-1].isdigit() or _DECIMAL_NUMBER.match(out[-1])):
            out[-1] = _scaled(out[-1], SCALES[token])  # "1 billion" is "one billion"; "1.8 billion" too
            continue
        if token in NUMBER_WORDS or (token == "oh" and run and following in SMALL):
            run.append(token)
            continue
        if token == "and" and run and following in NUMBER_WORDS:
            continue  # "two hundred and five"
        flush()
        if token[0].isdigit():
            ordinal = _ORDINAL_DIGITS.match(token)
            if ordinal:
                out.append(ordinal.group(1))
                continue
            if token.isdigit() and len(token) > 1 and token[0] == "0":
                out.append(str(int(token)))  # "09" in a date is 9
                continue
        # A lone "i", "v" or "x" is a numeral only after a word ("World War I", "Henry V").
        # ... and not before another name ("Gaudí i Cornet", where "i" is Catalan "and").
        lone = len(token) == 1 and (not out or following not in _AFTER_NUMERAL)
        roman = roman_value(token) if not lone and _ROMAN_LETTERS.issuperset(token) else None
        out.append(str(roman) if roman is not None else token)
    flush()
    return out


def _month(tokens: list[str], index: int) -> str | None:
    """The month a token names; abbreviations count only beside a number ("jul 4", "4 jul")."""
    token = tokens[index] if 0 <= index < len(tokens) else ""
    month = MONTHS.get(token)
    if month is None or month == token:
        return month
    beside = [tokens[j] for j in (index - 1, index + 1) if 0 <= j < len(tokens)]
    return month if any(word.isdigit() for word in beside) else None


def dates_to_month_first(tokens: list[str]) -> list[str]:
    """Write day-month dates month first: "4 of july" and "4 jul" both become "july 4"."""
    if not any(token in MONTHS for token in tokens):
        return list(tokens)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.isdigit() and len(token) <= 2:
            after = i + 2 if i + 2 < len(tokens) and tokens[i + 1] == "of" else i + 1
            month = _month(tokens, after) if after < len(tokens) else None
            if month:
                out.extend([month, token])
                i = after + 1
                continue
        out.append(_month(tokens, i) or token)
        i += 1
    return out


_MONTH_NAMES = "january february march april may june july august september october november december".split()
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")


def _spelled_date(month: int, day: int, year: str) -> str:
    return f" {_MONTH_NAMES[month - 1]} {day} {year} " if 1 <= month <= 12 and 1 <= day <= 31 else None


def spell_numeric_dates(text: str) -> str:
    """ "10/09/2001" -> "october 9 2001" (month first, as in the US, unless the first number cannot be a month);
    "2001-10-09" -> "october 9 2001"."""
    def numeric(match: re.Match) -> str:
        first, second, year = int(match.group(1)), int(match.group(2)), match.group(3)
        month, day = (first, second) if first <= 12 else (second, first)
        return _spelled_date(month, day, year) or match.group(0)

    def iso(match: re.Match) -> str:
        return _spelled_date(int(match.group(2)), int(match.group(3)), match.group(1)) or match.group(0)

    if "/" in text or "." in text:
        text = _NUMERIC_DATE.sub(numeric, text)
    if "-" in text:
        text = _ISO_DATE.sub(iso, text)
    return text


def _is_year(token: str) -> bool:
    return token.isdigit() and 3 <= len(token) <= 4 and int(token) <= 2100


def date_parts(tokens) -> tuple[str | None, str | None, str | None] | None:
    """(year, month, day) of canonical tokens that hold a date ("july 4 1776"); None if they hold none.

    A number alone counts as a year only with three or four digits.
    """
    year = month = day = None
    for index, token in enumerate(tokens):
        if token in _MONTH_NAMES:
            month = token
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            if following.isdigit() and len(following) <= 2:
                day = following
        elif _is_year(token) and year is None:
            year = token
    if month is None and (year is None or len(tokens) != 1):
        return None
    return year, month, day
