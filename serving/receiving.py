"""Reading a channel of one's own: whatever waits, in one go.

A web process's hub and a conductor each read channels that only they read (and the conductor the
shared "conductor" channel). On Redis, channels-redis's receive costs four round trips per message
and its process-local channels ("!" in the name) share one reader that stopped delivering after a
Redis restart under load; receive_many (serving/redis_layer.py) takes everything waiting in one
round trip and otherwise blocks in one. Any other layer is read a message at a time.
"""
from __future__ import annotations

RECEIVE_MANY = 200  # messages taken from Redis in one round trip, at most


async def receive_waiting(layer, channel: str, limit: int = RECEIVE_MANY) -> list[dict]:
    """At least one message of `channel`, oldest first: all that wait (up to `limit`) where the layer can."""
    if hasattr(layer, "receive_many"):
        return await layer.receive_many(channel, limit)
    return [await layer.receive(channel)]
