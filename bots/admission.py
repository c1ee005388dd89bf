"""Checking a match's bot seats before it starts: each seat's bot is measured again.

game.runner.measure_bots calls seats_at_start(match) when the moderator starts a match and refuses
the start with its sentences, so the moderator reads which bot is over which limit and by how
much before a single word is read; the sizes it measured go on the bots' cards. A pinned build is
verified (its folder walked again, measured and digested anew if anything moved); an inline spec's
folder is measured as it is. Either way the code and installed packages the bot's kind imports are
added (bots.footprint), as EfficientQA counted a system.
"""
from __future__ import annotations

from bots.budgets import TierExceeded, check_size, measure_artefacts
from bots.builds import build_for_spec, check_build
from bots.errors import BotError
from bots.footprint import Size, size_of


def check_seat(spec: dict, tier: str) -> Size:
    """What the seat's bot measures now; TierExceeded (or BotError) if it may not play in tier."""
    from bots.registry import resolve

    build = build_for_spec(spec)
    if build is not None:
        return check_build(build, tier)
    resolved = resolve(spec)
    measured = measure_artefacts(resolved.artefacts) if resolved.artefacts else 0
    size = size_of(resolved.kind, measured) if resolved.measurable else Size(measured)
    check_size(resolved.name, tier, size, resolved.artefacts, resolved.measurable)
    return size


def seats_at_start(match) -> tuple[list[str], dict]:
    """One sentence per bot seat over its tier, and seat key -> what each other bot seat measured
    (Size.card()). A bot that cannot be found is not refused here: its every query is reported to the
    moderator as missed, with the reason, and play goes on."""
    from game.models import Seat

    refusals, sizes = [], {}
    for seat in Seat.objects.filter(team__match=match, kind=Seat.Kind.BOT).order_by("id"):
        try:
            sizes[seat.key] = check_seat(seat.bot_config or {}, seat.bot_tier or "unlimited").card()
        except TierExceeded as error:
            refusals.append(f"Seat {seat.name!r}: {error}")
        except BotError:
            continue
    return refusals, sizes
