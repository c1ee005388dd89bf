"""Dates and spans as stretches of time, so a date inside a reference's span, or a span around its date, is seen.

`period()` reads the canonical words of a text ("may to august 1650", "around 640 bce", "early 1900s",
"summer of 1650", "2016 17") into the first and last day it can mean, and `relation()` says how a
response's stretch stands to a reference's: the same, inside it, around it, or apart.
"""
from __future__ import annotations

from dataclasses import dataclass

from game.judging.numbers import MONTHS, decade
from game.judging.memo import memo

# Words that make a date approximate without moving it ("around 640 BCE", "c. 1650").
APPROXIMATORS = frozenset("around about circa c ca approximately approx roughly nearly some sometime".split())
# Words that only frame a date ("during the 1950s", "in the summer of 1650", "from 1939 to 1945").
FRAMES = frozenset("in during on of year years from between ad ce".split())
# Words between the two ends of a span ("may to august", "1939 and 1945"; a dash is gone from the words).
LINKS = frozenset("to until till through thru and".split())
ERAS_BEFORE = frozenset({"bc", "bce"})
ERAS = ERAS_BEFORE | {"ad", "ce"}  # a year of one or two digits is a year only with its era ("AD 79", "44 BC")
# The months of each season, as the northern hemisphere has them (winter runs into the next year).
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 14)}
# A part of a stretch: its first, middle or last third ("the early 1900s", "mid-1950s", "late 1967").
PARTS = {"early": 0, "mid": 1, "middle": 1, "late": 2}
_MONTH_DAYS = 31


@dataclass(frozen=True)
class Period:
    """The first and last day a text can mean, as (year, month, day) ordinals, and how it said so."""

    start: int
    end: int
    approximate: bool = False  # "around", "circa"
    vague: bool = False  # a part or a season: "the early 1900s", "the summer of 1650"
    span: bool = False  # two ends given: "May to August 1650", "1939-1945"

    @property
    def years(self) -> int:
        return self.end // 10000 - self.start // 10000 + 1


def _day(year: int, month: int, day: int) -> int:
    return year * 10000 + month * 100 + day


@dataclass
class _Point:
    year: int | None = None
    years: tuple[int, int] | None = None  # a decade or a century: first and last year
    month: int | None = None
    day: int | None = None
    season: str | None = None
    part: int | None = None
    before_era: bool = False

    def empty(self) -> bool:
        return self.year is None and self.years is None and self.month is None and self.season is None


def _bounds(point: _Point, year: int | None) -> tuple[int, int] | None:
    """The first and last day of one end, its year lent by the other end when it gives none ("May to August 1650")."""
    first_year, last_year = point.years or ((year, year) if year is not None else (None, None))
    if first_year is None:
        return None
    if point.before_era:
        first_year, last_year = -last_year, -first_year
    if point.month:
        start, end = _day(first_year, point.month, point.day or 1), _day(last_year, point.month, point.day or _MONTH_DAYS)
        if point.part is not None and not point.day:
            start, end = (_day(first_year, point.month, 1 + 10 * point.part),
                          _day(first_year, point.month, 10 + 10 * point.part if point.part < 2 else _MONTH_DAYS))
        return start, end
    if point.season:
        first, last = SEASONS[point.season]
        return _day(first_year, first, 1), _day(last_year + (last > 12), (last - 1) % 12 + 1, _MONTH_DAYS)
    if point.part is not None:
        if first_year == last_year:  # "late 1967": a third of the year
            return _day(first_year, 1 + 4 * point.part, 1), _day(first_year, 4 + 4 * point.part, _MONTH_DAYS)
        third = (last_year - first_year + 1) / 3
        return (_day(first_year + round(third * point.part), 1, 1),
                _day(first_year + round(third * (point.part + 1)) - 1, 12, _MONTH_DAYS))
    return _day(first_year, 1, 1), _day(last_year, 12, _MONTH_DAYS)


def _read(words: tuple[str, ...]) -> tuple[list[_Point], bool] | None:
    """The one or two ends the words give, and whether they are approximate; None for words that are no date."""
    points, approximate = [_Point()], False
    for word in words:
        point = points[-1]
        if word in APPROXIMATORS:
            approximate = True
        elif word in FRAMES:
            continue
        elif word in LINKS:
            if point.empty() or len(points) == 2:
                return None
            points.append(_Point())
        elif word in ERAS_BEFORE:
            point.before_era = True
            if len(points) == 2 and points[0].year is not None and not points[0].before_era:
                points[0].before_era = True  # "640-600 BC": both ends
        elif word in PARTS and point.empty():
            point.part = PARTS[word]
        elif word in SEASONS and point.empty():
            point.season = word
        elif MONTHS.get(word) == word:
            if point.month is not None or point.year is not None or point.years:
                if len(points) == 2:
                    return None
                points.append(point := _Point())  # "may august 1650": the dash between them is gone
            point.month = list(MONTHS).index(word) + 1
        elif not word.isdigit():
            span = decade(word)
            if not span or not span[1] or point.year is not None or point.years:
                return None  # "50s" says no century
            start = span[0]
            point.years = (start, start + (99 if start % 100 == 0 and start >= 100 else 9))
        elif len(word) <= 2 and point.month is not None and point.day is None and point.year is None and 1 <= int(word) <= 31:
            point.day = int(word)
        elif point.year is not None or point.years:
            if len(points) == 2:
                return None
            following = _Point()
            if len(word) == 2 and point.year is not None and point.year >= 100:
                # "2016-17": the end's century is the start's
                following.year = point.year // 100 * 100 + int(word)
                if following.year <= point.year:
                    return None
            elif 3 <= len(word) <= 4:
                following.year = int(word)
            else:
                return None
            points.append(following)
        elif 3 <= len(word) <= 4 and int(word) <= 2100 or len(word) <= 2 and len(points) == 1 and ERAS & set(words):
            point.year = int(word)
        else:
            return None
    if points[-1].empty() or not any(p.year is not None or p.years for p in points):
        return None
    return points, approximate


@memo
def period(words: tuple[str, ...]) -> Period | None:
    """The stretch of time canonical words name, or None when they are not (only) a date: "may to august 1650"
    is May 1 to August 31, 1650; "around 640 bce" the year 640 BC, approximately; "1812 overture" no date."""
    read = _read(words)
    if read is None:
        return None
    points, approximate = read
    lent = next((p.year for p in reversed(points) if p.year is not None), None)
    ends = [_bounds(point, point.year if point.year is not None else lent) for point in points]
    if any(end is None for end in ends) or ends[-1][1] < ends[0][0]:
        return None
    vague = any(point.part is not None or point.season for point in points)
    return Period(ends[0][0], ends[-1][1], approximate, vague, len(points) == 2)


SAME, INSIDE, AROUND, APART, OVERLAP = "same", "inside", "around", "apart", "overlap"


def relation(said: Period, wanted: Period) -> str:
    """How the response's stretch stands to the reference's: the same, inside it, around it, apart, or overlapping."""
    if said.start == wanted.start and said.end == wanted.end:
        return SAME
    if said.start >= wanted.start and said.end <= wanted.end:
        return INSIDE
    if said.start <= wanted.start and said.end >= wanted.end:
        return AROUND
    if said.end < wanted.start or said.start > wanted.end:
        return APART
    return OVERLAP


def describe(text: str) -> str:
    """A reference's text for a reason, with a dash for its span's link: "May to August 1650" -> "May–August 1650"."""
    words = text.split()
    return " ".join("–" if word.lower() in ("to", "until", "till", "through", "thru") and 0 < i < len(words) - 1 else word
                    for i, word in enumerate(words)).replace(" – ", "–")
