"""Word-by-word comparison of a response with one acceptable answer.

Says which words met (exactly, as another form of the word, through a typo, or as initials),
which answer words the response left out and which words it added. The judge turns that into a
ruling; this module knows nothing of answer lines or clauses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from rapidfuzz.distance import OSA

from game.judging import lexicon
from game.judging.names import is_given_name
from game.judging.numbers import decade, is_number
from game.judging.memo import memo

# Words that carry no identity of their own inside an answer ("Battle of Hastings").
FUNCTION_WORDS = frozenset({"of", "and", "in", "on", "for", "to", "by", "at", "from", "with", "or", "as"})

EXACT, FORM, TYPO, INITIALS, SHORT, VARIANT, ROUNDED, SPELLING, PLACE, WITHIN = (
    "exact", "word form", "typo", "initials", "short form", "transliteration", "rounded number", "other spelling",
    "place adjective", "year within")
SCORES = {EXACT: 1.0, FORM: 0.95, SHORT: 0.9, INITIALS: 0.9, SPELLING: 0.9, TYPO: 0.85, VARIANT: 0.85, ROUNDED: 0.8,
          PLACE: 0.85, WITHIN: 0.75}
# Matches that read the words as written; the others guess (see judge: exact beats fuzzy).
STRICT = frozenset({EXACT, FORM})

# Short forms of titles and place words that WordNet does not list ("St." for "Saint", "Mt.").
# Units ("cm", "mi", "kg") and "Dr."/"Mr." come from WordNet itself (lexicon.any_shared_sense).
ABBREVIATIONS = {
    "st": ("saint", "street"), "mt": ("mount", "mountain"), "ft": ("fort",), "pt": ("point", "port"),
    "jr": ("junior",), "sr": ("senior",), "gen": ("general",), "gov": ("governor",), "sen": ("senator",),
    "rep": ("representative",), "pres": ("president",), "prof": ("professor",), "capt": ("captain",),
    "col": ("colonel",), "lt": ("lieutenant",), "sgt": ("sergeant",), "adm": ("admiral",), "rev": ("reverend",),
    "hon": ("honorable",), "bros": ("brothers",), "co": ("company",), "corp": ("corporation",),
    "inc": ("incorporated",), "univ": ("university",), "dept": ("department",), "natl": ("national",),
    "intl": ("international",), "govt": ("government",), "assn": ("association",), "ave": ("avenue",),
    "rd": ("road",), "blvd": ("boulevard",), "vs": ("versus",), "no": ("number",), "vol": ("volume",),
    "ch": ("chapter",), "dr": ("doctor", "drive"), "mr": ("mister",), "sq": ("square",), "yd": ("yard",),
    "oz": ("ounce",),
}

# Plurals that no suffix rule reaches.
_IRREGULAR = {
    "men": "man", "women": "woman", "children": "child", "mice": "mouse", "feet": "foot", "people": "person",
    "geese": "goose", "teeth": "tooth", "oxen": "ox", "cacti": "cactus", "fungi": "fungus", "nuclei": "nucleus",
    "radii": "radius", "algae": "alga", "larvae": "larva", "phenomena": "phenomenon", "criteria": "criterion",
    "media": "medium", "bacteria": "bacterium", "data": "datum", "indices": "index", "matrices": "matrix",
    "axes": "axis", "crises": "crisis", "theses": "thesis", "vertices": "vertex", "wolves": "wolf",
    "leaves": "leaf", "lives": "life", "knives": "knife", "wives": "wife", "halves": "half",
}


@memo
def stem(word: str) -> str:
    """An inflectional stem: plurals and -ed/-ing forms meet ("lions"/"lion", "churches"/"church").

    Derived words ("convexity"/"convex") are left apart on purpose: answer lines say when they count.
    """
    word = _IRREGULAR.get(word, word)
    if len(word) <= 3 or is_number(word):
        return word  # "1980s" is a decade, not the plural of 1980
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]  # "stopped" -> "stop"
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


_DERIVATIONS = (
    "izations", "ization", "isations", "isation", "ational", "ations", "ation", "itions", "ition", "ions", "ion",
    "ivity", "ities", "ity", "nesses", "ness", "ments", "ment", "ors", "or", "ers", "er", "ives", "ive", "ically",
    "ical", "ics", "ic", "ally", "al", "ous", "isms", "ism", "ists", "ist", "ly", "ance", "ence", "ants", "ant",
    "ents", "ent", "able", "ible", "iz",
)


@memo
def deep_stem(word: str) -> str:
    """A derivational stem, for lines that accept "word forms": "superconductivity" -> "superconduct"."""
    word = stem(word)
    for _ in range(2):
        for suffix in _DERIVATIONS:
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                word = word[: -len(suffix)]
                break
        else:
            break
    return word.rstrip("eyi") if len(word) > 4 else word


def typo_allowance(length: int) -> int:
    """How many slips a word of this length may carry and still be the same word."""
    if length < 6:
        return 0
    if length < 10:
        return 1
    if length < 15:
        return 2
    return 3


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a swap of neighbours is one slip), from RapidFuzz; limit + 1 past limit."""
    return OSA.distance(a, b, score_cutoff=limit)


def _is_subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(char in letters for char in short)


@memo
def abbreviates(short: str, long: str) -> bool:
    """ "cm" for "centimeter", "st" for "saint": a short form spelt from the word's own letters."""
    if not (short and long and len(short) < len(long) and short[0] == long[0]):
        return False
    if (len(short) > 4 and short not in ABBREVIATIONS) or not _is_subsequence(short, long):
        return False
    if long in ABBREVIATIONS.get(short, ()) or stem(long) in ABBREVIATIONS.get(short, ()):
        return True
    return len(short) <= 4 and any(
        lexicon.any_shared_sense(form, base) for form in (short, short + ".") for base in {long, stem(long) + "e", stem(long)}
    ) if lexicon.index() is not None else False


def _significant(number: str) -> str:
    return number.replace(".", "").lstrip("0").rstrip("0")


def rounds_to(said: str, wanted: str) -> bool:
    """ "2.18 billion" for "2.187 billion": the answer's number rounded (or cut) to fewer significant digits.

    Only for large numbers (10,000 and up) with two or more significant digits, and never years.
    """
    try:
        a, b = Decimal(said), Decimal(wanted)
    except ArithmeticError:
        return False
    if not (a.is_finite() and b.is_finite()):
        return False  # "inf" and "nan" read as numbers by Decimal
    if b < 10000 or a < 10000 or len(str(int(a))) != len(str(int(b))):
        return False
    digits = len(_significant(said))
    if digits < 2 or digits >= len(_significant(wanted)):
        return False
    exponent = len(str(int(b))) - digits
    step = Decimal(10) ** exponent
    return a in ((b / step).to_integral_value(ROUND_HALF_UP) * step, (b / step).to_integral_value(ROUND_DOWN) * step)


def _decade_short(said: str, wanted: str) -> bool:
    """ "80s" for "1980s" (and back): the decade without its century."""
    a, b = decade(said), decade(wanted)
    return bool(a and b and a[1] != b[1] and a[0] % 100 == b[0] % 100)


def year_within(said: str, wanted: str) -> bool:
    """ "1965" for "1960s", "1350" for "1300s" (a century), "65" or "1965" for "60s": a year inside the decade or
    century the answer names, which is more precise than the answer (rule: year within)."""
    span = decade(wanted)
    if not said.isdigit() or len(said) not in (2, 4) or not span:
        return False
    start, century_given = span
    year = int(said) if century_given else int(said) % 100
    width = 100 if century_given and start % 100 == 0 else 10
    return start <= year < start + width


_DIGRAPHS = (("tch", "c"), ("sch", "s"), ("ph", "f"), ("kh", "h"), ("ch", "c"), ("sh", "s"), ("zh", "z"), ("ts", "z"),
             ("tz", "z"), ("dh", "d"), ("th", "t"), ("gh", "g"), ("ck", "c"), ("k", "c"), ("q", "c"), ("w", "v"),
             ("j", "y"), ("y", "i"))


@memo
def sound(word: str) -> str:
    """A name as transliterations hear it: a digraph as one letter, no final "h" after a vowel (an Arabic or Hebrew
    ending some spell and some leave out: "makkah"/"mecca", "kabah"/"kaaba"), no doubled letters."""
    for pair in _DIGRAPHS:
        word = word.replace(*pair)
    if len(word) > 3 and word[-1] == "h" and word[-2] in "aeiou":
        word = word[:-1]
    out = word[:1]
    for char in word[1:]:
        if char != out[-1]:
            out += char
    return out


@memo
def skeleton(word: str) -> str:
    """The consonants of a name as transliterations keep them: "muhammad"/"mohamad" -> "mhmd"."""
    heard = sound(word)
    out = heard[:1]
    for char in heard[1:]:
        if char not in "aeiou" and char != out[-1]:
            out += char
    return out


# British and American spellings of one word: colour/color, centre/center, sulphate/sulfate, anaemia/anemia.
_SPELLINGS = ((re.compile(r"our(s?)$"), r"or\1"), (re.compile(r"([^aeiou])re(s?)$"), r"\1er\2"),
              (re.compile(r"^sulph"), "sulf"), (re.compile(r"is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
              (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"), (re.compile(r"(?<=[a-z])(ae|oe)(?=[a-z])"), "e"),
              (re.compile(r"ll(ed|ing|er)$"), r"l\1"), (re.compile(r"ogue$"), "og"), (re.compile(r"ence$"), "ense"))


@memo
def american(word: str) -> str:
    """One spelling for the British and American forms of a word."""
    if len(word) < 5:
        return word
    for pattern, replacement in _SPELLINGS:
        word = pattern.sub(replacement, word)
    return word


def is_variant(said: str, wanted: str) -> bool:
    """Transliterations of one name (Mohamad/Muhammad, Ludmilla/Lyudmila, Sabbatai/Shabtai, Makkah/Mecca,
    Ka'bah/Kaaba: the apostrophe of a letter some alphabets have and English lacks is left out).

    The consonants must agree, and the letters, as written or as heard, may differ more the longer the name.
    """
    shorter = min(len(said), len(wanted))
    if shorter < 4 or not said.isalpha() or not wanted.isalpha() or skeleton(said) != skeleton(wanted):
        return False
    heard, meant = sound(said), sound(wanted)
    if min(len(heard), len(meant)) <= 5 and heard[-1] != meant[-1] and (heard[-1] in "aeiouy" or meant[-1] in "aeiouy"):
        return False  # "Maria" is not "Mario", nor "Paula" "Paul"; "Josef" is "Joseph"
    limit = max(2, shorter // 2)
    return min(edit_distance(said, wanted, limit), edit_distance(heard, meant, limit)) <= limit


@memo
def word_match(said: str, wanted: str, names: bool = False, forms: bool = False) -> str | None:
    """How one response word meets one answer word, or None; `names` allows transliterations, `forms` any form
    of the word (the line says "or word forms": "transport" for "transportation"), typos still read as typos."""
    if said == wanted:
        return EXACT
    if is_number(said) or is_number(wanted):
        if _decade_short(said, wanted):
            return SHORT
        if year_within(said, wanted):
            return WITHIN
        return ROUNDED if rounds_to(said, wanted) else None  # 1812 is not 1813
    said_stem, wanted_stem = stem(said), stem(wanted)
    if said_stem == wanted_stem or forms and deep_stem(said) == deep_stem(wanted):
        return FORM
    if len(said) >= 6 or len(wanted) >= 6:
        for a, b in ((said, wanted), (said_stem, wanted_stem)):
            shorter = len(a) if len(a) < len(b) else len(b)
            limit = 0 if shorter < 6 else 1 if shorter < 10 else 2 if shorter < 15 else 3  # typo_allowance
            if limit and abs(len(a) - len(b)) <= limit and OSA.distance(a, b, score_cutoff=limit) <= limit:
                return None if lexicon.different_words(said, wanted) else TYPO
    if said[0] == wanted[0] and (abbreviates(said, wanted) or abbreviates(wanted, said)):
        return SHORT
    if names and is_variant(said, wanted) and not lexicon.is_common(said):
        return VARIANT  # a common word is never a foreign name by its sound ("lied" is no "Lyod")
    if said[:2] == wanted[:2] and abs(len(said) - len(wanted)) <= 2 and american(said) == american(wanted):
        return SPELLING
    return None


def initials_of(words: tuple[str, ...]) -> set[str]:
    """The abbreviations a run of words may go by, with and without its small words."""
    every = "".join(word[0] for word in words)
    content = "".join(word[0] for word in words if word not in FUNCTION_WORDS)
    return {every, content}


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing a response's words with one answer's words."""

    pairs: tuple[tuple[str, str, str], ...]  # (response word, answer word(s), how)
    missing: tuple[str, ...]  # answer words the response did not give (small words left out)
    extra: tuple[str, ...]  # response words the answer does not have (small words left out)

    @property
    def score(self) -> float:
        return min((SCORES[how] for _, _, how in self.pairs), default=0.0)

    @property
    def complete(self) -> bool:
        return bool(self.pairs) and not self.missing and not self.extra

    hows: frozenset[str] = frozenset()  # the kinds of match other than exact, filled in from pairs

    def __post_init__(self) -> None:
        object.__setattr__(self, "hows", frozenset(how for _, _, how in self.pairs if how != EXACT))


def _initials_pairs(said: list[str], wanted: list[str], pairs: list, names: bool) -> None:
    """Match leftover abbreviations against leftover runs of words, in either direction. A letter of the
    answer stands for a word of the response only in a name ("J. Edgar Hoover"), not in "S-waves"."""
    for short_side, long_side, flip in ((said, wanted, False), (wanted, said, True)):
        for word in list(short_side):
            if not (len(word) <= 6 and word.isalpha()) or flip and len(word) == 1 and not names:
                continue
            shortest = 1 if len(word) == 1 else 2  # "j" may stand for "julius"; "jf" for two words
            for start in range(len(long_side)):
                if long_side[start][0] != word[0]:
                    continue  # a run's initials start with its first word's
                for end in range(start + shortest, min(len(long_side), start + 2 * len(word)) + 1):
                    run = tuple(long_side[start:end])
                    if word in initials_of(run):
                        short_side.remove(word)
                        del long_side[start:end]
                        run_text = " ".join(run)
                        pairs.append((run_text, word, INITIALS) if flip else (word, run_text, INITIALS))
                        break
                else:
                    continue
                break


_ORDER = {EXACT: 0, FORM: 1, SHORT: 2, SPELLING: 3, TYPO: 4, VARIANT: 5, ROUNDED: 6, PLACE: 7, WITHIN: 8}


def _run_pairs(left_said: list[str], left_wanted: list[str], pairs: list, flip: bool, how: str, sizes, may, meets) -> None:
    """Pair a leftover response word that may stand for a run (a quick test) with a run of leftover answer words
    (longest runs first) that meets(word, key) says it stands for, the run's words joined by "_" as WordNet writes them."""
    for word in list(left_said):
        if not may(word):
            continue
        for size in sizes:
            for start in range(len(left_wanted) - size + 1):
                if meets(word, "_".join(left_wanted[start:start + size])):
                    run = " ".join(left_wanted[start:start + size])
                    del left_wanted[start:start + size]
                    left_said.remove(word)
                    pairs.append((run, word, how) if flip else (word, run, how))
                    break
            else:
                continue
            break


def _place_pairs(left_said: list[str], left_wanted: list[str], pairs: list, flip: bool) -> None:
    """The adjective of a place for the place's name: "Italian unification" and "unification of Italy",
    "American flag" and "flag of the United States" (WordNet's pertainyms). Only beside words that
    already met, so "French" (the language) is never "France"."""
    _run_pairs(left_said, left_wanted, pairs, flip, PLACE, (3, 2, 1), lexicon.place_of, lambda word, key: key in lexicon.place_of(word))


def _compound_pairs(said: tuple[str, ...], left_said: list[str], left_wanted: list[str], pairs: list, flip: bool) -> None:
    """Two neighbouring words written as one: "space walk" and "spacewalks"."""
    if len(said) < 2:
        return
    starts = {target[:size] for target in left_wanted for size in (1, 2, 3)}  # "ox bow" and "oxbow" too
    for first, second in zip(said, said[1:]):
        if first[:3] not in starts or first not in left_said or second not in left_said:
            continue
        joined = stem(first + second)
        for target in left_wanted:
            if stem(target) == joined:
                left_said.remove(first)
                left_said.remove(second)
                left_wanted.remove(target)
                pair = (f"{first} {second}", target, FORM)
                pairs.append((pair[1], pair[0], FORM) if flip else pair)
                break


def _term_pairs(left_said: list[str], left_wanted: list[str], pairs: list, flip: bool) -> None:
    """The usual short form of a technical term inside a longer answer: "DNA polymerase" and "deoxyribonucleic
    acid polymerase", "ATP synthase" and "adenosine triphosphate synthase" (WordNet lists the short form and the
    term for one thing, the first sense of one among the first of the other)."""
    starts = {word[0] for word in left_wanted}

    def may(word: str) -> bool:
        return word[0] in starts and len(word) <= 6 and word.isalpha() and bool(lexicon.senses(word))

    def meets(word: str, key: str) -> bool:
        return key[0] == word[0] and lexicon.shared_sense(word, key)

    _run_pairs(left_said, left_wanted, pairs, flip, SHORT, (3, 2), may, meets)


def _slip_in_complete(said: str, wanted: str, answer: tuple[str, ...], pairs: list) -> bool:
    """ "Morgan le Fay" for "Morgan le Fey": one short word (three to five letters, too short for a typo alone)
    one slip from the answer's, when every other word of an answer of two or more met as written. Not a number,
    not two nouns WordNet tells apart ("Rod"/"Red"), not a given name at the start ("Paula"/"Paul", "Maria"/"Mario"),
    nor a vowel ending changed ("Bela"/"Belo") (rule: misspelt word)."""
    if said[0] != wanted[0] or not 3 <= min(len(said), len(wanted)) <= 5 or not (said.isalpha() and wanted.isalpha()):
        return False
    if len([w for w in answer if w not in FUNCTION_WORDS]) < 2 or any(how not in STRICT for _, _, how in pairs):
        return False
    if said[-1] != wanted[-1] and (said[-1] in "aeiouy" or wanted[-1] in "aeiouy"):
        return False
    if answer[0] == wanted and (is_given_name(said) or is_given_name(wanted)):
        return False
    return edit_distance(said, wanted, 1) <= 1 and not lexicon.different_words(said, wanted)


@memo
def _starts(words: tuple[str, ...], names: bool) -> frozenset[str]:
    found = {word[0] for word in words} | {word[1] for word in words if len(word) > 5}  # a first letter lost
    return frozenset(found | {skeleton(word)[:1] for word in words} if names else found)


def _may_meet(said: tuple[str, ...], wanted: tuple[str, ...], names: bool) -> bool:
    """A quick test before pairing words: some word starts alike on both sides, or both hold a number
    ("80s" and "1980s"), or one is the other written together. A long word may have lost its first
    letter ("ubstitution"); other misspelt first letters are not read."""
    if _starts(said, names) & _starts(wanted, names) or "".join(said) == "".join(wanted):
        return True
    return any(is_number(w) for w in said) and any(is_number(w) for w in wanted)


@memo
def compare(said: tuple[str, ...], wanted: tuple[str, ...], names: bool = False, forms: bool = False) -> Comparison:
    """Pair the response's words with the answer's, best matches first, order free.

    `names` says the answer is a proper name, whose spelling may vary by transliteration; `forms` that the
    line accepts any form of its words.
    """
    if not _may_meet(said, wanted, names):
        return Comparison((), tuple(w for w in wanted if w not in FUNCTION_WORDS), tuple(w for w in said if w not in FUNCTION_WORDS))
    # How each pair of words meets, computed once; then the best kinds are paired first.
    found = [(_ORDER[how], i, j, how) for i, word in enumerate(said) for j, target in enumerate(wanted)
             if (word[0] == target[0]
                 or (len(word) >= 6 or len(target) >= 6) and -3 <= len(word) - len(target) <= 3  # a typo, first letter and all
                 or word[0].isdigit()
                 or names and skeleton(word)[0] == skeleton(target)[0])  # a transliteration keeps its consonants
             and (how := word_match(word, target, names, forms))]
    used_said, used_wanted = set(), set()
    pairs: list[tuple[str, str, str]] = []
    for _, i, j, how in sorted(found):
        if i not in used_said and j not in used_wanted:
            used_said.add(i)
            used_wanted.add(j)
            pairs.append((said[i], wanted[j], how))
    left_said = [word for i, word in enumerate(said) if i not in used_said]
    left_wanted = [word for j, word in enumerate(wanted) if j not in used_wanted]
    if left_said and left_wanted:
        _compound_pairs(said, left_said, left_wanted, pairs, flip=False)
        _compound_pairs(wanted, left_wanted, left_said, pairs, flip=True)
    if pairs and left_said and left_wanted and lexicon.index() is not None:
        _place_pairs(left_said, left_wanted, pairs, flip=False)
        _place_pairs(left_wanted, left_said, pairs, flip=True)
    # A lone letter is never the initials of a longer answer ("H" for "Heinrich Böll"), nor a word the expansion
    # of an answer that is one letter ("Vagina" for "V").
    if left_said and left_wanted and not (len(said) == 1 and len(said[0]) == 1) and not (len(wanted) == 1 and len(wanted[0]) == 1):
        _initials_pairs(left_said, left_wanted, pairs, names)
    if left_said and left_wanted and len(left_said) + len(left_wanted) >= 3 and lexicon.index() is not None:
        _term_pairs(left_said, left_wanted, pairs, flip=False)  # a short form for a run of two or three words
        _term_pairs(left_wanted, left_said, pairs, flip=True)
    if len(left_said) == 1 and len(left_wanted) == 1 and _slip_in_complete(left_said[0], left_wanted[0], wanted, pairs):
        pairs.append((left_said.pop(), left_wanted.pop(), TYPO))
    if left_said and left_wanted and "".join(said) == "".join(wanted):
        # Compounds written apart or together: "space time" and "spacetime".
        return Comparison(((" ".join(said), " ".join(wanted), FORM),), (), ())
    missing = tuple(w for w in left_wanted if w not in FUNCTION_WORDS)
    extra = tuple(w for w in left_said if w not in FUNCTION_WORDS)
    return Comparison(tuple(pairs), missing, extra)
