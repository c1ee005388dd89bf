"""Every event the engine writes, in one table: its fields, and what each audience receives of it.

An event is {"type", "t", "data"} (stored with its "seq"). EVENTS holds one entry per type:

- `says`: what happened, in a sentence.
- `fields`: the keys of its data. Each is a Field: the JSON kinds its value may take ("text", "whole" for a
  whole number, "number" for any number, "flag" for true or false, "true" for a mark that is present only
  when true, "null", "object", "list"), whether it is required, and where the shape matters what is inside:
  an object's own fields (`keys`), a map's values (`values`: team -> points, say), a list's items (`items`;
  a tuple of fields is a list of exactly that many). A field added after matches were stored is optional,
  because older logs lack it; its note says so. Nothing else may appear in the data (problems() says
  where it does).
- `sees`: what each audience receives, as a cell per column. The columns: "moderator"; "spectator" (the big
  screen); "own_team" (a player of the team the event names in data["team"]); "other_teams" (any other
  player: every player, when the event names no team); "bot". A cell is ALL (the event as it is), HIDDEN
  (a frame of type "hidden" with only its seq and time, so a gap still means a lost frame) or the name of a
  view: a small function in game/engine/projection.py that gives that audience part of the event, whose
  effect VIEWS states here; a tuple of views applies them in order. Whatever depends on the event's data
  (a guess still held, a reason the moderator made public, a close race) is the view's to decide.

So a new event type costs one entry here and its handler in game/engine/fold.py and in
static/js/match-fold.js: tests/engine/test_event_table.py checks every event generated matches emit
against its fields, every audience's frame against its cell, the browser's fold against the fields it
reads, and docs/wire-protocol.md against the types. Plain data: no Django, nothing from the rest of the
engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Union

KINDS = ("text", "whole", "number", "flag", "true", "null", "object", "list")


@dataclass(frozen=True)
class Field:
    """One key of an event's data (or of an object inside it)."""

    kinds: frozenset[str]
    required: bool = True
    keys: Mapping[str, "Field"] | None = None  # an object with these fields
    values: "Field | None" = None  # an object used as a map: every value of this shape, any keys
    items: "Field | tuple[Field, ...] | None" = None  # a list's items (a tuple: a list of exactly these)
    note: str = ""  # why it may be absent, or what it means where the name does not say

    def __post_init__(self):
        unknown = self.kinds - set(KINDS)
        if unknown:
            raise ValueError(f"{', '.join(sorted(unknown))} is not a kind of JSON value; "
                             f"use one of {', '.join(KINDS)}.")

    def optional(self, note: str = "") -> "Field":
        return replace(self, required=False, note=note or self.note)

    def or_null(self) -> "Field":
        return replace(self, kinds=self.kinds | {"null"})


def _kind(*kinds: str) -> Field:
    return Field(frozenset(kinds))


def record(**keys: Field) -> Field:
    """An object with these fields."""
    return Field(frozenset({"object"}), keys=keys)


def map_of(values: Field) -> Field:
    """An object whose keys are names (teams, seats) and whose values all have one shape."""
    return Field(frozenset({"object"}), values=values)


def list_of(*items: Field) -> Field:
    """A list of items of one shape; given several, a list of exactly that many (a pair, say)."""
    return Field(frozenset({"list"}), items=items[0] if len(items) == 1 else tuple(items))


TEXT = _kind("text")
WHOLE = _kind("whole")
NUMBER = _kind("number")
FLAG = _kind("flag")
OBJECT = _kind("object")  # an object whose shape another table owns (the rules: game/engine/formats.py)
MARK = Field(frozenset({"true"}), required=False, note="present only when true")
TEXT_OR_NULL, WHOLE_OR_NULL, NUMBER_OR_NULL = TEXT.or_null(), WHOLE.or_null(), NUMBER.or_null()

# Shapes more than one event carries.
SCORE_CHANGES = map_of(WHOLE)  # team -> points this event adds (fold.py and the browser add them to the scores)
DEADLINE = record(kind=TEXT, at=WHOLE)  # kind: answer, prompt, dead, discussion, confer or bounce; at: ms
RESULT = record(team=TEXT, seat=TEXT_OR_NULL, points=WHOLE, phase=WHOLE).or_null()  # who got the question
_SEAT_SETTING = "a bot seat's setting (game/engine/seat_table.py); people's seats and older logs lack it"
SEAT = record(id=TEXT, name=TEXT, team=TEXT, kind=TEXT, tier=TEXT_OR_NULL, captain=FLAG, simulated=FLAG,
              buzz_mode=TEXT.optional(_SEAT_SETTING), buzz_after=WHOLE.optional(_SEAT_SETTING),
              weight_class=TEXT.optional(_SEAT_SETTING))
GUESS = record(word=WHOLE, guess=TEXT_OR_NULL, confidence=NUMBER, buzz=FLAG,
               alternatives=list_of(list_of(TEXT, NUMBER)), threshold=NUMBER_OR_NULL)
QUESTION = record(qid=TEXT, text=TEXT, kind=TEXT.optional(), answer=TEXT.optional(), accepted=list_of(TEXT).optional(),
                  category=TEXT.optional(), subcategory=TEXT.optional(), source=OBJECT.optional(),
                  parts=list_of(record(text=TEXT, answer=TEXT, value=WHOLE)).optional(
                      "a bonus's parts; only bonuses have them"))
REASON = TEXT.optional("the moderator's note: absent when none was given")
PUBLIC = MARK.optional("the moderator showed the reason to the room")
CORRECTION = MARK.optional("a change of score after the final whistle, confirmed as a correction")
# A buzz's timing (game/engine/buzzrace.py): what the server received and believes of the press.
PRESS = "logs from before buzzes were ordered by press time lack it"
TIMING = {
    "received": WHOLE, "word": WHOLE, "seen": WHOLE_OR_NULL,
    "pressed": WHOLE.optional(PRESS), "claimed": WHOLE_OR_NULL.optional(PRESS),
    "rtt": WHOLE_OR_NULL.optional(PRESS), "clamp": TEXT_OR_NULL.optional(PRESS),
}

# -- the audiences -------------------------------------------------------------------------------------

COLUMNS = ("moderator", "spectator", "own_team", "other_teams", "bot")
ALL = "all"
HIDDEN = "hidden"
Cell = Union[str, tuple]


def sees(others: Cell, **columns: Cell) -> dict[str, Cell]:
    """A row of cells: the moderator receives every event whole; `others` is every other column's cell
    unless that column is named."""
    unknown = set(columns) - set(COLUMNS)
    if unknown:
        raise ValueError(f"{', '.join(sorted(unknown))} is not an audience column; use one of {', '.join(COLUMNS)}.")
    return {c: columns.get(c, ALL if c == "moderator" else others) for c in COLUMNS}


def column(audience: str, team: str | None, data: dict) -> str:
    """The column of the table an audience reads for an event: a player's depends on the event's team."""
    if audience != "player":
        return audience
    return "own_team" if data.get("team") == team else "other_teams"


@dataclass(frozen=True)
class View:
    """What a view in game/engine/projection.py leaves an audience of an event."""

    says: str
    keeps: tuple[str, ...] | None = None  # only these fields, each present (null when the event lacks it)
    withholds: tuple[str, ...] = ()  # these fields arrive as null (an empty one as it is) ...
    when: str | None = None  # ... only when this field of the event is true (for `hides` too)
    unless: str | None = None  # ... except when this field of the event is true (with `when`: both must hold)
    hides: bool = False  # the whole event may arrive as "hidden" (with `when`: exactly when that field is true)
    adds: Mapping[str, Field] = field(default_factory=dict)  # fields worked out from the event
    changes: tuple[str, ...] = ()  # fields whose value the view rewrites


VIEWS: dict[str, View] = {
    "without_private_reason": View("The moderator's reason only when the moderator showed it to the room.",
                                   withholds=("reason",), unless="public"),
    "held_words_removed": View("A held answer (the computer's, while a human may still score) without its words.",
                               withholds=("text", "heard"), when="held"),
    "text_withheld": View("That it happened, not what was written.", withholds=("text",)),
    "text_withheld_if_held": View("The team's own answer, but not the computer's while it is held.",
                                  withholds=("text",), when="held"),
    "hidden_if_held": View("Shown unless held (a bot's guess while a human may still score).", hides=True, when="held"),
    "hidden_if_held_unless_consulted": View(
        "A bot's guess to its own team: shown unless held, and shown even while held when the team may consult "
        "its bot (the rule consult_teammate_bots: a team phase, or a bonus part the team controls).",
        hides=True, when="held", unless="consult"),
    "race_only": View("A buzz that lost a close race (projection.py RACE_SHOWN_MS): who, at which word, how far "
                      "behind; any other refusal is hidden.",
                      keeps=("seat", "team", "word", "code", "holder", "margin"), hides=True),
    "seat_and_status_only": View("That the bot missed and how, not why (a reason may name machines).",
                                 keeps=("seat", "status"), changes=("status",)),
    "seat_and_number_only": View("That the bot plays no more and from which question, not why.",
                                 keeps=("seat", "number")),
    "first_word_time_only": View("When the first word is due, not the timings (the audio holds the unread words).",
                                 keeps=("number", "next_word_at")),
    "public_roster": View("The rules and the roster; not the questions, nor the question order (with its seed and a "
                          "public packet anyone could work out the questions to come).",
                          keeps=("rules", "teams", "seats"), adds={"question_count": WHOLE_OR_NULL}),
    "clean_answer": View("The answer as the hall is shown it: the main answer, without the line's directives.",
                         changes=("answer",)),
    "clean_part_answer": View("A bonus part's answer, when the ruling carries it, as the hall is shown it: the main "
                              "answer, without the line's directives.", changes=("answer",)),
}


@dataclass(frozen=True)
class EventType:
    says: str
    fields: Mapping[str, Field]
    sees: Mapping[str, Cell]


# -- the table -----------------------------------------------------------------------------------------

_OPEN_HALL = sees(ALL)  # every audience gets it whole
_REASONED = sees("without_private_reason")

EVENTS: dict[str, EventType] = {
    # The match and its seats
    "match_created": EventType(
        "The first event of every match: the rules, the roster and the questions (main, then reserve).",
        {"rules": OBJECT,
         "teams": list_of(record(id=TEXT, name=TEXT, kind=TEXT.optional(
             "human or computer; older logs lack it: a team with a bot seat is the computer's"))),
         "seats": list_of(SEAT),
         "questions": list_of(QUESTION),
         "bonuses": list_of(QUESTION).optional("a format with bonuses: the packet's bonuses, in packet order; "
                                               "absent otherwise and in older logs"),
         "question_order": record(order=TEXT, seed=WHOLE_OR_NULL, start_at=WHOLE, categories=list_of(TEXT),
                                  prefer_power=FLAG).optional("older logs lack it: packet order")},
        sees("public_roster")),
    "seat_joined": EventType("A seat was added to the match.", {"seat": SEAT}, _OPEN_HALL),
    "seat_left": EventType(
        "A seat was given up (kicked or left); names the team's new captain if the captain went.",
        {"seat": TEXT, "team": TEXT, "by": TEXT, "captain": TEXT_OR_NULL}, _OPEN_HALL),
    "match_started": EventType(
        "The match started; what each bot seat measured at the start.",
        {"bot_sizes": map_of(record(bytes=WHOLE, artefacts=WHOLE.optional(), code=WHOLE.optional(),
                                    packages=WHOLE.optional())).optional(
            "absent when no bot seat was measured, and in older logs")},
        _OPEN_HALL),
    "match_ended": EventType(
        "The match is over: the final scores, the winner (null: a tie) and why it ended.",
        {"scores": SCORE_CHANGES, "winner": TEXT_OR_NULL,
         "reason": TEXT.optional("one of rules.END_REASONS; older logs lack it")},
        _OPEN_HALL),
    "paused": EventType("The moderator (or the server, saying why) paused the match.",
                        {"reason": TEXT, "public": PUBLIC}, _REASONED),
    "resumed": EventType("The match goes on; every timer moves by the pause.", {"shift": WHOLE}, _OPEN_HALL),
    # A question and its phases
    "question_started": EventType(
        "A question starts (a replacement of a thrown-out one keeps its number).",
        {"number": WHOLE, "index": WHOLE, "tiebreaker": FLAG, "priority": TEXT, "replaces": WHOLE_OR_NULL,
         "category": TEXT, "question_kind": TEXT},
        _OPEN_HALL),
    "phase_started": EventType(
        "A phase of the question starts: a buzz phase on the clock, or a team phase with the rest of the words.",
        {"phase": WHOLE, "mode": TEXT, "points": WHOLE, "deadline": DEADLINE.or_null(),
         "next_word_at": WHOLE_OR_NULL.optional("buzz phases only"),
         "words": list_of(TEXT).optional("team phases only: the words not yet revealed"),
         "floor": TEXT.optional("team phases only: whose answer is judged first")},
        _OPEN_HALL),
    "word_revealed": EventType(
        "The next word is shown.",
        {"index": WHOLE, "word": TEXT, "next_at": WHOLE_OR_NULL, "dead_at": WHOLE_OR_NULL}, _OPEN_HALL),
    "timeout": EventType(
        "A clock ran out: the dead time after the last word, or a team phase's discussion.",
        {"kind": TEXT, "passed": list_of(TEXT).optional("discussion only: the sides that had not answered"),
         "floor": TEXT_OR_NULL.optional("discussion only")},
        _OPEN_HALL),
    "question_closed": EventType(
        "The question is over: the answer line and the text, shown to everyone.",
        {"number": WHOLE, "answer": TEXT, "text": TEXT, "accepted": list_of(TEXT), "result": RESULT, "dead": FLAG},
        sees("clean_answer")),
    "question_thrown_out": EventType(
        "The moderator threw the question out; its points are taken back and a reserve question replaces it.",
        {"number": WHOLE, "index": WHOLE, "score_changes": SCORE_CHANGES, "reason": TEXT, "public": PUBLIC},
        _REASONED),
    # Playing a question
    "buzz": EventType(
        "A buzz took the floor (from an earlier-received one, with replaces and margin, when pressed earlier).",
        {"seat": TEXT, "team": TEXT, **TIMING, "replaces": TEXT_OR_NULL,
         "margin": WHOLE_OR_NULL.optional(PRESS), "deadline_at": WHOLE_OR_NULL,
         "by": TEXT.optional("a semi bot's buzz: the seat of the teammate who pressed its buzzer")},
        _OPEN_HALL),
    "buzz_refused": EventType(
        "A buzz that lost the floor or came from a locked-out team, on the moderator's record.",
        {"seat": TEXT, "team": TEXT, **TIMING, "code": TEXT, "reason": TEXT, "holder": TEXT_OR_NULL,
         "holder_received": WHOLE_OR_NULL, "margin": WHOLE_OR_NULL.optional(PRESS)},
        sees("race_only", bot=HIDDEN)),
    "answer": EventType("The player holding the floor answered.", {"seat": TEXT, "team": TEXT, "text": TEXT},
                        _OPEN_HALL),
    "submission": EventType(
        "A team's answer in a team phase.",
        {"seat": TEXT, "team": TEXT, "text": TEXT,
         "held": MARK.optional("the computer's answer while a human may still score; older logs lack it"),
         "clock_stopped": MARK.optional("the last side to answer: the discussion clock stops")},
        sees("text_withheld", own_team="text_withheld_if_held", bot=HIDDEN)),
    "pass": EventType(
        "A team passed in a team phase.",
        {"team": TEXT, "seat": TEXT, "floor": TEXT_OR_NULL,
         "clock_stopped": MARK.optional("the last side to answer: the discussion clock stops")},
        _OPEN_HALL),
    "chat": EventType("A line of a team's discussion.", {"team": TEXT, "seat": TEXT, "name": TEXT, "text": TEXT},
                      sees(HIDDEN, own_team=ALL)),
    "ruling": EventType(
        "The moderator (or the clock, or a pass) ruled on an answer.",
        {"id": WHOLE, "number": WHOLE, "phase": WHOLE, "mode": TEXT, "team": TEXT, "seat": TEXT_OR_NULL,
         "text": TEXT_OR_NULL, "heard": TEXT_OR_NULL, "verdict": TEXT, "points": WHOLE, "accept_points": WHOLE,
         "reject_points": WHOLE, "score_changes": SCORE_CHANGES, "by": TEXT, "word": WHOLE_OR_NULL,
         "answer": WHOLE.optional("the seq of the event that put the ruled answer on the floor (what the "
                                  "moderator's rule named); older logs lack it"),
         "deadline": DEADLINE.or_null().optional("a prompt: the clock for the answer to it"),
         "resume_at": WHOLE_OR_NULL.optional("a wrong answer in a buzz phase: when the reading goes on"),
         "dead_at": WHOLE.optional("a wrong answer after the last word: when the question goes dead"),
         "floor": TEXT_OR_NULL.optional("a wrong answer in a team phase: who is judged next"),
         "held": MARK.optional("the computer's answer while a human may still score; older logs lack it"),
         "reason": REASON, "public": PUBLIC},
        sees(("without_private_reason", "held_words_removed"))),
    "undo": EventType("The moderator undid the question's last ruling.",
                      {"ruling": WHOLE, "number": WHOLE, "score_changes": SCORE_CHANGES}, _OPEN_HALL),
    # A tossup's bonus (game/engine/bonus.py)
    "bonus_started": EventType(
        "The team that got the tossup hears a bonus: its leadin and what each part is worth.",
        {"number": WHOLE, "index": WHOLE, "team": TEXT, "leadin": TEXT, "values": list_of(WHOLE)},
        _OPEN_HALL),
    "bonus_part_read": EventType(
        "The moderator read a bonus part: its text, and the clock for the team to confer and answer.",
        {"number": WHOLE, "part": WHOLE, "team": TEXT, "text": TEXT, "value": WHOLE, "deadline": DEADLINE},
        _OPEN_HALL),
    "bonus_part_decided": EventType(
        "The controlling team (its captain, or the moderator; seat null) decided on the part in play: answer on its "
        "own, consult its AI or abstain (formats with bonus_decisions), and what the part scores if accepted.",
        {"number": WHOLE, "part": WHOLE, "team": TEXT, "seat": TEXT_OR_NULL, "decision": TEXT, "points": WHOLE,
         "deadline": DEADLINE.or_null()},
        _OPEN_HALL),
    "bonus_answered": EventType(
        "A team's answer to a bonus part (its captain's or its bot's), said aloud in the room.",
        {"number": WHOLE, "part": WHOLE, "team": TEXT, "seat": TEXT, "text": TEXT, "bounce": FLAG},
        _OPEN_HALL),
    "bonus_part_ruled": EventType(
        "The moderator (or the clock) ruled a team's answer to a bonus part; the part's answer line comes with "
        "the ruling that ends the part.",
        {"id": WHOLE, "number": WHOLE, "part": WHOLE, "team": TEXT, "seat": TEXT_OR_NULL, "text": TEXT_OR_NULL,
         "heard": TEXT_OR_NULL, "verdict": TEXT, "points": WHOLE, "score_changes": SCORE_CHANGES, "bounce": FLAG,
         "by": TEXT, "answered": WHOLE_OR_NULL, "deadline": DEADLINE.or_null(),
         "answer": TEXT.optional("the part's answer line: present exactly when this ruling ends the part"),
         "decision": TEXT.optional("the controlling team's decision the part was scored under (own, consult or "
                                   "abstain; on an abstained part accept means nobody was right): present exactly "
                                   "in formats with bonus_decisions, on the controlling team's ruling"),
         "reason": REASON, "public": PUBLIC},
        sees(("without_private_reason", "clean_part_answer"))),
    "bonus_ended": EventType(
        "The bonus is over: what each team scored on it (the controlling team's parts, the other's bouncebacks).",
        {"number": WHOLE, "index": WHOLE, "team": TEXT, "points": SCORE_CHANGES},
        _OPEN_HALL),
    # Bots and the judge
    "bot_guess": EventType(
        "A bot's current guess, confidence and top guesses (held from the hall while a human may still score).",
        {"seat": TEXT, "team": TEXT, **GUESS.keys,
         "held": MARK.optional("older logs lack it: the hall saw guesses as they came"),
         "consult": MARK.optional("a human team's own bot, while the team may consult it: its team sees it")},
        sees("hidden_if_held", own_team="hidden_if_held_unless_consulted", bot=HIDDEN)),
    "bot_guesses_released": EventType(
        "No human can score on the question any more: the held guesses and the held answers' words, now shown.",
        {"number": WHOLE, "phase": WHOLE, "guesses": map_of(GUESS),
         "trail": list_of(record(seat=TEXT, word=WHOLE, guess=TEXT_OR_NULL, confidence=NUMBER, buzz=FLAG,
                                 threshold=NUMBER_OR_NULL)).optional("older logs lack it"),
         "rulings": list_of(record(id=WHOLE, text=TEXT_OR_NULL, heard=TEXT_OR_NULL))},
        sees(ALL, bot=HIDDEN)),
    "bot_missed": EventType(
        "A bot's act came to nothing (timed out or failed).",
        {"seat": TEXT_OR_NULL, "status": TEXT.optional("timed_out or failed; older logs lack it: failed"),
         "reason": TEXT},
        sees("seat_and_status_only", bot=HIDDEN)),
    "bot_stopped": EventType(
        "A bot went over its tier's memory limit: it plays no more in this match.",
        {"seat": TEXT, "number": WHOLE, "reason": TEXT}, sees("seat_and_number_only", bot=HIDDEN)),
    "judge_suggested": EventType(
        "The judge's suggested ruling on the typed answer of event `for`.",
        {"for": WHOLE_OR_NULL, "verdict": TEXT_OR_NULL, "confidence": NUMBER_OR_NULL, "reason": TEXT_OR_NULL,
         **{k: TEXT_OR_NULL.optional("the first logs lack it") for k in ("seat", "team", "text", "matched",
                                                                          "prompt_question")}},
        sees(HIDDEN)),
    "snippets_shown": EventType(
        "Search snippets for the phase (a phase whose rules show them).",
        {"number": WHOLE, "phase": WHOLE, "snippets": list_of(record(title=TEXT, text=TEXT, marked=TEXT)),
         "error": TEXT.optional("why no snippets came: the search failed or timed out")},
        _OPEN_HALL),
    # Corrections and protests
    "override": EventType(
        "The moderator changed a ruling of a closed question; the question is scored again from its rulings.",
        {"ruling": WHOLE, "number": WHOLE, "verdict": TEXT, "points": WHOLE, "score_changes": SCORE_CHANGES,
         "result": RESULT,
         "rulings": list_of(record(id=WHOLE, points=WHOLE, withdrawn=FLAG)).optional(
             "older logs lack it: only the overridden ruling changed"),
         "reason": REASON, "public": PUBLIC, "correction": CORRECTION,
         "protest": WHOLE.optional("the protest whose overturning this is")},
        _REASONED),
    "score_adjusted": EventType(
        "The moderator adjusted a team's score, saying why.",
        {"team": TEXT, "points": WHOLE, "score_changes": SCORE_CHANGES, "reason": TEXT, "public": PUBLIC,
         "correction": CORRECTION},
        _REASONED),
    "protest_filed": EventType(
        "A team's captain protested a ruling; the text is the team's.",
        {"id": WHOLE, "ruling": WHOLE, "number": WHOLE, "team": TEXT, "seat": TEXT, "verdict": TEXT, "text": TEXT},
        sees("text_withheld", own_team=ALL)),
    "protest_resolved": EventType(
        "The moderator resolved a protest: upheld (the ruling stands) or overturned (an override follows).",
        {"protest": WHOLE, "ruling": WHOLE, "number": WHOLE, "team": TEXT, "outcome": TEXT, "reason": TEXT,
         "public": PUBLIC},
        _REASONED),
    # Reading aloud (game/engine/voice.py)
    "voice_chosen": EventType("The moderator chose the voice (or hand) and its speed.",
                              {"voice": TEXT, "wpm": WHOLE}, _OPEN_HALL),
    "voice_ready": EventType(
        "The voice's timings for the question: where each word starts in its audio, and when the first is due.",
        {"number": WHOLE, "audio": TEXT_OR_NULL, "offsets": list_of(WHOLE), "end": WHOLE, "voice": TEXT_OR_NULL,
         "next_word_at": WHOLE_OR_NULL},
        sees("first_word_time_only", spectator=ALL)),
}


# -- checking an event against its entry -------------------------------------------------------------

def kind_of(value) -> str:
    """The JSON kind of a value, as Field.kinds names them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, int):
        return "whole"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


def fits(value, f: Field) -> bool:
    """Whether a value is of one of the field's kinds ("number" takes whole ones, "true" only true)."""
    kind = kind_of(value)
    return kind in f.kinds or (kind == "whole" and "number" in f.kinds) or (value is True and "true" in f.kinds)


def problems(event: dict) -> list[str]:
    """What is wrong with an event against its entry, a sentence each (none: it fits)."""
    kind = event.get("type")
    entry = EVENTS.get(kind)
    if entry is None:
        return [f"{kind!r} is not an event type of the table."]
    data = event.get("data", {})
    if not isinstance(data, dict):
        return [f"{kind}: its data is not an object."]
    return fields_problems(data, entry.fields, kind)


def fields_problems(data: dict, fields: Mapping[str, Field], where: str) -> list[str]:
    """An object's fields against their declarations: missing, undeclared and mis-shaped ones."""
    out = [f"{where}: {name} is missing." for name, f in fields.items() if f.required and name not in data]
    out += [f"{where}: {name} is not a declared field." for name in data if name not in fields]
    for name, value in data.items():
        if name in fields:
            out += value_problems(value, fields[name], f"{where}.{name}")
    return out


def value_problems(value, f: Field, where: str) -> list[str]:
    if not fits(value, f):
        return [f"{where} is {kind_of(value)} ({value!r:.60}); it should be {' or '.join(sorted(f.kinds))}."]
    if isinstance(value, dict) and f.keys is not None:
        return fields_problems(value, f.keys, where)
    if isinstance(value, dict) and f.values is not None:
        return [p for key, item in value.items() for p in value_problems(item, f.values, f"{where}[{key!r}]")]
    if isinstance(value, (list, tuple)) and isinstance(f.items, tuple):
        if len(value) != len(f.items):
            return [f"{where} has {len(value)} items; it should have {len(f.items)}."]
        return [p for i, (item, g) in enumerate(zip(value, f.items)) for p in value_problems(item, g, f"{where}[{i}]")]
    if isinstance(value, (list, tuple)) and f.items is not None:
        return [p for i, item in enumerate(value) for p in value_problems(item, f.items, f"{where}[{i}]")]
    return []


def views_of(cell: Cell) -> tuple[str, ...]:
    """The views a cell applies, in order (none for ALL; HIDDEN is not a view)."""
    if cell in (ALL, HIDDEN):
        return ()
    return cell if isinstance(cell, tuple) else (cell,)


def frame_fields(kind: str, col: str) -> dict[str, Field] | None:
    """The fields an audience's frame of an event may carry (None: the event reaches it hidden), from the
    table alone: the event's fields, less what its views leave out, plus what they add."""
    cell = EVENTS[kind].sees[col]
    if cell == HIDDEN:
        return None
    shown = dict(EVENTS[kind].fields)
    for name in views_of(cell):
        view = VIEWS[name]
        if view.keeps is not None:
            shown = {k: shown[k] for k in view.keeps}
        shown.update({k: shown[k].or_null() for k in view.withholds})
        shown.update(view.adds)
    return shown
