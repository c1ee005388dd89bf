"""Read a quizbowl answer line into its parts, so the judge and the moderator's screen share one reading.

An answer line such as
    <b><u>spin</u></b> angular momentum [or {spin}; prompt on "angular momentum" before mention;
    do not accept "orbital angular momentum"]
becomes the main answer, its required part(s), and clauses that each say accept, prompt or reject
some texts, perhaps only before/until/after something is read, perhaps with a directed prompt.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace

from game.judging.normalize import clean_text
from game.judging.memo import memo

ACCEPT, PROMPT, REJECT = "accept", "prompt", "reject"
MORE_SPECIFIC = "Can you be more specific?"
LESS_SPECIFIC = "Can you be less specific?"

# Leading words that say what a clause does; order matters (longest, most specific first).
_KEYWORDS: tuple[tuple[re.Pattern, str, str | None], ...] = tuple(
    (re.compile(pattern, re.I), kind, question)
    for pattern, kind, question in (
        (r"^(?:but\s+)?(?:do\s+not|don'?t|never)\s+(?:accept|take)(?:\s+or\s+prompt(?:\s+on)?)?\b", REJECT, None),
        (r"^(?:but\s+)?(?:do\s+not|don'?t)\s+prompt(?:\s+on)?\b", REJECT, None),
        (r"^(?:reject|no\s+credit\s+for)\b", REJECT, None),
        (r"^anti-?\s?prompt(?:\s+on)?\b", ACCEPT, LESS_SPECIFIC),
        (r"^prompt\s+to\s+be\s+less\s+specific(?:\s+on)?\b", ACCEPT, LESS_SPECIFIC),
        (r"^(?:also\s+|and\s+)?prompt(?:\s+on)?\b", PROMPT, None),
        (r"^(?:also\s+|and\s+)?(?:accept|take)\b", ACCEPT, None),
        (r"^or\b", ACCEPT, None),
    )
)
_KIND_WORD = r"(?:do\s+not|don'?t|accept|prompt|reject|anti-?\s?prompt)\b"  # a word that starts a clause of its own
_DIRECTIVE_START = re.compile(r"^\s*(?:or\b|also\b|take\b|%s)" % _KIND_WORD, re.I)
_SPLIT_KIND_CHANGE = re.compile(r"\s*[,;]?\s+(?:but|and)\s+(?=%s)|\s*,\s+(?=%s)" % (_KIND_WORD, _KIND_WORD), re.I)
_DIRECTED = re.compile(r"\s*,?\s*(?:by|and|then)?\s*asking(?:\s+for)?\s+(.+)$|\s*,?\s*with\s+[\"“]([^\"”]+\?)[\"”]\s*$", re.I)
_QUALIFIER = re.compile(
    r"\s*,?\s+((?:only\s+)?(?:before|until|till|after|during|once)\b.*|throughout|afterwards?|thereafter)\s*$", re.I
)
# A qualifier speaks of the reading ("until it is read", 'before "Crimea"'); "the day before" does not.
_HINTS = ("mention", "read", "said", "given", "[\"“']", r"\bit\b", r"\bthey\b", r"\bthe\b", "sentence", "clue", "word", "end",
          "first", "last", r"^(?:afterwards?|thereafter|throughout|before|after)$")
_QUALIFIER_HINT = re.compile("|".join(_HINTS), re.I)
_PARTIAL = re.compile(r"^(?:on\s+)?(?:a\s+)?partial(?:\s+answers?)?\b|^(?:on\s+)?either\s+(?:of\s+the\s+)?(?:underlined|partial)", re.I)
_EITHER = re.compile(
    r"^(?:either|any\s+(?:of\s+the\s+)?underlined)(?:\s+(?:of\s+the\s+)?(?:underlined\s+)?"
    r"(?:names?|parts?|portions?|answers?|words?|halves|half|terms?))?(?:\s+alone)?(?:\s+(?:as\s+well\s+as|and|or)\b)?\s*,?", re.I)
# "{accept either underlined portion]": a brace opened where a bracket was meant.
_MISMATCHED_BRACE = re.compile(r"\{(\s*(?:or\b|%s)[^{}\[\]]*)\]" % _KIND_WORD, re.I)
# Clauses that describe answers rather than give them ("accept any answer indicating ...").
_DESCRIPTIONS = ("any", "answers?", "obvious", "equivalents?", r"word\s+forms?", "other", "similar", "synonyms?", "specific",
                 "related", "descriptions?", "descriptive", "things", r"more\s+specific", r"less\s+specific", "vaguer",
                 "variations?", "forms?", r"in\s+either\s+order", "reasonable", "anything", "responses?")
_DESCRIPTIVE = re.compile(r"^(?:%s)\b" % "|".join(_DESCRIPTIONS), re.I)
_WORD_FORMS = re.compile(r"\b(?:word|other|any)\s+forms?\b", re.I)
_EXAMPLES = re.compile(r"(?:such\s+as|like|e\.g\.,?|including)\s+(.+)$", re.I)
# "any answer about X", "anything that mentions X": an answer containing X counts, as the directive says.
_ABOUT = re.compile(r"^(?:any(?:thing|\s+answers?|\s+responses?)|answers?)\s+(?:that\s+|which\s+)?"
                    r"(?:is\s+|are\s+)?(?:about|mentions?|mentioning|involving|involves?|includes?|including|containing|contains?|with)\s+(.+)$", re.I)
# "Solow in combination with any of the other names": the clause makes its text with any other name sufficient.
_COMBINED = re.compile(r"^(.+?)\s+(?:in\s+combination|combined|together|along)\s+with\s+(?:any|one|some)\s+(?:one\s+)?(?:of\s+)?"
                       r"(?:the\s+)?other\s+(?:names?|words?|parts?|terms?|people|scientists|economists)\b", re.I)
_AND = re.compile(r"\s+and\s+", re.I)  # examples of word forms: "such as alveolus and alveolar"
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_LIST_SPLIT = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+", re.I)
_PRONUNCIATION = re.compile(r"^[\w\s\"“”'’-]+$")
_PRONUNCIATION_HINT = re.compile(r"\b[A-Z]{2,}\w*-|-[A-Z]{2,}|[\"“”]\w+[\"“”]-|-[\"“]", re.U)
_TAG = re.compile(r"<(u|b|strong|em|i|req)\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_REQUIRED_TAGS = ("u", "b", "strong", "req")
# A required span, marked \x01...\x02, with the letters of its word either side ("<u>chimp</u>anzees").
_SPAN = re.compile(r"([^\W_]*)\x01([^\x01\x02]*)\x02([^\W_]*)")
# Words a clause adds about its text that are not part of it: "prompt on Louis alone", "just Pedro".
_ALONE = re.compile(r"\s+(?:alone|by\s+itself|on\s+its\s+own|by\s+themselves)$|^(?:just|only|simply)\s+", re.I)
# Short bracketed words inside an answer are optional: "(tuned) mass dampers", "The (Holy) Grail".
_INLINE_GROUP = re.compile(r"[(\[]([^()\[\]{};]{1,40})[)\]](?=\s*(?:<[^>]+>\s*)*[\w\"“'])")
OPTIONAL_OPEN, OPTIONAL_CLOSE = "\u2985", "\u2986"
_OPTIONAL = re.compile(OPTIONAL_OPEN + r"([^" + OPTIONAL_CLOSE + r"]*)" + OPTIONAL_CLOSE)
_MAIN_OR = re.compile(r"\s+or\s+|\s+/\s+")
_BARE_LATER = re.compile(r"^(?:afterwards?|thereafter|after(?:\s+that)?|later)$", re.I)
_BARE_EARLIER = re.compile(r"^(?:before(?:\s+that|\s+then)?|earlier)$", re.I)
_POINT = re.compile(r"^(?:only\s+)?(?:before|until|till|prior\s+to|after|once)\s+(.*)$", re.I)
_ANY_TAG = re.compile(r"</?[a-z][^>]*>", re.I)
_BRACES = re.compile(r"\{([^{}]*)\}")
_CAPS_WORD = re.compile(r"\b[A-Z][A-Z'’.-]*[A-Z]\b")
_ROMAN = re.compile(r"^[IVXLCDM]+$")
_ANSWER_PREFIX = re.compile(r"^\s*answer\s*:\s*", re.I)
_PRONOUNS = {"it", "them", "they", "this", "that", "either", "both"}


@dataclass(frozen=True)
class Clause:
    """One instruction of an answer line: accept, prompt on or reject these texts."""

    kind: str  # accept | prompt | reject
    texts: tuple[str, ...]
    qualifier: str | None = None  # "before mention", 'until "Crimea" is read', ...
    prompt_question: str | None = None  # what to ask on a directed prompt
    note: str | None = None  # descriptive instructions no text can stand for ("any answer indicating ...")
    raw: str = ""
    required: tuple[tuple[str, ...], ...] = ()  # per text: the parts the line underlines in it (none: all of it)
    contains: bool = False  # "accept any answer about <u>apes</u>": an answer containing the text counts
    anti_prompt: bool = False  # the text is more specific than the answer: accept it, and the line says so
    combined: bool = False  # "Solow in combination with any of the other names": the text with any other word of the answer


@dataclass(frozen=True)
class AnswerLine:
    raw: str
    main: str
    required: tuple[str, ...]
    required_source: str  # braces | markup | caps | comma | colon | whole
    clauses: tuple[Clause, ...] = ()
    accept_either: bool = False
    prompt_on_partial: bool = False
    word_forms: bool = False  # the line accepts other forms of the words ("or word forms")
    notes: tuple[str, ...] = field(default=())  # parenthetical remarks and pronunciation guides
    alternatives: tuple[tuple[str, tuple[str, ...], str], ...] = ()  # the main answer's own "A or B": (text, required, source)
    no_partial: bool = False  # "do not prompt on partial answers"

    @property
    def required_marked(self) -> bool:
        return self.required_source in ("braces", "markup", "caps")

    def texts(self, kind: str) -> list[str]:
        return [text for clause in self.clauses if clause.kind == kind for text in clause.texts]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["required_marked"] = self.required_marked
        return data


def _top_level_groups(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split off bracketed groups at the outer level: (text outside, [(opening bracket, inside)])."""
    closing = {"[": "]", "(": ")"}
    outside, groups = [], []
    depth, opener, start = 0, "", 0
    for index, char in enumerate(text):
        if depth == 0 and char in closing:
            depth, opener, start = 1, char, index + 1
        elif depth and char == opener:
            depth += 1
        elif depth and char == closing[opener]:
            depth -= 1
            if depth == 0:
                groups.append((opener, text[start:index]))
        elif depth == 0:
            outside.append(char)
    if depth:  # an unclosed bracket: read the rest as a group anyway
        groups.append((opener, text[start:]))
    return "".join(outside), groups


def _clean(text: str) -> str:
    text = _ANY_TAG.sub("", text).replace("{", "").replace("}", "").replace("\x01", "").replace("\x02", "")
    text = text.replace(OPTIONAL_OPEN, "").replace(OPTIONAL_CLOSE, "")
    return " ".join(text.split()).strip(" ,;:.\"“”")


def optional_forms(text: str) -> list[str]:
    """A text with its optional words and without them: "(tuned) mass dampers" is both."""
    if OPTIONAL_OPEN not in text:
        return [text]
    without = " ".join(_OPTIONAL.sub(" ", text).split())
    return [_clean(text), _clean(without)]


def _mark_optional(text: str) -> str:
    """Mark short bracketed words that sit inside an answer (not directives, not pronunciations) as optional."""
    def mark(match: re.Match) -> str:
        inside = match.group(1)
        if len(inside.split()) > 3 or _DIRECTIVE_START.match(inside) or _is_pronunciation(inside) or inside.strip() == "*":
            return match.group(0)
        return OPTIONAL_OPEN + inside + OPTIONAL_CLOSE
    return _INLINE_GROUP.sub(mark, text)


def _is_pronunciation(piece: str) -> bool:
    piece = piece.strip()
    return (
        not _DIRECTIVE_START.match(piece)
        and len(piece.split()) <= 4
        and bool(_PRONUNCIATION.match(piece))
        and bool(_PRONUNCIATION_HINT.search(piece))
    )


_OPENING_QUOTES, _CLOSING_QUOTES = "\"“", "\"”"
_CUT = re.compile(r"\s+(?:with|if|when|as\s+long\s+as|provided|because|since)\s+.*$|[\"“].*$", re.I)


def _segments(rest: str) -> list[str]:
    """Split a list of texts at "," and "or", but never inside quotes ("combat," "fighting," etc.)."""
    pieces, current, quoted = [], "", False
    index = 0
    while index < len(rest):
        char = rest[index]
        if char in _OPENING_QUOTES and not quoted:
            quoted = True
        elif char in _CLOSING_QUOTES and quoted:
            quoted = False
        elif not quoted:
            split = _LIST_SPLIT.match(rest, index)
            if split and split.end() > index and (split.group(0).strip(" ,") == "" or re.match(r"\s", rest[index])):
                pieces.append(current)
                current, index = "", split.end()
                continue
        current += char
        index += 1
    return pieces + [current]


def _split_texts(rest: str) -> list[str]:
    """The texts a clause names, still with their markup (the required parts are read from it).

    A quoted text stands for itself; an unquoted one is cut before remarks about it
    ("Frija with the standard English "j" sound" is "Frija").
    """
    has_list = re.search(r"\bor\b", rest, re.I) or (_QUOTED.search(rest) and "," in rest)
    found = []
    for segment in (_segments(rest) if has_list else [rest]):
        segment = segment.strip(" ,;")
        quoted = _QUOTED.findall(segment)
        remainder = _ALONE.sub("", _QUOTED.sub(" ", segment).strip(" ,;.:")).strip().lower()
        if quoted and remainder in ("", "etc", "etc.", "just", "only", "simply", "alone"):
            found += quoted
        elif quoted:
            head = _CUT.sub("", segment)
            found += [head] if _clean(head) else quoted
        else:
            found.append(segment)
    return [text for text in found if _clean(text) and _clean(text).lower() not in ("etc", "etc.")]


def _strip_alone(text: str) -> str:
    return _ALONE.sub("", text.strip(" ,;:.\"“”")) or text


def _marked_texts(pieces: list[str]) -> tuple[list[str], list[tuple[str, ...]]]:
    """Clean texts and the parts each one underlines; a word underlined only at its start adds that start as a text."""
    texts, required = [], []
    for piece in pieces:
        forms = optional_forms(_strip_alone(_clean_keep_marks(piece)))
        if not _clean(forms[0]):
            continue
        parts, source, stems = _required_parts(piece, forms[0])
        for form in forms:
            texts.append(form)
            required.append(parts if source in ("braces", "markup") else ())
        for stem in stems:
            texts.append(stem)
            required.append(())
    return texts, required


def _clean_keep_marks(text: str) -> str:
    """The text without markup but with its optional-word marks, for _strip_alone."""
    return _ANY_TAG.sub("", text)


def _split_off(pattern: re.Pattern, text: str, hint: re.Pattern | None = None) -> tuple[str, str | None]:
    match = pattern.search(text)
    if not match or (hint and not hint.search(match.group(1))):
        return text, None
    found = next(group for group in match.groups() if group)
    return text[: match.start()], _clean(found) or found.strip()


def _parse_clause(piece: str, previous: Clause | None) -> tuple[Clause | None, str | None]:
    """One clause from one piece of a bracket; the second value flags 'either' or 'partial'."""
    raw = piece.strip()
    kind, question, rest = ACCEPT, None, raw
    for pattern, pattern_kind, pattern_question in _KEYWORDS:
        match = pattern.match(rest)
        if match:
            kind, question, rest = pattern_kind, pattern_question, rest[match.end():].strip(" :,")
            break
    rest, directed = _split_off(_DIRECTED, rest)
    rest, qualifier = _split_off(_QUALIFIER, rest, _QUALIFIER_HINT)
    anti_prompt = question == LESS_SPECIFIC and kind == ACCEPT
    question = directed or question or (MORE_SPECIFIC if kind == PROMPT else None)
    flag = None
    if kind in (PROMPT, REJECT) and _PARTIAL.match(rest):
        flag, rest = ("partial" if kind == PROMPT else "no partial"), ""
    elif kind == ACCEPT and _EITHER.match(rest) and not _QUOTED.search(rest[: _EITHER.match(rest).end()]):
        flag, rest = "either", rest[_EITHER.match(rest).end():].strip(" ,")
    note, contains, combined = None, False, False
    if _DESCRIPTIVE.match(rest):
        note = _clean(rest)
        examples = _EXAMPLES.search(rest)
        marked = [m.group(0) for m in _TAG.finditer(rest) if m.group(1).lower() in _REQUIRED_TAGS]
        pieces = _QUOTED.findall(rest) or ([p for e in _split_texts(examples.group(1)) for p in _AND.split(e)] if examples else [])
        about = _ABOUT.match(_clean(rest))
        if not pieces and marked:  # "accept any answer about <u>apes</u> or <u>chimp</u>anzees"
            pieces, contains = _marked_words(rest), True
        elif not pieces and about and len(about.group(1).split()) <= 4:  # "accept anything that mentions Gallipoli"
            pieces, contains = _split_texts(about.group(1)), True
    elif _COMBINED.match(rest):
        pieces, combined = [_COMBINED.match(rest).group(1)], True
    else:
        pieces = _split_texts(rest) if rest else []
    texts, required = _marked_texts(pieces)
    if previous and [t.lower() for t in texts] in ([p] for p in _PRONOUNS):
        texts, required = list(previous.texts), list(previous.required)  # "... and prompt on it afterwards"
    if not texts and not note:
        return None, flag
    return Clause(kind, tuple(texts), qualifier, question if kind == PROMPT or anti_prompt else None, note, raw, tuple(required),
                  contains, anti_prompt, combined), flag


def _marked_words(text: str) -> list[str]:
    """The whole words around each required span of a description, each as a text of its own."""
    marked = _TAG.sub(lambda m: "\x01" + _ANY_TAG.sub("", m.group(2)) + "\x02" if m.group(1).lower() in _REQUIRED_TAGS
                      else m.group(2), text)
    return [f"{m.group(1)}<u>{m.group(2)}</u>{m.group(3)}" for m in _SPAN.finditer(_ANY_TAG.sub("", marked))]


def _tagged_parts(markup: str) -> tuple[list[str], list[str]]:
    """Required spans widened to whole words, and the underlined starts of words ("chimp" of "chimpanzees")."""
    marked = _TAG.sub(lambda m: "\x01" + _ANY_TAG.sub("", m.group(2)) + "\x02" if m.group(1).lower() in _REQUIRED_TAGS
                      else m.group(2), markup)
    marked = _ANY_TAG.sub("", marked).replace(OPTIONAL_OPEN, "").replace(OPTIONAL_CLOSE, "")
    parts, stems = [], []
    for match in _SPAN.finditer(marked):
        before, inside, after = match.groups()
        whole = _clean(before + inside + after)
        if whole:
            parts.append(whole)
        if after and not before and len(inside.strip()) >= 4 and " " not in inside.strip():
            stems.append(_clean(inside))
    return parts, stems


def _required_parts(main_markup: str, main: str) -> tuple[tuple[str, ...], str, list[str]]:
    braces = [_clean(p) for p in _BRACES.findall(main_markup) if _clean(p)]
    if braces:
        return tuple(braces), "braces", []
    tagged, stems = _tagged_parts(main_markup)
    if tagged:
        return tuple(tagged), "markup", stems
    if re.search(r"[a-z]", main):
        caps = [w for w in _CAPS_WORD.findall(main) if len(re.sub(r"\W", "", w)) >= 4 and not _ROMAN.match(w)]
        if caps:
            return tuple(caps), "caps", []
    return (*implied_required(main), [])


def implied_required(text: str) -> tuple[tuple[str, ...], str]:
    """The required part of an unmarked answer: all of it, but for a locating place or a subtitle."""
    head, comma, tail = text.partition(", ")
    if comma and head and 1 <= len(tail.split()) <= 3 and all(w[:1].isupper() for w in tail.split()):
        return (head,), "comma"  # "Seattle, Washington": the place after the comma only locates it
    if comma and head and len(tail.split()) >= 4 and tail[:1].isupper():
        return (head,), "colon"  # "Brideshead Revisited, The Sacred and Profane Memories of ...": a subtitle
    title, colon, subtitle = text.partition(": ")
    if colon and title and subtitle:
        return (title,), "colon"  # "Bowling Alone: The Collapse and Revival ...": the subtitle is optional
    return (text,), "whole"


def _alternatives(outside: str) -> list[str]:
    """The main answer's own alternatives: "<u>coagulation</u> or blood <u>clotting</u>", "Colfax massacre or riot"."""
    plain = _clean(outside)
    if plain.startswith(("\"", "“")) or not _MAIN_OR.search(outside):
        return [outside]
    pieces = [piece for piece in _MAIN_OR.split(outside) if _clean(piece)]
    if len(pieces) < 2:
        return [outside]
    first = _clean(pieces[0]).split()
    found = [pieces[0]]
    for piece in pieces[1:]:
        words = _clean(piece).split()
        if len(words) == 1 and len(first) >= 2 and words[0].islower() and first[-1].islower():
            found.append(" ".join(first[:-1] + words))  # "Colfax massacre or riot": "Colfax riot"
        else:
            found.append(piece)
    return found


def _slash_forms(text: str) -> list[str]:
    """ "moon gods/goddesses": "moon gods" and "moon goddesses"."""
    words = text.split()
    for index, word in enumerate(words):
        left, slash, right = word.partition("/")
        if slash and left and right and "/" not in right:
            return [" ".join(words[:index] + [left] + words[index + 1:]), " ".join(words[:index] + [right] + words[index + 1:])]
    return [text]


def _inherit_point(qualifier: str | None, previous: Clause | None) -> str | None:
    """ "... before "incomplete" is read, and prompt on it afterwards": afterwards is after "incomplete" is read."""
    if not qualifier or not previous or not previous.qualifier:
        return qualifier
    point = _POINT.match(previous.qualifier)
    if not point:
        return qualifier
    if _BARE_LATER.match(qualifier):
        return f"after {point.group(1)}"
    if _BARE_EARLIER.match(qualifier):
        return f"before {point.group(1)}"
    return qualifier


@memo
def parse_answer_line(raw: str) -> AnswerLine:
    """Parse one answer line; never raises, whatever the text."""
    text = clean_text(raw or "").replace("\xa0", " ")
    text = _mark_optional(_MISMATCHED_BRACE.sub(r"[\1]", _ANSWER_PREFIX.sub("", text)))
    outside, groups = _top_level_groups(text)
    clauses: list[Clause] = []
    notes: list[str] = []
    accept_either = prompt_on_partial = no_partial = False
    for opener, inside in groups:
        inner_outside, nested = _top_level_groups(inside)
        notes.extend(_clean(n) for _, n in nested if _clean(n))
        if opener == "(" and not _DIRECTIVE_START.match(inner_outside) or _is_pronunciation(inner_outside):
            notes.append(_clean(inner_outside))
            continue
        for chunk in inner_outside.split(";"):
            for piece in _SPLIT_KIND_CHANGE.split(chunk):
                if not piece.strip():
                    continue
                previous = clauses[-1] if clauses else None
                clause, flag = _parse_clause(piece, previous)
                accept_either |= flag == "either"
                prompt_on_partial |= flag == "partial"
                no_partial |= flag == "no partial"
                if clause:
                    qualifier = _inherit_point(clause.qualifier, previous)
                    clauses.append(replace(clause, qualifier=qualifier) if qualifier != clause.qualifier else clause)
    main = _clean(outside)
    required, source, stems = _required_parts(outside, main)
    alternatives = []
    for piece in _alternatives(outside):
        piece_text = _clean(piece)
        parts, piece_source, piece_stems = _required_parts(piece, piece_text)
        for form in dict.fromkeys(f for o in optional_forms(_clean_keep_marks(piece).strip(" ,;:.")) for f in _slash_forms(o)):
            alternatives.append((_clean(form), parts, piece_source))
        alternatives += [(stem, (), "whole") for stem in piece_stems]
    word_forms = any(c.note and _WORD_FORMS.search(c.note) for c in clauses)
    return AnswerLine(
        raw or "", main, required, source, tuple(clauses), accept_either, prompt_on_partial, word_forms, tuple(notes),
        tuple(a for a in dict.fromkeys(alternatives) if a[0]), no_partial,
    )
