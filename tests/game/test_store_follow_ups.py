"""MatchRunner's follow-ups: a typed answer gets the judge's suggestion, phase 3 gets search snippets."""
import pytest

from game.engine.api import next_wakeup
from game.models import Packet, Question, SnippetPassage
from game.event_log import load_events

from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.runner import MatchRunner
pytestmark = pytest.mark.django_db
MOD = {"role": "moderator"}
SYS = {"role": "system"}


def efficientqa_runner() -> MatchRunner:
    packet = Packet.objects.create(slug="p", title="P")
    Question.objects.create(packet=packet, position=1, kind="short", text="Which planet is known as the Red Planet?",
                            answer="Mars", accepted=["Mars", "planet Mars"])
    match = create_match_record(title="t", packet=packet, format_name="efficientqa", overrides={"questions": 1},
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Computer")],
                                now=1_000)
    runner = MatchRunner(match)
    runner.handle({"type": "start", "actor": MOD}, now=2_000)
    return runner


def ann(runner):
    seat = next(s for s in runner.state.seats.values() if s["name"] == "Ann")
    return {"role": "player", "seat": seat["id"], "team": seat["team"]}


def test_a_typed_answer_reaches_the_moderator_with_a_suggested_ruling():
    runner = efficientqa_runner()
    runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    runner.handle({"type": "buzz", "actor": ann(runner), "data": {"seen": 1}}, now=runner.state.t + 10)
    events = runner.handle({"type": "answer", "actor": ann(runner), "data": {"text": "the planet mars"}},
                           now=runner.state.t + 10)
    answer, suggestion = events
    assert suggestion["type"] == "judge_suggested" and suggestion["data"]["for"] == answer["seq"]
    assert suggestion["data"]["verdict"] == "accept" and suggestion["data"]["text"] == "the planet mars"
    assert "Mars" in suggestion["data"]["reason"] and 0 < suggestion["data"]["confidence"] <= 1
    assert [e["type"] for e in load_events(runner.match)][-2:] == ["answer", "judge_suggested"]


def test_phase_three_shows_search_snippets_from_the_imported_passages():
    SnippetPassage.objects.create(corpus="demo", title="Mars", text="Mars is called the Red Planet for its iron oxide dust.")
    SnippetPassage.objects.create(corpus="demo", title="Venus", text="Venus is the hottest planet.")
    runner = efficientqa_runner()
    while runner.state.q.phase < 2:  # nobody answers: phase 1 dies, then phase 2 runs out
        runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    shown = [e for e in load_events(runner.match) if e["type"] == "snippets_shown"]
    assert len(shown) == 1 and shown[0]["data"]["phase"] == 3
    assert shown[0]["data"]["snippets"][0]["title"] == "Mars"
    assert "<mark>" in shown[0]["data"]["snippets"][0]["marked"]
    assert runner.state.q.snippets == shown[0]["data"]["snippets"]
