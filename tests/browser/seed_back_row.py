"""Seed a fresh database for the back-row tests: the hall's screen in each moment of a match (reading,
a buzz, the team phase, the question closed, the end, and a tossup's bonus with a bounceback), with two bots of one kind whose long names
differ only at their ends, and a finished event for its leaderboard.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {stage: code, "setup": one not started, "to_rule": a second "buzz", "bonus": one in its
bonus}, "bots": [names], "event"} as JSON on the last line.
"""
import io
import json
import tempfile

from seed_bonus import bonus_packet, staged_bonus  # run as a script: this folder is on sys.path
from seed_hall import PASSWORD, SIMULATED, SLOW, TIERS, USER, long_packet, staged_match  # run as a script: this folder is on sys.path

from django.contrib.auth import get_user_model
from django.core.management import call_command

from game.match_setup import SeatSpec, TeamSpec, create_match_record

STAGES = ("phase1", "buzz", "phase3", "closed", "finished")
# Two retriever-readers, told apart only by the end of their names, and the small question-pairs bot.
BOTS = {"500mib": "demo-qa-pairs", "6gib": "retriever-reader over Wikipedia passages",
        "unlimited": "retriever-reader over Wikipedia passages, ten at a time"}


def seed_event() -> int:
    """A whole simulated event of three teams, preliminaries and final played."""
    from events.models import Event

    with tempfile.TemporaryDirectory() as folder:
        call_command("simulate_event", "--teams", "3", "--prelim-questions", "2", "--final-questions", "2",
                     "--seed", "3", "-o", folder, stdout=io.StringIO())
    return Event.objects.latest("pk").pk


def seed() -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet = long_packet("back-row", "Back row packet")
    bots = [SeatSpec(BOTS[tier], kind="bot", tier=tier, config=dict(SIMULATED)) for tier in TIERS]
    teams = [TeamSpec("Humans", [SeatSpec("Ada", captain=True)]), TeamSpec("Computer", bots)]
    codes = {stage: staged_match(packet, stage, teams, overrides=SLOW, title="Humans vs. computer").code for stage in STAGES}
    codes["setup"] = create_match_record(title="Humans vs. computer", packet=packet, format_name="efficientqa",
                                         overrides=SLOW, teams=teams).code  # not started: the screen is the way in
    codes["to_rule"] = staged_match(packet, "buzz", teams, overrides=SLOW, title="Humans vs. computer").code  # the test rules it
    codes["bonus"] = staged_bonus(bonus_packet("back-row-bonus"), title="Humans vs. scholars")
    return {"user": USER, "password": PASSWORD, "matches": codes, "bots": [BOTS[tier] for tier in TIERS],
            "event": seed_event()}


if __name__ == "__main__":
    print(json.dumps(seed()))
