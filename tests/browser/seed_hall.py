"""Seed a fresh database for the hall tests: a staff user, a match to join and play, and matches left
at the moments the big screen must fit.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {name: code}} as JSON on the last line. The staged matches are played
with real commands through game.runner.MatchRunner, so their event logs are what a live match writes.
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

from game.engine.formats import PRESETS  # noqa: E402
from game.models import Packet, Question  # noqa: E402
from game.engine.api import next_wakeup  # noqa: E402
from game.event_log import now_ms  # noqa: E402
from game.match_setup import SeatSpec, TeamSpec, create_match_record  # noqa: E402
from game.runner import MatchRunner  # noqa: E402

USER, PASSWORD = "moderator", "a-long-test-password"

# A tossup of more than 120 words (with its power mark) and an answer line full of directives: the
# big screen's worst case.
LONG_TOSSUP = (
    "This play's protagonist mocks a courtier by comparing a cloud to a camel, a weasel and a whale, and "
    "he later jumps into a grave to grapple with a grieving brother. A play within this play, which its hero "
    "calls The Mousetrap, reenacts a murder in a garden by poison poured into a sleeping king's ear. Two "
    "schoolfellows of the protagonist carry a sealed letter ordering his execution, but pirates intervene and "
    "the letter is rewritten. A gravedigger unearths the skull of a jester named Yorick in this play. For 10 "
    "points, (*) name this Shakespeare tragedy in which the Prince of Denmark avenges his father, whose ghost "
    "appears on the battlements of Elsinore, and which ends with Fortinbras arriving to find almost everyone "
    "on stage dead after a poisoned fencing match between its hero and Laertes."
)
LONG_ANSWER = '<u>Hamlet</u> [accept The Tragedy of Hamlet, Prince of Denmark; do not accept or prompt on "Denmark"]'
STAGES = ("phase1", "phase3", "closed")
TIERS = ("500mib", "6gib", "unlimited")
SIMULATED = {"kind": "simulated", "simulated": True, "accuracy": 0.6}
SNIPPETS = [
    ("Hamlet", "The Tragedy of <mark>Hamlet</mark>, <mark>Prince</mark> of <mark>Denmark</mark>, often shortened to "
     "<mark>Hamlet</mark>, is a tragedy written by William <mark>Shakespeare</mark> sometime between 1599 and 1601. "
     "It is Shakespeare's longest play."),
    ("The Mousetrap (Hamlet)", "The <mark>Mousetrap</mark> is the <mark>play</mark> within the <mark>play</mark> that "
     "<mark>Prince</mark> Hamlet stages to catch the conscience of the <mark>king</mark>, reenacting the "
     "<mark>murder</mark> of his father."),
    ("Yorick", "<mark>Yorick</mark> is the dead court <mark>jester</mark> whose <mark>skull</mark> is exhumed by the "
     "<mark>gravedigger</mark> in Act 5, Scene 1."),
]


def phases(**by_mode):
    return [dict(p, **by_mode[p["mode"]]) for p in PRESETS["efficientqa"]["phases"]]


# One question, a moderator-paced reveal and long timers: every word appears because the moderator
# pressed Space, and nothing moves unless the test moves it.
SLOW = {"reveal": "moderator", "answer_seconds": 120, "prompt_seconds": 120, "questions": 1,
        "phases": phases(buzz={"dead_seconds": 120}, team={"discussion_seconds": 600})}


def long_packet(slug: str, title: str) -> Packet:
    """A packet of the long tossup and a short one."""
    packet = Packet.objects.create(slug=slug, title=title)
    Question.objects.create(packet=packet, position=1, kind="short", text=LONG_TOSSUP, answer=LONG_ANSWER,
                            accepted=["Hamlet"], category="Literature")
    Question.objects.create(packet=packet, position=2, kind="short", text="Which planet is known as the Red Planet?",
                            answer="Mars", accepted=["Mars"], category="Science")
    return packet


def seed() -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    packet = long_packet("hall", "Hall packet")
    codes = {}
    live = create_match_record(title="Hall night", packet=packet, format_name="efficientqa",
                               overrides=SLOW, teams=[TeamSpec("Humans"), TeamSpec("Machines")])
    codes["live"] = live.code
    bots = [SeatSpec(f"{tier} bot (simulated)", kind="bot", tier=tier, config=dict(SIMULATED)) for tier in TIERS]
    teams = [TeamSpec("Humans", [SeatSpec("Ada", captain=True)]), TeamSpec("Computer", bots)]
    for stage in STAGES:
        codes[f"screen_{stage}"] = staged_match(packet, stage, teams, overrides=SLOW).code
    return {"user": USER, "password": PASSWORD, "matches": codes}


def staged_match(packet, stage: str, teams: list[TeamSpec], overrides: dict, title="Humans vs. computer in the hall"):
    """A match of teams (the first human with its captain, the second the computer with a bot per
    tier) played up to `stage` (play_to) and left paused."""
    # Created and started in the past, so that phase 3 (two phases' time limits later) begins about
    # now; left paused, so no clock runs out and no bot is asked anything while the tests look at
    # it. (Created now, every event would be stamped now, and the phases' deadlines, counted from
    # the past start, would all run out at the pause.)
    started = now_ms() - 760_000
    match = create_match_record(title=title, packet=packet, format_name="efficientqa", overrides=overrides,
                                teams=teams, now=started - 1000)
    runner = MatchRunner(match)
    play_to(runner, stage, started)
    if runner.state.status == "live":
        runner.handle({"type": "pause", "actor": {"role": "moderator"}, "data": {}}, runner.state.t)
    return match


def play_to(runner: MatchRunner, stage: str, now: int):
    """Play question 1 with real commands up to `stage`: "phase1" (every word read, the small bot's
    guess), "buzz" (the humans buzzed after word 40 and were ruled wrong; the small bot buzzed after
    word 70 and holds the floor), "phase3" (both team phases reached, snippets shown, all three bots' guesses made: the console shows
    them, the hall not until the question closes), "closed"
    (the humans' team answer accepted in phase 3), "finished" (and the match over)."""
    moderator, system = {"role": "moderator"}, {"role": "system"}
    seats = runner.state.seats.values()
    bots = {s["tier"]: s for s in seats if s["kind"] == "bot"}

    def bot(tier, guess, confidence, alternatives, threshold):
        seat = bots[tier]
        runner.handle({"type": "bot_guess", "actor": {"role": "bot", "seat": seat["id"], "team": seat["team"]},
                       "data": {"guess": guess, "confidence": confidence, "buzz": False, "threshold": threshold,
                                "alternatives": alternatives}}, now)

    def expire() -> int:  # nobody answers before the deadline: the next phase starts when the clock runs it
        at = next_wakeup(runner.state)
        runner.handle({"type": "tick", "actor": system, "data": {}}, at)
        return at

    def attempt(seat, text):  # a buzz after the words read so far, and its answer
        actor = {"role": "bot" if seat["kind"] == "bot" else "player", "seat": seat["id"], "team": seat["team"]}
        runner.handle({"type": "buzz", "actor": actor, "data": {"seen": runner.state.q.revealed}}, now + 50)
        runner.handle({"type": "answer", "actor": actor, "data": {"text": text}}, now + 100)
        return now + 100

    runner.handle({"type": "start", "actor": moderator, "data": {}}, now)
    for word in range(len(runner.state.question.words)):
        now += 250
        runner.handle({"type": "reveal", "actor": moderator, "data": {"word": word}}, now)
        if word == 60:
            bot("500mib", "Macbeth", 0.31, [["Macbeth", 0.31], ["King Lear", 0.22], ["Othello", 0.1]], 0.6)
        if stage == "buzz" and word == 39:  # the humans' captain buzzes after word 40 and is ruled wrong
            now = attempt(next(s for s in seats if s["kind"] == "human"), "Macbeth")
            runner.handle({"type": "rule", "actor": moderator, "data": {"verdict": "reject", "answer": runner.state.q.floor_seq}}, now + 500)
            now += 500
        if stage == "buzz" and word == 69:  # the small bot buzzes after word 70 and waits for its ruling
            attempt(bots["500mib"], "Hamlet")
            return
    bot("500mib", "Hamlet", 0.55, [["Hamlet", 0.55], ["Macbeth", 0.2], ["The Tempest", 0.05], ["Othello", 0.04],
                                   ["King Lear", 0.03]], 0.6)
    if stage == "phase1":
        return
    now = expire()
    bot("6gib", "Hamlet", 0.48, [["Hamlet", 0.48], ["Rosencrantz and Guildenstern Are Dead", 0.3]], 0.7)
    now = expire()
    snippets = [{"title": title, "text": marked.replace("<mark>", "").replace("</mark>", ""), "marked": marked}
                for title, marked in SNIPPETS]
    runner.handle({"type": "snippets", "actor": system, "data": {"snippets": snippets}}, now)
    bot("unlimited", "Hamlet", 0.93, [["Hamlet", 0.93], ["Hamlet (1948 film)", 0.04], ["Hamnet", 0.02],
                                      ["Rosencrantz and Guildenstern Are Dead", 0.01], ["The Spanish Tragedy", 0.01]], 0.8)
    if stage == "phase3":
        return
    captain = next(s for s in seats if s["kind"] == "human" and s["captain"])
    player = {"role": "player", "seat": captain["id"], "team": captain["team"]}
    runner.handle({"type": "submit", "actor": player, "data": {"text": "Hamlet"}}, now + 5000)
    runner.handle({"type": "rule", "actor": moderator, "data": {"verdict": "accept", "answer": runner.state.q.floor_seq}},
                  now + 8000)
    if stage == "finished":
        runner.handle({"type": "next", "actor": moderator, "data": {}}, now + 10_000)


if __name__ == "__main__":
    print(json.dumps(seed()))
