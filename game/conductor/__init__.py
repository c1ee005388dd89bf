"""The conductor: one writer per live match, its clock, its bots and its broadcasts.

core.Conductor serves the channel "conductor"; host.MatchHost runs one match; bots.BotDriver asks
the bot seats; groups says who hears what; embedded starts it inside the web process when there is
no Redis. Web views tell it about a new or changed match with wake_match(code).
"""
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game.conductor.groups import CONDUCTOR_CHANNEL


async def send_wake(code: str, layer=None) -> None:
    """Ask the conductor to (re)load match `code` from the database and seat anyone new."""
    await (layer or get_channel_layer()).send(CONDUCTOR_CHANNEL, {"type": "wake", "match": code})


def wake_match(code: str) -> None:
    """send_wake for synchronous code such as Django views."""
    async_to_sync(send_wake)(code)
