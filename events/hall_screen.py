"""The hall screen between an event's matches: the spectator screen of each preliminary and of the final
goes back to the leaderboard after the match ends, and the leaderboard goes on to the screen of the
match the host starts next, so the projector needs nobody at its keyboard during an event."""
from __future__ import annotations

from django.urls import reverse

from game.models import Match

from .models import Event, EventTeam


def event_of(match: Match) -> Event | None:
    """The event this match is a preliminary or the final of, if any."""
    team = EventTeam.objects.select_related("event").filter(preliminary=match).first()
    return team.event if team is not None else Event.objects.filter(final_match=match).first()


def board_url(match: Match) -> str | None:
    event = event_of(match)
    return reverse("event_board", args=[event.pk]) if event is not None else None


def next_screen(event: Event) -> str | None:
    """The spectator screen the hall should show now: the event's match started last that has not
    finished (waiting for its players to join, or being played), if there is one."""
    codes = [team.preliminary_id for team in event.teams.all() if team.preliminary_id]
    if event.final_match_id:
        codes.append(event.final_match_id)
    match = (Match.objects.filter(pk__in=codes).exclude(status=Match.Status.FINISHED).order_by("-created", "-pk")
             .first())
    return reverse("watch", args=[match.code]) if match is not None else None
