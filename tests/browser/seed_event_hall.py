"""Seed a fresh database for the event's hall loop: an event of two teams whose first preliminary has
been started (waiting for its players), as a host leaves it for the projector.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "event", "match"} as JSON on the last line.
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

from events.matches import start_preliminary  # noqa: E402
from events.models import Event, EventTeam  # noqa: E402
from game.demo import ensure_demo_packet  # noqa: E402
from game.match_setup import SeatSpec  # noqa: E402
from tests.browser.seed_hall import PASSWORD, USER  # noqa: E402

if __name__ == "__main__":
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    # One quick question a preliminary, and no bot to wait for: the test sees a whole match end soon.
    event = Event.objects.create(name="Hall night", format_name="quizbowl", prelim_questions=1, final_questions=1,
                                 seed=5, overrides={"words_per_minute": 600, "lead_in_seconds": 0})
    event.packets.set([ensure_demo_packet()])
    first = EventTeam.objects.create(event=event, name="Owls", players=["Ann"])
    EventTeam.objects.create(event=event, name="Larks", players=["Ben"])
    # A simulated bot that knows nothing never buzzes: no ruling to wait for.
    nobody = SeatSpec("Blank", kind="bot", tier="500mib", config={"kind": "simulated", "simulated": True, "accuracy": 0.0})
    match = start_preliminary(event, first, [nobody])
    print(json.dumps({"user": USER, "password": PASSWORD, "event": event.pk, "match": match.code}))
