"""The clock tells the truth: once every side has answered a team phase, its discussion
clock stops (no deadline is left running, nothing times out), so "Discussion time is up" is said only
when a deadline really ran out with a side still to answer; a prompt starts the clock again for the
side that must answer again."""
from __future__ import annotations

from game.engine.api import next_wakeup, snapshot

from .support import MOD, SYS, Match, question

TEXT = "Bakadu bekedu, bikidu bokodu bukudu?"


def in_phase_two() -> Match:
    qs = [question(TEXT, "Quvexo Pilandre", kind="short", qid=f"q{i}") for i in range(4)]
    m = Match("efficientqa", {"questions": 2}, questions=qs)
    m.start(0)
    while m.q.phase + 1 < 2:
        m.advance()
    assert m.q.mode == "team" and m.q.deadline["kind"] == "discussion"
    return m


def test_when_both_sides_have_submitted_the_discussion_clock_stops():
    m = in_phase_two()
    m.submit("h0", "first guess", at=m.now + 1000)
    assert m.q.deadline is not None, "the computer side is still discussing: its clock runs"
    last = m.submit("b6", "second guess", at=m.now + 1000)
    assert last[-1]["type"] == "submission" and last[-1]["data"]["clock_stopped"] is True
    assert m.q.deadline is None and next_wakeup(m.state) is None
    for audience, team in (("moderator", None), ("spectator", None), ("player", "t0")):
        assert snapshot(m.state, audience, team)["question"]["deadline"] is None
    # Long after the old deadline nothing times out: the moderator rules when ready.
    assert m.tick(m.now + 120_000) == []
    assert [e["type"] for e in m.rule("reject")][:1] == ["ruling"]
    assert m.q.floor == "t1" and m.q.deadline is None


def test_a_pass_by_the_last_side_still_discussing_stops_the_clock_too():
    m = in_phase_two()
    m.submit("h0", "first guess", at=m.now + 1000)
    events = m.send("pass", "b6", at=m.now + 500)
    assert events[0]["type"] == "pass" and events[0]["data"]["clock_stopped"] is True
    assert m.q.deadline is None and m.tick(m.now + 120_000) == []


def test_time_is_up_only_when_a_side_was_still_to_answer():
    m = in_phase_two()
    m.submit("h0", "first guess", at=m.now + 1000)
    ran_out = m.tick(m.q.deadline["at"])
    timeout = next(e for e in ran_out if e["type"] == "timeout")
    assert timeout["data"]["kind"] == "discussion" and timeout["data"]["passed"] == ["t1"]


def test_a_prompt_after_the_clock_stopped_gives_the_prompted_side_a_clock_of_its_own():
    m = in_phase_two()
    m.submit("h0", "first guess", at=m.now + 1000)
    m.submit("b6", "second guess", at=m.now + 1000)
    assert m.q.deadline is None
    m.rule("prompt", at=m.now + 2000)
    prompt_ms = int(m.rules["prompt_seconds"] * 1000)
    assert m.q.deadline == {"kind": "discussion", "at": m.now + prompt_ms}
    again = m.submit("h0", "better guess", at=m.now + 1000)
    assert again[-1]["data"]["clock_stopped"] is True and m.q.deadline is None


def test_undoing_a_ruling_made_after_the_clock_stopped_leaves_it_stopped():
    m = in_phase_two()
    m.submit("h0", "first guess", at=m.now + 1000)
    m.submit("b6", "second guess", at=m.now + 1000)
    ruling = m.rule("reject", at=m.now + 1000)[0]
    m.send("undo", MOD, {"ruling": ruling["data"]["id"]}, at=m.now + 1000)
    assert m.q.deadline is None and m.send("tick", SYS, at=m.now + 120_000) == []
