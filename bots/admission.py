"""Checking a match's bot seats before it starts: each seat's bot is measured again.

game.store.MatchRunner calls refusals_at_start(match) when the moderator starts a match and refuses
the start with these sentences, so the moderator reads which bot is over which limit and by how
much before a single word is read. A pinned build is verified (its folder walked again, measured
and digested anew if anything moved); an inline spec's folder is measured as it is.
"""
from __future__ import annotations

from bots.budgets import TierExceeded, check_size, measure_artefacts
from bots.builds import build_for_spec, check_build
from bots.errors import BotError


def check_seat(spec: dict, tier: str) -> None:
    """Raise TierExceeded (or BotError) if the seat's bot may not play in tier now."""
    from bots.registry import resolve

    build = build_for_spec(spec)
    if build is not None:
        check_build(build, tier)
        return
    resolved = resolve(spec)
    measured = measure_artefacts(resolved.artefacts) if resolved.artefacts else 0
    check_size(resolved.name, tier, measured, resolved.artefacts, resolved.measurable)


def refusals_at_start(match) -> list[str]:
    """One sentence per bot seat over its tier. A bot that cannot be found is not refused here:
    its every query is reported to the moderator as missed, with the reason, and play goes on."""
    from game.models import Seat

    refusals = []
    for seat in Seat.objects.filter(team__match=match, kind=Seat.Kind.BOT).order_by("id"):
        try:
            check_seat(seat.bot_config or {}, seat.bot_tier or "unlimited")
        except TierExceeded as error:
            refusals.append(f"Seat {seat.name!r}: {error}")
        except BotError:
            continue
    return refusals
