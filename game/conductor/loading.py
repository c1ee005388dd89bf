"""The conductor's reads from the database: which matches are live, and one match with its bots.

These run on the conductor's database thread, never on the event loop.
"""
from __future__ import annotations

from game.models import CommandReceipt, Match, Seat
from game.store import MatchRunner, seat_data

TRUSTED_BOT_KINDS = {"simulated", "replay_csv"}  # our own code; may be told the answer line


RECENT_RECEIPTS = 5000  # answers kept in memory for retried commands; older ones are read on demand


def load_runner(code: str, owner: str | None = None, clock=None) -> MatchRunner | None:
    match = Match.objects.filter(code=code).first()
    if match is None:
        return None
    runner = MatchRunner(match, owner=owner, **({"clock": clock} if clock else {}))
    return runner if runner.state is not None else None


def recent_receipts(runner: MatchRunner) -> dict:
    """(actor, command id) -> the answer, for the match's latest client commands."""
    rows = CommandReceipt.objects.filter(match=runner.match).order_by("-id")[:RECENT_RECEIPTS]
    return {(r.actor, r.command_id): r.reply() for r in rows}


def find_receipt(runner: MatchRunner, actor: str, command_id: str) -> dict | None:
    row = CommandReceipt.objects.filter(match=runner.match, actor=actor, command_id=command_id).first()
    return row.reply() if row else None


def bot_seats(runner: MatchRunner) -> dict:
    """seat key -> {"config": Seat.bot_config, "trusted": bool} for the match's bot seats."""
    seats = Seat.objects.filter(team__match=runner.match, kind=Seat.Kind.BOT)
    return {seat.key: {"config": dict(seat.bot_config or {}), "trusted": _trusted(seat.bot_config or {})}
            for seat in seats}


def _trusted(config: dict) -> bool:
    if config.get("simulated") or config.get("kind") in TRUSTED_BOT_KINDS:
        return True
    name = config.get("bot")
    if not name:
        return False
    from bots.models import Bot  # the bots app owns what kind a named bot is

    return Bot.objects.filter(name=name, kind__in=TRUSTED_BOT_KINDS).exists()


def unseated(runner: MatchRunner) -> list[dict]:
    """Seats the host added in the database that the match's event log does not know yet."""
    seats = Seat.objects.filter(team__match=runner.match).select_related("team")
    return [seat_data(s) for s in seats if s.key not in runner.state.seats]
