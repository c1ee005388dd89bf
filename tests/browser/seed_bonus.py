"""Seed a fresh database for the tossup–bonus tests: a staff user, a quizbowl packet of tossups and
bonuses, a match of two human teams to play from the browser, and one staged in the middle of a bonus
(played with real commands through game.runner.MatchRunner, then paused) for the screens to be looked at.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {"live", "staged"}} as JSON on the last line.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.browser.seed_hall import PASSWORD, USER  # noqa: E402  (it sets Django up)

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from game.event_log import now_ms  # noqa: E402
from game.match_setup import SeatSpec, TeamSpec, create_match_record  # noqa: E402
from game.models import Packet, Question  # noqa: E402
from game.runner import MatchRunner  # noqa: E402

# Short tossups without a power mark (a correct buzz is worth 10), then the tiebreakers' reserve.
TOSSUPS = [
    ("This scientist formulated three laws of motion and universal gravitation.", "Isaac <b>Newton</b>"),
    ("This planet is the largest in the Solar System.", "<b>Jupiter</b>"),
    ("This element has the chemical symbol Fe.", "<b>iron</b> [accept Fe]"),
    ("This ocean lies between Africa and Australia.", "<b>Indian</b> Ocean"),
]
BONUSES = [
    ("For 10 points each, name these composers of operas.", [
        ("This German wrote the four operas of Der Ring des Nibelungen.", "Richard <b>Wagner</b>"),
        ("This Italian wrote La traviata and Aida.", "Giuseppe <b>Verdi</b> [accept Joseph Green]"),
        ("This Austrian wrote The Magic Flute.", "Wolfgang Amadeus <b>Mozart</b>"),
    ]),
    ("Answer the following about rivers of Europe, for 10 points each.", [
        ("This river flows through Vienna, Budapest and Belgrade.", "<b>Danube</b> [accept Donau]"),
        ("This river flows through Paris.", "<b>Seine</b>"),
        ("This river rises in the Alps and flows past Cologne.", "<b>Rhine</b> [accept Rhein]"),
    ]),
]
# Moderator-paced reading and long clocks: nothing moves unless the test moves it. Two tossups, bouncebacks on.
OVERRIDES = {"questions": 2, "tiebreakers": 3, "reveal": "moderator", "answer_seconds": 120, "prompt_seconds": 120,
             "bonus_confer_seconds": 120, "bounceback": True, "bounceback_seconds": 60}
TEAMS = [TeamSpec("Humans", [SeatSpec("Ada", captain=True)]), TeamSpec("Scholars", [SeatSpec("Bo", captain=True)])]


def bonus_packet(slug: str = "bonus", title: str = "Tossups and bonuses") -> Packet:
    packet = Packet.objects.create(slug=slug, title=title)
    for position, (text, answer) in enumerate(TOSSUPS, 1):
        Question.objects.create(packet=packet, position=position, kind="tossup", text=text, answer=answer,
                                category="General")
    for position, (leadin, parts) in enumerate(BONUSES, len(TOSSUPS) + 1):
        Question.objects.create(packet=packet, position=position, kind="bonus", text=leadin, answer="",
                                category="General", parts=[{"text": t, "answer": a, "value": 10} for t, a in parts])
    return packet


def staged_bonus(packet: Packet, title: str = "Tossups and bonuses") -> str:
    """A match played into its first bonus and paused: Ada's team got the tossup; part 1 right; part 2
    missed and bounced to Bo's team, who got it; part 3 read and Ada's answer waiting for the ruling."""
    started = now_ms() - 60_000
    match = create_match_record(title=title, packet=packet, format_name="quizbowl_bonus", overrides=OVERRIDES,
                                teams=TEAMS, now=started - 1000)
    runner = MatchRunner(match)
    moderator = {"role": "moderator"}
    seats = {s["name"]: {"role": "player", "seat": s["id"], "team": s["team"]} for s in runner.state.seats.values()}
    now = started

    def send(kind, actor, data=None):
        nonlocal now
        now += 400
        runner.handle({"type": kind, "actor": actor, "data": data or {}}, now)

    def rule(verdict, **extra):
        send("rule", moderator, {"verdict": verdict, "answer": runner.state.q.floor_seq, **extra})

    send("start", moderator)
    for word in range(len(runner.state.question.words)):
        send("reveal", moderator, {"word": word})
    send("buzz", seats["Ada"], {"seen": runner.state.q.revealed})
    send("answer", seats["Ada"], {"text": "Newton"})
    rule("accept")
    for part, turns in enumerate(([("Ada", "Wagner", "accept")], [("Ada", "Puccini", "reject"), ("Bo", "Verdi", "accept")],
                                  [("Ada", "Mozart", None)])):
        send("read_part", moderator, {"part": part})
        for who, text, verdict in turns:
            send("bonus_answer", seats[who], {"text": text, "question": runner.state.q.index, "part": part})
            if verdict:
                rule(verdict, part=part)
    send("chat", seats["Ada"], {"text": "Magic Flute is Mozart"})
    send("pause", moderator)
    return match.code


def seed() -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet = bonus_packet()
    live = create_match_record(title="Tossups and bonuses", packet=packet, format_name="quizbowl_bonus",
                               overrides=OVERRIDES, teams=[TeamSpec("Humans"), TeamSpec("Scholars")])
    return {"user": USER, "password": PASSWORD, "matches": {"live": live.code, "staged": staged_bonus(packet)}}


if __name__ == "__main__":
    print(json.dumps(seed()))
