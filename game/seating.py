"""The one way a bot takes a seat in a new match: the host's form, the demo, `manage.py simulate` and
events all seat bots through bot_seat, so a bot is measured against its tier by the same check the
start of the match runs again (bots.admission.check_seat), and a simulated bot is described once."""
from __future__ import annotations

from bots.admission import check_seat
from game.match_setup import SeatSpec

# How often a simulated bot of each tier answers right when it buzzes: bigger tiers know more, as in
# EfficientQA's results; the host's form and `simulate` play the same simulated bots.
SIMULATED_ACCURACY = {"500mib": 0.45, "6gib": 0.55, "unlimited": 0.7}


def simulated_bot_config(tier: str) -> dict:
    return {"kind": "simulated", "simulated": True, "accuracy": SIMULATED_ACCURACY[tier]}


def bot_seat(tier: str, bot=None, name: str | None = None) -> SeatSpec:
    """A seat in tier for bot (a bots.models.Bot), measured now: TierExceeded or BotError says why it may
    not play there. Without a bot, a simulated bot of that tier."""
    if bot is None:
        return SeatSpec(name or f"{tier} bot (simulated)", kind="bot", tier=tier, config=simulated_bot_config(tier))
    check_seat(bot.spec, tier)
    config = dict(bot.spec, simulated=True) if bot.simulated else dict(bot.spec)
    return SeatSpec(name or bot.display_name, kind="bot", tier=tier, config=config)
