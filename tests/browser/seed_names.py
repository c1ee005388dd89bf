"""Seed a fresh database for the long-names tests: every team as long a name as the host
page allows, and unbroken ("W" * NAME_MAX_LENGTH); the players join through the join page with names
as long. A bot's name is as long as a registered bot's may be (60).

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {name: code}, "names": {...}} as JSON on the last line. Run again (on a
development server's database, for screenshots), it adds three more matches.
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

from game.models import NAME_MAX_LENGTH, Packet, Question  # noqa: E402
from game.match_setup import SeatSpec, TeamSpec, create_match_record  # noqa: E402
from tests.browser.seed_hall import (LONG_ANSWER, LONG_TOSSUP, PASSWORD, SIMULATED, TIERS, USER,  # noqa: E402
                                     phases, staged_match)

NAMES = {
    "humans": "W" * NAME_MAX_LENGTH,  # the team people join, and its captain's name
    "rivals": "M" * NAME_MAX_LENGTH,  # the other team, and the name its player joins with
    "bot": "R" * 60,  # a registered bot's name may be 60 characters (bots.models.Bot.name)
}


def seed() -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    if not get_user_model().objects.filter(username=USER).exists():
        get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet, _ = Packet.objects.get_or_create(slug="long-names", defaults={"title": "Long names packet"})
    if not packet.questions.exists():
        Question.objects.create(packet=packet, position=1, kind="short", text=LONG_TOSSUP, answer=LONG_ANSWER,
                                accepted=["Hamlet"], category="Literature")
        Question.objects.create(packet=packet, position=2, kind="short", text="Which planet is known as the Red Planet?",
                                answer="Mars", accepted=["Mars"], category="Science")
    # Moderator-paced reveal and long timers: nothing moves unless the test moves it.
    slow = {"reveal": "moderator", "answer_seconds": 120, "prompt_seconds": 120, "questions": 1,
            "phases": phases(buzz={"dead_seconds": 120}, team={"discussion_seconds": 600})}
    codes = {"live": create_match_record(title="Long names, live", packet=packet, format_name="efficientqa",
                                         overrides=slow, teams=[TeamSpec(NAMES["humans"]), TeamSpec(NAMES["rivals"])]).code}
    bots = [SeatSpec(NAMES["bot"] if tier == "6gib" else f"{tier} bot (simulated)", kind="bot", tier=tier,
                     config=dict(SIMULATED)) for tier in TIERS]
    teams = [TeamSpec(NAMES["humans"], [SeatSpec(NAMES["humans"], captain=True)]), TeamSpec(NAMES["rivals"], bots)]
    # The station: a semi bot as long-named as a bot may be, on the team of people, keyed by a teammate there.
    mate = SeatSpec(NAMES["bot"], kind="bot", tier="500mib", play={"buzz_mode": "semi"}, config=dict(SIMULATED))
    codes["station"] = create_match_record(title="Long names, station", packet=packet, format_name="efficientqa",
                                           overrides=slow, teams=[TeamSpec(NAMES["humans"], seats=[mate], kind="human"),
                                                                  TeamSpec(NAMES["rivals"], kind="human")]).code
    for stage in ("phase3", "finished"):
        codes[stage] = staged_match(packet, stage, teams, overrides=slow, title=f"Long names, {stage}").code
    return {"user": USER, "password": PASSWORD, "matches": codes, "names": NAMES}


if __name__ == "__main__":
    print(json.dumps(seed()))
