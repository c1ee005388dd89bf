"""What each audience may see: project(event, audience) for live frames, snapshot(state, audience)
for a client that (re)connects.

The answer line and unread words never reach a player, a spectator screen or a bot before the
question closes; bot guesses reach the moderator and the spectator screen, never the human players;
a team's discussion and its submission before the ruling reach only that team and the moderator.
Every audience gets every seq (hidden events arrive as type "hidden"), so a gap always means loss.
"""
from __future__ import annotations

from .state import MatchState

AUDIENCES = ("moderator", "spectator", "player", "bot")

_MODERATOR_ONLY = {"bot_missed", "judge_suggested", "buzz_refused"}
_TEAM_ONLY = {"submission", "chat"}  # the team itself and the moderator
_STAFF_AND_SCREEN = {"bot_guess"}  # moderator and spectators
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
    if audience == "moderator":
        return _frame(event, kind, data)
    if kind in _MODERATOR_ONLY:
        return _hidden(event)
    if kind in _TEAM_ONLY:
        return _frame(event, kind, data) if audience == "player" and data.get("team") == team else _hidden(event)
    if kind in _STAFF_AND_SCREEN:
        return _frame(event, kind, data) if audience == "spectator" else _hidden(event)
    if kind == "match_created":
        public = {k: data[k] for k in _PUBLIC_ROSTER_KEYS}
        public["question_count"] = data["rules"].get("questions")
        return _frame(event, kind, public)
    return _frame(event, kind, data)


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
        "seats": list(state.seats.values()),
        "scores": dict(state.scores),
        "scores_seq": state.scores_seq,
        "number": state.number,
        "winner": state.winner,
        "history": [_history_view(h, state, staff) for h in state.history],
        "rulings": list(state.rulings.values()),
        "question": _question_view(state, audience, team),
        "questions": [q.to_dict() for q in state.questions] if staff else None,
    }


def _history_view(entry: dict, state: MatchState, staff: bool) -> dict:
    q = state.questions[entry["index"]]
    view = dict(entry, answer=q.answer, text=q.text)
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
        "closed": q.closed,
        "answer_shown": q.answer_shown,
        "result": q.result,
        "score_changes": dict(q.score_changes),
        "answer": question.answer if shown else None,
        "power_index": question.power_index if shown else None,
        "submissions": _visible(q.submissions, audience, team),
        "chat": _visible(q.chat, audience, team),
        "bot_guesses": q.bot_guesses if audience in ("moderator", "spectator") else {},
        "snippets": list(q.snippets),
        "can_undo": bool(q.ruling_ids) if staff else None,
        "last_ruling": q.ruling_ids[-1] if staff and q.ruling_ids else None,
        "buzz_log": list(q.buzz_log) if staff else [b for b in q.buzz_log if b["outcome"] == "won"],
    }
    return view


def _visible(per_team: dict, audience: str, team: str | None) -> dict:
    if audience == "moderator":
        return dict(per_team)
    if audience == "player" and team in per_team:
        return {team: per_team[team]}
    return {}
