"""The match passes the buzz position to the judge, so "accept X before mention" is ruled where the buzz came."""
import pytest

from game.engine.api import next_wakeup
from game.models import Packet, Question
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db
MOD = {"role": "moderator"}
SYS = {"role": "system"}
TEXT = "Romans called this god Faunus and the Greeks worshipped him in Arcadia."


def runner_after(words: int) -> tuple[MatchRunner, dict]:
    packet = Packet.objects.create(slug="pan", title="Pan")
    Question.objects.create(packet=packet, position=1, kind="short", text=TEXT,
                            answer="Pan [accept Faunus before mention]", accepted=[])
    match = create_match_record(title="t", packet=packet, format_name="efficientqa", overrides={"questions": 1},
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Computer")],
                                now=1_000)
    runner = MatchRunner(match)
    runner.handle({"type": "start", "actor": MOD}, now=2_000)
    while runner.state.q.revealed < words:
        runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    seat = next(s for s in runner.state.seats.values() if s["name"] == "Ann")
    return runner, {"role": "player", "seat": seat["id"], "team": seat["team"]}


def suggestion_for(words: int, text: str) -> dict:
    runner, ann = runner_after(words)
    runner.handle({"type": "buzz", "actor": ann, "data": {"seen": words}}, now=runner.state.t + 1)
    events = runner.handle({"type": "answer", "actor": ann, "data": {"text": text}}, now=runner.state.t + 1)
    return next(e for e in events if e["type"] == "judge_suggested")["data"]


def test_a_clause_allowed_before_mention_is_accepted_on_an_early_buzz():
    early = suggestion_for(2, "Faunus")
    assert early["verdict"] == "accept" and "as it was at the buzz" in early["reason"]


def test_the_same_answer_after_the_mention_is_rejected_and_the_reason_says_why():
    late = suggestion_for(8, "Faunus")
    assert late["verdict"] == "reject"
    assert "before mention" in late["reason"] and "after 8 words" in late["reason"]


def suggestion_on(kind: str, text: str) -> dict:
    """The suggestion for a typed answer to a question of this kind, whose line is its first reference."""
    packet = Packet.objects.create(slug=f"plague-{Packet.objects.count()}", title="Plague")
    Question.objects.create(packet=packet, position=1, kind=kind, text="When did the plague reach the town?",
                            answer="May to August 1650", accepted=["May to August 1650"])
    match = create_match_record(title="t", packet=packet, format_name="efficientqa" if kind == "short" else "quizbowl", overrides={"questions": 1},
                                teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Computer")],
                                now=1_000)
    runner = MatchRunner(match)
    runner.handle({"type": "start", "actor": MOD}, now=2_000)
    runner.handle({"type": "tick", "actor": SYS}, now=next_wakeup(runner.state))
    seat = next(s for s in runner.state.seats.values() if s["name"] == "Ann")
    ann = {"role": "player", "seat": seat["id"], "team": seat["team"]}
    runner.handle({"type": "buzz", "actor": ann, "data": {"seen": 1}}, now=runner.state.t + 1)
    events = runner.handle({"type": "answer", "actor": ann, "data": {"text": text}}, now=runner.state.t + 1)
    return next(e for e in events if e["type"] == "judge_suggested")["data"]


def test_a_short_answer_question_is_judged_by_open_domain_rules_and_a_tossup_by_quizbowl_rules():
    short = suggestion_on("short", "June 1650")
    assert short["verdict"] == "accept" and "(rule: date inside span)" in short["reason"]
    assert suggestion_on("tossup", "June 1650")["verdict"] != "accept"
    assert "(rule: two answers)" in suggestion_on("tossup", "May to August 1650 or June 1650")["reason"]
