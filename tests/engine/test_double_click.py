"""A double click (or a client's retry) on any moderator command applies once.

Each command is sent twice with the same data, as a console sends it when the button is hit twice
before the screen has caught up: the second is refused and the match is exactly as after the first.
Commands that name a target (undo, throw-out, adjust, reveal) carry what the console showed when
the key was pressed; the others are refused by the state itself.
"""
from __future__ import annotations

import pickle

import pytest

from .support import MOD, Match, question

TEXT = "Bakadu bekedu, bikidu (*) bokodu bukudu."
ANSWER = "Quvexo Pilandre"


def quizbowl(**overrides) -> Match:
    qs = [question(TEXT, ANSWER, qid=f"q{i}") for i in range(4)]
    return Match("quizbowl", {"questions": 2, **overrides}, questions=qs)


def buzzed(m: Match, verdict: str | None = None) -> Match:
    m.start(0)
    m.reveal_until(2, step=1)
    m.buzz("h0")
    m.answer("h0", "Isaac Newton")
    if verdict:
        m.rule(verdict)
    return m


def closed(m: Match) -> Match:
    buzzed(m, "accept")
    return m


def setup(kind: str) -> tuple[Match, dict]:
    """A match where `kind` applies, and the data the console sends for it."""
    if kind == "start":
        return quizbowl(), {}
    if kind == "next":
        return closed(quizbowl()), {}
    if kind == "end":
        return closed(quizbowl()), {}
    if kind == "reveal":
        m = quizbowl(reveal="moderator")
        m.start(0)
        return m, {"word": m.q.revealed}
    if kind == "rule":
        m = buzzed(quizbowl())
        return m, {"verdict": "prompt", "answer": m.floor_seq()}
    if kind == "undo":
        m = buzzed(quizbowl(), "reject")
        return m, {"ruling": m.q.ruling_ids[-1]}
    if kind == "override":
        m = closed(quizbowl())
        return m, {"ruling": m.q.ruling_ids[-1], "verdict": "reject"}
    if kind == "adjust":
        m = closed(quizbowl())
        return m, {"team": "t1", "points": 5, "reason": "protest upheld", "scores_seq": m.state.scores_seq}
    if kind == "throw_out":
        m = buzzed(quizbowl())
        return m, {"reason": "a typo", "question": m.q.index}
    if kind == "pause":
        m = quizbowl()
        m.start(0)
        return m, {"reason": "a break"}
    if kind == "resume":
        m = quizbowl()
        m.start(0)
        m.send("pause", MOD, {"reason": "a break"})
        return m, {}
    if kind == "kick":
        m = quizbowl()
        m.start(0)
        return m, {"seat": "h1"}
    if kind == "resolve_protest":
        m = closed(quizbowl())
        m.send("protest", "h2", {"ruling": m.q.ruling_ids[-1], "text": "Newton was not the answer"}, at=m.now + 10)
        return m, {"protest": 1, "outcome": "overturned", "reason": "the answer line says Leibniz"}
    if kind == "voice":
        return quizbowl(reveal="voice"), {"voice": "en-gb", "wpm": 150}
    if kind == "read_part":  # a tossup-bonus match: Ann's team got the first tossup
        m = closed(Match("quizbowl_bonus", {"questions": 2}))
        return m, {"part": 0}
    raise AssertionError(kind)


MODERATOR_COMMANDS = ["start", "next", "end", "reveal", "rule", "undo", "override", "adjust", "throw_out",
                      "pause", "resume", "kick", "resolve_protest", "voice", "read_part"]


@pytest.mark.parametrize("kind", MODERATOR_COMMANDS)
def test_the_same_command_twice_applies_once(kind):
    m, data = setup(kind)
    first = m.send(kind, MOD, dict(data), at=m.now + 10)
    assert first, f"the first {kind} should do something"
    after_first = pickle.dumps(m.state)
    refusal = m.refuse(kind, MOD, dict(data), at=m.now)
    assert refusal.code
    assert pickle.dumps(m.state) == after_first


def test_the_command_list_is_every_moderator_command():
    from game.engine.commands import COMMANDS, MODERATOR

    assert set(MODERATOR_COMMANDS) == {kind for kind, (roles, _) in COMMANDS.items() if roles == MODERATOR}


@pytest.mark.parametrize("kind, data, code", [
    ("undo", {"ruling": 999}, "stale"),
    ("throw_out", {"question": 999}, "stale"),
    ("adjust", {"team": "t0", "points": 5, "reason": "x", "scores_seq": -1}, "stale"),
])
def test_a_command_pressed_for_something_that_has_moved_on_is_refused(kind, data, code):
    m = buzzed(quizbowl(), "reject")
    assert m.refuse(kind, MOD, data).code == code


def test_a_late_ruling_never_lands_on_another_answer():
    """The console names the answer it rules on; a retry that arrives after the floor moved is refused."""
    m = buzzed(quizbowl())
    pressed_for = {"verdict": "accept", "answer": m.floor_seq()}
    m.rule("reject")  # the moderator rejected Ann meanwhile (say, from a second console)
    m.reveal_until(4, step=1)
    m.buzz("bot")
    buzz_seq = m.floor_seq()
    m.answer("bot", "Quvexo Pilandre")
    refused = m.refuse("rule", MOD, pressed_for)
    assert refused.code == "stale" and str(refused) == "Computer's answer changed to “Quvexo Pilandre” since you looked: rule again."
    assert m.refuse("rule", MOD, {"verdict": "accept", "answer": buzz_seq}).code == "stale"  # looked before the answer
    m.send("rule", MOD, {"verdict": "accept", "answer": m.floor_seq()})
    assert m.scores == {"t0": -5, "t1": 10}


def test_a_players_command_meant_for_an_earlier_question_is_refused():
    m = buzzed(quizbowl(), "accept")
    meant_for = m.q.index
    m.send("next", MOD, at=m.now + 1000)
    m.reveal_until(2, step=1)
    assert m.refuse("buzz", "h1", {"question": meant_for, "phase": 1}).code == "stale"
    assert m.send("buzz", "h1", {"question": m.q.index, "phase": 1})
