"""Seed a fresh database for the tournament's rooms: four teams in two rooms, the first round played
(simulated), the second round started (its matches waiting for their players), as a host leaves it
between rounds.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "tournament", "matches": {room: code}} as JSON on the last line.
"""
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from events.management.commands.simulate_event import play, players  # noqa: E402
from game.demo import ensure_demo_packet  # noqa: E402
from tests.browser.seed_hall import PASSWORD, USER  # noqa: E402
from tournaments.games import make_schedule, start_round  # noqa: E402
from tournaments.models import Tournament, TournamentTeam  # noqa: E402

if __name__ == "__main__":
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    tournament = Tournament.objects.create(name="City open", format_name="quizbowl", packet=ensure_demo_packet(),
                                           questions=3, playoff_size=2, seed=5,
                                           overrides={"words_per_minute": 600, "lead_in_seconds": 0})
    for position, (name, people) in enumerate([("Owls", ["Ann", "Ben"]), ("Larks", ["Cat"]),
                                                ("Wrens of the Northern Marsh", ["Dan"]), ("Kites", ["Eve"])], 1):
        TournamentTeam.objects.create(tournament=tournament, name=name, position=position, players=people)
    first, second, *_ = make_schedule(tournament)
    seats = {team.pk: players(team) for team in tournament.teams.all()}  # round 1's people, seated to play it
    for number, match in enumerate(start_round(tournament, first, seats), 1):
        play(match, 0.6, number, f"PLAY{number:02d}")
    matches = {g.room: g.match.code for g in (m.tournament_game for m in start_round(tournament, second))}
    print(json.dumps({"user": USER, "password": PASSWORD, "tournament": tournament.pk, "matches": matches}))
