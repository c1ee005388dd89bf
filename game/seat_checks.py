"""Checking a match's bot seats before it starts: each seat's bot is measured again against its tier.

The store calls seats_at_start(match) when the moderator starts a match and refuses the start with
its sentences (bots.admission.check_seat says which bot is over which limit, and by how much); the
sizes it measured go on the bots' cards.
"""
from __future__ import annotations

from bots.admission import check_seat
from bots.budgets import TierExceeded
from bots.errors import BotError
from game.models import Seat


def seats_at_start(match) -> tuple[list[str], dict]:
    """One sentence per bot seat over its tier, and seat key -> what each other bot seat measured
    (Size.card()). A bot that cannot be found is not refused here: its every query is reported to the
    moderator as missed, with the reason, and play goes on."""
    refusals, sizes = [], {}
    for seat in Seat.objects.filter(team__match=match, kind=Seat.Kind.BOT).order_by("id"):
        try:
            sizes[seat.key] = check_seat(seat.bot_config or {}, seat.bot_tier or "unlimited").card()
        except TierExceeded as error:
            refusals.append(f"Seat {seat.name!r}: {error}")
        except BotError:
            continue
    return refusals, sizes
