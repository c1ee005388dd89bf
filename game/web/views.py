"""Pages anyone can open, and the one way a page tells the conductor that something changed.

The host pages are in views_host, the match pages (join, play, moderate, watch) in views_match.
"""
import asyncio
import logging
import uuid

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.shortcuts import render

from game.models import Match

log = logging.getLogger(__name__)

CONDUCTOR_CHANNEL = "conductor"


def notify_conductor(message: dict) -> None:
    """Send message to the conductor; a full channel is logged, not shown to the person who clicked."""
    try:
        async_to_sync(get_channel_layer().send)(CONDUCTOR_CHANNEL, message)
    except ChannelFull:
        log.warning("The conductor channel is full; dropped %s for match %s.", message.get("type"), message.get("match"))


async def _ask(message: dict, timeout: float) -> dict | None:
    layer = get_channel_layer()
    # A plain channel of this request's own, read with a blocking pop (as the fan-out hub reads its
    # own), not a process-local one: a sync view's wait runs on whichever loop asgiref gives it.
    reply_to = f"reply.{uuid.uuid4().hex}"
    await layer.send(CONDUCTOR_CHANNEL, dict(message, reply_to=reply_to))
    try:
        return await asyncio.wait_for(layer.receive(reply_to), timeout)
    except TimeoutError:
        return None


def ask_conductor(message: dict, timeout: float) -> dict | None:
    """Send a command to the conductor and wait for its answer (a conductor.reply message); None if
    none came within `timeout` seconds or the conductor's channel is full. A command the caller may
    repeat safely, as the answer may be lost after the command was stored."""
    try:
        return async_to_sync(_ask)(message, timeout)
    except ChannelFull:
        log.warning("The conductor channel is full; %s for match %s not sent.", message.get("type"), message.get("match"))
        return None


def wake_conductor(code: str) -> None:
    notify_conductor({"type": "wake", "match": code})


def home(request):
    live = Match.objects.exclude(status=Match.Status.FINISHED).order_by("-created")[:50]
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    if not request.user.is_staff:
        finished = finished.filter(hidden=False)  # the host hid it from the public lists
    finished = finished.order_by("-finished")[:50]
    return render(request, "home.html", {"live": live, "finished": finished})
