"""An event's preliminary stops at a question boundary once its time or question limit is reached
(the stop_after_ms / stop_after_questions rules), and the log says why the match ended."""
from __future__ import annotations

import pytest

from game.engine.api import RulesError, make_rules
from game.engine.rules import limit_reached, questions_played

from .support import MOD, Match, question

TEXT = "Bakadu bekedu, bikidu (*) bokodu bukudu."


def preliminary(overrides: dict, n: int = 10) -> Match:
    qs = [question(TEXT, qid=f"q{i}") for i in range(n)]
    m = Match("quizbowl", {"questions": n, "tiebreakers": 0, **overrides}, questions=qs)
    m.start(0)
    return m


def close_and_next(m: Match, gap: int = 1000):
    m.play_to_close(step=5000)
    return m.send("next", MOD, at=m.now + gap)


def test_a_question_limit_ends_the_match_after_that_many_questions():
    m = preliminary({"stop_after_questions": 3})
    close_and_next(m)
    close_and_next(m)
    ended = close_and_next(m)
    assert [e["type"] for e in ended] == ["match_ended"]
    assert ended[0]["data"]["reason"] == "question_limit"
    assert questions_played(m.state) == 3 and m.state.end_reason == "question_limit"


def test_a_time_limit_never_cuts_a_question_short():
    m = preliminary({"stop_after_ms": 20_000})
    while m.state.status == "live":
        m.play_to_close(step=5000)
        assert m.state.q.closed  # the question in play always closes by its own rules
        m.send("next", MOD, at=m.now + 1000)
    ended = m.events[-1]
    assert ended["type"] == "match_ended" and ended["data"]["reason"] == "time_limit"
    assert ended["t"] >= 20_000
    started = [e for e in m.events if e["type"] == "question_started"]
    assert all(e["t"] < 20_000 for e in started)  # no question starts after the limit
    assert questions_played(m.state) == len(started)


def test_pauses_do_not_count_as_time_played():
    m = preliminary({"stop_after_ms": 20_000})
    m.play_to_close(step=5000)
    at_close = m.now
    m.send("pause", MOD, at=at_close + 100)
    m.send("resume", MOD, at=at_close + 60_000)  # a minute's pause
    started = m.send("next", MOD, at=m.now + 100)
    assert started[0]["type"] == "question_started"  # time played is under 20 s
    assert limit_reached(m.state, m.now + 20_000) == "time_limit"


def test_without_a_limit_the_match_ends_as_before_and_says_so():
    m = preliminary({}, n=2)
    close_and_next(m)
    ended = close_and_next(m)
    assert ended[0]["data"]["reason"] == "questions_played"


def test_the_moderator_ending_a_match_is_recorded():
    m = preliminary({})
    m.play_to_close(step=5000)
    ended = m.send("end", MOD, at=m.now + 10)
    assert ended[0]["data"]["reason"] == "moderator"


@pytest.mark.parametrize("field, value", [("stop_after_ms", 0), ("stop_after_questions", 0),
                                          ("stop_after_questions", 500), ("stop_after_ms", "soon")])
def test_limits_out_of_range_are_refused_with_the_field_named(field, value):
    with pytest.raises(RulesError, match=field):
        make_rules("quizbowl", {field: value})
