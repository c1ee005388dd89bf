"""A stored match as it can be watched again: its log folded once, any moment rebuilt on demand, and
what one audience may see of it.

Everything an audience gets here goes through the engine's projection (project/snapshot), exactly
as it did live, so a replay can never show the hall what the hall could not see: the rule is in one
place and replays obey it by construction. The summary (`timeline`) is derived from those projected
frames too, never from the raw events. Event types this code does not know are carried and ignored.
"""
from __future__ import annotations

import copy
import json

from django.db import connection

from game.engine.api import apply_in_place, EVENT_TYPES, MatchState, project, snapshot, split_words
from game.models import Match, MatchEvent

CHECKPOINT_EVERY = 250  # events between the states kept for seeking; a seek folds at most this many
MAX_GAP_MS = 4000  # a replay skips the dead air between questions beyond this


def load_log(match: Match) -> list[dict]:
    """The whole event log, in order, as engine events. Read with one plain query: building a model
    instance per row cost more than everything else a replay does with a 10,000-event log."""
    table = MatchEvent._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT seq, t_ms, type, data FROM {table} WHERE match_id = %s ORDER BY seq", [match.pk])
        rows = cursor.fetchall()
    return [{"seq": seq, "t": t, "type": kind, "data": data if isinstance(data, dict) else json.loads(data)}
            for seq, t, kind, data in rows]


def fold_one(state: MatchState | None, event: dict) -> MatchState | None:
    """apply_in_place, except that an event type this engine does not know (a log from a newer
    installation) changes nothing but the count and the clock, so every later seq still lines up."""
    if event["type"] in EVENT_TYPES or state is None:
        return apply_in_place(state, event)
    state.seq += 1
    state.t = max(state.t, event.get("t", 0))
    return state


class Replay:
    """A log to look back at: its final state, any moment's state (from a copy of the state kept every
    CHECKPOINT_EVERY events, made the first time a moment is asked for), and one audience's view."""

    def __init__(self, events: list[dict], every: int = CHECKPOINT_EVERY):
        self.events = events
        self.every = every
        self._checkpoints: list[MatchState] | None = None  # state after events[: (i + 1) * every]
        self._final = None

    @property
    def last_seq(self) -> int:
        return len(self.events)

    @property
    def final(self) -> MatchState | None:
        if self._final is None and self.events:
            state = None
            for event in self.events:
                state = fold_one(state, event)
            self._final = state
        return self._final

    @property
    def checkpoints(self) -> list[MatchState]:
        if self._checkpoints is None:
            self._checkpoints, state = [], None
            for i, event in enumerate(self.events, 1):
                state = fold_one(state, event)
                if i % self.every == 0:
                    self._checkpoints.append(state.clone())
            self._final = self._final or state
        return self._checkpoints

    def state_at(self, seq: int) -> MatchState | None:
        """The state after the first `seq` events, a fresh copy the caller may keep or change."""
        seq = max(0, min(seq, self.last_seq))
        if seq == 0:
            return None
        kept = seq // self.every  # checkpoints[kept - 1] holds the state after kept * every events
        if kept:
            state, start = self.checkpoints[kept - 1].clone(), kept * self.every
        else:
            state, start = None, 0
        for event in self.events[start:seq]:
            state = fold_one(state, event)
        return state

    def snapshot_at(self, seq: int, audience: str, team: str | None = None) -> dict:
        return snapshot(self.state_at(seq), audience, team)

    def frames(self, audience: str, team: str | None = None) -> list[dict]:
        return [project(event, audience, team) for event in self.events]

    def bundle(self, audience: str, team: str | None = None) -> dict:
        """What the replay page needs: the audience's frames, the snapshot a live screen would have
        asked for after each undo (the browser's fold resyncs there, as it did live), and the summary.
        One pass over the log, folding it only as far as its last undo: no copy of the state but the
        snapshots themselves."""
        frames = [project(event, audience, team) for event in self.events]
        undos = [i for i, event in enumerate(self.events) if event["type"] == "undo"]
        resync, state = {}, None
        for event in self.events[: undos[-1] + 1 if undos else 0]:
            state = fold_one(state, event)
            if event["type"] == "undo":
                resync[event["seq"]] = copy.deepcopy(snapshot(state, audience, team))
        return {"audience": audience, "last_seq": self.last_seq, "frames": frames, "resync": resync,
                "questions": timeline(frames), "corrections": corrections(frames), "max_gap_ms": MAX_GAP_MS}


def corrections(frames: list[dict]) -> list[dict]:
    """The changes of score after the final whistle, as these frames tell them (a reason only where this
    audience saw it): when (seq), what (an override of question `number`'s ruling, or an adjustment of
    `team`), and the points each team gained or lost."""
    out = []
    for frame in frames:
        d = frame.get("data") or {}
        if frame["type"] in ("override", "score_adjusted") and d.get("correction"):
            out.append({"seq": frame["seq"], "t": frame["t"], "kind": "override" if frame["type"] == "override" else "adjust",
                        "number": d.get("number"), "verdict": d.get("verdict"), "team": d.get("team"),
                        "points": d.get("points"), "score_changes": d.get("score_changes") or {}, "reason": d.get("reason")})
    return out


def timeline(frames: list[dict]) -> list[dict]:
    """Each question as these frames tell it: when it started and ended (seq), every buzz with the word
    it came at and how it was ruled, every ruling, each bot's guesses word by word, the outcome.

    Built from projected frames only, so it holds what this audience saw and nothing more; a moderator's
    frames add the judge's suggestions and the refused buzzes (the audit)."""
    seats: dict = {}
    questions: list[dict] = []
    q = None
    for frame in frames:
        kind, d, seq = frame["type"], frame.get("data") or {}, frame["seq"]
        if kind == "match_created":
            seats = {s["id"]: s for s in d.get("seats", [])}
        elif kind == "seat_joined":
            seats[d["seat"]["id"]] = d["seat"]
        elif kind == "question_started":
            q = _new_question(frame, d)
            questions.append(q)
        elif kind == "override":  # may come questions later, even after the final whistle
            for item in questions:
                _override(item, d)
        elif kind in ("protest_filed", "protest_resolved"):  # so may a protest and its resolution
            for item in questions:
                _protest(item, kind, d, seq)
        elif q is not None:
            _question_frame(q, kind, d, frame, seats)
    return questions


def _new_question(frame: dict, d: dict) -> dict:
    return {"number": d["number"], "tiebreaker": d.get("tiebreaker", False), "replaces": d.get("replaces"),
            "category": d.get("category", ""), "start_seq": frame["seq"], "start_t": frame["t"],
            "end_seq": None, "revealed": 0, "words": None, "answer": None, "result": None, "dead": False,
            "thrown_out": False, "reason": "", "phases": [], "buzzes": [], "rulings": [], "guesses": {},
            "suggestions": [], "refused": [], "first_word_t": None, "protests": []}


def _question_frame(q: dict, kind: str, d: dict, frame: dict, seats: dict) -> None:
    seq, t = frame["seq"], frame["t"]
    if kind == "phase_started":
        q["phases"].append({"phase": d["phase"], "mode": d["mode"], "seq": seq, "points": d.get("points")})
        if d.get("words"):
            q["revealed"] += len(d["words"])
    elif kind == "word_revealed":
        q["revealed"] = d["index"] + 1
        if q["first_word_t"] is None:  # the audit times each buzz from here
            q["first_word_t"] = t
    elif kind == "buzz":
        if d.get("replaces"):
            for b in q["buzzes"]:
                if b["seat"] == d["replaces"] and b["verdict"] is None:
                    b["verdict"] = "replaced"
        seat = seats.get(d["seat"], {})
        q["buzzes"].append({"seq": seq, "t": t, "seat": d["seat"], "team": d["team"], "word": d["word"],
                            "seen": d.get("seen"), "received": d.get("received"), "kind": seat.get("kind", "human"),
                            "pressed": d.get("pressed", d.get("received")), "clamp": d.get("clamp"),
                            "name": seat.get("name", d["seat"]), "verdict": None, "ruling": None})
    elif kind == "buzz_refused" and "received" in d:  # the moderator's frame: a buzz that lost, kept for the audit
        # (the hall's frame of a close race has no timing: its feed tells the race, the audit is staff's)
        seat = seats.get(d.get("seat"), {})
        q["refused"].append({"seq": seq, "t": t, "seat": d.get("seat"), "team": d.get("team"),
                             "name": seat.get("name", d.get("seat")), "kind": seat.get("kind", "human"),
                             "word": d.get("word"), "seen": d.get("seen"), "received": d.get("received"),
                             "pressed": d.get("pressed", d.get("received")), "clamp": d.get("clamp"),
                             "code": d.get("code"), "reason": d.get("reason", "")})
    elif kind == "ruling":
        _ruling(q, d, seq)
    elif kind == "undo" and any(r["id"] == d.get("ruling") for r in q["rulings"]):  # (a bonus part's: the tossup stays)
        q["rulings"] = [r for r in q["rulings"] if r["id"] != d.get("ruling")]
        for b in q["buzzes"]:
            if b["ruling"] == d.get("ruling"):
                b["verdict"], b["ruling"] = None, None
        q.update(result=None, dead=False, end_seq=None)  # an undone ruling reopens the question
    elif kind == "bot_guess":
        _guess(q, d["seat"], d, seq)
    elif kind == "bot_guesses_released":  # what was held back while a human could score, now shown
        for point in d.get("trail") or [dict(g, seat=seat) for seat, g in (d.get("guesses") or {}).items()]:
            _guess(q, point["seat"], point, seq)
        held = {r["id"]: r for r in d.get("rulings") or ()}
        for r in q["rulings"]:
            if r["id"] in held:
                r["text"] = held[r["id"]].get("text") or held[r["id"]].get("heard")
    elif kind == "judge_suggested":  # moderator frames only
        q["suggestions"].append({"seq": seq, **{k: d.get(k) for k in ("seat", "team", "text", "verdict", "reason")}})
    elif kind == "question_closed":
        words, _ = split_words(d.get("text", ""))
        # Closing shows the whole question (as the fold does); an undo after it keeps it shown.
        q.update(end_seq=seq, words=len(words), answer=d.get("answer"), result=d.get("result"),
                 dead=d.get("result") is None, revealed=max(q["revealed"], len(words)))
    elif kind == "question_thrown_out":
        q.update(end_seq=q["end_seq"] or seq, thrown_out=True, reason=d.get("reason") or "", result=None)


def _guess(q: dict, seat: str, g: dict, seq: int) -> None:
    """A bot's guess in its chart; a released guess the audience already saw (staff frames) is not added twice."""
    point = {"seq": seq, "word": g.get("word"), "confidence": g.get("confidence"), "threshold": g.get("threshold"),
             "buzz": bool(g.get("buzz")), "guess": g.get("guess")}
    chart = q["guesses"].setdefault(seat, [])
    same = {k: v for k, v in point.items() if k != "seq"}
    if any({k: v for k, v in earlier.items() if k != "seq"} == same for earlier in chart):
        return
    chart.append(point)


def _override(q: dict, d: dict) -> None:
    if not any(r["id"] == d.get("ruling") for r in q["rulings"]):
        return
    rescored = {each["id"]: each for each in d.get("rulings") or ()}  # the question scored again
    for r in q["rulings"]:
        if r["id"] == d.get("ruling"):
            r.update(verdict=d["verdict"], points=d["points"], overridden=True)
        if r["id"] in rescored:
            r.update(points=rescored[r["id"]]["points"], withdrawn=rescored[r["id"]]["withdrawn"])
    for b in q["buzzes"]:
        if b["ruling"] == d.get("ruling"):
            b["verdict"] = d["verdict"]
    if not q["thrown_out"]:
        q["result"], q["dead"] = d.get("result"), d.get("result") is None


def _protest(q: dict, kind: str, d: dict, seq: int) -> None:
    """A protest of one of this question's rulings, at the seq it was filed, and its resolution at its own."""
    if not any(r["id"] == d.get("ruling") for r in q["rulings"]):
        return
    if kind == "protest_filed":
        q["protests"].append({"seq": seq, "id": d["id"], "ruling": d["ruling"], "team": d["team"],
                              "verdict": d.get("verdict"), "text": d.get("text"), "outcome": None,
                              "resolved_seq": None, "reason": None})
        return
    for p in q["protests"]:
        if p["id"] == d.get("protest"):
            p.update(outcome=d.get("outcome"), resolved_seq=seq, reason=d.get("reason"))


def _ruling(q: dict, d: dict, seq: int) -> None:
    q["rulings"].append({"seq": seq, "id": d["id"], "phase": d["phase"], "mode": d["mode"], "team": d["team"],
                         "seat": d.get("seat"), "text": d.get("text") or d.get("heard"), "verdict": d["verdict"],
                         "points": d["points"], "by": d.get("by"), "word": d.get("word")})
    if d["mode"] == "buzz":
        for b in reversed(q["buzzes"]):
            if b["seat"] == d.get("seat") and b["verdict"] is None:
                if d["verdict"] != "prompt":
                    b["verdict"], b["ruling"] = d["verdict"], d["id"]
                break
