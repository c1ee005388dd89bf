"""The conductor's reads from the database: which matches are live, and one match with its bots.

These run on the conductor's database thread, never on the event loop.
"""
from __future__ import annotations

from bots.builds import seat_facts  # the bots app owns what kind a seat's bot is and its size
from bots.trust import private_fields
from game.models import CommandReceipt, Match, Seat
from game.match_setup import seat_data
from game.runner import MatchRunner

RECENT_RECEIPTS = 5000  # answers kept in memory for retried commands; older ones are read on demand


def load_runner(code: str, owner: str | None = None, clock=None) -> MatchRunner | None:
    """The match's runner for a conductor: its slow work (judge, search, measuring) is done beside."""
    match = Match.objects.filter(code=code).first()
    if match is None:
        return None
    runner = MatchRunner(match, owner=owner, slow_work_here=False, **({"clock": clock} if clock else {}))
    return runner if runner.state is not None else None


def recent_receipts(runner: MatchRunner) -> dict:
    """(actor, command id) -> the answer, for the match's latest client commands."""
    rows = CommandReceipt.objects.filter(match=runner.match).order_by("-id")[:RECENT_RECEIPTS]
    return {(r.actor, r.command_id): r.reply() for r in rows}


def find_receipt(runner: MatchRunner, actor: str, command_id: str) -> dict | None:
    row = CommandReceipt.objects.filter(match=runner.match, actor=actor, command_id=command_id).first()
    return row.reply() if row else None


def bot_seats(runner: MatchRunner) -> dict:
    """seat key -> {"config": Seat.bot_config, "private": the private fields it may be given,
    "trusted": whether that includes the answer, "facts": its name, kind, measured size and tier limit
    for the moderator's roster} for the match's bot seats.

    What a bot may be told is decided by what it is (bots.trust), never by a flag in its config.
    """
    seats = Seat.objects.filter(team__match=runner.match, kind=Seat.Kind.BOT)
    out = {}
    for seat in seats:
        fields = private_fields(seat.bot_config or {})
        out[seat.key] = {"config": dict(seat.bot_config or {}), "private": fields, "trusted": "answer" in fields,
                         "facts": seat_facts(seat.bot_config or {}, seat.bot_tier)}
    return out


def unseated(runner: MatchRunner) -> list[dict]:
    """Seats the host added in the database that the match's event log does not know yet."""
    seats = Seat.objects.filter(team__match=runner.match).select_related("team")
    return [seat_data(s) for s in seats if s.key not in runner.state.seats]
