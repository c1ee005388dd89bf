"""Seed a fresh database for the read-aloud tests and bench/speech.py: a staff user and two matches on
the demo packet that read aloud (reveal "voice"), one of short questions and one of tossups, each
question a single buzz phase with a short dead time, so the moderator only presses Next.

Usage: seed_voice.py [questions per match, default 2; 0 for every question of the packet of that kind]
[words a minute] [the first team's name]. Prints {"user", "password", "matches": {"short": code, "tossup": code}} as JSON.
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

from game.demo import ensure_demo_packet  # noqa: E402
from game.engine.voice import DEFAULT_VOICE  # noqa: E402
from game.match_setup import TeamSpec, create_match_record  # noqa: E402
from game.runner import MatchRunner  # noqa: E402

USER, PASSWORD = "moderator", "a-long-test-password"


def seed(count: int, wpm: int, first_team: str = "Humans") -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet = ensure_demo_packet()
    codes = {}
    for kind, preset in (("short", "efficientqa"), ("tossup", "quizbowl")):
        available = packet.questions.filter(kind=kind).count()
        rules = {"reveal": "voice", "lead_in_seconds": 1, "tiebreakers": 0, "questions": count or available,
                 "phases": [{"mode": "buzz", "points": 10, "dead_seconds": 1}]}
        teams = [TeamSpec(first_team), TeamSpec("Others")]  # people join from their phones
        match = create_match_record(title=f"Read aloud ({kind})", packet=packet, format_name=preset, overrides=rules,
                                    teams=teams)
        if wpm != DEFAULT_VOICE["wpm"]:  # the moderator's pick, as the console sends it
            MatchRunner(match).handle({"type": "voice", "actor": {"role": "moderator"},
                                       "data": {"voice": "en-us", "wpm": wpm}})
        codes[kind] = match.code
    return {"user": USER, "password": PASSWORD, "matches": codes}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    wpm = int(sys.argv[2]) if len(sys.argv) > 2 else 175
    print(json.dumps(seed(count, wpm, *sys.argv[3:4])))
