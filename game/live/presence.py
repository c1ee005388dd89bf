"""This web process's part of the moderator's roster: which seats it holds a live socket for and how
many screens watch through it, per match, reported to the conductor holding the match
(game/conductor/room.py puts every process's reports together).

A report goes at once when the seats held here change (a player connects, is taken over, leaves) and
again every heartbeat, changed or not, so the conductor can forget a process that died and a new
conductor learns the room within a heartbeat. Watcher counts alone go at the next probe, not per socket,
so a thousand screens opening cost the conductor a report every PROBE_S. Each report carries a number
that only grows, so one that overtakes another on the way is not undone by it.
"""
from __future__ import annotations


class PresenceReports:
    """What this process last reported for each match."""

    def __init__(self):
        self.sent: dict[str, tuple] = {}  # match -> (seats, watchers) last reported
        self.n = 0

    def report(self, code: str, hub: str, seats, watchers: int, force: bool = False) -> dict | None:
        """The message for the conductor, or None when nothing changed (and it is not forced)."""
        now = (frozenset(seats), watchers)
        if not force and self.sent.get(code) == now:
            return None
        self.sent[code] = now
        self.n += 1
        return {"type": "presence", "match": code, "hub": hub, "seats": sorted(now[0]), "watchers": watchers, "n": self.n}

    def forget(self, code: str) -> None:
        self.sent.pop(code, None)
