"""Pages anyone can open, and the one way a page tells the conductor that something changed.

The host pages are in views_host, the match pages (join, play, moderate, watch) in views_match.
"""
import logging

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.shortcuts import render

from .models import Match

log = logging.getLogger(__name__)

CONDUCTOR_CHANNEL = "conductor"


def notify_conductor(message: dict) -> None:
    """Send message to the conductor; a full channel is logged, not shown to the person who clicked."""
    try:
        async_to_sync(get_channel_layer().send)(CONDUCTOR_CHANNEL, message)
    except ChannelFull:
        log.warning("The conductor channel is full; dropped %s for match %s.", message.get("type"), message.get("match"))


def wake_conductor(code: str) -> None:
    notify_conductor({"type": "wake", "match": code})


def home(request):
    live = Match.objects.exclude(status=Match.Status.FINISHED).order_by("-created")[:50]
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    if not request.user.is_staff:
        finished = finished.filter(hidden=False)  # the host hid it from the public lists
    finished = finished.order_by("-finished")[:50]
    return render(request, "home.html", {"live": live, "finished": finished})
