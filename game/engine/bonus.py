"""A tossup's bonus, as ACF plays it: the team that answers a tossup correctly hears the packet's next bonus
(a leadin and parts worth 10 each), confers on each part after the moderator reads it, and its captain
answers; the moderator rules each part. With bouncebacks on (two teams only), a part the controlling team
misses goes to the other team, which confers briefly and may answer it for the same points.

A bonus is played on the tossup that earned it, after the tossup closed (its answer is shown): the
question's stages BONUS_READY, BONUS_CONFER, BONUS_BOUNCE and BONUS_REVIEW (game/engine/stages.py), and
QuestionState.bonus holds where it stands. No bonus follows a dead tossup or a tiebreaker, and once the
packet's bonuses are used up tossups go on without them.

Here: who may answer, the fold of the bonus events, and what each audience's snapshot shows of a bonus
(a part's answer line reaches anyone but the moderator only once nobody may answer the part any more).
The commands are rules.py's. Plain data, no Django.
"""
from __future__ import annotations

from game.engine.questions import clean_answer
from game.engine.stages import Stage

RULED_KEYS = ("id", "team", "seat", "text", "heard", "verdict", "points", "bounce", "by")  # a part's ruling on record


def due(s) -> int | None:
    """The bonus the question in play earns now (its index in s.bonuses), or None: the format plays bonuses,
    the tossup was answered correctly, it is no tiebreaker, it has none yet and the packet has one left."""
    q = s.q
    if not s.rules["bonuses"] or q is None or q.result is None or q.tiebreaker or q.bonus is not None:
        return None
    return s.bonus_next if s.bonus_next < len(s.bonuses) else None


def bonuses_left(s) -> int | None:
    """How many of the packet's bonuses are still to be heard (None: the format plays none)."""
    return len(s.bonuses) - s.bonus_next if s.rules["bonuses"] else None


def other_team(s, team: str) -> str | None:
    """Who a missed part bounces to: the other team of a two-team match (None with more teams)."""
    others = [t for t in s.team_ids if t != team]
    return others[0] if len(others) == 1 else None


def bounce_follows(s, verdict: str) -> bool:
    """Whether a ruling of the part in play sends it to the other team: a miss by the controlling team with
    bouncebacks on, while the part's answer is not shown yet."""
    b = s.q.bonus
    return (verdict == "reject" and not b["bounce"] and s.rules["bounceback"] and s.q.stage is not Stage.BONUS_REVIEW
            and other_team(s, b["team"]) is not None and decision(b) != "abstain")


def decision(b: dict) -> str | None:
    """The controlling team's decision on the part in play (own, consult or abstain; None: none made)."""
    decided = b["parts"][b["part"]]["decision"]
    return None if decided is None else decided["decision"]


def last_ruling(b: dict) -> int | None:
    """The id of the bonus's last part ruling still standing, or None."""
    ids = [r["id"] for part in b["parts"] for r in part["rulings"]]
    return max(ids) if ids else None


# -- the fold ---------------------------------------------------------------------------------------------
# Each replaces q.bonus with a new dict (never changing one in place): a ruling's checkpoint (for undo)
# shares it, and a copied state may too.

def _with_part(b: dict, k: int, **changes) -> list:
    return [dict(part, **changes) if i == k else part for i, part in enumerate(b["parts"])]


def fold_started(s, d, t):
    q = s.q
    q.bonus = {"index": d["index"], "team": d["team"], "leadin": d["leadin"], "values": list(d["values"]),
               "part": -1, "answering": None, "bounce": False, "typed": None, "points": {}, "ended": False,
               "parts": [{"value": v, "text": None, "answer": None, "rulings": [], "decision": None} for v in d["values"]]}
    q.stage = Stage.BONUS_READY
    q.deadline, q.floor_seq = None, None
    s.bonus_next = d["index"] + 1
    s.history[-1] = dict(s.history[-1], bonus={"index": d["index"], "team": d["team"], "points": {}})


def fold_part_read(s, d, t):
    q = s.q
    b = q.bonus
    q.bonus = dict(b, part=d["part"], answering=d["team"], bounce=False, typed=None,
                   parts=_with_part(b, d["part"], text=d["text"]))
    q.deadline = d["deadline"]
    q.floor_seq = s.seq + 1  # the part waits for the team's answer (or a spoken one) from here
    q.stage = Stage.BONUS_CONFER


def fold_part_decided(s, d, t):
    """The team's decision on the part in play: {decision, points} on the part. The floor moves (a ruling
    pressed before it is stale), and the clock is the event's (none after an abstention)."""
    q = s.q
    b = q.bonus
    q.bonus = dict(b, parts=_with_part(b, d["part"], decision={"decision": d["decision"], "points": d["points"]}))
    q.floor_seq = s.seq + 1
    q.deadline = d["deadline"]


def fold_answered(s, d, t):
    q = s.q
    q.bonus = dict(q.bonus, typed={"seat": d["seat"], "team": d["team"], "text": d["text"], "seq": s.seq + 1})
    q.deadline = None  # the answer is in: the clock stops
    q.floor_seq = s.seq + 1
    q.answers = q.answers + [{"seq": s.seq + 1, "seat": d["seat"], "team": d["team"], "text": d["text"],
                              "ruling": None, "verdict": None, "suggestion": None}]


def fold_part_ruled(s, d, t, checkpoint_of, add_scores):
    """`checkpoint_of(q)`: the copy of the question kept for undo (fold.py's); `add_scores(s, changes, into)`."""
    q = s.q
    before = checkpoint_of(q)
    before.checkpoint = q.checkpoint
    q.checkpoint = before
    s.next_ruling_id = d["id"] + 1
    b = q.bonus
    points = dict(b["points"])
    q.score_changes = dict(q.score_changes)
    for team, pts in d["score_changes"].items():
        points[team] = points.get(team, 0) + pts
    add_scores(s, d["score_changes"], q.score_changes)
    _record(s, q.score_changes, points)
    q.answers = [dict(a, ruling=d["id"], verdict=d["verdict"]) if b["typed"] and a["seq"] == b["typed"]["seq"]
                 else a for a in q.answers]
    k = d["part"]
    part = b["parts"][k]
    ruled = {key: d[key] for key in RULED_KEYS}
    changes = {"rulings": part["rulings"] + [ruled]}
    if "answer" in d:
        changes["answer"] = d["answer"]
    b = dict(b, points=points, typed=None, parts=_with_part(b, k, **changes))
    q.deadline = d["deadline"]
    q.floor_seq = s.seq + 1
    if "answer" in d:  # the part is over; with a part still to come the next one waits (else bonus_ended follows)
        b.update(answering=None, bounce=False)
        q.floor_seq = None
        if k + 1 < len(b["parts"]):
            q.stage = Stage.BONUS_READY
    elif d["verdict"] == "reject":  # a bounceback: the other team may answer
        b.update(answering=other_team(s, d["team"]), bounce=True)
        q.stage = Stage.BONUS_BOUNCE
    q.bonus = b


def fold_ended(s, d, t):
    q = s.q
    q.bonus = dict(q.bonus, ended=True, answering=None)
    q.stage = Stage.CLOSED
    q.deadline, q.floor_seq = None, None


def fold_undo(s, d, t, add_scores):
    """Undo the bonus's last part ruling: the question as it was before it, with the part's answer still
    shown if that ruling showed it (the moderator then rules again on what was answered)."""
    q = s.q
    restored = q.checkpoint
    k = q.bonus["part"]
    shown = next((part["answer"] for i, part in enumerate(q.bonus["parts"]) if i == k), None)
    for name in ("chat", "bot_guesses", "shown_guesses", "held_guesses", "consulted", "bot_missed", "held_trail", "buzz_log",
                 "snippets", "voice"):
        setattr(restored, name, getattr(q, name))
    restored.answers = [dict(a, ruling=None, verdict=None) if a["ruling"] == d["ruling"] else a for a in q.answers]
    restored.refused = []
    if shown is not None:
        b = restored.bonus
        restored.bonus = dict(b, parts=_with_part(b, k, answer=shown))
        restored.stage = Stage.BONUS_REVIEW
    restored.deadline = None  # the moderator is ruling again; no clock on it
    restored.score_changes = dict(q.score_changes)
    add_scores(s, d["score_changes"], restored.score_changes)
    restored.bonus = dict(restored.bonus, points=_minus(q.bonus["points"], d["score_changes"]))
    restored.floor_seq = s.seq + 1  # the undone ruling's answer is back on the floor: it is ruled from here
    _record(s, restored.score_changes, restored.bonus["points"])
    s.q = restored


def _record(s, score_changes: dict, points: dict):
    """The question's history entry (written when its tossup closed) with what its bonus has scored so far."""
    entry = s.history[-1]
    s.history[-1] = dict(entry, score_changes=dict(score_changes), bonus=dict(entry["bonus"], points=dict(points)))


def _minus(points: dict, changes: dict) -> dict:
    out = dict(points)
    for team, pts in changes.items():
        out[team] = out.get(team, 0) + pts
    return out


# -- what an audience sees ------------------------------------------------------------------------------

def view(s, staff: bool) -> dict | None:
    """The bonus of the question in play as an audience's snapshot shows it (docs/wire-protocol.md): the
    moderator sees every part's text and answer line from the start; anyone else a part's text once read
    and its clean answer once the part is over."""
    q = s.q
    b = q.bonus if q is not None else None
    if b is None:
        return None
    full = s.bonuses[b["index"]].parts
    parts = []
    for k, part in enumerate(b["parts"]):
        answer = full[k]["answer"] if staff else None if part["answer"] is None else clean_answer(part["answer"])
        parts.append({"value": part["value"], "text": full[k]["text"] if staff else part["text"], "answer": answer,
                      "rulings": [dict(r) for r in part["rulings"]],
                      "decision": None if part["decision"] is None else dict(part["decision"])})
    typed = b["typed"]
    if typed is not None and not staff:
        typed = {k: v for k, v in typed.items() if k != "seq"}
    return {"index": b["index"], "team": b["team"], "leadin": b["leadin"], "values": list(b["values"]),
            "part": b["part"], "answering": b["answering"], "bounce": b["bounce"],
            "typed": dict(typed) if typed else None, "points": dict(b["points"]), "ended": b["ended"], "parts": parts}
