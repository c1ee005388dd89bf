"""`simulate --bot TIER=NAME`: a registered bot plays a whole match for real, word by word, and a
remote QANTA bot is told the match's question number."""
import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.models import Bot
from game.demo import ensure_demo_packet
from game.management.commands.simulate import simulated_teams
from game.models import Match, MatchEvent
from game.simulation import RegisteredBot, SimulatedCompetitor, VirtualMatch
from game.event_log import now_ms
from game.match_setup import create_match_record
from game.runner import MatchRunner
from tests.bots.test_remote import STATUS, qanta_guess
from tests.bots.test_demo_pack import PACK

pytestmark = pytest.mark.django_db


def simulate(*args) -> tuple[str, Match]:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue(), Match.objects.order_by("-id").first()


def events(match, kind):
    return [e.data for e in MatchEvent.objects.filter(match=match, type=kind).order_by("seq")]


def test_a_registered_bot_plays_its_tier_in_a_whole_match(bot_root):
    call_command("build_bot", "qa_pairs", "--name", "pack-pairs", "--data", str(PACK / "qa_pairs.jsonl"),
                 stdout=io.StringIO())
    output, match = simulate("--bot", "500mib=pack-pairs", "--questions", "4", "--seed", "3")
    assert match.status == Match.Status.FINISHED and "pack-pairs" in output
    seat = match.teams.get(position=1).seats.get(name="pack-pairs")
    assert seat.bot_config == Bot.objects.get(name="pack-pairs").spec  # the pinned build
    guesses = [e for e in events(match, "bot_guess") if e["seat"] == seat.key]
    assert guesses and all(g["word"] >= 1 for g in guesses)
    answered = [e for e in events(match, "answer") if e["seat"] == seat.key]
    assert answered  # it buzzed and gave its own guess as the answer
    assert {a["text"] for a in answered} <= {g["guess"] for g in guesses}


def test_a_remote_qanta_bot_is_told_the_question_number(serve):
    server = serve(lambda method, path, body: (200, STATUS) if method == "GET" else (200, qanta_guess(body)))
    call_command("build_bot", "remote_qanta", "--name", "far", "--url", server.url, stdout=io.StringIO())
    packet = ensure_demo_packet()
    teams = simulated_teams("efficientqa", {"unlimited": Bot.objects.get(name="far")})
    match = create_match_record(title="QANTA numbers", packet=packet, format_name="efficientqa",
                                overrides={"questions": 4}, teams=teams, seed=1)
    runner = MatchRunner(match)
    specs = {seat.key: seat.bot_config for team in match.teams.all() for seat in team.seats.all()}
    # Everyone else always misses, so every question reaches phase 3, the unlimited tier's.
    players = [RegisteredBot(s["id"], s["team"], specs[s["id"]], s["tier"]) if s["tier"] == "unlimited" else
               SimulatedCompetitor(s["id"], s["team"], "bot" if s["kind"] == "bot" else "player", accuracy=0.0,
                                   rash=0.0)
               for s in runner.state.seats.values()]
    VirtualMatch(runner, players, seed=1, start_ms=now_ms()).run()
    reached, number = set(), None
    for event in MatchEvent.objects.filter(match=match).order_by("seq"):
        number = event.data["number"] if event.type == "question_started" else number
        if event.type == "phase_started" and event.data["phase"] == 3:
            reached.add(number)
    told = sorted({body["question_idx"] for method, path, body in server.received if path.endswith("/act")})
    assert len(reached) >= 2 and told == [n - 1 for n in sorted(reached)]  # QANTA counts questions from 0


def test_bad_bot_choices_are_refused_with_a_reason(bot_root):
    with pytest.raises(CommandError, match="no bot called 'ghost'"):
        simulate("--bot", "500mib=ghost")
    with pytest.raises(CommandError, match="TIER=NAME"):
        simulate("--bot", "1gib=ghost")
    Bot.objects.create(name="far", kind="remote_json", tier="unlimited", config={"url": "http://127.0.0.1:9"})
    with pytest.raises(CommandError, match="runs on a remote server"):
        simulate("--bot", "500mib=far")


@pytest.mark.slow
def test_in_the_demo_a_person_who_knows_the_answer_halfway_through_beats_the_500mib_bot(bot_root):
    """The demo's own bot and rules (game.demo.DEMO_RULES): a person who knows each answer once half the
    question is read wins phase 1 on most demo questions, more often than under the format's bot delay,
    and the bot still takes some."""
    from game.management.commands.demo_setup import DEMO_BOTS

    name, kind, tier, data, extra = DEMO_BOTS[0]
    assert (kind, tier) == ("qa_pairs", "500mib")
    call_command("build_bot", kind, "--name", name, "--data", str(PACK / data), "--tier", tier, stdout=io.StringIO())
    shares = {}
    for rules in ([], ["--demo-rules"]):
        output, match = simulate("--bot", f"500mib={name}", *rules, "--humans-buzz-at", "0.5", "--questions", "30")
        won, played = (int(n) for n in re.search(r"Humans won phase 1 on (\d+) of (\d+) questions", output).groups())
        assert played == 30 and match.rules["bot_reaction_ms"] == (1200 if rules else 300)
        shares[bool(rules)] = won / played
    assert 0.8 <= shares[True] < 1 and shares[True] > shares[False]
