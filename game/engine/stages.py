"""The stages of play: for each, the commands it takes, the stages it may go to and the timers it runs.

A format plays each question in *phases* (rules["phases"]: EfficientQA's phase 1 buzz, 2 and 3 team;
a quizbowl tossup's one buzz phase): a phase says who plays, for how many points and in which mode
("buzz" or "team"). A *stage* is where play stands at this moment, inside the phase being played or
around the questions. A buzz phase moves between READING, BUZZED, ANSWERED, PROMPTED and DEAD as words
come, players buzz and the moderator rules; a team phase is DISCUSSION; the phase's number and mode
(q.phase, q.mode) stay where they are and say which rules apply, the stage says what may happen next.

The match's own stage is its status (setup, live, finished). While it is live, the question in play
carries its stage (QuestionState.stage), which the fold sets from each event (game/engine/fold.py); it
is never stored in an event, so logs written before it fold to the same stages. stage_of() gives the
one stage of a state. A pause is not a stage: it holds the stage it interrupts, and PAUSE_REFUSALS says
which commands it holds.

decide() asks refusal() before any command handler runs: a command the stage does not take is refused
there, with the code and sentence of REFUSALS, so the handlers keep only the checks that depend on the
command's own data (whose seat, which answer, the text). A stage with no open question refuses before
the sender's own checks (its seat, the question it was meant for), since they are beside the point;
inside a question the stage refuses after them, so a command meant for an earlier question or phase is
told so rather than that this stage takes no such command.

A stage owns its timers: the clock (rules.next_wakeup) runs only the ones its stage lists. Adding a
stage (as the bonus's four were, or a team's AI teammate thinking) is a member of Stage with its entry in STAGES,
its refusals in REFUSALS, the fold's event that enters it, and the handlers of the commands it takes;
tests/engine/test_stages.py then checks every move and every refusal against the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from game.engine.commands import COMMANDS
from game.engine.rejected import Rejected


class Stage(StrEnum):
    SETUP = "setup"
    BETWEEN = "between"
    READING = "reading"
    DEAD = "dead"
    BUZZED = "buzzed"
    PROMPTED = "prompted"
    ANSWERED = "answered"
    DISCUSSION = "discussion"
    REVIEW_BUZZ = "review_buzz"
    REVIEW_TEAM = "review_team"
    BONUS_READY = "bonus_ready"
    BONUS_CONFER = "bonus_confer"
    BONUS_BOUNCE = "bonus_bounce"
    BONUS_REVIEW = "bonus_review"
    CLOSED = "closed"
    FINISHED = "finished"


class Refusal(NamedTuple):
    """Why a stage refuses a command: the code the clients see and the sentence the sender reads.
    `early`: told before the sender's own checks (see the module's docstring); refusal() sets it."""

    code: str
    sentence: str
    early: bool = False

    def rejected(self) -> Rejected:
        return Rejected(self.sentence, self.code)


@dataclass(frozen=True)
class StageRules:
    """One stage's row of the table."""

    meaning: str  # what is going on, in words
    takes: frozenset  # the commands this stage takes; it refuses every other one (REFUSALS)
    exits: frozenset  # the stages it may go to next (staying is not a move)
    timers: frozenset = frozenset()  # what may run on the clock here: "word" and the deadlines' kinds


S = Stage
FLOOR_HELD = (S.BUZZED, S.PROMPTED, S.ANSWERED)  # a buzz holds the floor
FLOOR_OPEN = (S.READING, S.DEAD)  # a buzz phase that anyone not locked out may buzz in
# A tossup's bonus (game/engine/bonus.py) is played after the tossup closed: its answer is shown.
BONUS_STAGES = (S.BONUS_READY, S.BONUS_CONFER, S.BONUS_BOUNCE, S.BONUS_REVIEW)
BONUS_ANSWERING = (S.BONUS_CONFER, S.BONUS_BOUNCE)  # a team may answer the part read
QUESTION_STAGES = frozenset({*FLOOR_OPEN, *FLOOR_HELD, S.DISCUSSION, S.REVIEW_BUZZ, S.REVIEW_TEAM, *BONUS_STAGES})
ANSWER_SHOWN_STAGES = frozenset({S.REVIEW_BUZZ, S.REVIEW_TEAM, S.CLOSED, *BONUS_STAGES})

# Commands by where they make sense: any time; in a live match whatever its question; on a question in
# play or just closed; on an open question.
ALWAYS = frozenset({"tick", "join", "bot_missed", "bot_stopped", "judge", "voice", "override", "adjust",
                    "resolve_protest", "resume"})  # resume: the pause decides (PAUSE_REFUSALS)
LIVE = ALWAYS | {"pause", "kick", "leave", "protest"}
ON_QUESTION = LIVE | {"undo", "throw_out"}
PLAYING = ON_QUESTION | {"bot_guess", "snippets", "voice_timings"}
BUZZES = frozenset({"buzz", "buzz_for"})  # a seat's buzz, and a person's buzz for a semi bot teammate (seat_table.py)
AFTER_BUZZ = PLAYING | BUZZES | {"answer", "pass", "rule"}  # a later buzz may still take the floor (buzzrace.py)
# Undo before the answer was shown goes back to the stage the undone ruling was made in, whatever the
# phase is now; after, to ruling again. A ruling or timer that ends a phase leads to the next phase's first
# stage (READING, DEAD when every word was read before, DISCUSSION) or to the close. Formats are data, so
# these are the moves for any order of buzz and team phases.
UNDO_BACK = frozenset({*FLOOR_HELD, S.DISCUSSION})
# In a bonus: the team confers in its chat, bots report guesses, undo takes back the last part ruling.
IN_BONUS = LIVE | {"undo", "chat", "bot_guess"}

STAGES: dict[Stage, StageRules] = {
    S.SETUP: StageRules(
        "created, not started: people take their seats",
        takes=ALWAYS | {"start", "end", "kick", "leave"},
        exits=frozenset({S.BETWEEN, S.FINISHED})),
    S.BETWEEN: StageRules(
        "live with no question in play, for the moment between the start (or a throw-out) and the question "
        "that starts next",
        takes=LIVE | {"next", "end"},
        exits=frozenset({S.READING, S.FINISHED})),
    S.READING: StageRules(
        "a buzz phase with words still to come (on the clock, by the voice or by the moderator's key); the floor is open",
        takes=PLAYING | BUZZES | {"reveal"},
        exits=frozenset({S.DEAD, S.BUZZED, S.DISCUSSION, S.CLOSED, S.BETWEEN}) | UNDO_BACK,
        timers=frozenset({"word"})),
    S.DEAD: StageRules(
        "a buzz phase with every word read: the floor is open until the dead time runs out",
        takes=PLAYING | BUZZES,
        exits=frozenset({S.BUZZED, S.DISCUSSION, S.CLOSED, S.BETWEEN}) | UNDO_BACK,
        timers=frozenset({"dead"})),
    S.BUZZED: StageRules(
        "a buzz holds the floor; its player has not answered yet (the moderator may rule on a spoken answer)",
        takes=AFTER_BUZZ,
        exits=frozenset({S.ANSWERED, S.PROMPTED, S.READING, S.DEAD, S.CLOSED, S.BETWEEN}) | UNDO_BACK - {S.BUZZED},
        timers=frozenset({"answer"})),
    S.PROMPTED: StageRules(
        "the buzz's answer was prompted: its player answers again",
        takes=AFTER_BUZZ,
        exits=frozenset({S.ANSWERED, S.READING, S.DEAD, S.CLOSED, S.BETWEEN}) | UNDO_BACK - {S.PROMPTED},
        timers=frozenset({"prompt"})),
    S.ANSWERED: StageRules(
        "the buzz's answer waits for the moderator's ruling",
        takes=AFTER_BUZZ,
        exits=frozenset({S.PROMPTED, S.READING, S.DEAD, S.CLOSED, S.BETWEEN}) | UNDO_BACK - {S.ANSWERED}),
    S.DISCUSSION: StageRules(
        "a team phase: teams discuss, captains submit or pass, the moderator rules the floor's submission",
        takes=PLAYING | {"answer", "submit", "pass", "chat", "rule"},
        exits=frozenset({S.READING, S.DEAD, S.CLOSED, S.BETWEEN}) | UNDO_BACK - {S.DISCUSSION},
        timers=frozenset({"discussion"})),
    S.REVIEW_BUZZ: StageRules(
        "the answer was shown and a ruling undone: the moderator rules again on the buzz's answer; "
        "nothing else is answered and no clock runs",
        takes=PLAYING | {"rule"},
        exits=frozenset({S.REVIEW_TEAM, S.CLOSED, S.BETWEEN})),
    S.REVIEW_TEAM: StageRules(
        "the answer was shown and a ruling undone: the moderator rules again on the submissions made "
        "before it; nothing else is answered and no clock runs",
        takes=PLAYING | {"rule", "chat"},
        exits=frozenset({S.REVIEW_BUZZ, S.CLOSED, S.BETWEEN})),
    S.BONUS_READY: StageRules(
        "the tossup's bonus: its next part waits for the moderator to read it (the team may confer meanwhile)",
        takes=IN_BONUS | {"read_part"},
        exits=frozenset({S.BONUS_CONFER, S.BONUS_REVIEW, S.BONUS_BOUNCE})),
    S.BONUS_CONFER: StageRules(
        "a bonus part was read: the controlling team confers and its captain answers; the moderator rules",
        takes=IN_BONUS | {"bonus_answer", "rule", "decide_part"},
        exits=frozenset({S.BONUS_READY, S.BONUS_BOUNCE, S.BONUS_REVIEW, S.CLOSED}),
        timers=frozenset({"confer"})),
    S.BONUS_BOUNCE: StageRules(
        "the controlling team missed the part: the other team confers briefly and may answer it (a bounceback)",
        takes=IN_BONUS | {"bonus_answer", "rule"},
        exits=frozenset({S.BONUS_READY, S.BONUS_CONFER, S.BONUS_REVIEW, S.CLOSED}),
        timers=frozenset({"bounce"})),
    S.BONUS_REVIEW: StageRules(
        "a part's ruling was undone after its answer was shown: the moderator rules again on what was answered; "
        "nothing else is answered and no clock runs",
        takes=IN_BONUS | {"rule"},
        exits=frozenset({S.BONUS_READY, S.BONUS_CONFER, S.BONUS_BOUNCE, S.CLOSED})),
    S.CLOSED: StageRules(
        "the question is over and its answer shown: the moderator goes on to the next one",
        takes=ON_QUESTION | {"next", "end"},
        exits=frozenset({S.READING, S.REVIEW_BUZZ, S.REVIEW_TEAM, S.BETWEEN, S.FINISHED, *BONUS_STAGES})),
    S.FINISHED: StageRules(
        "the match is over: scores may still be corrected and rulings protested",
        takes=ALWAYS | {"protest"},
        exits=frozenset()),
}

NOT_LIVE = Refusal("not_live", "The match is not live.")
NO_QUESTION = Refusal("no_question", "No question is being played right now.")
ANSWER_SHOWN = Refusal("answer_shown", "The answer has been shown, so this question takes no more answers.")
NOT_YOUR_BUZZ = Refusal("not_your_buzz", "Only the player who buzzed may answer.")
NOTHING_TO_PASS = Refusal("bad_phase", "There is nothing to pass on; simply don't buzz.")
NOT_READ_ALOUD = Refusal("stale", "No question is being read aloud.")
TEAM_PHASE = Refusal("bad_phase", "This is a team phase; discuss and let the captain submit.")
WHOLE_SHOWN = Refusal("bad_phase", "The whole question is already shown in a team phase.")
BUZZ_STAGES = (*FLOOR_OPEN, *FLOOR_HELD, S.REVIEW_BUZZ)
NO_OPEN_QUESTION = {S.SETUP: NOT_LIVE, S.FINISHED: NOT_LIVE, S.BETWEEN: NO_QUESTION, S.CLOSED: NO_QUESTION}
IN_A_BONUS = Refusal("bad_phase", "A bonus is being played: the team's captain answers its parts.")
BONUS_OPEN = Refusal("question_open", "The bonus is still being played; rule its parts first.")
NO_PART_READ = Refusal("bad_phase", "No bonus part is waiting for an answer; the moderator reads the next one.")
NOT_A_BONUS = Refusal("bad_phase", "No bonus is being played.")


def _each(stages, refusal: Refusal) -> dict:
    return dict.fromkeys(stages, refusal)


# command -> its refusal in every stage that does not take it, or {stage: refusal} where the code or the
# sentence depends on the stage. The codes and sentences are what clients and people have always been told.
TOSSUP_STAGES = QUESTION_STAGES - set(BONUS_STAGES)
REFUSALS: dict[str, Refusal | dict[Stage, Refusal]] = {
    "start": Refusal("already_started", "The match has already started."),
    "next": {S.SETUP: NOT_LIVE, S.FINISHED: NOT_LIVE, **_each(TOSSUP_STAGES, Refusal(
        "question_open", "The current question is still open; rule on it or wait for it to close.")),
             **_each(BONUS_STAGES, BONUS_OPEN)},
    "end": {S.FINISHED: Refusal("finished", "The match has already ended."), **_each(TOSSUP_STAGES, Refusal(
        "question_open", "Close or throw out the current question before ending the match.")),
            **_each(BONUS_STAGES, BONUS_OPEN)},
    "pause": Refusal("not_live", "Only a live match can be paused."),
    "kick": Refusal("finished", "The match is over; there is nothing to leave."),
    "leave": Refusal("finished", "The match is over; there is nothing to leave."),
    "protest": Refusal("not_live", "The match has not started; there is no ruling to protest."),
    "undo": {S.SETUP: NOT_LIVE, S.FINISHED: NOT_LIVE, S.BETWEEN: NO_QUESTION},
    "throw_out": {S.SETUP: NOT_LIVE, S.FINISHED: NOT_LIVE, S.BETWEEN: NO_QUESTION, **_each(BONUS_STAGES, Refusal(
        "question_open", "The bonus is still being played; throw the question out once it is over."))},
    "bot_guess": NO_OPEN_QUESTION,
    "snippets": {**NO_OPEN_QUESTION, **_each(BONUS_STAGES, IN_A_BONUS)},
    "voice_timings": NOT_READ_ALOUD,
    "reveal": {**NO_OPEN_QUESTION, S.DEAD: Refusal("all_read", "Every word has been read."),
               **_each(FLOOR_HELD, Refusal("possession", "Someone has buzzed; rule on the answer first.")),
               S.DISCUSSION: WHOLE_SHOWN, S.REVIEW_TEAM: WHOLE_SHOWN, S.REVIEW_BUZZ: ANSWER_SHOWN,
               **_each(BONUS_STAGES, IN_A_BONUS)},
    **_each(BUZZES, {**NO_OPEN_QUESTION, S.DISCUSSION: TEAM_PHASE, S.REVIEW_TEAM: TEAM_PHASE,
                     S.REVIEW_BUZZ: ANSWER_SHOWN, **_each(BONUS_STAGES, IN_A_BONUS)}),
    "answer": {**NO_OPEN_QUESTION, **_each(FLOOR_OPEN, NOT_YOUR_BUZZ), S.REVIEW_BUZZ: ANSWER_SHOWN,
               S.REVIEW_TEAM: ANSWER_SHOWN, **_each(BONUS_STAGES, IN_A_BONUS)},
    "submit": {**NO_OPEN_QUESTION, S.REVIEW_TEAM: ANSWER_SHOWN, **_each(BUZZ_STAGES, Refusal(
        "bad_phase", "Buzz first; answers without a buzz are taken only in team phases.")),
               **_each(BONUS_STAGES, IN_A_BONUS)},
    "pass": {**NO_OPEN_QUESTION, **_each(FLOOR_OPEN, NOTHING_TO_PASS), S.REVIEW_BUZZ: ANSWER_SHOWN,
             S.REVIEW_TEAM: ANSWER_SHOWN, **_each(BONUS_STAGES, IN_A_BONUS)},
    "chat": {**NO_OPEN_QUESTION, **_each(BUZZ_STAGES, Refusal("bad_phase", "The team discussion opens in team phases."))},
    "rule": {**NO_OPEN_QUESTION, **_each(FLOOR_OPEN, Refusal("nothing_to_rule", "Nobody has buzzed; there is nothing to rule on.")),
             S.BONUS_READY: Refusal("nothing_to_rule", "No bonus part has been read; read the next part first.")},
    "read_part": {**NO_OPEN_QUESTION, **_each(TOSSUP_STAGES, NOT_A_BONUS), **_each(BONUS_ANSWERING, Refusal(
        "part_open", "The part in play is not over yet; rule on it first.")), S.BONUS_REVIEW: Refusal(
        "part_open", "A part's ruling was undone; rule on it again first.")},
    "bonus_answer": {**NO_OPEN_QUESTION, **_each(TOSSUP_STAGES, NOT_A_BONUS), S.BONUS_READY: NO_PART_READ,
                     S.BONUS_REVIEW: Refusal("answer_shown", "The part's answer has been shown; the moderator "
                                                              "rules again on the answer already given.")},
    "decide_part": {**NO_OPEN_QUESTION, **_each(TOSSUP_STAGES, NOT_A_BONUS), S.BONUS_READY: NO_PART_READ,
                    S.BONUS_BOUNCE: Refusal("bounced", "The part went to the other team on a bounceback; the "
                                                       "decision was the controlling team's."),
                    S.BONUS_REVIEW: Refusal("already_answered", "The team has answered this part, so its "
                                                                "decision stands.")},
}

# A pause holds the stage it interrupts: these commands wait for the resume; resume needs a pause.
PAUSED = Refusal("paused", "The match is paused; wait for the moderator to resume.", early=True)
PAUSE_REFUSALS = {
    True: {**_each(("next", "reveal", *BUZZES, "answer", "submit", "pass", "read_part", "bonus_answer"), PAUSED),
           "pause": Refusal("paused", "The match is already paused.", early=True)},
    False: {"resume": Refusal("not_paused", "The match is not paused.", early=True)},
}


def _refusals_by_stage() -> dict[Stage, dict[str, Refusal]]:
    """stage -> {command: refusal} for every command the stage does not take. Raises at import when a
    stage neither takes nor refuses a command, or when REFUSALS names a stage that takes it."""
    out = {}
    for stage, rules in STAGES.items():
        early = stage not in QUESTION_STAGES
        refused = {}
        for kind in COMMANDS:
            given = REFUSALS.get(kind)
            named = given.get(stage) if isinstance(given, dict) else given
            if kind in rules.takes:
                if isinstance(given, dict) and named is not None:
                    raise ValueError(f"The {stage} stage takes {kind}, yet REFUSALS refuses it there.")
                continue
            if named is None:
                raise ValueError(f"The {stage} stage neither takes {kind} nor says why it refuses it.")
            refused[kind] = named._replace(early=early)
        out[stage] = refused
    return out


_REFUSED = _refusals_by_stage()


def refusal(stage: Stage, kind: str, paused: bool) -> Refusal | None:
    """Why `kind` is refused now, or None: the stage's refusal if it has no open question, then the
    pause's, then the stage's (which decide() tells after the sender's own checks)."""
    refused = _REFUSED[stage].get(kind)
    if refused is not None and refused.early:
        return refused
    held = PAUSE_REFUSALS[paused].get(kind)
    return held if held is not None else refused


def stage_of(state) -> Stage:
    """The stage of a match (a MatchState): its status, and while it is live its question's stage."""
    status = state.status
    if status == "live":
        return state.q.stage if state.q is not None else Stage.BETWEEN
    return Stage.SETUP if status == "setup" else Stage.FINISHED


def buzz_floor_stage(revealed: int, words: int) -> Stage:
    """The stage of a buzz phase whose floor is open: READING while words are still to come, else DEAD."""
    return Stage.READING if revealed < words else Stage.DEAD
