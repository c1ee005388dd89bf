"""The protests of a finished match as the box score and its CSV list them.

One row per protest in the order filed: the question, the answer and the ruling protested, the team
that protested, how the moderator resolved it (with the reason only if it was shown to the room), and
per team how many it filed, and how many were upheld and overturned. The team's own text is not here:
it is the team's and the moderator's (game/engine/protests.py), and a box score is public.
"""
from __future__ import annotations

from game.engine.api import MatchState, private_reason

OUTCOME_COUNTS = ("filed", "upheld", "overturned", "open")


def protest_summary(state: MatchState) -> dict:
    rows = []
    counts = {t["name"]: dict.fromkeys(OUTCOME_COUNTS, 0) for t in state.teams}
    for p in state.protests:
        ruling = state.rulings.get(p["ruling"], {})
        answered_by = state.seats.get(ruling.get("seat"), {}).get("name") or state.team_name(ruling.get("team", ""))
        team = state.team_name(p["team"])
        rows.append({"number": p["number"], "team": team, "answer_of": answered_by,
                     "answer": None if ruling.get("held") else ruling.get("text") or ruling.get("heard"),
                     "verdict": p["verdict"], "outcome": p["status"], "now": ruling.get("verdict"),
                     "reason": private_reason(p).get("reason")})
        line = counts.setdefault(team, dict.fromkeys(OUTCOME_COUNTS, 0))
        line["filed"] += 1
        line[p["status"]] += 1
    return {"rows": rows, "teams": counts}
