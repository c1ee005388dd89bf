"""What each audience may see: project(event, audience) for live frames, snapshot(state, audience)
for a client that (re)connects.

The answer line and unread words never reach a player, a spectator screen or a bot before the
question closes, and then the hall sees the clean answer (no directives) while the moderator keeps
the whole line. Bots' guesses reach the moderator as they come; the hall and the phones see them
only once no human team can score on the question any more, in this phase or a later one (the
format's hall_bot_guesses "live" shows them as they come in a buzz phase that is the question's
last): the engine marks a guess made meanwhile "held" and announces the moment the hold lifts with
bot_guesses_released, so every screen's fold stays exact. The computer's answer in a team phase is
held the same way: its submission reaches no phone with its text, and its ruling reaches the hall
without its text until then. A team's discussion reaches
only that team and the moderator; its submission too, while the rest of the hall learns only that
the team has submitted (the big screen shows who has). Every audience gets every seq
(hidden events arrive as type "hidden"), so a gap always means loss.
"""
from __future__ import annotations

from game.engine.questions import clean_answer
from game.engine.rule_table import complete
from game.engine.rules import MAX_GUESSES
from game.engine.state import MatchState
from game.engine.protests import protest_frame, protest_views

AUDIENCES = ("moderator", "spectator", "player", "bot")
HALL = ("spectator", "player")  # the people in the room: the big screen and the phones

_MODERATOR_ONLY = {"judge_suggested", "buzz_refused"}
# The voice's timings and audio key: the moderator and the big screen, which plays the audio. The
# phones and the bots learn only when the first word is due (the audio holds the unread words).
_READ_ALOUD = {"voice_ready"}
# Events that may carry the moderator's free-text reason: it is the moderator's note, shown to the
# others only when the moderator marked it public (the event says "public": true).
_REASONED = {"ruling", "override", "score_adjusted", "question_thrown_out", "paused", "protest_resolved"}
# A lost close race as the hall sees it: who, at which word, how many ms after the winner's press.
RACE_SHOWN_MS = 1000
_RACE_KEYS = ("seat", "team", "word", "code", "holder", "margin")
_TEAM_ONLY = {"chat"}  # the team itself and the moderator
# What the hall learns of match_created. Not the questions, nor the question order: with its seed and
# the packet (QANTA's are public) anyone could work out the questions to come.
_PUBLIC_ROSTER_KEYS = ("rules", "teams", "seats")


def _frame(event: dict, kind: str, data: dict) -> dict:
    return {"seq": event.get("seq"), "t": event.get("t"), "type": kind, "data": data}


def _hidden(event: dict) -> dict:
    return _frame(event, "hidden", {})


def project(event: dict, audience: str, team: str | None = None) -> dict:
    """The frame this audience receives for this event."""
    if audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}.")
    kind, data = event["type"], event.get("data", {})
    data = dict(data, rules=complete(data["rules"])) if kind == "match_created" else data  # as the fold has them
    if audience == "moderator":
        return _frame(event, kind, data)
    if kind == "buzz_refused" and audience in HALL and is_close_race(data):  # the hall hears who won a close race, not the audit
        return _frame(event, kind, {k: data.get(k) for k in _RACE_KEYS})
    if kind in _MODERATOR_ONLY:
        return _hidden(event)
    if kind in _READ_ALOUD and audience != "spectator":
        return _frame(event, kind, {"number": data.get("number"), "next_word_at": data.get("next_word_at")})
    if kind in _REASONED:
        data = private_reason(data)
    if kind in _TEAM_ONLY:
        return _frame(event, kind, data) if audience == "player" and data.get("team") == team else _hidden(event)
    if kind == "submission":  # a held one is the computer's answer: not even its own team's phones see it yet
        if audience == "player" and data.get("team") == team and not data.get("held"):
            return _frame(event, kind, data)
        return _frame(event, kind, _unread(data)) if audience in HALL else _hidden(event)
    if kind == "bot_guess":
        return _frame(event, kind, data) if audience in HALL and not data.get("held") else _hidden(event)
    if kind == "bot_guesses_released":
        return _frame(event, kind, data) if audience in HALL else _hidden(event)
    if kind == "bot_missed":  # the hall may know a bot did not answer, not why (reasons name machines)
        return _frame(event, kind, {"seat": data.get("seat"), "status": data.get("status") or "failed"}) \
            if audience in HALL else _hidden(event)
    if kind == "bot_stopped":  # likewise: that it plays no more, from which question, not why
        return _frame(event, kind, {"seat": data.get("seat"), "number": data.get("number")}) \
            if audience in HALL else _hidden(event)
    if kind == "protest_filed":  # its text is the team's (game/engine/protests.py)
        return _frame(event, kind, protest_frame(data, audience, team))
    if kind == "ruling" and data.get("held"):
        return _frame(event, kind, dict(data, text=None, heard=None))
    if kind == "question_closed":
        return _frame(event, kind, dict(data, answer=clean_answer(data.get("answer", ""))))
    if kind == "match_created":
        public = {k: data[k] for k in _PUBLIC_ROSTER_KEYS}
        public["question_count"] = data["rules"]["questions"]
        return _frame(event, kind, public)
    return _frame(event, kind, data)


def is_close_race(refused: dict) -> bool:
    """A buzz that lost the floor, pressed within RACE_SHOWN_MS after the winner's press: a race every screen
    tells. (One pressed earlier that still lost, a teammate's or one after the answer was in, is no race.)"""
    margin = refused.get("margin")
    return refused.get("code") == "beaten" and isinstance(margin, int) and 0 <= margin <= RACE_SHOWN_MS


def private_reason(record: dict) -> dict:
    """A record (an event's data, a ruling) as anyone but the moderator sees it: a reason not marked
    public is withheld (None; a thrown-out question's history says "")."""
    if not record.get("reason") or record.get("public") or record.get("reason_public"):
        return record
    return dict(record, reason="" if "reason_public" in record else None)


def snapshot(state: MatchState | None, audience: str, team: str | None = None) -> dict:
    """The whole picture for a client that is too far behind to replay events one by one."""
    if audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}.")
    if state is None:
        return {"seq": 0, "status": "none"}
    staff = audience == "moderator"
    return {
        "seq": state.seq,
        "t": state.t,
        "status": state.status,
        "paused": state.paused,
        "rules": state.rules,
        "teams": state.teams,
        "seats": [_seat_view(seat, staff) for seat in state.seats.values()],
        "scores": dict(state.scores),
        "scores_seq": state.scores_seq,
        "corrections": [c if staff else private_reason(c) for c in state.corrections],
        "protests": protest_views(state, audience, team, private_reason),
        "number": state.number,
        "winner": state.winner,
        "voice": state.voice,
        "history": [_history_view(h, state, staff) for h in state.history],
        "rulings": [r if staff else _hall_ruling(r) for r in state.rulings.values()],
        "question": _question_view(state, audience, team),
        "questions": [q.to_dict() for q in state.questions] if staff else None,
    }


def _hall_ruling(record: dict) -> dict:
    record = private_reason(record)
    return dict(record, text=None, heard=None) if record.get("held") else record


def _seat_view(seat: dict, staff: bool) -> dict:
    """A seat as an audience knows it: a stopped bot's reason is the moderator's (it names machines)."""
    if staff or "stopped" not in seat:
        return seat
    return dict(seat, stopped={"number": seat["stopped"].get("number")})


def _history_view(entry: dict, state: MatchState, staff: bool) -> dict:
    q = state.questions[entry["index"]]
    view = dict(entry if staff else private_reason(entry), answer=q.answer if staff else q.clean_answer, text=q.text)
    if entry["thrown_out"] and not staff:  # it may never have been read to the end: its text and answer stay unsaid
        view.update(answer=None, text=None)
    if not staff:  # the audience saw the buzzes that won; the losing ones are the moderator's record
        view["buzzes"] = [b for b in entry.get("buzzes", []) if b["outcome"] == "won"]
    return view


def _question_view(state: MatchState, audience: str, team: str | None) -> dict | None:
    q = state.q
    if q is None:
        return None
    question = state.question
    staff = audience == "moderator"
    shown = q.closed or q.answer_shown or staff
    view = {
        "number": q.number,
        "index": q.index,
        "tiebreaker": q.tiebreaker,
        "priority": q.priority,
        "category": question.category,
        "kind": question.kind,
        "revealed": q.revealed,
        "words": list(question.words if shown else question.words[: q.revealed]),
        "phase": q.phase + 1,
        "mode": q.mode,
        "locked": list(q.locked),
        "passed": list(q.passed),
        "possession": q.possession,
        "floor": q.floor,
        "deadline": q.deadline,
        "next_word_at": q.next_word_at,
        "voice": q.voice if audience in ("moderator", "spectator") else None,
        "closed": q.closed,
        "answer_shown": q.answer_shown,
        "result": q.result,
        "score_changes": dict(q.score_changes),
        "answer": (question.answer if staff else question.clean_answer) if shown else None,
        "power_index": question.power_index if shown else None,
        "submissions": _submissions(q.submissions, audience, team),
        "chat": _visible(q.chat, audience, team),
        "bot_guesses": dict(q.bot_guesses if staff else q.shown_guesses) if audience != "bot" else {},
        "bot_missed": {seat: (m if staff else {"status": m["status"]}) for seat, m in q.bot_missed.items()}
        if audience != "bot" else {},
        "bot_cards": bot_cards(state, audience) if audience != "bot" else {},
        "snippets": list(q.snippets),
        "ruling_ids": list(q.ruling_ids),
        "can_undo": bool(q.ruling_ids) if staff else None,
        "last_ruling": q.ruling_ids[-1] if staff and q.ruling_ids else None,
        "buzz_log": list(q.buzz_log) if staff else [b for b in q.buzz_log if b["outcome"] == "won"],
        "buzzes": [dict(b) for b in q.buzzes],
        "answers": [dict(a) for a in q.answers] if staff else [],
        "suggestions": state.pending_suggestions() if staff else [],
    }
    return view


def _unread(submission: dict) -> dict:
    """A submission as the rest of the hall knows it: that the team has submitted, not what."""
    return dict(submission, text=None)


def _submissions(per_team: dict, audience: str, team: str | None) -> dict:
    if audience != "moderator" and audience not in HALL:
        return {}

    def readable(t: str, sub: dict) -> bool:
        return audience == "moderator" or (audience == "player" and t == team and not sub.get("held"))

    return {t: {"seat": sub["seat"], "text": sub["text"] if readable(t, sub) else None} for t, sub in per_team.items()}


def _visible(per_team: dict, audience: str, team: str | None) -> dict:
    if audience == "moderator":
        return dict(per_team)
    if audience == "player" and team in per_team:
        return {team: per_team[team]}
    return {}


def bot_cards(state: MatchState, audience: str) -> dict:
    """seat -> what that bot's card shows now, for every bot seat (docs/wire-protocol.md, "Bot cards").

    A bot's buzz is on its card (buzzed_at, the word of its buzz marker, which every screen shows, and
    buzz_verdict), even while its guess is held from the hall, and so is its team-phase answer
    (answered): the card never says "no guess yet" of a bot the feed shows buzzing or answering.

    One scale for every bot: confidence and each of its top MAX_GUESSES guesses in [0, 1], the buzz
    threshold on the same scale; guess None is "no guess". state is "stopped" (it plays no more in this
    match: over its memory limit), "waiting" (nothing shown yet on this question), "guessing", "missed"
    (its last act came to nothing: missed says timed_out or failed) or "settled" (the question closed:
    guess is its final guess, None if it never gave one)."""
    q = state.q
    guesses = q.bot_guesses if audience == "moderator" else q.shown_guesses
    cards = {}
    for seat in state.seats.values():
        if seat.get("kind") != "bot":
            continue
        g = guesses.get(seat["id"]) or {}
        missed = q.bot_missed.get(seat["id"])
        state_now = "stopped" if seat.get("stopped") else "settled" if q.closed else "missed" if missed \
            else "guessing" if g else "waiting"
        buzzed = next((b for b in reversed(q.buzzes) if b["seat"] == seat["id"]), None)  # a marker every screen shows
        cards[seat["id"]] = {
            "seat": seat["id"], "state": state_now, "word": g.get("word"), "guess": g.get("guess") or None,
            "confidence": g.get("confidence") if g.get("guess") else None, "threshold": g.get("threshold"),
            "buzz": bool(g.get("buzz")), "guesses": [list(x) for x in (g.get("alternatives") or [])[:MAX_GUESSES]] if g.get("guess") else [],
            "missed": missed["status"] if missed else None,
            "buzzed_at": buzzed["word"] if buzzed else None, "buzz_verdict": buzzed["verdict"] if buzzed else None,
            "answered": any(sub["seat"] == seat["id"] for sub in q.submissions.values()),  # its team's answer, this phase
        }
    return cards
