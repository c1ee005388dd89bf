"""`manage.py simulate` plays a whole match through the real engine and event log."""
import io
import re

import pytest
from django.core.management import call_command

from game.engine.api import fold
from game.models import Match, MatchEvent
from game.event_log import load_events, load_state

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("format_name", ["efficientqa", "quizbowl"])
def test_simulate_plays_a_whole_match_and_leaves_it_finished(format_name):
    out = io.StringIO()
    call_command("simulate", "--format", format_name, "--packet", "demo", "--seed", "7", stdout=out)
    text = out.getvalue()
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED and match.finished is not None

    events = load_events(match)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "match_created" and events[-1]["type"] == "match_ended"

    state = load_state(match)
    # Every score is the sum of its scoring events.
    for team, score in state.scores.items():
        assert score == sum(e["data"].get("score_changes", {}).get(team, 0) for e in events)
    # The box score's final line matches the stored scores.
    final = re.search(r"Final score: (.+)", text).group(1)
    for team in state.teams:
        assert f"{team['name']} {state.scores[team['id']]}" in final
    # One box-score block per regular question (tiebreakers may add more).
    numbers = {int(n) for n in re.findall(r"^Q(\d+)", text, re.M)}
    assert set(range(1, state.rules["questions"] + 1)) <= numbers
    assert "(simulated)" in text


def test_same_seed_plays_the_same_match():
    for _ in range(2):
        call_command("simulate", "--format", "quizbowl", "--seed", "11", "--questions", "4", stdout=io.StringIO())
    first, second = Match.objects.order_by("id")
    kinds = lambda m: list(MatchEvent.objects.filter(match=m).order_by("seq").values_list("type", flat=True))
    assert kinds(first) == kinds(second)
    assert load_state(first).scores == load_state(second).scores


def test_stored_log_refolds_to_the_live_state():
    """What went through the database (JSON) folds back to exactly what the runner held live."""
    from game.demo import ensure_demo_packet
    from game.management.commands.simulate import simulated_teams
    from game.simulation import SimulatedCompetitor, VirtualMatch
    from game.match_setup import create_match_record
    from game.runner import MatchRunner

    match = create_match_record(title="t", packet=ensure_demo_packet(), format_name="efficientqa",
                                overrides={"questions": 5}, teams=simulated_teams("efficientqa"))
    runner = MatchRunner(match)
    competitors = [SimulatedCompetitor(s["id"], s["team"], "bot" if s["kind"] == "bot" else "player")
                   for s in runner.state.seats.values()]
    live = VirtualMatch(runner, competitors, seed=2, start_ms=1_000_000).run()
    assert live.status == "finished"
    assert fold(load_events(Match.objects.get(pk=match.pk))) == live


def test_unknown_packet_is_a_clear_error():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="import one"):
        call_command("simulate", "--packet", "no-such-packet", stdout=io.StringIO())



@pytest.mark.parametrize("format_name", ["efficientqa", "quizbowl"])
def test_simulated_bots_guess_the_clean_answer_and_only_once_they_know_it(format_name):
    """A simulated bot's card never shows the answer line ('[accept …; do not accept …]'), and shows the
    right answer only from the word its model knows it at, where its confidence reaches its threshold;
    before that it has no guess (null, never a blank at 0%)."""
    from game.engine.questions import clean_answer

    call_command("simulate", "--format", format_name, "--packet", "demo", "--seed", "5", stdout=io.StringIO())
    events = load_events(Match.objects.get())
    questions = events[0]["data"]["questions"]
    right, early = 0, 0
    for e in events:
        if e["type"] == "question_started":
            question = questions[e["data"]["index"]]
            answers = {clean_answer(question["answer"]), *question.get("accepted", [])}
        if e["type"] != "bot_guess":
            continue
        d = e["data"]
        assert d["guess"] != "", "a blank guess is recorded as no guess (null)"
        assert d["guess"] != question["answer"] or question["answer"] in answers, "the answer line itself"
        for guess, confidence in d["alternatives"]:
            assert not any(mark in guess for mark in ("[", "{", "<", "accept")) and 0 <= confidence <= d["confidence"] <= 1
        if d["guess"] in answers:
            right += 1
            assert d["confidence"] >= d["threshold"], "the right answer shown before the bot knows it"
        elif d["guess"] is None:
            early += 1
    assert right and early, "the match had no bot that knew an answer, or none that had to wait to know it"


BONUS_PARTS = [
    [("This planet has the Great Red Spot.", "<b><u>Jupiter</u></b>"),
     ("This planet has the largest moon in the solar system, Titan.", "<b><u>Saturn</u></b>"),
     ("This planet rotates on its side.", "<b><u>Uranus</u></b> [accept Ouranos]")],
    [("This composer wrote the Moonlight Sonata.", "Ludwig van <b><u>Beethoven</u></b>"),
     ("This composer wrote The Magic Flute.", "Wolfgang Amadeus <b><u>Mozart</u></b>"),
     ("This composer wrote the Brandenburg Concertos.", "Johann Sebastian <b><u>Bach</u></b>")],
]


def packet_with_bonuses(bonuses: int = 6):
    """The demo packet's tossups, then `bonuses` bonuses of three parts (the two above, in turn)."""
    from game.demo import ensure_demo_packet
    from game.models import Packet, Question

    demo = ensure_demo_packet()
    packet = Packet.objects.create(slug="bonuses", title="Tossups and bonuses")
    tossups = list(demo.questions.filter(kind="tossup").order_by("position"))
    for position, q in enumerate(tossups, 1):
        Question.objects.create(packet=packet, position=position, kind="tossup", text=q.text, answer=q.answer,
                                accepted=q.accepted, category=q.category)
    for n in range(bonuses):
        parts = [{"text": text, "answer": answer, "value": 10} for text, answer in BONUS_PARTS[n % 2]]
        Question.objects.create(packet=packet, position=len(tossups) + n + 1, kind="bonus",
                                text="For 10 points each, answer these.", answer="", parts=parts, category="Mixed")
    return packet


def test_simulate_plays_a_whole_tossup_bonus_match_whose_scores_are_its_score_changes():
    packet_with_bonuses()
    out = io.StringIO()
    call_command("simulate", "--format", "quizbowl_bonus", "--packet", "bonuses", "--seed", "1", "--questions", "8",
                 stdout=out)
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    events = load_events(match)
    state = load_state(match)
    assert fold(events).scores == state.scores
    for team, score in state.scores.items():
        assert score == sum(e["data"].get("score_changes", {}).get(team, 0) for e in events)
    started = [e for e in events if e["type"] == "bonus_started"]
    ended = [e for e in events if e["type"] == "bonus_ended"]
    correct = [e for e in events if e["type"] == "question_closed" and e["data"]["result"] and not e["data"]["dead"]]
    assert len(started) == len(ended) == min(len(correct), 6) > 0  # a bonus per correct tossup while they last
    assert [e["data"]["index"] for e in started] == list(range(len(started)))  # in packet order
    ruled = [e for e in events if e["type"] == "bonus_part_ruled"]
    assert sum(e["data"]["points"] for e in ruled) == sum(sum(e["data"]["points"].values()) for e in ended)
    answered_by = {state.seats[e["data"]["seat"]]["kind"] for e in events if e["type"] == "bonus_answered"}
    computer = next(t["id"] for t in state.teams if t["kind"] == "computer")
    assert any(e["data"]["team"] == computer for e in started)  # this seed's computer gets tossups too ...
    assert answered_by == {"human", "bot"}  # ... and its bot answers its team's bonuses
    final = re.search(r"Final score: (.+)", out.getvalue()).group(1)
    for team in state.teams:
        assert f"{team['name']} {state.scores[team['id']]}" in final


def test_simulate_refuses_a_tossup_bonus_format_on_a_packet_without_bonuses():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="has no bonuses"):
        call_command("simulate", "--format", "quizbowl_bonus", "--packet", "demo", stdout=io.StringIO())
    assert not Match.objects.exists()


