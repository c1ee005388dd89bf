"""Whether a seat's bot may play in its tier: measured now, at seating and again when the match starts.

game.seating.bot_seat checks a bot when a host (or the demo, `simulate`, events) seats it, and
game.seat_checks checks every bot seat of a match again when the moderator starts it (game.runner
measure_bots, beside the match's writes), so the
moderator reads which bot is over which limit and by how much before a single word is read. A pinned
build is verified (its folder walked again, measured and digested anew if anything moved); an inline
spec's folder is measured as it is. Either way the code and installed packages the bot's kind imports
are added (bots.kinds.size_of), as EfficientQA counted a system.
"""
from __future__ import annotations

from pathlib import Path

from bots.budgets import check_size, measure_artefacts
from bots.builds import build_for_spec, verify
from bots.footprint import Size


def check_seat(spec: dict, tier: str) -> Size:
    """What the seat's bot measures now; TierExceeded (or BotError) if it may not play in tier."""
    # Imported when a bot is measured: the kinds bring NumPy, SciPy and scikit-learn (bots.kinds), which
    # a web process that seats no bot never needs.
    from bots.kinds import size_of
    from bots.registry import resolve

    build = build_for_spec(spec)
    if build is not None:
        build = verify(build)
        name, kind, measured, where = build.name, build.kind, build.measured_bytes, Path(build.artefact_dir or ".")
        measurable = build.measurable
    else:
        resolved = resolve(spec)
        name, kind, where, measurable = resolved.name, resolved.kind, resolved.artefacts, resolved.measurable
        measured = measure_artefacts(where) if where else 0
    size = size_of(kind, measured)
    check_size(name, tier, size, where, measurable)
    return size
