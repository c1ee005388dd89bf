"""What AI players score under the QANTA 2026 rules (the qanta26 preset; every number is a rule of
game/engine/rule_table.py the host may edit), and the gate on an autonomous bot's buzz.

- A bot's correct tossup: the points a person would score (power or tossup value), under the rule
  ai_tossup_deflation: unchanged (none), less ai_tossup_static_deflation but never below 0 (static), or times
  its weight class's factor ai_tossup_factor_<class>, rounded half up (weighted). Negs are never changed.
- A bonus part, with bonus_decisions on: the controlling team decides per part to answer on its own (the
  part's value when right), to consult its AI (the value under bonus_consult_deflation: full, less
  bonus_static_deflation, or less bonus_weight_<class> of each bot seat of the team; never below 0) or to
  abstain (bonus_abstain_points when the moderator rules that nobody, human or AI, was right).

A seat's weight class is game/engine/weight_class.py's. Plain data, no Django.
"""
from __future__ import annotations

import math

from game.engine.weight_class import class_of

OWN, CONSULT, ABSTAIN = "own", "consult", "abstain"
DECISIONS = (OWN, CONSULT, ABSTAIN)  # what a team decides on a bonus part


def rounded(x: float) -> int:
    """Half up, as QANTA's scoring rounds (Python's round() would take 2.5 to 2)."""
    return math.floor(x + 0.5)


def tossup_points(rules: dict, seat: dict, points: int) -> int:
    """What a correct tossup worth `points` to a person scores for this seat (a bot's is deflated)."""
    mode = rules["ai_tossup_deflation"]
    if seat["kind"] != "bot" or mode == "none":
        return points
    if mode == "static":
        return max(0, points - rules["ai_tossup_static_deflation"])
    return rounded(points * rules[f"ai_tossup_factor_{class_of(seat)}"])


def consult_points(rules: dict, seats, team: str, value: int) -> int:
    """What a bonus part worth `value` scores, answered right after consulting the team's AI (its bot seats)."""
    mode = rules["bonus_consult_deflation"]
    if mode == "none":
        return value
    if mode == "static":
        return max(0, value - rules["bonus_static_deflation"])
    weights = sum(rules[f"bonus_weight_{class_of(seat)}"] for seat in seats if seat["team"] == team
                  and seat["kind"] == "bot")
    return max(0, value - weights)


def decision_points(rules: dict, seats, team: str, value: int, decision: str) -> int:
    """What a part worth `value` scores when the moderator accepts it, under the team's decision (an
    abstention is accepted when nobody was right)."""
    if decision == ABSTAIN:
        return rules["bonus_abstain_points"]
    if decision == CONSULT:
        return consult_points(rules, seats, team, value)
    return value


def bot_gate(rules: dict) -> int:
    """Words a bot must have read for its buzz to count under autonomous_default_k (k = 1: none)."""
    k = rules["autonomous_default_k"]
    return 0 if k == 1 else k
