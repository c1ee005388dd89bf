"""Who is in the room, for the moderator: which seats have a device connected, how many screens watch,
and how each bot is doing. None of it is in the event log (a reconnect is not part of the match), so it
goes to the moderator's sockets only, as an ephemeral "roster" frame (docs/wire-protocol.md).

Connections are known by the web processes, each for its own sockets: each one reports the seats it
holds a socket for (game/live/presence.py), at once when that changes and again every heartbeat. A seat is
connected while any process reports it; a process that stops reporting (it died) is forgotten after
REPORT_TTL_MS. Bot health is what this conductor saw of each bot's acts: how many it was asked, answered,
timed out or failed, how long the last answer took, and its last failure's reason. Both are memory only:
after a conductor restart the connections are back within a heartbeat and a bot's health with its next act.
"""
from __future__ import annotations

REPORT_TTL_MS = 45_000  # three heartbeats: a web process silent this long is gone, and its sockets with it
FAILING_AFTER = 3  # misses in a row that make a bot "failing" rather than "late"


def _no_acts() -> dict:
    return {"asked": 0, "answered": 0, "timed_out": 0, "failed": 0, "missed_in_row": 0, "last": None,
            "last_ms": None, "reason": None, "at": None}


def bot_health(record: dict) -> str:
    """ "unknown" (not asked yet), "waiting" (asked, nothing back yet), "ok" (its last act answered),
    "late" (its last act timed out) or "failing" (its last act failed, or it missed FAILING_AFTER in a row)."""
    if record["last"] == "failed" or record["missed_in_row"] >= FAILING_AFTER:
        return "failing"
    if record["last"] is None:
        return "waiting" if record["asked"] else "unknown"
    return "ok" if record["last"] == "answered" else "late"


class Room:
    """The roster of one match as the conductor holding it knows it."""

    def __init__(self):
        self.reports: dict[str, dict] = {}  # web process channel -> {"seats", "watchers", "at", "n"}
        self.since: dict[str, int] = {}  # seat -> when its connection last came or went
        self.was: set[str] = set()  # seats connected at the last look
        self.bots: dict[str, dict] = {}  # seat -> what its acts were
        self.last_sent: dict | None = None
        self.changes = 0  # counts every change above, so the host can skip building an unchanged roster

    # -- connections ------------------------------------------------------------------------------

    def heard(self, message: dict, now: int) -> None:
        """A web process's report: the seats it holds a socket for and its watching screens. An older
        report of the same process (they may pass each other) is ignored."""
        hub, n = message.get("hub"), message.get("n")
        if not isinstance(hub, str) or not isinstance(n, int):
            return
        known = self.reports.get(hub)
        if known is not None and known["n"] >= n:
            known["at"] = max(known["at"], now)
            return
        seats = {s for s in message.get("seats") or () if isinstance(s, str)}
        watchers = message.get("watchers") if isinstance(message.get("watchers"), int) else 0
        self.reports[hub] = {"seats": seats, "watchers": max(0, watchers), "at": now, "n": n}
        self.changes += 1
        self._mark(now)

    def prune(self, now: int) -> None:
        """Forget the web processes that stopped reporting."""
        for hub in [h for h, r in self.reports.items() if now - r["at"] > REPORT_TTL_MS]:
            del self.reports[hub]
            self.changes += 1
        self._mark(now)

    def _mark(self, now: int) -> None:
        connected = self.connected()
        for seat in connected ^ self.was:
            self.since[seat] = now
        self.was = connected

    def connected(self) -> set[str]:
        return set().union(*(r["seats"] for r in self.reports.values())) if self.reports else set()

    # -- bots -------------------------------------------------------------------------------------

    def _bot(self, seat: str) -> dict:
        self.changes += 1  # called only to change the record
        return self.bots.setdefault(seat, _no_acts())

    def bot_asked(self, seat: str) -> None:
        self._bot(seat)["asked"] += 1

    def bot_answered(self, seat: str, took_ms: int | None, now: int) -> None:
        record = self._bot(seat)
        record.update(answered=record["answered"] + 1, missed_in_row=0, last="answered", last_ms=took_ms, at=now)

    def bot_missed(self, seat: str, status: str, reason: str, now: int) -> None:
        record = self._bot(seat)
        status = status if status in ("timed_out", "failed") else "failed"
        record.update({status: record[status] + 1}, missed_in_row=record["missed_in_row"] + 1, last=status,
                      reason=reason, at=now)

    # -- the frame --------------------------------------------------------------------------------

    def roster(self, state, facts: dict) -> dict:
        """The roster frame's data: every seat of the match, in the log's order. `facts` is seat -> what
        is known of its bot (name, kind, measured size, tier limit) from the database."""
        connected = self.connected()
        seats = []
        for seat in state.seats.values():
            entry = {"seat": seat["id"]}
            if seat.get("kind") == "bot":
                record = self.bots.get(seat["id"]) or _no_acts()
                acts = {k: v for k, v in record.items() if k != "missed_in_row"}
                entry["bot"] = {**(facts.get(seat["id"]) or {}), "tier": seat.get("tier"), **acts,
                                "health": bot_health(record)}
            else:
                entry.update(connected=seat["id"] in connected, since=self.since.get(seat["id"]))
            seats.append(entry)
        return {"seats": seats, "watchers": sum(r["watchers"] for r in self.reports.values())}

    def changed(self, state, facts: dict) -> dict | None:
        """The roster if it differs from the last one sent (and remember it as sent), else None."""
        now = self.roster(state, facts)
        if now == self.last_sent:
            return None
        self.last_sent = now
        return now
