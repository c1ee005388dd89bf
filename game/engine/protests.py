"""Protests of a ruling: the checks, the fold and who sees what.

A tournament's protests were kept on paper beside the app, so a disputed ruling left no trace in the
results. Here a team's captain files one within the match's protest_seconds after a ruling, the
moderator resolves it (upheld: the ruling stands; overturned: the ruling is reversed), and the score
moves only through that resolution, as an override of the ruling (game/engine/rules.py). Either team's
captain may protest a ruling: in a head-to-head match every ruling helps one side and costs the other.

A protest's text is its team's: the moderator and that team's phones see it; the rest of the hall sees
that the team protested which ruling, and how it was resolved, with the moderator's reason only when
the moderator shows it to the room (as for every other reason).

Plain functions over the state, no Django; rules.py calls the checks, fold.py the handlers.
"""
from __future__ import annotations

from game.engine.rejected import Rejected
from game.engine.state import MatchState
from game.engine.typed import typed_text

MAX_PROTEST = 300  # characters of a team's reason
OUTCOMES = ("upheld", "overturned")
REVERSED = {"accept": "reject", "reject": "accept"}


def window_ms(s: MatchState) -> int:
    """How long after a ruling a protest of it may be filed; 0 means protests are off."""
    return int(s.rules["protest_seconds"] * 1000)


def protest_text(data: dict) -> str:
    return typed_text(data, "text", MAX_PROTEST, "Say in a few words why the ruling was wrong; the moderator reads it.",
                      f"That protest is too long; keep it under {MAX_PROTEST} characters.")


def check_filing(s: MatchState, seat: dict, data: dict, now: int) -> dict:
    """The ruling a captain protests, checked (or Rejected with a sentence saying why not). Before the
    start there is none: the stage table refuses a protest then (game/engine/stages.py)."""
    window = window_ms(s)
    if window <= 0:
        raise Rejected("Protests are off in this match.", "protests_off")
    if not seat.get("captain"):
        raise Rejected("Only your team's captain may protest a ruling.", "not_captain")
    rid = data.get("ruling")
    r = s.rulings.get(rid) if isinstance(rid, int) and not isinstance(rid, bool) else None
    if r is None:
        raise Rejected("There is no such ruling to protest; it may have been undone.", "bad_ruling")
    if r["verdict"] == "prompt":
        raise Rejected("A prompt is not a final ruling; protest the ruling that follows it.", "bad_ruling")
    if r["by"] == "pass":
        raise Rejected("That was a pass, not a ruling; there is nothing to protest.", "bad_ruling")
    if r.get("overridden") or r.get("withdrawn"):
        raise Rejected("That ruling was already corrected by the moderator; there is nothing left to protest.",
                       "corrected")
    if any(h["thrown_out"] and rid in h["rulings"] for h in s.history):
        raise Rejected("That question was thrown out and counts for nothing; there is nothing to protest.", "thrown_out")
    if now - r.get("t", now) > window:
        raise Rejected(f"The time to protest that ruling ({window // 1000} seconds after it) is over.", "too_late")
    for p in s.protests:
        if p["ruling"] == rid and p["status"] == "open":
            raise Rejected("A protest of that ruling is already open; the moderator will resolve it.", "already_open")
        if p["ruling"] == rid and p["team"] == seat["team"]:
            raise Rejected(f"Your team already protested that ruling, and it was {p['status']}.", "already_protested")
    return r


def check_resolution(s: MatchState, data: dict) -> tuple[dict, str]:
    """The open protest the moderator resolves and the outcome, checked."""
    pid = data.get("protest")
    p = next((x for x in s.protests if x["id"] == pid), None) if isinstance(pid, int) and not isinstance(pid, bool) \
        else None
    if p is None:
        raise Rejected("There is no such protest.", "bad_protest")
    if p["status"] != "open":
        raise Rejected(f"That protest was already resolved: {p['status']}.", "stale")
    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        raise Rejected("A protest is upheld (the ruling stands) or overturned (the ruling is reversed).", "bad_shape")
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise Rejected("Say why; the reason goes into the match record with the protest.", "no_reason")
    if outcome == "overturned":
        r = s.rulings.get(p["ruling"])
        if r is None or r.get("overridden") or r.get("withdrawn") or r["verdict"] != p["verdict"]:
            raise Rejected("The ruling this protest names was changed after it was filed (undone or overridden), "
                           "so it cannot be overturned; uphold the protest to close it.", "corrected")
        if any(h["thrown_out"] and p["ruling"] in h["rulings"] for h in s.history):
            raise Rejected("That question was thrown out and counts for nothing; uphold the protest to close it.",
                           "thrown_out")
        if s.q is not None and not s.q.closed and p["ruling"] in s.q.ruling_ids:
            raise Rejected("This question is still being played; resolve the protest once it closes.", "question_open")
    return p, outcome


# -- the fold ---------------------------------------------------------------------------------------

def fold_filed(s: MatchState, d: dict, t: int):
    s.protests = s.protests + [{"id": d["id"], "ruling": d["ruling"], "number": d["number"], "team": d["team"],
                                "seat": d["seat"], "verdict": d["verdict"], "text": d.get("text"), "t": t,
                                "status": "open", "reason": None}]


def fold_resolved(s: MatchState, d: dict, t: int):
    s.protests = [dict(p, status=d["outcome"], reason=d.get("reason"), resolved_t=t,
                       **({"public": True} if d.get("public") else {})) if p["id"] == d["protest"] else p
                  for p in s.protests]


# -- who sees what ----------------------------------------------------------------------------------

def protest_frame(data: dict, audience: str, team: str | None) -> dict:
    """protest_filed as an audience receives it: the text only for the moderator and the team's phones."""
    if audience == "moderator" or (audience == "player" and data.get("team") == team):
        return data
    return dict(data, text=None)


def protest_views(s: MatchState, audience: str, team: str | None, private_reason) -> list[dict]:
    """The protests as a snapshot gives them to an audience (same rule as the frames)."""
    if audience == "moderator":
        return [dict(p) for p in s.protests]
    return [protest_frame(private_reason(p), audience, team) for p in s.protests]
