"""Seed a fresh database for the accessibility tests: seed_names.py's matches (every name as long as
the pages allow), and two more live matches of the same kind, for the keyboard-only test and the
lost-frame test, so each starts from a match nobody has touched.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
seed_names.py's JSON with the extra matches "keyboard" and "lost_frame" on the last line.
"""
import json

from seed_names import seed  # run as a script: this folder is on sys.path



def seed_event() -> int:
    """A whole simulated event (its preliminaries and final played), its teams renamed to the longest
    names allowed, so the event pages and the report meet them."""
    import io
    import tempfile

    from django.core.management import call_command

    from events.models import Event, EventTeam
    from game.models import NAME_MAX_LENGTH

    with tempfile.TemporaryDirectory() as folder:
        call_command("simulate_event", "--teams", "3", "--prelim-questions", "2", "--final-questions", "2",
                     "--seed", "3", "-o", folder, stdout=io.StringIO())
    event = Event.objects.latest("pk")
    for i, team in enumerate(EventTeam.objects.filter(event=event).order_by("pk")):
        team.name = (f"Team{i}" + "W" * NAME_MAX_LENGTH)[:NAME_MAX_LENGTH]
        team.save(update_fields=["name"])
    return event.pk


if __name__ == "__main__":
    info = seed()
    info["matches"]["keyboard"] = seed()["matches"]["live"]
    info["matches"]["lost_frame"] = seed()["matches"]["live"]
    info["matches"]["event"] = seed_event()
    print(json.dumps(info))
