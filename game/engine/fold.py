"""apply(state, event) -> state: fold one event into the live state. Pure and deterministic.

Every decision was already made by decide() and written into the event, so folding the stored log
from the start reproduces the live state exactly.

apply() never changes the state it is given (it folds into a copy). apply_in_place() folds into the
state itself, which is what loading a log, replaying and decide()'s private copy want: a copy per
event made folding a 1,400-event match cost half a second. Handlers only ever mutate the state
they are handed, never an event's data, so both give the same state (tests/engine/test_fast_fold.py).
"""
from __future__ import annotations

import copy

from game.engine.event_table import EVENTS
from game.engine.questions import Question
from game.engine.rule_table import complete
from game.engine.seat_table import complete as complete_seat
from game.engine.stages import Stage, buzz_floor_stage
from game.engine.state import MatchState, QuestionState
from game.engine.protests import fold_filed, fold_resolved
from game.engine import bonus, voice


def initial_state(data: dict) -> MatchState:
    return MatchState(
        rules=complete(data["rules"]),  # a log older than a rule gets what it played under
        teams=[dict(t) for t in data["teams"]],
        seats={s["id"]: dict(complete_seat(s)) for s in data["seats"]},  # a log older than the bot seats' settings too
        questions=tuple(Question.from_dict(q) for q in data["questions"]),
        bonuses=tuple(Question.from_dict(b) for b in data.get("bonuses") or ()),
        scores={t["id"]: 0 for t in data["teams"]},
    )


def _add_scores(state: MatchState, changes: dict, into: dict | None = None):
    for team, points in changes.items():
        state.scores[team] = state.scores.get(team, 0) + points
        if into is not None:
            into[team] = into.get(team, 0) + points


def apply(state: MatchState | None, event: dict) -> MatchState:
    """The state after event; `state` itself is left as it was."""
    if state is None or event["type"] == "match_created":
        return apply_in_place(state, event)
    return apply_in_place(state.clone(), event)


def apply_in_place(state: MatchState | None, event: dict) -> MatchState:
    """Fold event into state itself and return it (a new state for match_created)."""
    kind, data, t = event["type"], event.get("data", {}), event.get("t", 0)
    if kind == "match_created":
        new = initial_state(data)
    else:
        if state is None:
            raise ValueError("The first event of a match must be match_created.")
        new = state
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise ValueError(f"Unknown event type {kind!r}.")
        handler(new, data, t)
    new.t = max(new.t, t)
    new.seq += 1
    if data.get("score_changes"):
        new.scores_seq = new.seq
    return new


def fold(events) -> MatchState | None:
    """The state after all events, folded into one state that nobody else holds."""
    state = None
    for event in events:
        state = apply_in_place(state, event)
    return state


# -- handlers: each mutates the state it is given ------------------------------------------

def _seat_joined(s: MatchState, d, t):
    s.seats[d["seat"]["id"]] = dict(complete_seat(d["seat"]))


def _seat_left(s: MatchState, d, t):
    s.seats[d["seat"]].update(left=d["by"], captain=False)
    if d.get("captain"):  # the captaincy passed on with it
        s.seats[d["captain"]]["captain"] = True


def _match_started(s: MatchState, d, t):
    s.status = "live"
    s.clock_from = t
    for seat, size in (d.get("bot_sizes") or {}).items():
        if seat in s.seats:
            s.seats[seat]["size"] = dict(size)


def _question_started(s: MatchState, d, t):
    s.q = QuestionState(number=d["number"], index=d["index"], tiebreaker=d["tiebreaker"], priority=d["priority"])
    s.number = d["number"]
    s.played.append(d["index"])
    if d["tiebreaker"] and d.get("replaces") is None:  # a replacement does not use up a tiebreaker
        s.tiebreakers_played += 1


def _phase_started(s: MatchState, d, t):
    q = s.q
    q.phase, q.mode = d["phase"] - 1, d["mode"]
    q.locked, q.passed, q.submissions, q.refused = [], [], {}, []
    q.possession, q.floor = None, d.get("floor")
    q.floor_seq = s.seq + 1 if q.mode == "team" else None  # a team phase gives the floor to its first side
    q.next_word_at = d.get("next_word_at")
    q.deadline = d.get("deadline")
    if d.get("words"):
        q.revealed += len(d["words"])
        q.reveal_times = q.reveal_times + [t] * len(d["words"])  # replaced, never changed: see MatchState.clone
    q.stage = Stage.DISCUSSION if q.mode == "team" else buzz_floor_stage(q.revealed, len(s.question.words))


def _word_revealed(s: MatchState, d, t):
    q = s.q
    q.revealed = d["index"] + 1
    q.reveal_times = q.reveal_times + [t]  # replaced, never changed: see MatchState.clone
    q.next_word_at = d.get("next_at")
    if d.get("dead_at") is not None:
        q.deadline = {"kind": "dead", "at": d["dead_at"]}
    q.stage = buzz_floor_stage(q.revealed, len(s.question.words))


def _buzz(s: MatchState, d, t):
    q = s.q
    q.possession = {
        "seat": d["seat"], "team": d["team"], "received": d["received"], "word": d["word"],
        "seen": d.get("seen"), "answer": None, "prompted": False, "pressed": d.get("pressed", d["received"]),
        "by": d.get("by"),  # a semi bot's buzz: the teammate who pressed its buzzer
    }
    q.refused = []
    q.buzz_log = q.buzz_log + [_audit(d, t, "won")]
    if d.get("replaces"):  # an earlier buzz took the floor from this one: its marker goes
        q.buzzes = [b for b in q.buzzes if not (b["seat"] == d["replaces"] and b["verdict"] is None)]
    q.buzzes = q.buzzes + [{"seat": d["seat"], "team": d["team"], "word": d["word"], "text": None, "verdict": None,
                            "prompted": False, "ruling": None}]
    q.next_word_at = None
    q.deadline = {"kind": "answer", "at": d["deadline_at"]} if d.get("deadline_at") else None
    q.stage = Stage.BUZZED
    q.floor_seq = s.seq + 1


def _answer(s: MatchState, d, t):
    s.q.possession["answer"] = d["text"]
    s.q.deadline = None
    s.q.stage = Stage.ANSWERED
    s.q.floor_seq = s.seq + 1
    marker = _open_marker(s.q, d["seat"])
    if marker is not None:
        marker["text"] = d["text"]
    _record_answer(s, d)


def _submission(s: MatchState, d, t):
    s.q.submissions[d["team"]] = {"seat": d["seat"], "text": d["text"], "seq": s.seq + 1,
                                  **({"held": True} if d.get("held") else {})}
    if d["team"] == s.q.floor:
        s.q.floor_seq = s.seq + 1
    _stop_clock(s.q, d)
    _record_answer(s, d)


def _stop_clock(q: QuestionState, d):
    if d.get("clock_stopped"):  # every side has answered: no deadline runs on
        q.deadline = None


def _floor_moved(s: MatchState, before: str | None):
    """A team phase's floor went from `before` to another side (or to nobody): it holds that side's
    submission if it made one, else it waits for that side from this event on."""
    q = s.q
    if q.floor != before:
        sub = q.submissions.get(q.floor)
        q.floor_seq = None if q.floor is None else sub["seq"] if sub else s.seq + 1


def _record_answer(s: MatchState, d):
    # The event being folded is number s.seq + 1: the judge's suggestion names it ("for").
    s.q.answers = s.q.answers + [{"seq": s.seq + 1, "seat": d["seat"], "team": d["team"], "text": d["text"],
                                  "ruling": None, "verdict": None, "suggestion": None}]


def _open_marker(q: QuestionState, seat: str) -> dict | None:
    return next((b for b in reversed(q.buzzes) if b["seat"] == seat and b["verdict"] is None), None)


def _passed(s: MatchState, d, t):
    q = s.q
    q.passed.append(d["team"])
    before, q.floor = q.floor, d.get("floor")
    _floor_moved(s, before)
    _stop_clock(q, d)


def _chat(s: MatchState, d, t):
    s.q.chat.setdefault(d["team"], []).append({"seat": d["seat"], "name": d["name"], "text": d["text"]})


def _ruling(s: MatchState, d, t):
    q = s.q
    checkpoint = q.checkpoint
    q.checkpoint = None
    before = _question_copy(q)
    before.checkpoint = checkpoint
    q.checkpoint = before  # the state before this ruling, for undo (chained for repeated undo)
    rid = d["id"]
    s.rulings[rid] = {k: d[k] for k in ("id", "number", "phase", "mode", "team", "seat", "text", "verdict",
                                         "points", "accept_points", "reject_points", "by")}
    s.rulings[rid]["heard"] = d.get("heard")
    s.rulings[rid]["t"] = t  # when it was ruled: a protest of it may come within the match's protest_seconds
    s.rulings[rid]["reason"] = d.get("reason")  # the moderator's note; the hall sees it only if public
    if d.get("public"):
        s.rulings[rid]["public"] = True
    if d.get("held"):  # the computer's answer, not shown to the hall until the humans are done
        s.rulings[rid]["held"] = True
    s.next_ruling_id = rid + 1
    q.ruling_ids = q.ruling_ids + [rid]
    q.refused = []
    q.score_changes = dict(q.score_changes)
    _add_scores(s, d["score_changes"], q.score_changes)
    verdict = d["verdict"]
    answered = next((a for a in reversed(q.answers) if a["team"] == d["team"] and a["ruling"] is None), None)
    if answered is not None and (d.get("text"), d.get("seat")) == (answered["text"], answered["seat"]):
        answered.update(ruling=rid, verdict=verdict)
    marker = _open_marker(q, d["seat"]) if d["mode"] == "buzz" else None
    if marker is not None:
        marker.update(prompted=True) if verdict == "prompt" else marker.update(verdict=verdict, ruling=rid)
    # The stage stays where it is when the question closes next (an accept, a reject once the answer was
    # shown): question_closed, which follows in the same command, moves it.
    if verdict == "accept":
        q.result = {"team": d["team"], "seat": d["seat"], "points": d["points"], "phase": d["phase"]}
        q.possession, q.deadline, q.floor_seq = None, None, None
    elif verdict == "prompt":
        q.floor_seq = s.seq + 1  # the answer goes back: the side answers again
        if q.mode == "buzz":
            q.possession = dict(q.possession, answer=None, prompted=True)
            q.stage = Stage.PROMPTED
        else:
            q.submissions = {k: v for k, v in q.submissions.items() if k != d["team"]}
        q.deadline = d.get("deadline")
    else:
        q.locked = q.locked + [d["team"]]
        if q.mode == "buzz":
            q.possession, q.floor_seq = None, None
            q.next_word_at = d.get("resume_at")
            q.deadline = {"kind": "dead", "at": d["dead_at"]} if d.get("dead_at") is not None else None
            if not q.answer_shown:  # the floor opens again
                q.stage = buzz_floor_stage(q.revealed, len(s.question.words))
        else:
            before, q.floor = q.floor, d.get("floor")
            _floor_moved(s, before)


def _question_copy(q: QuestionState) -> QuestionState:
    """A copy for undo that shares nothing a handler changes in place: every list and dict of the
    question is copied two levels down (chat is team -> list of lines). Deep-copying it instead cost
    most of the time a long match takes to fold."""
    copied = copy.copy(q)
    for name, value in vars(q).items():
        if isinstance(value, (list, dict)):
            setattr(copied, name, _two_levels(value))
    return copied


def _two_levels(value):
    inner = lambda v: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v  # noqa: E731
    return [inner(v) for v in value] if isinstance(value, list) else {k: inner(v) for k, v in value.items()}


def _timeout(s: MatchState, d, t):
    q = s.q
    q.deadline = None
    if d["kind"] == "discussion":
        q.passed = q.passed + list(d.get("passed", []))
        before, q.floor = q.floor, d.get("floor")
        _floor_moved(s, before)


def _question_closed(s: MatchState, d, t):
    q = s.q
    q.stage = Stage.CLOSED
    q.next_word_at, q.deadline, q.possession, q.floor_seq = None, None, None, None
    q.revealed = len(s.questions[q.index].words)
    s.history.append(_history_entry(s, q, thrown_out=False))


def _history_entry(s: MatchState, q: QuestionState, thrown_out: bool, reason: str = "", public: bool = False) -> dict:
    return {
        "number": q.number, "index": q.index, "qid": s.questions[q.index].qid, "tiebreaker": q.tiebreaker,
        "thrown_out": thrown_out, "reason": reason, "reason_public": public, "phase": q.phase + 1, "result": q.result,
        "rulings": list(q.ruling_ids), "score_changes": dict(q.score_changes), "buzzes": list(q.buzz_log),
        "bonus": None if q.bonus is None else {"index": q.bonus["index"], "team": q.bonus["team"],
                                               "points": dict(q.bonus["points"])},
    }


def _question_thrown_out(s: MatchState, d, t):
    q = s.q
    _add_scores(s, d["score_changes"], q.score_changes)
    if q.closed:
        s.history.pop()
    q.result = None
    s.history.append(_history_entry(s, q, thrown_out=True, reason=d.get("reason") or "", public=bool(d.get("public"))))
    s.q = None


def _undo(s: MatchState, d, t):
    q = s.q
    if q.bonus is not None:  # a bonus's part ruling (the tossup's ruling stands once its bonus began)
        return bonus.fold_undo(s, d, t, _add_scores)
    restored = q.checkpoint
    if q.closed:
        s.history.pop()
    restored.revealed = max(restored.revealed, q.revealed)
    # Words shown by the close stay shown, and a later buzz must be credited as coming after them.
    restored.reveal_times = list(q.reveal_times) + [t] * (restored.revealed - len(q.reveal_times))
    restored.chat = q.chat
    restored.bot_guesses = q.bot_guesses
    restored.shown_guesses, restored.held_guesses, restored.bot_missed = q.shown_guesses, q.held_guesses, q.bot_missed
    restored.held_trail, restored.consulted = q.held_trail, q.consulted
    restored.buzz_log = q.buzz_log  # the record keeps every buzz, whatever is undone
    # Every typed answer stays on the record with its suggestion; the one ruled by the undone ruling waits again.
    restored.answers = [dict(a, ruling=None, verdict=None) if a["ruling"] == d["ruling"] else a for a in q.answers]
    restored.refused = []
    # Once everyone has seen the answer the question never takes another buzz or answer: the
    # moderator rules again on what was already given, and the question closes after that. Else the
    # question is back in the stage its ruling was made in.
    if q.answer_shown:
        restored.stage = Stage.REVIEW_BUZZ if restored.mode == "buzz" else Stage.REVIEW_TEAM
    # What happened after the ruling and cannot un-happen stays: other teams' submissions and passes,
    # but only those made in the phase being restored; a later phase's answers belong to that phase.
    if q.phase == restored.phase:
        restored.submissions = {**q.submissions, **restored.submissions}
        restored.passed = restored.passed + [team for team in q.passed if team not in restored.passed]
    if restored.deadline and restored.deadline["kind"] in ("answer", "prompt"):
        restored.deadline = None  # the moderator is ruling again; no clock on it
    if restored.possession is not None or restored.answer_shown:
        restored.next_word_at = None
    if restored.answer_shown:
        restored.deadline = None
    restored.score_changes = dict(q.score_changes)
    _add_scores(s, d["score_changes"], restored.score_changes)
    restored.floor_seq = s.seq + 1  # the undone ruling's answer is back on the floor: it is ruled from here
    s.rulings.pop(d["ruling"], None)
    s.q = restored


def _bonus_part_ruled(s: MatchState, d, t):
    bonus.fold_part_ruled(s, d, t, _question_copy, _add_scores)


def _override(s: MatchState, d, t):
    record = dict(s.rulings[d["ruling"]], verdict=d["verdict"], points=d["points"], overridden=True)
    s.rulings[d["ruling"]] = record
    # The question was scored again: rulings after its first correct answer are withdrawn (logs from
    # before this rescoring carry no list and changed the overridden ruling only).
    for each in d.get("rulings") or ():
        if each["id"] in s.rulings:
            s.rulings[each["id"]] = dict(s.rulings[each["id"]], points=each["points"], withdrawn=each["withdrawn"])
    _add_scores(s, d["score_changes"])
    _note_correction(s, d, t, "override", team=record["team"])
    for at, entry in enumerate(s.history):
        if entry["number"] == record["number"] and not entry["thrown_out"] and d["ruling"] in entry["rulings"]:
            changes = dict(entry["score_changes"])
            for team, pts in d["score_changes"].items():
                changes[team] = changes.get(team, 0) + pts
            s.history[at] = dict(entry, score_changes=changes, result=d.get("result"))  # a new record: see MatchState.clone
    q = s.q
    if q is not None and q.number == record["number"] and d["ruling"] in q.ruling_ids:
        # The overridden question is still the current one (closed): keep its own record in step, so
        # that a throw-out or an undo afterwards reverses what the question is really worth now.
        q.score_changes = dict(q.score_changes)
        for team, pts in d["score_changes"].items():
            q.score_changes[team] = q.score_changes.get(team, 0) + pts
        q.result = d.get("result")
        for marker in q.buzzes:  # the buzz's marker on every screen shows the ruling as it now stands
            if marker["ruling"] == d["ruling"]:
                marker["verdict"] = d["verdict"]
    _recount_winner(s)


def _recount_winner(s: MatchState):
    # A correction after the final whistle must not leave a winner the scores no longer support.
    if s.status == "finished":
        s.winner = s.leader()


def _score_adjusted(s: MatchState, d, t):
    _add_scores(s, d["score_changes"])
    _note_correction(s, d, t, "adjust", team=d["team"])
    _recount_winner(s)


CORRECTION_FIELDS = ("number", "ruling", "verdict", "points")


def _note_correction(s: MatchState, d, t, kind: str, team: str):
    """A change of score after the final whistle, kept in order: what changed, by how much, and why."""
    if not d.get("correction"):
        return
    entry = {"seq": s.seq + 1, "t": t, "kind": kind, "team": team, **{k: d.get(k) for k in CORRECTION_FIELDS},
             "score_changes": dict(d["score_changes"]), "reason": d.get("reason")}
    if d.get("public"):
        entry["public"] = True
    s.corrections.append(entry)


def _paused(s: MatchState, d, t):
    s.paused, s.paused_at = True, t


def _resumed(s: MatchState, d, t):
    shift = d["shift"]
    s.paused, s.paused_at = False, None
    if s.clock_from is not None:
        s.clock_from += shift  # a pause is not time played
    q = s.q
    if q is not None:
        if q.next_word_at is not None:
            q.next_word_at += shift
        if q.deadline is not None:
            q.deadline = dict(q.deadline, at=q.deadline["at"] + shift)


def _match_ended(s: MatchState, d, t):
    s.status = "finished"
    s.paused, s.paused_at = False, None  # a match ended during a pause is over, not paused
    s.winner = d.get("winner")
    s.end_reason = d.get("reason")


GUESS_FIELDS = ("word", "guess", "confidence", "buzz", "alternatives", "threshold")
TRAIL_FIELDS = ("seat", "word", "guess", "confidence", "buzz", "threshold")  # a point of a bot's chart


def _bot_guess(s: MatchState, d, t):
    q = s.q
    if q is None:
        return
    guess = {k: d.get(k) for k in GUESS_FIELDS}
    if guess["guess"] == "":  # logs from before blank guesses were recorded as no guess
        guess["guess"] = None
    q.bot_guesses[d["seat"]] = guess
    q.bot_missed.pop(d["seat"], None)
    if d.get("held"):
        q.held_guesses[d["seat"]] = guess
        q.held_trail = q.held_trail + [{k: d.get(k) for k in TRAIL_FIELDS}]
        if d.get("consult"):
            q.consulted[d["seat"]] = guess
    else:
        q.shown_guesses[d["seat"]] = guess
        q.held_guesses.pop(d["seat"], None)
        q.consulted.pop(d["seat"], None)


def _bot_guesses_released(s: MatchState, d, t):
    q = s.q
    if q is None:
        return
    q.shown_guesses.update({seat: dict(g) for seat, g in (d.get("guesses") or {}).items()})
    q.held_guesses, q.held_trail, q.consulted = {}, [], {}
    for item in d.get("rulings") or ():
        if item["id"] in s.rulings:
            s.rulings[item["id"]] = {k: v for k, v in s.rulings[item["id"]].items() if k != "held"}


def _bot_missed(s: MatchState, d, t):
    if s.q is not None and d.get("seat") in s.seats:
        s.q.bot_missed[d["seat"]] = {"status": d.get("status") or "failed", "reason": d.get("reason", "")}


def _bot_stopped(s: MatchState, d, t):
    if d.get("seat") in s.seats:
        s.seats[d["seat"]]["stopped"] = {"number": d.get("number"), "reason": d.get("reason", "")}


def _buzz_refused(s: MatchState, d, t):
    if s.q is not None:
        s.q.refused = s.q.refused + [d["seat"]]
        s.q.buzz_log = s.q.buzz_log + [dict(_audit(d, t, d["code"]), holder=d.get("holder"))]


def _audit(d: dict, t: int, outcome: str) -> dict:
    """One buzz as the audit shows it: who, when the server got it, the word revealed at its press, the word
    on the player's screen, whether it won the floor (or why not), and the race: the press time it was
    ordered by, what the phone claimed, why that was not taken as it came (clamp), the margin to the holder."""
    return {"seat": d["seat"], "team": d["team"], "received": d["received"], "word": d["word"], "seen": d.get("seen"),
            "at": t, "outcome": outcome, "pressed": d.get("pressed", d["received"]), "claimed": d.get("claimed"),
            "clamp": d.get("clamp"), "margin": d.get("margin")}


def _snippets_shown(s: MatchState, d, t):
    if s.q is not None:
        s.q.snippets = list(d["snippets"])


def _judge_suggested(s: MatchState, d, t):
    if s.q is None:
        return
    for a in s.q.answers:
        if a["seq"] == d.get("for"):
            a["suggestion"] = {k: d.get(k) for k in ("verdict", "confidence", "reason", "matched", "prompt_question")}


_HANDLERS = {
    "seat_joined": _seat_joined,
    "seat_left": _seat_left,
    "match_started": _match_started,
    "question_started": _question_started,
    "phase_started": _phase_started,
    "word_revealed": _word_revealed,
    "buzz": _buzz,
    "answer": _answer,
    "submission": _submission,
    "pass": _passed,
    "chat": _chat,
    "ruling": _ruling,
    "timeout": _timeout,
    "question_closed": _question_closed,
    "question_thrown_out": _question_thrown_out,
    "undo": _undo,
    "override": _override,
    "score_adjusted": _score_adjusted,
    "paused": _paused,
    "resumed": _resumed,
    "match_ended": _match_ended,
    "bot_guess": _bot_guess,
    "bot_missed": _bot_missed,
    "bot_stopped": _bot_stopped,
    "bot_guesses_released": _bot_guesses_released,
    "buzz_refused": _buzz_refused,
    "judge_suggested": _judge_suggested,
    "snippets_shown": _snippets_shown,
    "protest_filed": fold_filed,
    "protest_resolved": fold_resolved,
    "voice_ready": voice.fold_voice_ready,
    "bonus_started": bonus.fold_started,
    "bonus_part_read": bonus.fold_part_read,
    "bonus_part_decided": bonus.fold_part_decided,
    "bonus_answered": bonus.fold_answered,
    "bonus_part_ruled": _bonus_part_ruled,
    "bonus_ended": bonus.fold_ended,
    "voice_chosen": voice.fold_voice_chosen,
}
EVENT_TYPES = frozenset(EVENTS)  # the table's types: each has a handler here (tests/engine/test_event_table.py)
