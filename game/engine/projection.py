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

Who receives which event, whole, hidden or in part, is data: game/engine/event_table.py. The views it
names (what part of an event an audience gets) are the small functions here.
"""
from __future__ import annotations

from game.engine import bonus
from game.engine.event_table import EVENTS, HIDDEN, VIEWS as DECLARED, column, views_of
from game.engine.questions import clean_answer
from game.engine.rule_table import complete
from game.engine.seat_table import complete as complete_seat
from game.engine.rules import MAX_GUESSES
from game.engine.state import MatchState
from game.engine.protests import protest_views

AUDIENCES = ("moderator", "spectator", "player", "bot")
HALL = ("spectator", "player")  # the people in the room: the big screen and the phones

# A lost close race as the hall sees it: who, at which word, how many ms after the winner's press.
RACE_SHOWN_MS = 1000


def _frame(event: dict, kind: str, data: dict) -> dict:
    return {"seq": event.get("seq"), "t": event.get("t"), "type": kind, "data": data}


def _hidden(event: dict) -> dict:
    return _frame(event, "hidden", {})


def project(event: dict, audience: str, team: str | None = None) -> dict:
    """The frame this audience receives for this event, as game/engine/event_table.py says: the event whole,
    hidden, or what the cell's views leave of it. A type the table does not know (a log from a newer
    installation) is the moderator's only."""
    if audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}.")
    kind, data = event["type"], event.get("data", {})
    if kind == "match_created":  # as the fold has them
        data = dict(data, rules=complete(data["rules"]), seats=[complete_seat(seat) for seat in data["seats"]])
    plan = _PLANS.get(kind)
    if plan is None:  # not in the table: nothing says who else may see it
        views = () if audience == "moderator" else None
    else:
        views = plan[column(audience, team, data)]
    if views is None:
        return _hidden(event)
    for view in views:
        data = view(data)
        if data is None:
            return _hidden(event)
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


# -- the views the table names: each takes an event's data and gives what the audience sees (None: hidden) --

def _kept(data: dict, view: str) -> dict:
    """The fields the table says this view keeps, each present (None where the event lacks it)."""
    return {k: data.get(k) for k in DECLARED[view].keeps}


def race_only(data: dict) -> dict | None:
    return _kept(data, "race_only") if is_close_race(data) else None


def held_words_removed(data: dict) -> dict:
    return dict(data, text=None, heard=None) if data.get("held") else data


def text_withheld(data: dict) -> dict:
    """A submission as the rest of the hall knows it (that the team has submitted, not what); a protest too."""
    return dict(data, text=None)


def text_withheld_if_held(data: dict) -> dict:  # the computer's answer: not even its own team's phones see it yet
    return text_withheld(data) if data.get("held") else data


def hidden_if_held(data: dict) -> dict | None:
    return None if data.get("held") else data


def hidden_if_held_unless_consulted(data: dict) -> dict | None:  # a team's own bot, while the team may consult it
    return data if data.get("consult") else hidden_if_held(data)


def seat_and_status_only(data: dict) -> dict:
    return dict(_kept(data, "seat_and_status_only"), status=data.get("status") or "failed")


def seat_and_number_only(data: dict) -> dict:
    return _kept(data, "seat_and_number_only")


def first_word_time_only(data: dict) -> dict:
    return _kept(data, "first_word_time_only")


def public_roster(data: dict) -> dict:
    public = _kept(data, "public_roster")
    public["question_count"] = data["rules"]["questions"]
    return public


def with_clean_answer(data: dict) -> dict:
    return dict(data, answer=clean_answer(data.get("answer", "")))


def with_clean_part_answer(data: dict) -> dict:
    """A bonus part's ruling: the part's answer, when it carries one, as the hall is shown it."""
    return dict(data, answer=clean_answer(data["answer"])) if "answer" in data else data


VIEWS = {
    "without_private_reason": private_reason,
    "held_words_removed": held_words_removed,
    "text_withheld": text_withheld,
    "text_withheld_if_held": text_withheld_if_held,
    "hidden_if_held": hidden_if_held,
    "hidden_if_held_unless_consulted": hidden_if_held_unless_consulted,
    "race_only": race_only,
    "seat_and_status_only": seat_and_status_only,
    "seat_and_number_only": seat_and_number_only,
    "first_word_time_only": first_word_time_only,
    "public_roster": public_roster,
    "clean_answer": with_clean_answer,
    "clean_part_answer": with_clean_part_answer,
}
# type -> column -> the view functions to apply in order (None: hidden), worked out once from the table.
_PLANS = {kind: {col: None if cell == HIDDEN else tuple(VIEWS[name] for name in views_of(cell))
                 for col, cell in entry.sees.items()}
          for kind, entry in EVENTS.items()}


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
        "bonuses": [b.to_dict() for b in state.bonuses] if staff else None,
        "bonuses_left": bonus.bonuses_left(state) if staff else None,
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
        "floor_seq": q.floor_seq if staff else None,  # what a ruling names (rule's "answer")
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
        "bot_guesses": dict(state.guesses_seen(audience, team)) if audience != "bot" else {},
        "bot_missed": {seat: (m if staff else {"status": m["status"]}) for seat, m in q.bot_missed.items()}
        if audience != "bot" else {},
        "bot_cards": bot_cards(state, audience, team) if audience != "bot" else {},
        "snippets": list(q.snippets),
        "ruling_ids": list(q.ruling_ids),
        "can_undo": _last_ruling(q) is not None if staff else None,
        "last_ruling": _last_ruling(q) if staff else None,
        "buzz_log": list(q.buzz_log) if staff else [b for b in q.buzz_log if b["outcome"] == "won"],
        "buzzes": [dict(b) for b in q.buzzes],
        "answers": [dict(a) for a in q.answers] if staff else [],
        "suggestions": state.pending_suggestions() if staff else [],
        "bonus": bonus.view(state, staff),
    }
    return view


def _last_ruling(q) -> int | None:
    """The ruling an undo takes back: in a bonus its last part ruling (the tossup's stands), else the question's last."""
    if q.bonus is not None:
        return bonus.last_ruling(q.bonus)
    return q.ruling_ids[-1] if q.ruling_ids else None


def _submissions(per_team: dict, audience: str, team: str | None) -> dict:
    if audience != "moderator" and audience not in HALL:
        return {}

    def readable(t: str, sub: dict) -> bool:
        return audience == "moderator" or (audience == "player" and t == team and not sub.get("held"))

    return {t: {"seat": sub["seat"], "text": sub["text"] if readable(t, sub) else None,
                **({"seq": sub["seq"]} if audience == "moderator" else {})} for t, sub in per_team.items()}


def _visible(per_team: dict, audience: str, team: str | None) -> dict:
    if audience == "moderator":
        return dict(per_team)
    if audience == "player" and team in per_team:
        return {team: per_team[team]}
    return {}


def bot_cards(state: MatchState, audience: str, team: str | None = None) -> dict:
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
    guesses = state.guesses_seen(audience, team)
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
