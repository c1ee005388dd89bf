"""MatchRunner's follow-ups: a typed answer gets the judge's suggestion, phase 3 gets search snippets.

Offline (`simulate`, the seeds) the runner does them right after the write; on the conductor it does
none of it inside a write: it says what is due (FollowUp), and the result is written when it comes.
"""
import pytest

from game import runner as runner_module
from game.engine.api import Rejected, next_wakeup
from game.event_log import load_events
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.models import Packet, Question, SnippetPassage
from game.runner import MatchRunner
from game.snippets import SearchFailed

pytestmark = pytest.mark.django_db
MOD = {"role": "moderator"}
SYS = {"role": "system"}


def efficientqa_runner(slow_work_here: bool = True) -> MatchRunner:
    packet = Packet.objects.create(slug="p", title="P")
    Question.objects.create(packet=packet, position=1, kind="short", text="Which planet is known as the Red Planet?",
                            answer="Mars", accepted=["Mars", "planet Mars"])
    match = create_match_record(title="t", packet=packet, format_name="efficientqa", overrides={"questions": 1},
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Computer")],
                                now=1_000)
    runner = MatchRunner(match, slow_work_here=slow_work_here)
    runner.handle({"type": "start", "actor": MOD}, now=2_000, bot_sizes=None if slow_work_here else {})
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


def test_a_search_that_fails_shows_why_to_everyone_and_the_phase_goes_on(monkeypatch):
    def stalled(question_text, k):
        raise SearchFailed("The search did not answer within 2 s; the phase goes on without snippets.")

    monkeypatch.setattr(runner_module, "top_snippets", stalled)
    runner = efficientqa_runner()
    while runner.state.q.phase < 2:
        runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    [shown] = [e for e in load_events(runner.match) if e["type"] == "snippets_shown"]
    assert shown["data"]["snippets"] == []
    assert shown["data"]["error"] == "The search did not answer within 2 s; the phase goes on without snippets."
    assert runner.state.status == "live" and runner.state.q.phase == 2 and not runner.state.q.closed


def test_on_the_conductor_nothing_slow_runs_in_the_write_and_the_result_is_written_when_it_comes(monkeypatch):
    def no_judging_here(*args, **kwargs):
        raise AssertionError("the judge ran inside the write")

    runner = efficientqa_runner(slow_work_here=False)
    runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    runner.handle({"type": "buzz", "actor": ann(runner), "data": {"seen": 1}}, now=runner.state.t + 10)
    real_judge = runner_module.judge
    monkeypatch.setattr(runner_module, "judge", no_judging_here)
    events = runner.handle({"type": "answer", "actor": ann(runner), "data": {"text": "mars"}}, now=runner.state.t + 10)
    assert [e["type"] for e in events] == ["answer"], "stored without its judgement"
    [work] = runner.follow_ups(events)
    assert (work.type, work.number, work.phase) == ("judge", 1, 0)
    monkeypatch.setattr(runner_module, "judge", real_judge)
    written = runner.write_follow_up(work, work.work(), runner.state.t + 50)  # beside, later
    assert [e["type"] for e in written] == ["judge_suggested"] and written[0]["data"]["for"] == events[0]["seq"]
    assert written[0]["data"]["verdict"] == "accept"


def test_a_result_for_a_phase_the_match_has_left_is_dropped():
    runner = efficientqa_runner(slow_work_here=False)
    while runner.state.q.phase < 2:
        events = runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    [search] = [w for w in runner.follow_ups(events) if w.type == "snippets"]
    while not runner.state.q.closed:  # nobody answers: phase 3 runs out before the search comes back
        runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    assert not search.still_due(runner.state)
    assert runner.write_follow_up(search, {"snippets": [{"title": "Late", "text": "Too late."}]}, runner.state.t) == []
    assert "snippets_shown" not in [e["type"] for e in load_events(runner.match)]


def test_on_the_conductor_a_start_without_its_bots_measured_is_refused_not_measured_in_the_write(monkeypatch):
    monkeypatch.setattr(runner_module, "measure_bots", lambda match: pytest.fail("measured inside the write"))
    packet = Packet.objects.create(slug="q", title="Q")
    Question.objects.create(packet=packet, position=1, kind="short", text="What is red?", answer="Mars")
    match = create_match_record(title="t", packet=packet, format_name="efficientqa", overrides={"questions": 1},
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Computer")])
    runner = MatchRunner(match, slow_work_here=False)
    with pytest.raises(Rejected) as refused:
        runner.handle({"type": "start", "actor": MOD})
    assert refused.value.code == "bots_unmeasured" and runner.state.status == "setup"
    events = runner.handle({"type": "start", "actor": MOD, "data": {"bot_sizes": {"s1": {"bytes": 1}}}}, bot_sizes={})
    assert events[0]["type"] == "match_started" and "bot_sizes" not in events[0]["data"], "a client's sizes are replaced"
