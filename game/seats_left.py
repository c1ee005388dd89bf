"""What a seat given up changes in the database, in the same transaction as its seat_left event.

The event log says who left; the Seat row is what the web layer reads instead of the log. Its
credential generation goes up, so every token made for it stops working (game/live/seat_tokens.py), on
every web process, at the moment the event is stored. It is marked left, so its name is free for a
new join and it no longer counts towards the match's players (game/web/views_match.py). And the captaincy
moves as the event says, so a newcomer to a team left without a captain becomes its captain.
"""
from django.db.models import F
from django.utils import timezone

from game.models import Seat


def seat_pk(key: str) -> int:
    """The primary key of the Seat whose engine id is `key` (models.Seat.key is "s<pk>")."""
    return int(key[1:])


def record_seats_left(match, events: list[dict]) -> None:
    for event in events:
        if event["type"] != "seat_left":
            continue
        data = event["data"]
        seats = Seat.objects.filter(team__match=match)
        seats.filter(pk=seat_pk(data["seat"])).update(credential=F("credential") + 1, left=timezone.now(), captain=False)
        if data.get("captain"):
            seats.filter(pk=seat_pk(data["captain"])).update(captain=True)
