"""Seed a fresh database for the browser tests: a staff user, a tiny packet, the matches to play and
two finished matches to replay.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {name: code}} as JSON on the last line.
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

from game.models import Packet, Question  # noqa: E402
from game.match_setup import SeatSpec, TeamSpec, create_match_record  # noqa: E402

USER, PASSWORD = "moderator", "a-long-test-password"
QUESTIONS = [
    ("Which planet is known as the Red Planet?", "Mars"),
    ("What is the capital city of France?", "Paris"),
    ("Who wrote the play Hamlet?", "William Shakespeare"),
    ("What is the chemical symbol for gold?", "Au"),
    ("How many sides does a hexagon have?", "six"),
]

FAIR_GUESSES = {"500mib": "Lake Placid", "6gib": "Zebulon Pike"}  # each bot's only guess
# The console's room test: a long answer line, and the small bot's one (wrong) guess.
LONG_ANSWER = ("The Treaty of Amity, Commerce and Navigation between His Britannic Majesty and the United States "
               "of America, signed at London on the nineteenth of November 1794")
ROOM_GUESS = "Lake Placid"

CONSOLE_QUESTIONS = [
    ("Which planet is known as the Red Planet?", "Mars", ["Mars", "the planet Mars", "Ares"]),
    ("What is the capital city of Italy?", "Rome", ["Rome", "Roma"]),
    ("What is the largest ocean on Earth?", "Pacific Ocean", ["Pacific Ocean", "the Pacific"]),
]


def seed(bots: bool = False) -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet = Packet.objects.create(slug="browser", title="Browser test packet")
    for position, (text, answer) in enumerate(QUESTIONS, 1):
        Question.objects.create(packet=packet, position=position, kind="short", text=text, answer=answer,
                                accepted=[answer], category="General")
    # Moderator-paced reveal: the test decides when each word appears, so nothing races the clock.
    overrides = {"questions": 2, "reveal": "moderator", "answer_seconds": 120, "prompt_seconds": 120,
                 "phases": [dict(p, discussion_seconds=300) if p["mode"] == "team"
                            else dict(p, dead_seconds=120) for p in _phases()]}
    teams = [TeamSpec("Humans"), TeamSpec("Machines")]
    codes = {}
    for name in ("live", "xss", "seats", "ruling"):
        match = create_match_record(title=f"Browser {name}", packet=packet, format_name="efficientqa",
                                    overrides=overrides, teams=teams)
        codes[name] = match.code
    # A buzzer race (test_buzz_race.py): the widest grace window, so a loaded test machine stays within it.
    codes["race"] = create_match_record(title="Browser race", packet=packet, format_name="efficientqa",
                                        overrides=dict(overrides, buzz_grace_ms=500), teams=teams).code
    # The buzzer station (test_station.py): players on one keyboard and on gamepads, as the race's.
    for name in ("station_keys", "station_pads"):
        codes[name] = create_match_record(title=f"Browser {name}", packet=packet, format_name="efficientqa",
                                          overrides=dict(overrides, buzz_grace_ms=500), teams=teams).code
    # The console's context test: answers the line also accepts, shown beside the answer.
    console = Packet.objects.create(slug="console", title="Console test packet")
    for position, (text, answer, accepted) in enumerate(CONSOLE_QUESTIONS, 1):
        Question.objects.create(packet=console, position=position, kind="short", text=text, answer=answer,
                                accepted=accepted, category="General")
    codes["console"] = create_match_record(title="Browser console", packet=console, format_name="efficientqa",
                                           overrides=overrides, teams=teams).code
    # The fair audience rule: the humans against simulated bots that never know the answer, so each
    # guesses its one distractor. "fair": phase 1's bot buzzes at once (and is ruled wrong), phase 2's
    # bot guesses while the humans discuss. "fair_live": one buzz phase only, its guesses shown live;
    # its bot may never buzz (bot_min_words), so its guess stays on its card while the humans may buzz.
    fair_teams = [TeamSpec("Humans"), TeamSpec("Computer", seats=[
        _never_right("500mib", FAIR_GUESSES["500mib"]), _never_right("6gib", FAIR_GUESSES["6gib"])])]
    codes["fair"] = create_match_record(title="Fair hall", packet=packet, format_name="efficientqa",
                                        overrides=dict(overrides, questions=1), teams=fair_teams).code
    codes["fair_live"] = create_match_record(
        title="Fair hall, guesses live", packet=packet, format_name="efficientqa",
        overrides=dict(overrides, questions=1, hall_bot_guesses="live", bot_min_words=500,
                       phases=overrides["phases"][:1]), teams=fair_teams).code
    # Finished matches to replay: simulated players and bots (bots report a guess on every word).
    from game.demo import ensure_demo_packet
    from game.management.commands.simulate import play_simulated_match

    demo = ensure_demo_packet()
    for fmt in ("quizbowl", "efficientqa"):
        codes[f"finished_{fmt}"] = play_simulated_match(demo, fmt, seed=4, questions=4)[1].code
    # The console's room: the humans against one simulated bot that knows nothing (it buzzes
    # at the first word with ROOM_GUESS); the question's answer line is long, for the answer banner.
    room = Packet.objects.create(slug="room", title="Room test packet")
    Question.objects.create(packet=room, position=1, kind="short", text="Which treaty settled the Jay crisis of 1794?",
                            answer=LONG_ANSWER, accepted=[LONG_ANSWER, "Jay Treaty"], category="History")
    Question.objects.create(packet=room, position=2, kind="short", text="What is the capital city of France?",
                            answer="Paris", accepted=["Paris"], category="General")
    room_teams = [TeamSpec("Humans"), TeamSpec("Computer", seats=[_never_right("500mib", ROOM_GUESS)])]
    codes["room"] = create_match_record(title="Browser room", packet=room, format_name="efficientqa",
                                        overrides=dict(overrides, questions=1), teams=room_teams).code
    # AI teammates (test_teammates.py): a semi simulated bot that always knows the answer sits on the humans'
    # team; the other team is people too. It answers only when a human teammate presses its buzzer.
    mate = SeatSpec("Robo", kind="bot", tier="500mib", play={"buzz_mode": "semi"},
                    config={"kind": "simulated", "simulated": True, "accuracy": 1.0, "buzz_mean": 0.05, "buzz_sd": 0.0})
    for name in ("teammate", "station_mate"):  # the phone's "Buzz for Robo" (test_teammates.py), the station's key
        codes[name] = create_match_record(
            title=f"Browser {name}", packet=packet, format_name="efficientqa", overrides=dict(overrides, questions=1),
            teams=[TeamSpec("Humans", seats=[mate], kind="human"), TeamSpec("Machines", kind="human")]).code
    if bots:
        sim = {"kind": "simulated", "simulated": True, "accuracy": 0.6}
        bot_teams = [TeamSpec("Humans"), TeamSpec("Computer", seats=[
            SeatSpec("500mib bot (simulated)", kind="bot", tier="500mib", config=dict(sim)),
            SeatSpec("6gib bot (simulated)", kind="bot", tier="6gib", config=dict(sim))])]
        match = create_match_record(title="Humans vs computer", packet=packet, format_name="efficientqa",
                                    overrides={"questions": 3}, teams=bot_teams)
        codes["bots"] = match.code
    return {"user": USER, "password": PASSWORD, "matches": codes}


def _never_right(tier: str, guess: str) -> SeatSpec:
    """A simulated bot of this tier that knows nothing: from the first word it guesses `guess` and buzzes."""
    config = {"kind": "simulated", "accuracy": 0.0, "distractors": [guess], "buzz_mean": 0.05, "buzz_sd": 0.0}
    return SeatSpec(f"{tier} bot (simulated)", kind="bot", tier=tier, config=config)


def _phases():
    from game.engine.formats import PRESETS
    return PRESETS["efficientqa"]["phases"]


if __name__ == "__main__":
    print(json.dumps(seed(bots="--bots" in sys.argv)))
