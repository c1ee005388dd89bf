"""A bot seat's turn, decided once for the live conductor and for `manage.py simulate`: whether the bot
may act now, the query it is shown, what it may be told privately, and the commands its act becomes.

The conductor (game/conductor/bots.py) asks bots through Celery and waits on timers; simulate
(game/simulation.py) asks them in its own process on a virtual clock. Both read these decisions, so a
bot plays the same match in either: it is asked only while it could buzz or answer, it sees the
revealed words and never the unread ones, its guess goes on the record (bot_guess) where it made it,
and then, in a team phase, its guess is the team's submission (or a pass when it has none), and in a
buzz phase a bot that buzzes does so after its reaction time and answers with its guess.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.engine.questions import clean_answer
from game.engine.stages import BONUS_ANSWERING

_SENTENCE_END = (".", "?", "!", ".\"", "?\"", "!\"")


def plays_in_phase(state, seat: dict) -> bool:
    """Whether the phase in play is open to the seat's tier (a phase with no bot_tier is open to all)."""
    tier = state.phase_rules()["bot_tier"]
    return not tier or seat.get("tier") == tier


def may_act(state, seat_id: str) -> bool:
    """Whether the bot in seat_id may act on the question now: the match is live and not paused, the
    question is open, its phase plays the bot's tier, its team is not locked out, and it could still
    buzz (nobody holds the floor and a word is out) or, in a team phase, still submit."""
    q = state.q
    seat = state.seats.get(seat_id)
    if seat is None or seat["kind"] != "bot" or seat.get("stopped") or state.status != "live" or state.paused \
            or q is None or q.closed:
        return False
    if q.bonus is not None:  # the team whose turn it is, while the part waits for its answer
        b = q.bonus
        return (q.stage in BONUS_ANSWERING and b["answering"] == seat["team"] and b["typed"] is None
                and plays_in_phase(state, seat))
    if not plays_in_phase(state, seat) or seat["team"] in q.locked:
        return False
    if q.mode == "buzz":
        return (q.possession is None and q.revealed > 0) or answers_for_team(state, seat_id)
    return seat["team"] not in q.passed and seat["team"] not in q.submissions


def answers_for_team(state, seat_id: str) -> bool:
    """Whether the bot holds the floor on a teammate's press (a semi bot, game/engine/seat_table.py) and owes
    the team its answer: it is asked now, and its guess is the answer."""
    poss = state.q.possession if state.q is not None else None
    return poss is not None and poss["seat"] == seat_id and poss["answer"] is None


def teammate(state, seat: dict) -> bool:
    """Whether the bot sits on a human team beside people: it reports its guesses, and its team answers."""
    return state.team_kind(seat["team"]) == "human"


def revealed_query(state, seat: dict) -> dict:
    """What a bot may see now (a bots.protocol.Query): the revealed text and where it stands, never the
    unread words."""
    q = state.q
    words = state.question.words[: q.revealed]
    if q.bonus is not None:
        words = tuple(f"{q.bonus['leadin']} {bonus_part(state)['text']}".split())
    text = " ".join(words)
    return {
        "text": text,
        "word_index": len(words) if q.bonus is not None else q.revealed,
        "char_index": len(text),
        "sentence_index": sum(1 for w in words[:-1] if w.endswith(_SENTENCE_END)),
        "phase": q.phase + 1,
        "mode": "team" if q.bonus is not None else q.mode,  # a bonus part: the whole of it, to confer on
        "final": q.bonus is not None or q.mode == "team" or q.revealed >= len(state.question.words),
        "snippets": [] if q.bonus is not None else [{"title": x["title"], "text": x["text"]} for x in q.snippets],
        "tier": seat.get("tier") or "unlimited",
    }


def bonus_part(state) -> dict:
    """The bonus part in play: {"text", "answer", "value"}."""
    b = state.q.bonus
    return state.bonuses[b["index"]].parts[b["part"]]


def private_for(state, fields) -> dict:
    """What a trusted bot may be told privately about the question in play, limited to fields (bots.trust
    chooses them by what the bot is): the simulated opponent is told the clean answer, never the answer
    line with its directives; question_idx is QANTA's question number, counted from 0. In a bonus: the
    part's clean answer, and the bonus's id with the part's number."""
    known = {"question_id": state.question.qid, "answer": state.question.clean_answer,
             "length_words": len(state.question.words), "question_idx": state.q.number - 1}
    if state.q.bonus is not None:
        b, part = state.q.bonus, bonus_part(state)
        known.update(question_id=f"{state.bonuses[b['index']].qid}#{b['part'] + 1}",
                     answer=clean_answer(part["answer"]), length_words=len(part["text"].split()))
    return {name: known[name] for name in fields}


def clean_act(act) -> dict | None:
    """A bot's act as the commands take it ({guess, confidence, buzz, alternatives}), or None when it
    has no guess string: bots are remote and may send anything."""
    if not isinstance(act, dict) or not isinstance(act.get("guess"), str):
        return None
    confidence = act.get("confidence")
    alternatives = act.get("alternatives") if isinstance(act.get("alternatives"), list) else []
    pairs = [[str(a[0]), float(a[1])] for a in alternatives
             if isinstance(a, (list, tuple)) and len(a) == 2 and isinstance(a[1], (int, float))]
    return {"guess": act["guess"].strip(), "confidence": _finite(confidence) or 0.0,
            "buzz": act.get("buzz") is True, "alternatives": pairs}


def threshold_of(value) -> float | None:
    """A bot's buzz threshold for the spectators' confidence bars, within [0, 1]; None if it sent none."""
    value = _finite(value)
    return None if value is None else min(1.0, max(0.0, value))


def _finite(value) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None


def missed_status(reason: str) -> str:
    """What the hall is told of a bot's act that came to nothing: it ran out of time (the worker's
    own time limit, bots.acting.TimeLimitExceeded) or it failed."""
    return "timed_out" if "time limit" in reason else "failed"


def missed(seat_id: str, reason: str, status: str | None = None) -> dict:
    """The bot_missed command: the moderator reads why the bot's act came to nothing, and play goes on."""
    return {"type": "bot_missed", "actor": {"role": "system"},
            "data": {"seat": seat_id, "reason": reason, "status": status or missed_status(reason)}}


def bot_actor(state, seat_id: str) -> dict:
    return {"role": "bot", "seat": seat_id, "team": state.seats[seat_id]["team"]}


def guess(actor: dict, act: dict, threshold: float | None, word: int) -> dict:
    """The bot_guess command for a clean act, placed at the words the bot was shown (word)."""
    return {"type": "bot_guess", "actor": actor, "data": dict(act, threshold=threshold, word=word)}


@dataclass(frozen=True)
class Reply:
    """What a bot's act becomes once its guess is on the record: a command now (a team phase's
    submission, or a pass), or a buzz after buzz_in_ms, answered with guess once the buzz is taken;
    or nothing."""

    now: dict | None = None
    buzz_in_ms: int | None = None
    guess: str = ""


def reply_to(state, actor: dict, act: dict) -> Reply:
    """A bot on the computer's team answers for its team; a bot on a human team (an AI teammate) answers
    only when a teammate buzzed for it, and buzzes on its own only as its buzz mode allows: in a team phase
    and on a bonus part its team consults it (its guess is on the record) and the team answers."""
    seat = state.seats[actor["seat"]]
    if answers_for_team(state, seat["id"]):  # a teammate pressed its buzzer: its answer is the team's
        command = answer(actor, act["guess"]) if act["guess"] else {"type": "pass", "data": {}, "actor": actor}
        return Reply(now=command)
    b = state.q.bonus
    if teammate(state, seat) and (b is not None or state.q.mode == "team"):
        return Reply()
    if b is not None:  # the team's answer to the part; with no guess the clock runs out
        data = {"text": act["guess"], "part": b["part"]}
        return Reply(now={"type": "bonus_answer", "data": data, "actor": actor}) if act["guess"] else Reply()
    if state.q.mode == "team":
        command = {"type": "submit", "data": {"text": act["guess"]}} if act["guess"] else {"type": "pass", "data": {}}
        return Reply(now={**command, "actor": actor})
    if act["buzz"] and act["guess"] and seat.get("buzz_mode", "autonomous") in ("autonomous", "after_k"):
        return Reply(buzz_in_ms=state.rules["bot_reaction_ms"], guess=act["guess"])
    return Reply()


def buzz(actor: dict, seen: int) -> dict:
    """The bot's buzz, at the words it decided on (like a person's screen), however many were read since."""
    return {"type": "buzz", "actor": actor, "data": {"seen": seen}}


def answer(actor: dict, text: str) -> dict:
    return {"type": "answer", "actor": actor, "data": {"text": text}}
