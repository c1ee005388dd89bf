"""Putting a bot on a team: the one place a bot seat is created, after its build is checked."""
from django.db import transaction

from bots.budgets import check_tier
from bots.builds import check_build
from bots.models import Bot
from game.models import Seat

SEAT_NAME_MAX = Seat._meta.get_field("name").max_length


def seat_bot(team, bot: Bot, name: str | None = None) -> Seat:
    """Seat bot's current build on team in the bot's tier, pinned to that build.

    Raises bots.budgets.TierExceeded if its artefacts, measured now, are too big for the tier.
    """
    build = bot.current_build
    if build is not None:
        check_build(build, bot.tier)
    else:  # registered before builds were kept: measure its folder
        check_tier(bot, bot.tier)
    with transaction.atomic():
        return Seat.objects.create(
            team=team,
            name=(name or bot.display_name)[:SEAT_NAME_MAX],
            kind=Seat.Kind.BOT,
            bot_tier=bot.tier,
            bot_config={"bot": bot.name, "build": build.pk} if build else {"bot": bot.name},
        )
