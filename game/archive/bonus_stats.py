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
