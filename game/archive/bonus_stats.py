"""Bonus figures of a match from its event log: per team the bonuses it heard (controlled), the points
it earned on them, and the points it took on the other team's bonuses by bounceback. Points per bonus
(PPB), the quizbowl figure standings rank by, is bonus points / bonuses heard, bouncebacks left out.

The one reading of the bonus events (bonus_started, bonus_part_ruled, an undo of a part ruling, a
thrown-out tossup) for statistics: the tournament standings read it, and the box score's bonus line
is to read it too. A log without bonuses counts none.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class BonusLine:
    heard: int = 0  # bonuses this team controlled
    points: int = 0  # points it earned on them
    bounceback_points: int = 0  # points it took on the other team's bonuses

    @property
    def ppb(self) -> float | None:
        return self.points / self.heard if self.heard else None


def bonus_lines(events: list[dict]) -> dict[str, BonusLine]:
    """team id -> its BonusLine, from the events in log order. A part ruling later undone does not
    count; nor does the bonus of a tossup thrown out (its replacement keeps the number and may earn one)."""
    started: dict[int, str] = {}  # tossup number -> the controlling team of its bonus
    parts: dict[int, tuple[int, str, int, bool]] = {}  # ruling id -> (number, team, points, bounce)
    for event in events:
        kind, data = event["type"], event.get("data") or {}
        if kind == "bonus_started":
            started[data["number"]] = data["team"]
        elif kind == "bonus_part_ruled":
            parts[data["id"]] = (data["number"], data["team"], data["points"], bool(data.get("bounce")))
        elif kind == "undo":
            parts.pop(data["ruling"], None)
        elif kind == "question_thrown_out":
            started.pop(data["number"], None)
            parts = {rid: part for rid, part in parts.items() if part[0] != data["number"]}
    lines: dict[str, BonusLine] = {}
    for team in started.values():
        lines.setdefault(team, BonusLine()).heard += 1
    for _, team, points, bounce in parts.values():
        line = lines.setdefault(team, BonusLine())
        if bounce:
            line.bounceback_points += points
        else:
            line.points += points
    return lines


# -- Each bonus as it stands, part by part: for the box score, the QBJ file and the CSVs -------------------

@dataclass
class BonusPart:
    value: int
    controlled: int = 0  # points the controlling team earned on the part
    abstained: bool = False  # the controlling team abstained on it (QANTA 2026 rules): its points are no right answer
    bounced: bool = False  # the controlling team missed it and the other team had it on a bounceback
    bounceback: int = 0  # points the other team earned on it


@dataclass
class BonusCycle:
    number: int  # the tossup's number (a replacement keeps the number of the tossup it replaces)
    index: int  # the bonus's place among the match's bonuses (match_created "bonuses", packet order)
    team: str  # the controlling team
    other: str | None  # who a missed part bounces to (None: no bounceback in this match)
    parts: list[BonusPart]

    @property
    def points(self) -> int:
        return sum(part.controlled for part in self.parts)

    @property
    def bounceback_points(self) -> int:
        return sum(part.bounceback for part in self.parts)


def bonus_cycles(events: list[dict]) -> dict[int, BonusCycle]:
    """tossup number -> its bonus with every part's points as the rulings that stand give them (a ruling
    later undone does not count, nor the bonus of a tossup thrown out), in the order the bonuses were heard."""
    started, standing = _standing(events)
    cycles = {number: BonusCycle(number, d["index"], d["team"], None, [BonusPart(v) for v in d["values"]])
              for number, d in started.items()}
    for ruling in standing:
        cycle = cycles.get(ruling["number"])
        if cycle is None:
            continue
        part = cycle.parts[ruling["part"]]
        if ruling["bounce"]:
            part.bounceback += ruling["points"]
            cycle.other = ruling["team"]
        else:
            part.controlled += ruling["points"]
            part.abstained = ruling.get("decision") == "abstain"  # a log without bonus decisions has none
        if (ruling["deadline"] or {}).get("kind") == "bounce":  # a miss that went to the other team
            part.bounced = True
    return cycles


def part_rulings(events: list[dict]) -> list[dict]:
    """The bonus part rulings that stand (bonus_part_ruled data, with the event's time as "t"), in order."""
    return _standing(events)[1]


def _standing(events: list[dict]) -> tuple[dict[int, dict], list[dict]]:
    """(tossup number -> its bonus_started data, the part rulings that stand in log order): an undone ruling
    is gone, and so are a thrown-out tossup's bonus and its rulings."""
    started: dict[int, dict] = {}
    standing: dict[int, dict] = {}  # ruling id -> the bonus_part_ruled data
    for event in events:
        kind, data = event["type"], event.get("data") or {}
        if kind == "bonus_started":
            started[data["number"]] = data
        elif kind == "bonus_part_ruled":
            standing[data["id"]] = dict(data, t=event["t"])
        elif kind == "undo":
            standing.pop(data["ruling"], None)
        elif kind == "question_thrown_out":
            started.pop(data["number"], None)
            standing = {rid: d for rid, d in standing.items() if d["number"] != data["number"]}
    return started, list(standing.values())


def part_conversion(cycles: dict[int, BonusCycle], team: str) -> list[dict]:
    """Per part of the bonuses `team` controlled (part 1, 2, 3 …): how many it heard, how many it got right
    and the share right (None when it heard none)."""
    heard: list[int] = []
    right: list[int] = []
    for cycle in cycles.values():
        if cycle.team != team:
            continue
        for k, part in enumerate(cycle.parts):
            if k == len(heard):
                heard.append(0)
                right.append(0)
            heard[k] += 1
            right[k] += part.controlled > 0 and not part.abstained
    return [{"part": k + 1, "heard": h, "right": r, "share": r / h if h else None}
            for k, (h, r) in enumerate(zip(heard, right))]
