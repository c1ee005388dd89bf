"""The QANTA 2026 scoring, restated here from the preset's definition (qanta-org/qb-tournament-runner's
qanta26.json and shared/scoring.ts, as docs/playing.md tells it), not from the engine's code, and checked on
generated matches: random plays, every one folded by the engine, under random edits of every number of the
preset. The definition:

- A bot seat's weight class is its tier's: 500mib lightweight, 6gib midweight, unlimited heavyweight.
- A person's correct tossup scores the phase's points; a bot's scores them unchanged (mode none), less the
  static amount but never below 0 (static), or times its class's factor rounded half up (weighted). Any wrong
  buzz before the last word is read is a neg; after it, 0. A neg is the same for a bot and a person.
- A correct tossup (not a tiebreaker) earns the next bonus. Per part the controlling team decides: own (the
  part's value if right), consult (the value less the consult deflation if right: none, the static amount, or
  the sum of the class weights of the team's bot seats; never below 0), abstain (the abstain points if the
  moderator rules nobody was right, else 0). A team that answers without deciding answers on its own; its
  last decision before answering counts. With bouncebacks, a part the team answered wrong goes to the other
  team, which scores the value if right; an abstained part never bounces.
"""
from __future__ import annotations

import math
import random

import pytest

from game.archive.bonus_stats import bonus_cycles, part_conversion
from game.engine.api import fold
from game.engine.rule_table import TIERS
from game.engine.weight_class import TIER_CLASSES, class_of

from .played import PLAYED
from .support import MOD, Match, make_bonuses, part_answer, seat

TIER_CLASS = {"500mib": "lightweight", "6gib": "midweight", "unlimited": "heavyweight"}
LENGTH = 9  # words in each tossup


def half_up(x: float) -> int:
    return math.floor(x + 0.5)


def tossup_worth(rules: dict, who: dict) -> int:
    """What a correct tossup scores for this seat, by the definition above."""
    points = rules["phases"][0]["points"]
    if who["kind"] != "bot" or rules["ai_tossup_deflation"] == "none":
        return points
    if rules["ai_tossup_deflation"] == "static":
        return max(0, points - rules["ai_tossup_static_deflation"])
    return half_up(points * rules["ai_tossup_factor_" + TIER_CLASS[who["tier"]]])


def part_worth(rules: dict, seats: list[dict], team: str, value: int, decision: str) -> int:
    """What a part the moderator accepts scores for the controlling team under its decision."""
    if decision == "abstain":
        return rules["bonus_abstain_points"]
    if decision == "own" or rules["bonus_consult_deflation"] == "none":
        return value
    if rules["bonus_consult_deflation"] == "static":
        return max(0, value - rules["bonus_static_deflation"])
    bots = [x for x in seats if x["team"] == team and x["kind"] == "bot"]
    return max(0, value - sum(rules["bonus_weight_" + TIER_CLASS[x["tier"]]] for x in bots))


def edited_rules(rng: random.Random) -> dict:
    """The host's edits of the preset's numbers (or none: the preset as it is)."""
    if rng.random() < 0.3:
        return {}
    return {
        "ai_tossup_deflation": rng.choice(["none", "static", "weighted", "weighted"]),
        "ai_tossup_static_deflation": rng.choice([0, 3, 5, 12]),
        "ai_tossup_factor_lightweight": rng.choice([1.0, 0.75, 0.25]),
        "ai_tossup_factor_midweight": rng.choice([0.8, 0.5, 0.35]),
        "ai_tossup_factor_heavyweight": rng.choice([0.4, 0.15, 1.5]),
        "bonus_consult_deflation": rng.choice(["none", "static", "weighted", "weighted"]),
        "bonus_static_deflation": rng.choice([0, 5, 25]),
        "bonus_weight_lightweight": rng.choice([1, 0, 4]),
        "bonus_weight_midweight": rng.choice([2, 5]),
        "bonus_weight_heavyweight": rng.choice([3, 9]),
        "bonus_abstain_points": rng.choice([1, 0, 5]),
        "bounceback": rng.random() < 0.5,
        "phases": [{"mode": "buzz", "points": rng.choice([10, 15, 20]), "neg_points": rng.choice([-5, -10])}],
    }


def generated_seats(rng: random.Random) -> list[dict]:
    """Two teams, each a captain, maybe a teammate, and zero to three bots of random tiers."""
    seats = []
    for number, team in enumerate(("t0", "t1")):
        seats.append(seat(f"c{number}", team, f"Captain {number}", captain=True))
        if rng.random() < 0.5:
            seats.append(seat(f"p{number}", team, f"Player {number}"))
        for k in range(rng.choice([0, 1, 1, 2, 3])):
            tier = rng.choice(list(TIER_CLASS))
            seats.append(seat(f"b{number}{k}", team, f"Bot {number}{k}", kind="bot", tier=tier))
    return seats


class Tally:
    """The scores the definition gives the plays so far, per team."""

    def __init__(self):
        self.scores = {"t0": 0, "t1": 0}
        self.parts: list[tuple[str, int]] = []  # (decision, points) of each controlling team's part ruling

    def add(self, team: str, points: int):
        self.scores[team] += points


def play_tossup(m: Match, rng: random.Random, tally: Tally, seats: list[dict]) -> str | None:
    """Buzzes at random words, each right or wrong; returns the team that got it, or None (dead)."""
    rules = m.rules
    tried: set[str] = set()
    while True:
        teams_left = [t for t in ("t0", "t1") if t not in tried]
        if not teams_left or rng.random() < 0.15:
            m.play_to_close()
            return None
        team = rng.choice(teams_left)
        who = rng.choice([x for x in seats if x["team"] == team])
        m.reveal_until(min(LENGTH, max(m.q.revealed, rng.randint(1, LENGTH))))
        m.tick(m.now)  # the words due now are out: the buzz, at the same moment, comes after exactly these
        read = m.q.revealed
        m.buzz(who["id"])
        m.answer(who["id"], rng.choice(["Isaac Newton", "the moon"]))
        if rng.random() < 0.5:
            m.rule("accept", at=m.now + 100)
            tally.add(team, tossup_worth(rules, who))
            return team
        m.rule("reject", at=m.now + 100)
        tally.add(team, rules["phases"][0]["neg_points"] if read < LENGTH else 0)
        tried.add(team)
        if m.q.closed:
            return None


def play_bonus(m: Match, rng: random.Random, tally: Tally, seats: list[dict], team: str):
    rules = m.rules
    other = "t1" if team == "t0" else "t0"
    captain = {t: next(x["id"] for x in seats if x["team"] == t and x["captain"]) for t in ("t0", "t1")}
    while not m.q.bonus["ended"]:
        m.read_part(at=m.now + 1000)
        value = m.q.bonus["parts"][m.q.bonus["part"]]["value"]
        decision = "own"
        for _ in range(rng.choice([0, 1, 1, 2])):  # undecided, decided, or decided and changed
            decision = rng.choice(["own", "consult", "abstain"])
            m.decide_part(rng.choice([captain[team], MOD]), decision, at=m.now + 200)
        if decision == "abstain":
            nobody_right = rng.random() < 0.5
            m.rule_part("accept" if nobody_right else "reject", at=m.now + 1500)
            points = part_worth(rules, seats, team, value, "abstain") if nobody_right else 0
            tally.add(team, points)
            tally.parts.append(("abstain", points))
            continue
        fate = rng.choice(["right", "wrong", "wrong", "silent"])
        if fate == "silent":
            m.advance()  # the confer time runs out: the clock rules it wrong
        else:
            m.bonus_answer(captain[team], part_answer(m.state) if fate == "right" else "a wrong guess", at=m.now + 1000)
            m.rule_part("accept" if fate == "right" else "reject", at=m.now + 300)
        points = part_worth(rules, seats, team, value, decision) if fate == "right" else 0
        tally.add(team, points)
        tally.parts.append((decision, points))
        if fate != "right" and rules["bounceback"]:  # the other team's bounceback, for the part's value
            if rng.random() < 0.5:
                m.advance()
            else:
                right = rng.random() < 0.5
                m.bonus_answer(captain[other], part_answer(m.state) if right else "no idea", at=m.now + 500)
                m.rule_part("accept" if right else "reject", at=m.now + 300)
                tally.add(other, value if right else 0)


def generated_match(seed: int) -> tuple[Match, Tally]:
    rng = random.Random(seed)
    seats = generated_seats(rng)
    questions = rng.randint(2, 5)
    bonuses = make_bonuses(questions + 3, parts=rng.choice([2, 3]))
    for b in bonuses:
        for part in b["parts"]:
            part["value"] = rng.choice([5, 10, 10, 15, 20])
    m = Match("qanta26", {"questions": questions, "tiebreakers": 0, **edited_rules(rng)}, seats=seats,
              length=LENGTH, power_after=None, bonuses=bonuses)
    tally = Tally()
    m.start(0)
    while m.state.status == "live":
        team = play_tossup(m, rng, tally, seats)
        if team is not None and m.q.bonus is not None:
            play_bonus(m, rng, tally, seats, team)
        m.send("next", MOD, at=m.now + 1000)
    return m, tally


@pytest.mark.parametrize("seed", range(60))
def test_the_engine_scores_generated_qanta_matches_as_the_preset_defines(seed):
    m, tally = generated_match(seed)
    assert m.state.scores == tally.scores
    assert fold(m.events).scores == tally.scores  # the stored log says the same
    # Each ruling of a controlling team's part carries its decision and the points the definition gives.
    ruled = [(e["data"]["decision"], e["data"]["points"]) for e in m.events
             if e["type"] == "bonus_part_ruled" and not e["data"]["bounce"] and e["data"]["verdict"] != "prompt"]
    assert ruled == tally.parts


def test_the_generated_matches_reach_every_decision_mode_and_class():
    """So the check above covers what it claims: every decision scored, every deflation mode, every class."""
    seen = set()
    for seed in range(60):
        m, tally = generated_match(seed)
        seen |= {("decision", d) for d, _ in tally.parts}
        seen |= {(key, m.rules[key]) for key in ("ai_tossup_deflation", "bonus_consult_deflation")}
        bots = {x["id"]: x for x in m.state.seats.values() if x["kind"] == "bot"}
        seen |= {("bot right", TIER_CLASS[bots[e["data"]["seat"]]["tier"]]) for e in m.events
                 if e["type"] == "ruling" and e["data"]["seat"] in bots and e["data"]["verdict"] == "accept"}
    want = {("decision", d) for d in ("own", "consult", "abstain")}
    want |= {(key, mode) for key in ("ai_tossup_deflation", "bonus_consult_deflation")
             for mode in ("none", "static", "weighted")}
    want |= {("bot right", c) for c in TIER_CLASS.values()}
    assert want <= seen


def test_the_preset_is_qanta_2026s_numbers():
    rules = Match("qanta26", seats=[seat("c0", "t0", "A", captain=True), seat("c1", "t1", "B", captain=True)]).rules
    assert (rules["label"], rules["bonuses"], rules["bonus_decisions"]) == ("QANTA 2026", True, True)
    assert [rules[f"ai_tossup_factor_{c}"] for c in TIER_CLASS.values()] == [1.0, 0.8, 0.4]
    assert [rules[f"bonus_weight_{c}"] for c in TIER_CLASS.values()] == [1, 2, 3]
    assert (rules["ai_tossup_deflation"], rules["bonus_consult_deflation"]) == ("weighted", "weighted")
    assert (rules["ai_tossup_static_deflation"], rules["bonus_static_deflation"], rules["bonus_abstain_points"],
            rules["autonomous_default_k"]) == (5, 5, 1, 1)
    [phase] = rules["phases"]
    assert (phase["points"], phase["power_points"], phase["neg_points"]) == (10, None, -5)
    assert not rules["bounceback"]



def test_a_bot_seat_plays_in_its_own_weight_class_or_else_its_tiers():
    assert {tier: TIER_CLASSES[tier] for tier in TIERS} == TIER_CLASS
    bot = seat("b", "t0", "Tiny", kind="bot", tier="500mib")
    assert class_of(bot) == "lightweight"
    assert class_of(dict(bot, weight_class="heavyweight")) == "heavyweight"  # the host's choice for this bot


def test_an_abstention_that_scores_is_no_right_answer_in_the_part_figures():
    """The box score's "right" per part: the played QANTA match's Scholars got one of each part's two right;
    the abstention that scored 1 on part 2 is in their points, not among their right answers."""
    cycles = bonus_cycles(PLAYED["qanta26"]().events)
    assert [(p["heard"], p["right"]) for p in part_conversion(cycles, "t1")] == [(2, 1), (2, 1), (2, 1)]
    assert sum(c.points for c in cycles.values() if c.team == "t1") == 7 + 1 + 10 + 7
