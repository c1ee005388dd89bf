"""decide(state, command, now) -> events: the rules of both formats, and next_wakeup(state).

A command is {"type", "data", "actor", "received"?}. The actor says who sent it:
{"role": "moderator" | "player" | "bot" | "system", "seat": id?, "team": id?}; the web layer sets it
from the authenticated socket, never from what the client wrote, so a player can only act for their
own seat. "received" is when the web layer got the command (ms); buzz arbitration uses it, with a buzz's
"clock" {"rtt", "seen_at"}: what the web layer measured of the sender's socket (game/engine/buzzrace.py).

decide() first plays the clock up to `now` (words due, timers expired), then the command. It works
on a private copy, folding each event as it emits it, so later rules see earlier consequences.
A command the rules do not allow raises Rejected with a sentence saying why; nothing is emitted.
Whether the current stage of play takes the command at all is asked of one table, before any handler
runs (game/engine/stages.py); the handlers check only what depends on the command's own data.
"""
from __future__ import annotations

import math

from game.engine.buzzrace import grace_ms, press_time
from game.engine import ai_points, bonus
from game.engine import protests
from game.engine import stages
from game.engine import voice
from game.engine.commands import COMMANDS, MODERATOR, SEAT, senders
from game.engine.rejected import Rejected
from game.engine.fold import apply, apply_in_place
from game.engine.seat_table import SETTINGS as SEAT_SETTINGS, SeatSettingError, buzzes_alone, checked as seat_settings
from game.engine.selection import PACKET_ORDER
from game.engine.stages import BUZZES, NOT_YOUR_BUZZ, NOTHING_TO_PASS, STAGES, Stage
from game.engine.state import MatchState
from game.engine.typed import typed_text
from game.engine.wording import possessive

MAX_TEXT = 200
MAX_REASON = 1000  # why a bot was stopped: the figures and the mechanism that held it
JUDGEMENT_FIELDS = ("for", "seat", "team", "text", "verdict", "confidence", "reason", "matched", "prompt_question")
MAX_CHAT = 500
MAX_GUESSES = 5  # top guesses kept per bot report
MISSED = ("timed_out", "failed")  # why a bot's act came to nothing, as the hall may be told
# What a seat that was given up hears if anything still arrives from it, by who gave it up.
LEFT_MESSAGES = {"player": "You left this match; join again from the join page to play.",
                 "moderator": "The moderator removed you from this seat; join again from the join page to play."}


class _Emitter:
    """Collects events and keeps a folded copy of the state current with them.

    The state it was given is copied once, at the first event, and the copy is folded in place from
    then on: the caller's state never changes, even when the command is refused halfway.
    """

    def __init__(self, state: MatchState | None):
        self.state = state
        self.events: list[dict] = []

    def emit(self, event_type: str, t: int, **data) -> dict:
        t = max(t, self.state.t) if self.state is not None else t
        event = {"type": event_type, "t": t, "data": data}
        owned = bool(self.events) or self.state is None
        self.state = apply_in_place(self.state, event) if owned else apply(self.state, event)
        self.events.append(event)
        if event_type != "bot_guesses_released" and not self.state.guesses_held():
            self.release(t)  # the humans can no longer answer: what was held back goes out now
        return event

    def release(self, t: int) -> None:
        """Show the hall and the phones the bots' guesses and the computer's ruled answers held back
        on the current question, if any, once no human can score on it any more (one event, so every
        screen's fold stays exact)."""
        s = self.state
        q = s.q
        held = s.held_rulings()
        if q is None or not (q.held_guesses or held):
            return
        rulings = [{"id": rid, "text": s.rulings[rid]["text"], "heard": s.rulings[rid].get("heard")} for rid in held]
        self.emit("bot_guesses_released", t, number=q.number, phase=q.phase + 1, guesses=dict(q.held_guesses),
                  trail=list(q.held_trail), rulings=rulings)


# -- public entry points --------------------------------------------------------------------------

def create_match(rules: dict, teams: list[dict], seats: list[dict], questions: list[dict], now: int,
                 question_order: dict | None = None, bonuses: list[dict] | None = None) -> list[dict]:
    """The first event of every match: the rules, the roster, the questions (main, then reserve) and
    the settings that picked them from the packet (game/engine/selection.py; the moderator's only), and
    with a format that plays bonuses the packet's bonuses in packet order (game/engine/bonus.py)."""
    if len(teams) < 2:
        raise Rejected("A match needs at least two teams.")
    if len(questions) < 1:
        raise Rejected("The packet has no questions of the kind this format plays.")
    if rules["bonuses"] and not bonuses:
        raise Rejected("This format plays bonuses and the packet has none: choose a packet with bonuses, or a "
                       "format without them (Quizbowl tossups).", "no_bonuses")
    try:  # a bot seat's settings (game/engine/seat_table.py), each checked, its defaults filled in
        seats = [{**seat, **seat_settings(seat, {k: seat[k] for k in SEAT_SETTINGS if k in seat})} for seat in seats]
    except SeatSettingError as exc:
        raise Rejected(str(exc), "bad_seat") from None
    out = _Emitter(None)
    extra = {"bonuses": bonuses} if rules["bonuses"] else {}
    out.emit("match_created", now, rules=rules, teams=teams, seats=seats, questions=questions,
             question_order=question_order or PACKET_ORDER.to_dict(), **extra)
    return out.events


def next_wakeup(state: MatchState | None) -> int | None:
    """When the clock must next run for this match, or None if nothing is scheduled: the next
    scheduled moment, on the match's clock grid (see on_grid)."""
    due = _scheduled(state)
    return None if due is None else on_grid(due, state.rules)


def on_grid(due: int, rules: dict) -> int:
    """The moment a timer due at `due` fires: the next multiple of the rule clock_grid_ms (ms since
    the epoch; 0, the default, means at once). With a grid every match's words and deadlines fall
    on the same few instants, so a server with many matches wakes once per instant for all of them
    and stores their events together; and each event is stamped with the moment the screens get
    it. The schedule itself keeps the exact times (each word's length is counted from when it was
    due, not from the grid), so the reading never drifts: every word is late by less than one step.
    A match read aloud keeps the voice's own times: its words meet the audio to the ms."""
    grid = 0 if rules["reveal"] == "voice" else rules["clock_grid_ms"]
    return due if grid <= 0 else -(-due // grid) * grid


def _scheduled(state: MatchState | None) -> int | None:
    if state is None or state.status != "live" or state.paused or state.q is None:
        return None
    q = state.q
    timers = STAGES[q.stage].timers  # a stage runs its own timers only (none once the answer was shown)
    times = []
    if q.next_word_at is not None and "word" in timers:
        times.append(q.next_word_at)
    if q.deadline is not None and q.deadline["kind"] in timers:
        times.append(q.deadline["at"])
    return min(times) if times else None


def decide(state: MatchState, command: dict, now: int) -> list[dict]:
    return decide_and_fold(state, command, now)[0]


def decide_and_fold(state: MatchState, command: dict, now: int) -> tuple[list[dict], MatchState]:
    """decide(), plus the state with its events folded in: decide folds them as it goes anyway."""
    out = _Emitter(state)
    _run_clock(out, now)
    kind = command.get("type")
    handler = _COMMANDS.get(kind)
    if handler is None:
        raise Rejected(f"Unknown command {kind!r}.", "unknown_command")
    actor = command.get("actor") or {}
    data = command.get("data") or {}
    if not isinstance(data, dict):
        raise Rejected("A command's data must be an object.", "bad_shape")
    role, allowed = actor.get("role"), _ROLES[kind]
    if role not in allowed:
        raise Rejected(_ROLE_MESSAGES.get(kind, f"Only the {' or '.join(sorted(allowed))} may send {kind}."), "forbidden")
    received = command.get("received", now)
    if not isinstance(received, int) or received > now:
        received = now
    if kind in BUZZES:  # what the server measured of the sender's socket, never what the sender wrote
        data = dict(data, clock=command.get("clock"))
    s = out.state
    refused = stages.refusal(stages.stage_of(s), kind, s.paused)
    if refused is not None and refused.early:
        raise refused.rejected()
    if kind in _SEATED:  # a seat's command: its handler is given the sender's own seat, checked
        actor = _seat_of(s, actor)
        if kind in _MEANT_FOR:
            _same_question(s.q, data)
    if refused is not None:
        raise refused.rejected()
    try:
        handler(out, actor, data, now, received)
    except Rejected as refusal:
        if refusal.record:  # refused, but on the record: store what was emitted, answer with the refusal
            refusal.events, refusal.state = out.events, out.state
        raise
    return out.events, out.state


# -- the clock ------------------------------------------------------------------------------------

def _run_clock(out: _Emitter, now: int):
    while True:
        due = _scheduled(out.state)
        if due is None:
            return
        at = on_grid(due, out.state.rules)
        if at > now:
            return
        q = out.state.q
        if q.deadline is not None and q.deadline["at"] <= due:
            _expire(out, q.deadline, at)
        else:
            _reveal_word(out, at, scheduled=True, due=due)


def _reveal_word(out: _Emitter, at: int, scheduled: bool, due: int | None = None):
    """Show the next word at `at`; with the clock, the next one is due a word's length after this
    one was due (`due`, which the grid may have moved `at` a little past)."""
    s = out.state
    q, words = s.q, s.question.words
    index = q.revealed
    word = words[index]
    last = index + 1 >= len(words)
    finish = (at if due is None else due) + voice.word_duration(s, index)
    next_at = None if last or not scheduled else finish
    dead_at = finish + int(s.phase_rules()["dead_seconds"] * 1000) if last else None
    out.emit("word_revealed", at, index=index, word=word, next_at=next_at, dead_at=dead_at)


def _expire(out: _Emitter, deadline: dict, at: int):
    s = out.state
    kind = deadline["kind"]
    if kind in ("answer", "prompt"):
        _rule(out, s.q.possession["team"], "reject", at, by="clock")
    elif kind == "dead":
        out.emit("timeout", at, kind="dead")
        _end_phase(out, at)
    elif kind in BONUS_CLOCKS:
        _rule_part(out, "reject", at, by="clock")
    elif kind == "discussion":
        q = s.q
        silent = [t for t in s.team_ids if t not in q.submissions and t not in q.locked and t not in q.passed]
        passed = set(q.passed) | set(silent)
        floor = _next_floor(s, locked=q.locked, passed=passed, current=q.floor)
        out.emit("timeout", at, kind="discussion", passed=silent, floor=floor)
        if floor is None:
            _end_phase(out, at)


# -- flow helpers ---------------------------------------------------------------------------------

def _priority_team(s: MatchState, number: int) -> str:
    teams = s.team_ids
    if s.rules["priority"] == "first":
        return teams[0]
    return teams[(number - 1) % len(teams)]


def _team_order(s: MatchState) -> list[str]:
    teams = s.team_ids
    start = teams.index(s.q.priority)
    return teams[start:] + teams[:start]


def _next_floor(s: MatchState, locked, passed, current=None) -> str | None:
    """Whose submission is judged next in a team phase: priority first, skipping teams that are out."""
    if current is not None and current not in locked and current not in passed:
        return current
    for team in _team_order(s):
        if team not in locked and team not in passed:
            return team
    return None


def _start_question(out: _Emitter, now: int, number: int, tiebreaker: bool, replaces: int | None = None):
    s = out.state
    index = _next_unused(s)
    question = s.questions[index]
    out.emit("question_started", now, number=number, index=index, tiebreaker=tiebreaker,
             priority=_priority_team(s, number), replaces=replaces, category=question.category,
             question_kind=question.kind)
    _start_phase(out, 1, now)


def _next_unused(s: MatchState) -> int | None:
    used = set(s.played)
    for i in range(len(s.questions)):
        if i not in used:
            return i
    return None


def _clock_now(s: MatchState, now: int) -> int:
    """Where timers start. Resuming shifts every timer by the whole pause, so a timer set during a
    pause (a ruling, a throw-out) starts from the moment of pausing and runs from the resume."""
    return s.paused_at if s.paused and s.paused_at is not None else now


def _start_phase(out: _Emitter, phase: int, now: int):
    s = out.state
    base = _clock_now(s, now)
    rules = s.rules["phases"][phase - 1]
    q, words = s.q, s.question.words
    if rules["mode"] == "buzz":
        lead_in = int(s.rules["lead_in_seconds"] * 1000)
        clock = voice.paced(s)
        unread = q.revealed < len(words)
        dead = None if unread else {"kind": "dead", "at": base + int(rules["dead_seconds"] * 1000)}
        out.emit("phase_started", now, phase=phase, mode="buzz", points=rules["points"],
                 next_word_at=(base + lead_in) if (clock and unread) else None, deadline=dead)
    else:
        deadline = {"kind": "discussion", "at": base + int(rules["discussion_seconds"] * 1000)}
        out.emit("phase_started", now, phase=phase, mode="team", points=rules["points"],
                 words=list(words[q.revealed:]), deadline=deadline, floor=q.priority)


def _end_phase(out: _Emitter, now: int):
    s = out.state
    if s.q.phase + 1 < len(s.rules["phases"]):
        _start_phase(out, s.q.phase + 2, now)
    else:
        _close(out, now)


def _close(out: _Emitter, now: int):
    s = out.state
    q, question = s.q, s.question
    out.emit("question_closed", now, number=q.number, answer=question.answer, text=question.text,
             accepted=list(question.accepted), result=q.result, dead=q.result is None)
    index = bonus.due(out.state)
    if index is not None:  # the team that got the tossup hears the packet's next bonus
        heard = out.state.bonuses[index]
        out.emit("bonus_started", now, number=q.number, index=index, team=out.state.q.result["team"],
                 leadin=heard.text, values=[part["value"] for part in heard.parts])


# -- a tossup's bonus (game/engine/bonus.py) ---------------------------------------------------------------

BONUS_CLOCKS = ("confer", "bounce")  # the deadlines' kinds: the controlling team's, the other team's bounceback


def _cmd_read_part(out, actor, data, now, received):
    s = out.state
    q = s.q
    b = q.bonus
    k = b["part"] + 1
    _target(data, "part", k, "That part was already read; the console shows the part in play.")
    part = s.bonuses[b["index"]].parts[k]
    at = _clock_now(s, now) + int(s.rules["bonus_confer_seconds"] * 1000)
    out.emit("bonus_part_read", now, number=q.number, part=k, team=b["team"], text=part["text"],
             value=part["value"], deadline={"kind": "confer", "at": at})


def _cmd_bonus_answer(out, seat, data, now, received):
    s = out.state
    b = s.q.bonus
    _target(data, "part", b["part"], "That was meant for an earlier part; it was not sent in time.")
    team = seat["team"]
    if team != b["answering"]:
        whose = possessive(s.team_name(b["answering"]))
        turn = "bounceback" if b["bounce"] else "part"
        raise Rejected(f"This is {whose} {turn} to answer; confer in your team box.", "not_your_part")
    _may_submit(s, seat)
    if b["typed"] is not None:
        raise Rejected("Your team has already answered this part; wait for the ruling.", "already_answered")
    if not b["bounce"] and bonus.decision(b) == ai_points.ABSTAIN:
        raise Rejected("Your team abstained on this part; the moderator rules whether anybody was right.", "abstained")
    out.emit("bonus_answered", now, number=s.q.number, part=b["part"], team=team, seat=seat["id"], text=_text(data),
             bounce=b["bounce"])


def _cmd_decide_part(out, actor, data, now, received):
    """The controlling team's decision on the part in play, where the format has them (bonus_decisions):
    answer on its own, consult its AI or abstain (game/engine/ai_points.py). Its captain's or the moderator's;
    it may change its mind until it answers."""
    s = out.state
    q = s.q
    b = q.bonus
    if not s.rules["bonus_decisions"]:
        raise Rejected("This format has no bonus part decisions: the team simply answers.", "bad_phase")
    _target(data, "part", b["part"], "That was meant for an earlier part; it was not sent in time.")
    decision = data.get("decision")
    if decision not in ai_points.DECISIONS:
        raise Rejected("A decision is own (answer on its own), consult (consult its AI) or abstain.", "bad_shape")
    seat = None if actor.get("role") == "moderator" else _seat_of(s, actor)
    if seat is not None:
        if seat["team"] != b["team"]:
            raise Rejected(f"This is {possessive(s.team_name(b['team']))} part to decide.", "not_your_part")
        captains = [x for x in s.seats.values() if x["team"] == seat["team"] and x["kind"] == "human" and x.get("captain")]
        if captains and not seat.get("captain"):
            raise Rejected("Only your team's captain decides on a bonus part; discuss it in the team box.", "not_captain")
    if b["typed"] is not None or b["parts"][b["part"]]["rulings"]:
        raise Rejected("The team has answered this part, so its decision stands.", "already_answered")
    value = b["parts"][b["part"]]["value"]
    points = ai_points.decision_points(s.rules, s.seats.values(), b["team"], value, decision)
    # An abstention stops the confer clock (no answer comes); a team that thinks again after one gets it afresh.
    deadline = q.deadline
    if decision == ai_points.ABSTAIN:
        deadline = None
    elif deadline is None:
        deadline = {"kind": "confer", "at": _clock_now(s, now) + int(s.rules["bonus_confer_seconds"] * 1000)}
    out.emit("bonus_part_decided", now, number=q.number, part=b["part"], team=b["team"],
             seat=None if seat is None else seat["id"], decision=decision, points=points, deadline=deadline)


def _cmd_rule_part(out, data, now):
    s = out.state
    q = s.q
    b = q.bonus
    verdict, part = data.get("verdict"), data.get("part")
    if verdict not in ("accept", "prompt", "reject"):
        raise Rejected("A ruling is accept, prompt or reject.", "bad_shape")
    if not isinstance(part, int) or isinstance(part, bool):
        raise Rejected("A ruling in a bonus names its part: part, counted from 0.", "bad_shape")
    if part != b["part"]:
        raise Rejected("That part was already ruled; the console shows the part in play.", "stale")
    if verdict == "prompt" and bonus.decision(b) == ai_points.ABSTAIN:
        raise Rejected("The team abstained: rule whether anybody, human or AI, was right (accept: nobody was, so "
                       "the abstention scores; reject: somebody was).", "abstained")
    if verdict == "prompt" and q.stage is Stage.BONUS_REVIEW:
        raise Rejected("The part's answer has been shown, so there is nothing to prompt for; accept or reject.",
                       "answer_shown")
    named = data.get("answer")
    if not isinstance(named, int) or isinstance(named, bool):
        raise Rejected("A ruling names the answer it rules: answer, the seq of the event that put that answer on "
                       "the floor (the console's floor_seq).", "bad_shape")
    if named != q.floor_seq:
        typed = b["typed"]
        whose = possessive(s.team_name(b["answering"] or b["team"]))
        said = f"{whose} answer is now “{typed['text']}”" if typed else f"{whose} answer is not in"
        raise Rejected(f"The part changed since you looked: {said}. Rule again.", "stale")
    heard = data.get("heard")
    heard = " ".join(heard.split())[:MAX_TEXT] if isinstance(heard, str) and heard.strip() else None
    _rule_part(out, verdict, now, by="moderator", heard=heard, note=_reason(data))


def _rule_part(out, verdict: str, now: int, by: str, heard: str | None = None, note: dict | None = None):
    """Rule the answer to the part in play (typed, spoken or none); the part ends unless a bounceback or
    a prompt follows, and after the last part the bonus ends."""
    s = out.state
    q = s.q
    b = q.bonus
    k, team, typed = b["part"], b["answering"], b["typed"]
    line = s.bonuses[b["index"]].parts[k]["answer"]
    value = b["parts"][k]["value"]
    # With decisions, the controlling team's part scores as it decided (own when it answered undecided);
    # a bounceback is the other team's own answer.
    decided = s.rules["bonus_decisions"] and not b["bounce"]
    decision = bonus.decision(b) or ai_points.OWN
    worth = b["parts"][k]["decision"]["points"] if decided and decision != ai_points.OWN else value
    points = worth if verdict == "accept" else 0
    base = _clock_now(s, now)
    clock = "bounce" if b["bounce"] else "confer"
    deadline, over = None, verdict == "accept"
    if verdict == "prompt":
        wait = int(s.rules["prompt_seconds"] * 1000)
        deadline = {"kind": clock, "at": base + wait} if wait else None
    elif bonus.bounce_follows(s, verdict):
        deadline = {"kind": "bounce", "at": base + int(s.rules["bounceback_seconds"] * 1000)}
    elif verdict == "reject":
        over = True
    out.emit("bonus_part_ruled", now, id=s.next_ruling_id, number=q.number, part=k, team=team,
             seat=typed["seat"] if typed else None, text=typed["text"] if typed else None, heard=heard,
             verdict=verdict, points=points, score_changes={team: points} if points else {}, bounce=b["bounce"],
             by=by, answered=q.floor_seq, deadline=deadline, **({"answer": line} if over else {}),
             **({"decision": decision} if decided else {}), **(note or {}))
    b = out.state.q.bonus
    if over and k + 1 == len(b["parts"]):
        out.emit("bonus_ended", now, number=q.number, index=b["index"], team=b["team"], points=dict(b["points"]))


def _points(s: MatchState, phase_index: int, mode: str, word: int | None, words_len: int) -> tuple[int, int]:
    """Points for a correct and for a wrong answer, given where the buzz came."""
    rules = s.rules["phases"][phase_index]
    power_at = s.question.power_index
    accept = rules["points"]
    reject = rules["wrong_points"]
    if mode == "buzz":
        if rules["power_points"] is not None and power_at is not None and word is not None and word <= power_at:
            accept = rules["power_points"]
        if rules["neg_points"] and word is not None and word < words_len:
            reject = rules["neg_points"]
    return accept, reject


def _rule(out: _Emitter, team: str, verdict: str, now: int, by: str, heard: str | None = None,
          note: dict | None = None):
    s = out.state
    q = s.q
    words_len = len(s.question.words)
    if q.mode == "buzz":
        poss = q.possession
        seat, word = poss["seat"], poss["word"]
        text = poss["answer"] if poss["answer"] is not None else heard
    else:
        sub = q.submissions.get(team)
        seat, word = (sub["seat"] if sub else None), None
        text = sub["text"] if sub else heard
    accept_pts, reject_pts = _points(s, q.phase, q.mode, word, words_len)
    if seat is not None:  # a bot's correct answer may score less (the QANTA 2026 rules)
        accept_pts = ai_points.tossup_points(s.rules, s.seats[seat], accept_pts)
    points = {"accept": accept_pts, "reject": reject_pts, "prompt": 0}[verdict]
    extra = {}
    base = _clock_now(s, now)
    if verdict == "prompt":
        wait = int(s.rules["prompt_seconds"] * 1000)
        if q.mode == "buzz":
            extra["deadline"] = {"kind": "prompt", "at": base + wait} if wait else None
        else:
            at = max(q.deadline["at"] if q.deadline else base, base + wait)
            extra["deadline"] = {"kind": "discussion", "at": at}
    elif verdict == "reject":
        locked = q.locked + [team]
        if q.answer_shown:
            if q.mode == "team":
                extra["floor"] = _next_floor(s, locked=locked, passed=q.passed)
        elif q.mode == "buzz":
            if q.revealed < words_len:
                extra["resume_at"] = base if voice.paced(s) else None
            else:
                extra["dead_at"] = base + int(s.phase_rules()["dead_seconds"] * 1000)
        else:
            extra["floor"] = _next_floor(s, locked=locked, passed=q.passed)
    if q.mode == "team" and s.team_kind(team) == "computer" and s.guesses_held():
        extra["held"] = True  # the computer's answer, shown to the hall once the humans can no longer answer
    out.emit("ruling", now, id=s.next_ruling_id, number=q.number, phase=q.phase + 1, mode=q.mode,
             team=team, seat=seat, text=text, heard=heard, verdict=verdict, points=points,
             accept_points=accept_pts, reject_points=reject_pts,
             score_changes={team: points} if points else {}, by=by, word=word, answer=q.floor_seq, **extra,
             **(note or {}))
    s = out.state
    q = s.q
    if verdict == "accept":
        _close(out, now)
    elif verdict == "reject" and q.answer_shown:
        # The answer is out: only an answer given before it was shown may still be ruled; nothing reopens.
        if not (q.mode == "team" and q.floor is not None and q.floor in q.submissions):
            _close(out, now)
    elif verdict == "reject":
        everyone_out = all(t in q.locked for t in s.team_ids)
        if q.mode == "buzz" and everyone_out:
            _end_phase(out, now)
        elif q.mode == "team" and q.floor is None:
            _end_phase(out, now)


# -- command checks -------------------------------------------------------------------------------

def _same_question(q, data: dict):
    """A player's command names the question (and phase) it was meant for: one that arrives late,
    after a reconnect, never lands on the next question."""
    _target(data, "question", q.index, "That was meant for an earlier question; it was not sent in time.")
    _target(data, "phase", q.phase + 1, "That was meant for an earlier phase; it was not sent in time.")


def _target(data: dict, key: str, current, message: str):
    """A moderator command names what it was pressed for; once that has moved on it is refused, so a
    double click or a retry applies once."""
    if key in data and data[key] != current:
        raise Rejected(message, "stale")


def _seat_of(s: MatchState, actor: dict) -> dict:
    seat = s.seats.get(actor.get("seat"))
    if seat is None or seat["team"] != actor.get("team"):
        raise Rejected("That seat is not yours.", "forbidden")
    # A person never acts for a bot's seat, nor a bot for a person's.
    if (actor.get("role") == "bot") != (seat.get("kind") == "bot"):
        raise Rejected("That seat is not yours.", "forbidden")
    if seat.get("left"):  # a socket or a retry may still be on its way after the seat was given up
        raise Rejected(LEFT_MESSAGES[seat["left"]], "seat_left")
    if seat.get("stopped"):  # an act may still be on its way from before the stop
        raise Rejected(f"{seat['name']} was stopped for the rest of the match.", "bot_stopped")
    return seat


def _text(data: dict, key: str = "text", limit: int = MAX_TEXT) -> str:
    return typed_text(data, key, limit, "Type an answer before sending it.",
                      f"That is too long; keep it under {limit} characters.")


def _reason(data: dict, default: str | None = None) -> dict:
    """A moderator's free-text reason as an event carries it: {"reason": text} (`default` when none is
    given; nothing at all with no default), plus "public": true only when the moderator chose to show
    it to the room. Without that it is the moderator's own note: projection.py keeps it from every
    other audience."""
    text = data.get("reason")
    text = " ".join(text.split())[:MAX_TEXT] if isinstance(text, str) else ""
    if not text:
        return {} if default is None else {"reason": default}
    return {"reason": text, **({"public": True} if data.get("public") is True else {})}


def _bot_may_play(s: MatchState, seat: dict):
    if seat["kind"] != "bot":
        return
    tier = s.phase_rules()["bot_tier"]
    if tier and seat.get("tier") != tier:
        raise Rejected(f"This phase is played by the {tier} bot, not the {seat.get('tier')} bot.", "wrong_tier")


# -- commands -------------------------------------------------------------------------------------

def _cmd_join(out, actor, data, now, received):
    seat = data.get("seat") or {}
    s = out.state
    if seat.get("team") not in s.team_ids or not seat.get("id"):
        raise Rejected("A seat needs an id and one of the match's teams.", "bad_shape")
    if seat["id"] in s.seats:
        return
    if seat.get("kind", "human") == "human" and s.team_kind(seat["team"]) == "computer":
        raise Rejected("That team is the computer's; join one of the human teams.", "computer_team")
    name = " ".join(str(seat.get("name", "")).split()).casefold()
    # A seat that was given up frees its name: whoever held it may come back under it.
    if any(" ".join(x["name"].split()).casefold() == name for x in s.seats.values() if not x.get("left")):
        raise Rejected("Someone in this match already has that name; pick another.", "name_taken")
    cap = s.rules["team_seats"]
    held = sum(1 for x in s.seats.values() if x["team"] == seat["team"] and x.get("kind") == "human" and not x.get("left"))
    if cap is not None and seat.get("kind", "human") == "human" and held >= cap:
        raise Rejected(f"{s.team_name(seat['team'])} has its {cap} players already; ask the host which team to "
                       "join.", "team_full")
    clean = {"id": seat["id"], "name": str(seat.get("name", ""))[:60], "team": seat["team"],
             "kind": seat.get("kind", "human"), "tier": seat.get("tier"), "captain": bool(seat.get("captain")),
             "simulated": bool(seat.get("simulated"))}
    try:
        clean.update(seat_settings(clean, {key: seat[key] for key in SEAT_SETTINGS if key in seat}))
    except SeatSettingError as exc:
        raise Rejected(str(exc), "bad_shape") from None
    out.emit("seat_joined", now, seat=clean)


def _cmd_kick(out, actor, data, now, received):
    s = out.state
    seat = s.seats.get(data.get("seat"))
    if seat is None:
        raise Rejected("There is no such seat in this match.", "bad_seat")
    if seat["kind"] != "human":
        raise Rejected("Only a person's seat can be removed; the bots play as the host set them up.", "bot_seat")
    if seat.get("left"):
        raise Rejected(f"{seat['name']} has already left the match.", "stale")
    _give_up(out, seat, "moderator", now)


def _cmd_leave(out, seat, data, now, received):
    _give_up(out, seat, "player", now)


def _give_up(out, seat: dict, by: str, now: int):
    """The seat is given up for good (its credential stops working outside the engine). If it was its
    team's captain, the team's earliest-joined person still present becomes captain, named in the
    event so every fold agrees, and the team can still submit in team phases."""
    s = out.state
    heir = None
    if seat.get("captain"):
        heir = next((x["id"] for x in s.seats.values() if x["team"] == seat["team"] and x["kind"] == "human"
                     and not x.get("left") and x["id"] != seat["id"]), None)
    out.emit("seat_left", now, seat=seat["id"], team=seat["team"], by=by, captain=heir)


SIZE_PARTS = ("bytes", "artefacts", "code", "packages")  # a bot's size as measured at the start (bots.footprint)


def _cmd_start(out, actor, data, now, received):
    sizes = _bot_sizes(out.state, data.get("bot_sizes"))
    out.emit("match_started", now, **({"bot_sizes": sizes} if sizes else {}))
    _start_question(out, now, number=1, tiebreaker=False)


def _bot_sizes(s: MatchState, given) -> dict:
    """seat -> {bytes, artefacts, code?, packages?}: what each bot seat measured when the match started
    (the store measures it; whatever a client sent is replaced), for the bots' cards."""
    if not isinstance(given, dict):
        return {}
    out = {}
    for seat, size in given.items():
        if s.seats.get(seat, {}).get("kind") == "bot" and isinstance(size, dict):
            parts = {k: size[k] for k in SIZE_PARTS if _number(size.get(k)) is not None and size[k] >= 0}
            if "bytes" in parts:
                out[seat] = {k: int(v) for k, v in parts.items()}
    return out


def _cmd_next(out, actor, data, now, received):
    s = out.state
    regular_left = s.number < s.rules["questions"]
    limit = limit_reached(s, now)
    if limit is not None:
        return _end_match(out, now, limit)
    if _next_unused(s) is None:
        return _end_match(out, now, "out_of_questions" if regular_left else "questions_played")
    if regular_left and s.tiebreakers_played == 0:
        return _start_question(out, now, number=s.number + 1, tiebreaker=False)
    ranked = sorted(s.scores.values(), reverse=True)
    tied = len(ranked) > 1 and ranked[0] == ranked[1]
    if tied and s.tiebreakers_played < s.rules["tiebreakers"]:
        return _start_question(out, now, number=s.number + 1, tiebreaker=True)
    _end_match(out, now, "tiebreakers_played" if s.tiebreakers_played else "questions_played")


# Why a match ended (match_ended's reason), in words for the pages that show it.
END_REASONS = {
    "questions_played": "every question was played",
    "tiebreakers_played": "the tiebreakers were played",
    "out_of_questions": "the match ran out of questions",
    "time_limit": "its time limit was reached",
    "question_limit": "its question limit was reached",
    "moderator": "the moderator ended it",
}


def questions_played(s: MatchState) -> int:
    """Questions that closed and count (a thrown-out question's replacement counts once, in its place)."""
    return sum(1 for h in s.history if not h["thrown_out"])


def limit_reached(s: MatchState, now: int) -> str | None:
    """Whether a stop rule ends the match at this question boundary: "time_limit" once stop_after_ms of
    playing time (pauses left out) has passed, "question_limit" once stop_after_questions were played."""
    count = s.rules["stop_after_questions"]
    if count is not None and questions_played(s) >= count:
        return "question_limit"
    limit = s.rules["stop_after_ms"]
    if limit is not None and s.clock_from is not None and now - s.clock_from >= limit:
        return "time_limit"
    return None


def _end_match(out, now, reason: str):
    s = out.state
    out.emit("match_ended", now, scores=dict(s.scores), winner=s.leader(), reason=reason)


def _cmd_end(out, actor, data, now, received):
    _end_match(out, now, "moderator")


def _cmd_reveal(out, actor, data, now, received):
    s = out.state
    q = s.q
    _target(data, "word", q.revealed, "That word is already shown; press again for the next one.")
    # On the clock, a word revealed by hand sets the pace from here on instead of stopping the clock.
    _reveal_word(out, now, scheduled=voice.paced(s))


def _cmd_buzz(out, seat, data, now, received):
    _bot_may_play(out.state, seat)
    _buzz(out, seat, data, now, received, by=None)


def _cmd_buzz_for(out, seat, data, now, received):
    """A person presses the buzzer of a semi bot on their own team (game/engine/seat_table.py): the bot
    buzzes, at the person's press (arbitrated as theirs), and the bot's answer is the team's."""
    s = out.state
    bot = s.seats.get(data.get("bot"))
    if bot is None or bot.get("kind") != "bot":
        raise Rejected("There is no such bot in this match.", "bad_seat")
    if bot["team"] != seat["team"]:
        raise Rejected("You may buzz only for a bot on your own team.", "forbidden")
    if bot.get("buzz_mode") != "semi":
        raise Rejected(f"{bot['name']} does not take a teammate's buzz: its buzz mode is {bot.get('buzz_mode')}.",
                       "not_semi")
    if bot.get("stopped"):
        raise Rejected(f"{bot['name']} was stopped for the rest of the match.", "bot_stopped")
    _bot_may_play(s, bot)
    _buzz(out, bot, data, now, received, by=seat["id"])


def _buzz(out, seat, data, now, received, by: str | None):
    """The buzz of `seat` (a person's, a bot's own, or a semi bot's pressed by the person `by`)."""
    s = out.state
    q = s.q
    team = seat["team"]
    seen = data.get("seen")
    seen = seen if isinstance(seen, int) and not isinstance(seen, bool) else None
    # Ordered by the press time the server believes (game/engine/buzzrace.py), arrival when none.
    pressed_by_person = seat.get("kind") != "bot" or by is not None
    claimed = data.get("pressed") if pressed_by_person else None  # a bot acts on the server: arrival
    pressed, clamp = press_time(received, claimed, seen, _words_at(q, received), data.get("clock"), grace_ms(s.rules))
    word = _words_at(q, pressed)
    timing = {"received": received, "word": word, "seen": seen, "pressed": pressed, "claimed": claimed,
              "rtt": (data.get("clock") or {}).get("rtt") if claimed is not None else None, "clamp": clamp}
    poss = q.possession
    if team in q.locked:
        _lost_buzz(out, seat, timing, poss, now, "Your team is locked out of this question.", "locked_out")
    least = max(s.rules["bot_min_words"], ai_points.bot_gate(s.rules))
    if seat["kind"] == "bot" and word < least:
        raise Rejected(f"Bots may buzz only after {least} words.", "too_early")
    if seat["kind"] == "bot" and by is None:
        refused = buzzes_alone(seat, word if seen is None else seen)
        if refused is not None:
            raise Rejected(refused, "bot_mode")
    replaces = margin = None
    if poss is not None:
        held = poss.get("pressed", poss["received"])
        earlier = pressed < held
        tie_wins = pressed == held and team == q.priority and poss["team"] != q.priority
        if poss["answer"] is None and not poss["prompted"] and poss["team"] != team and (earlier or tie_wins):
            replaces, margin = poss["seat"], held - pressed
        else:
            who = s.seats.get(poss["seat"], {}).get("name", "Another player")
            _lost_buzz(out, seat, timing, poss, now, f"{who} buzzed first.", "beaten")
    wait = int(s.rules["answer_seconds"] * 1000)
    out.emit("buzz", now, seat=seat["id"], team=team, **timing, replaces=replaces, margin=margin,
             deadline_at=(now + wait) if wait else None, **({"by": by} if by is not None else {}))


def _words_at(q, at: int) -> int:
    """Words revealed at time `at` (0 before the first)."""
    return sum(1 for t in q.reveal_times if t <= at)


def _lost_buzz(out, seat, timing: dict, poss, now, message: str, code: str):
    """Refuse a buzz, keeping it on the moderator's record (once per seat until the floor changes):
    a close call can be audited afterwards. `margin`: how long after the holder's press it came."""
    if seat["id"] in out.state.q.refused:
        raise Rejected(message, code)
    held = poss.get("pressed", poss["received"]) if poss else None
    out.emit("buzz_refused", now, seat=seat["id"], team=seat["team"], **timing,
             code=code, reason=message, holder=poss["seat"] if poss else None,
             holder_received=poss["received"] if poss else None,
             margin=timing["pressed"] - held if poss else None)
    raise Rejected(message, code, record=True)


def _cmd_answer(out, seat, data, now, received):
    q = out.state.q
    if q.mode != "buzz":
        return _cmd_submit(out, seat, data, now, received)
    poss = q.possession
    if poss["seat"] != seat["id"]:
        raise NOT_YOUR_BUZZ.rejected()
    if poss["answer"] is not None:
        raise Rejected("Your answer is with the moderator.", "already_answered")
    out.emit("answer", now, seat=seat["id"], team=seat["team"], text=_text(data))


def _may_submit(s: MatchState, seat: dict):
    if seat["kind"] == "bot":
        return _bot_may_play(s, seat)
    captains = [x for x in s.seats.values() if x["team"] == seat["team"] and x["kind"] == "human" and x.get("captain")]
    if captains and not seat.get("captain"):
        raise Rejected("Only your team's captain submits in a team phase; discuss it in the team box.", "not_captain")


def _cmd_submit(out, seat, data, now, received):
    s = out.state
    q = s.q
    _may_submit(s, seat)
    team = seat["team"]
    if team in q.locked or team in q.passed:
        raise Rejected("Your team is out of this phase.", "locked_out")
    if team in q.submissions:
        raise Rejected("Your team has already submitted; wait for the ruling.", "already_answered")
    held = {"held": True} if s.team_kind(team) == "computer" and s.guesses_held() else {}
    out.emit("submission", now, seat=seat["id"], team=team, text=_text(data), **held, **_clock_stops(s, team))


def _cmd_pass(out, seat, data, now, received):
    s = out.state
    q = s.q
    team = seat["team"]
    if q.mode == "buzz":
        if q.possession["seat"] != seat["id"]:
            raise NOTHING_TO_PASS.rejected()
        return _rule(out, team, "reject", now, by="pass")
    _may_submit(s, seat)
    if team in q.locked or team in q.passed or team in q.submissions:
        raise Rejected("Your team has already answered or is out of this phase.", "locked_out")
    floor = _next_floor(s, locked=q.locked, passed=set(q.passed) | {team}, current=q.floor)
    out.emit("pass", now, team=team, seat=seat["id"], floor=floor, **_clock_stops(s, team))
    if floor is None:
        _end_phase(out, now)


def _clock_stops(s: MatchState, team: str) -> dict:
    """{"clock_stopped": True} when `team` is the last side of a team phase still to answer: every
    other team has submitted, passed or is out, so the discussion clock stops rather than run down to
    a "time is up" that is not true (a prompt starts it again for the side prompted)."""
    q = s.q
    waiting = [t for t in s.team_ids if t != team and t not in q.locked and t not in q.passed and t not in q.submissions]
    return {} if waiting else {"clock_stopped": True}


def _cmd_chat(out, seat, data, now, received):
    out.emit("chat", now, team=seat["team"], seat=seat["id"], name=seat["name"], text=_text(data, limit=MAX_CHAT))


def _cmd_rule(out, actor, data, now, received):
    s = out.state
    q = s.q
    if q.bonus is not None:
        return _cmd_rule_part(out, data, now)
    if "part" in data:
        raise Rejected("There is no bonus part to rule: this is the tossup.", "bad_shape")
    verdict = data.get("verdict")
    if verdict not in ("accept", "prompt", "reject"):
        raise Rejected("A ruling is accept, prompt or reject.", "bad_shape")
    if verdict == "prompt" and q.answer_shown:
        raise Rejected("The answer has been shown, so there is nothing to prompt for; accept or reject.", "answer_shown")
    heard = data.get("heard")
    heard = " ".join(heard.split())[:MAX_TEXT] if isinstance(heard, str) and heard.strip() else None
    named = data.get("answer")
    if not isinstance(named, int) or isinstance(named, bool):
        raise Rejected("A ruling names the answer it rules: answer, the seq of the event that put that answer on "
                       "the floor (the console's floor_seq).", "bad_shape")
    team = q.possession["team"] if q.mode == "buzz" else q.floor
    if q.mode == "team" and (team is None or (team not in q.submissions and heard is None)):
        raise Rejected("The team with the floor has not submitted yet.", "nothing_to_rule")
    # The answer pressed for must be the one on the floor: a submission, a buzz, a ruling that arrived
    # in between (or a late retry) is never ruled unseen.
    if named != q.floor_seq:
        raise Rejected(_since_you_looked(s, team), "stale")
    _rule(out, team, verdict, now, by="moderator", heard=heard, note=_reason(data))


def _since_you_looked(s: MatchState, team: str) -> str:
    """Why a ruling of an answer the floor no longer holds is refused, saying what it holds now."""
    q = s.q
    typed = q.possession["answer"] if q.mode == "buzz" else (q.submissions.get(team) or {}).get("text")
    whose = possessive(s.team_name(team))
    if typed is not None:
        return f"{whose} answer changed to “{typed}” since you looked: rule again."
    return (f"The floor changed since you looked: {whose} answer is not in yet. Rule again when it is "
            "(or type what you heard).")


def _cmd_undo(out, actor, data, now, received):
    s = out.state
    q = s.q
    if q.bonus is not None:
        return _undo_part(out, data, now)
    if not q.ruling_ids or q.checkpoint is None:
        raise Rejected("There is no ruling on this question to undo.", "nothing_to_undo")
    rid = q.ruling_ids[-1]
    _target(data, "ruling", rid, "That ruling was already undone; the console shows where the question stands now.")
    if any(s.rulings[i].get("overridden") for i in q.ruling_ids):
        raise Rejected("A ruling of this question was overridden, so undo would restore a question that no longer "
                       "stands; change rulings with override from the history instead.", "overridden")
    changes = {team: -pts for team, pts in _ruling_changes(s, rid).items()}
    out.emit("undo", now, ruling=rid, number=q.number, score_changes=changes)


def _undo_part(out, data, now):
    s = out.state
    q = s.q
    rid = bonus.last_ruling(q.bonus)
    if rid is None:
        raise Rejected("The bonus has begun, so the tossup's ruling stands; undo takes back a part's ruling once one "
                       "is made.", "nothing_to_undo")
    _target(data, "ruling", rid, "That ruling was already undone; the console shows where the bonus stands now.")
    ruled = next(r for part in q.bonus["parts"] for r in part["rulings"] if r["id"] == rid)
    changes = {ruled["team"]: -ruled["points"]} if ruled["points"] else {}
    out.emit("undo", now, ruling=rid, number=q.number, score_changes=changes)


def _ruling_changes(s: MatchState, rid: int) -> dict:
    r = s.rulings[rid]
    return {r["team"]: r["points"]} if r["points"] else {}


def _cmd_override(out, actor, data, now, received):
    s = out.state
    rid = data.get("ruling")
    verdict = data.get("verdict")
    if isinstance(rid, bool) or not isinstance(rid, int) or rid not in s.rulings:
        raise Rejected("There is no such ruling to override.", "bad_ruling")
    if verdict not in ("accept", "reject"):
        raise Rejected("An override sets a ruling to accept or reject.", "bad_shape")
    r = s.rulings[rid]
    if s.q is not None and not s.q.closed and rid in s.q.ruling_ids:
        raise Rejected("This question is still being played; use Undo to change its last ruling.", "question_open")
    if any(h["thrown_out"] and rid in h["rulings"] for h in s.history):
        raise Rejected("That question was thrown out and is worth nothing; adjust the score instead.", "thrown_out")
    if r["verdict"] == "prompt":
        raise Rejected("A prompt is not a final ruling; override the ruling that followed it.", "bad_ruling")
    if r["verdict"] == verdict:
        raise Rejected(f"That ruling is already {verdict}.", "no_change")
    _override(out, rid, verdict, data, now, _correction(s, data))


def _override(out, rid: int, verdict: str, data: dict, now: int, marked: dict, note: dict | None = None):
    """Emit the override of ruling `rid` to `verdict`: an override command's, or an overturned protest's."""
    s = out.state
    r = s.rulings[rid]
    if any(h["bonus"] is not None and rid in h["rulings"] for h in s.history):
        raise Rejected("That question's tossup earned a team its bonus, which was played: changing a ruling of it "
                       "could leave the bonus with the wrong team. Adjust the score instead.", "bonus_played")
    # The question is scored again from all its rulings, as if this one had been ruled so at the time.
    ids = _question_rulings(s, rid)
    before = question_outcome([s.rulings[i] for i in ids])
    after = question_outcome([dict(s.rulings[i], verdict=verdict) if i == rid else s.rulings[i] for i in ids])
    teams = dict.fromkeys([*before["score_changes"], *after["score_changes"]])
    delta = {t: after["score_changes"].get(t, 0) - before["score_changes"].get(t, 0) for t in teams}
    points = next(x["points"] for x in after["rulings"] if x["id"] == rid)
    out.emit("override", now, ruling=rid, number=r["number"], verdict=verdict, points=points,
             score_changes={t: p for t, p in delta.items() if p}, result=after["result"], rulings=after["rulings"],
             **_reason(data), **marked, **(note or {}))


def _question_rulings(s: MatchState, rid: int) -> list[int]:
    """The ids of the rulings of the question `rid` belongs to, in the order they were made."""
    if s.q is not None and rid in s.q.ruling_ids:
        return list(s.q.ruling_ids)
    for entry in reversed(s.history):
        if rid in entry["rulings"]:
            return list(entry["rulings"])
    return [rid]


def question_outcome(rulings: list[dict]) -> dict:
    """A question scored from its rulings, in order: the first correct answer ends it, so it is the
    result and every ruling after it is withdrawn (worth nothing). Each ruling before it is worth its
    verdict's points (a neg stays a neg). Returns {result, score_changes, rulings: [{id, points,
    withdrawn}]}."""
    result, changes, each = None, {}, []
    for r in rulings:
        withdrawn = result is not None and r["verdict"] != "prompt"
        points = 0 if withdrawn else {"accept": r["accept_points"], "reject": r["reject_points"]}.get(r["verdict"], 0)
        if r["verdict"] == "accept" and result is None:
            result = {"team": r["team"], "seat": r["seat"], "points": points, "phase": r["phase"]}
        if points:
            changes[r["team"]] = changes.get(r["team"], 0) + points
        each.append({"id": r["id"], "points": points, "withdrawn": withdrawn})
    return {"result": result, "score_changes": changes, "rulings": each}


def _cmd_adjust(out, actor, data, now, received):
    s = out.state
    team, points, reason = data.get("team"), data.get("points"), data.get("reason")
    _target(data, "scores_seq", s.scores_seq,
            "The scores changed after you pressed that; check them and adjust again if it is still needed.")
    if team not in s.team_ids:
        raise Rejected("Choose one of the match's teams.", "bad_team")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0 or abs(points) > 1000:
        raise Rejected("An adjustment is a whole number of points, not zero, at most 1000 either way.", "bad_points")
    if not isinstance(reason, str) or not reason.strip():
        raise Rejected("Say why the score is adjusted; the reason goes into the match record.", "no_reason")
    marked = _correction(s, data)
    out.emit("score_adjusted", now, team=team, points=points, score_changes={team: points}, **_reason(data), **marked)


def _correction(s: MatchState, data: dict) -> dict:
    """A change of score once the match is final is a correction: the moderator must confirm it
    (confirm: true), and the event says it is one ({"correction": true}), so the log, the box score
    and the replay show it as a correction rather than as play."""
    if s.status != "finished":
        return {}
    if data.get("confirm") is not True:
        raise Rejected("The match is final, so this would change its result after the final whistle; confirm it "
                       "as a correction (it is marked as one in the log, the box score and the replay).",
                       "confirm_correction")
    return {"correction": True}


def _cmd_protest(out, seat, data, now, received):
    s = out.state
    r = protests.check_filing(s, seat, data, now)
    out.emit("protest_filed", now, id=len(s.protests) + 1, ruling=r["id"], number=r["number"], team=seat["team"],
             seat=seat["id"], verdict=r["verdict"], text=protests.protest_text(data))


def _cmd_resolve_protest(out, actor, data, now, received):
    """Upheld: the ruling stands, no score moves. Overturned: the ruling is reversed by an override
    (the score moves exactly as an override moves it; after the final whistle it needs confirm: true)."""
    s = out.state
    p, outcome = protests.check_resolution(s, data)
    marked = _correction(s, data) if outcome == "overturned" else {}
    out.emit("protest_resolved", now, protest=p["id"], ruling=p["ruling"], number=p["number"], team=p["team"],
             outcome=outcome, **_reason(data))
    if outcome == "overturned":
        _override(out, p["ruling"], protests.REVERSED[p["verdict"]], data, now, marked, note={"protest": p["id"]})


def _cmd_throw_out(out, actor, data, now, received):
    s = out.state
    q = s.q
    _target(data, "question", q.index, "That question was already thrown out or replaced; check the one in play.")
    if s.history and s.history[-1]["number"] != q.number and q.closed:
        raise Rejected("That question is already done.", "bad_question")
    if _next_unused(s) is None:
        raise Rejected("No reserve question is left to replace it; adjust the score instead.", "no_reserve")
    reverse = {team: -pts for team, pts in q.score_changes.items() if pts}
    number, tiebreaker = q.number, q.tiebreaker
    out.emit("question_thrown_out", now, number=number, index=q.index, score_changes=reverse, **_reason(data, ""))
    _start_question(out, now, number=number, tiebreaker=tiebreaker, replaces=q.index)


def _cmd_pause(out, actor, data, now, received):
    out.emit("paused", now, **_reason(data, ""))


def _cmd_resume(out, actor, data, now, received):
    s = out.state
    out.emit("resumed", now, shift=max(0, now - s.paused_at))


def _cmd_bot_guess(out, seat, data, now, received):
    s = out.state
    q = s.q
    if seat["kind"] != "bot":
        raise Rejected("Only a bot reports guesses.", "forbidden")
    pairs = data.get("alternatives") or []
    if not isinstance(pairs, (list, tuple)) or not all(_is_pair(p) for p in pairs):
        raise Rejected("A bot's alternatives are a list of [guess, score] pairs with numeric scores.", "bad_shape")
    guess = " ".join(str(data.get("guess") or "").split())[:MAX_TEXT] or None  # a blank guess is no guess
    conf = _unit(_number(data.get("confidence"))) if guess else 0.0
    threshold = _number(data.get("threshold"))
    out.emit("bot_guess", now, seat=seat["id"], team=seat["team"], word=_words_read(data, q), guess=guess, confidence=conf,
             buzz=bool(data.get("buzz")) and guess is not None, alternatives=one_scale(guess, conf, pairs),
             threshold=None if threshold is None else _unit(threshold),
             **_hold(s, seat))


def _hold(s: MatchState, seat: dict) -> dict:
    """How a bot's guess made now is marked: held from the hall while a human may still score, and then
    shown to its own human team all the same while that team may consult it (state.may_consult)."""
    if not s.guesses_held():
        return {}
    return {"held": True, **({"consult": True} if s.may_consult(seat["team"]) else {})}


def _words_read(data: dict, q) -> int:
    """Where a bot's guess belongs: the words it had read when it made it (the conductor sends the
    query's word_index; the act may come back words later), or the words read now if it says nothing
    usable. A position is a count of words revealed, as a buzz's is."""
    word = data.get("word")
    ok = isinstance(word, int) and not isinstance(word, bool) and 0 <= word <= q.revealed
    return word if ok else q.revealed


def one_scale(guess: str | None, confidence: float, pairs) -> list[list]:
    """A bot's top guesses on the scale of its confidence, [0, 1]: the top guess at the confidence it
    reports, each other guess in proportion to its score against the top one. Bots rank with scores
    of their own (a BM25 score of 14 is not 1400%); this keeps every card on one scale."""
    if guess is None:
        return []
    scored = [(" ".join(str(g).split())[:MAX_TEXT], _number(sc)) for g, sc in pairs[:10]]
    top = next((sc for g, sc in scored if g == guess), None)
    top = top if top is not None else max((sc for _, sc in scored), default=None)
    out = [[guess, round(confidence, 4)]]
    for g, sc in scored:
        if not g or g == guess or any(g == seen for seen, _ in out):
            continue
        share = sc / top if top and top > 0 and sc > 0 else 0.0
        out.append([g, round(confidence * min(1.0, share), 4)])
    return out[:MAX_GUESSES]


def _unit(value: float | None) -> float:
    return min(1.0, max(0.0, value or 0.0))


def _is_pair(item) -> bool:
    return isinstance(item, (list, tuple)) and len(item) == 2 and _number(item[1]) is not None


def _number(value) -> float | None:
    """A finite number from a bot's report, or None; bots are remote and may send anything."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def _cmd_bot_missed(out, actor, data, now, received):
    status = data.get("status") if data.get("status") in MISSED else "failed"
    out.emit("bot_missed", now, seat=data.get("seat"), status=status, reason=str(data.get("reason", ""))[:MAX_TEXT])


def _cmd_bot_stopped(out, actor, data, now, received):
    """A bot went over its tier's memory limit (or its process died under it): it plays no more in
    this match, and the match goes on without it."""
    seat = out.state.seats.get(data.get("seat"))
    if seat is None or seat.get("kind") != "bot":
        raise Rejected("There is no such bot seat in this match.", "bad_seat")
    if seat.get("stopped"):
        raise Rejected(f"{seat['name']} is already stopped.", "stale")
    out.emit("bot_stopped", now, seat=seat["id"], number=out.state.number, reason=str(data.get("reason", ""))[:MAX_REASON])


def _cmd_judge(out, actor, data, now, received):
    out.emit("judge_suggested", now, **{k: data.get(k) for k in JUDGEMENT_FIELDS})


def _cmd_snippets(out, actor, data, now, received):
    s = out.state
    q = s.q
    if not s.phase_rules()["snippets"]:
        raise Rejected("This phase shows no search snippets.", "bad_phase")
    found = data.get("snippets") if isinstance(data.get("snippets"), list) else []
    clean = [{k: str(item.get(k, ""))[:2000] for k in ("title", "text", "marked")}
             for item in found[:10] if isinstance(item, dict)]
    # A search that failed or ran out of time says so, in a sentence every screen may show.
    error = " ".join(data["error"].split())[:MAX_TEXT] if isinstance(data.get("error"), str) else ""
    out.emit("snippets_shown", now, number=q.number, phase=q.phase + 1, snippets=clean, **({"error": error} if error else {}))


def _cmd_tick(out, actor, data, now, received):
    pass  # the clock already ran


_COMMANDS = {
    "tick": _cmd_tick, "join": _cmd_join, "start": _cmd_start, "next": _cmd_next, "end": _cmd_end,
    "reveal": _cmd_reveal, "buzz": _cmd_buzz, "answer": _cmd_answer, "submit": _cmd_submit,
    "pass": _cmd_pass, "chat": _cmd_chat, "rule": _cmd_rule, "undo": _cmd_undo,
    "override": _cmd_override, "adjust": _cmd_adjust, "throw_out": _cmd_throw_out,
    "pause": _cmd_pause, "resume": _cmd_resume, "bot_guess": _cmd_bot_guess,
    "bot_missed": _cmd_bot_missed, "bot_stopped": _cmd_bot_stopped, "judge": _cmd_judge, "snippets": _cmd_snippets,
    "buzz_for": _cmd_buzz_for, "kick": _cmd_kick, "leave": _cmd_leave, "protest": _cmd_protest, "resolve_protest": _cmd_resolve_protest,
    "voice": voice.cmd_voice, "voice_timings": voice.cmd_voice_timings,
    "read_part": _cmd_read_part, "bonus_answer": _cmd_bonus_answer, "decide_part": _cmd_decide_part,
}
_MOD, _SEAT = MODERATOR, SEAT
_SEATED = frozenset(kind for kind in COMMANDS if senders(kind) <= SEAT)  # sent from a seat: a person's or a bot's
_MEANT_FOR = frozenset(kind for kind in _SEATED if "question" in (COMMANDS[kind][1] or {}))  # name the question meant for
_ROLES = {kind: senders(kind) for kind in COMMANDS}
_ROLE_MESSAGES = {k: "Only the moderator can do that." for k, v in _ROLES.items() if v is _MOD}
_ROLE_MESSAGES.update({k: "Only a seated player can do that." for k, v in _ROLES.items() if v is _SEAT})
COMMAND_TYPES = frozenset(_COMMANDS)
