"""A room's screen follows the room from game to game: between games it shows the standings and who
plays next in the room; once the room's next match exists, the screen goes to that match's spectator
screen, which comes back here when the match ends (watch.js, as an event's leaderboard does)."""
from __future__ import annotations

from django.urls import reverse

from game.models import Match

from .models import Tournament, TournamentGame
from .results import games_of


def room_numbers(tournament: Tournament) -> list[int]:
    return sorted(set(games_of(tournament).values_list("room", flat=True)))


def next_in_room(tournament: Tournament, room: int) -> TournamentGame | None:
    """The room's first game not finished: being played, made and waiting, or still to be started."""
    for game in games_of(tournament).filter(room=room):
        if game.match is None or game.match.status != Match.Status.FINISHED:
            return game
    return None


def room_url(tournament: Tournament, room: int) -> str:
    return reverse("tournament_room", args=[tournament.pk, room])


def room_screen_url(match: Match) -> str | None:
    """The screen of the room this match is played in, when it is a tournament's game."""
    game = TournamentGame.objects.select_related("round").filter(match=match).first()
    return room_url(game.round.tournament, game.room) if game is not None else None
