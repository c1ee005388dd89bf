"""A moderator's free-text reason (on a ruling, an override, a score adjustment, a throw-out, a pause)
is the moderator's own note: it reaches only the moderator, in frames and snapshots, unless the
moderator marks it public. The judge's reasons were never anyone else's either."""
from __future__ import annotations

import json

import pytest

from game.engine.api import project, snapshot

from .support import MOD, Match, answered_quizbowl

SECRET = "Vorpalix misheard the clue"  # a word nothing else in a match contains
HALL = [("spectator", None), ("player", "t0"), ("player", "t1"), ("bot", "t1")]


quizbowl = answered_quizbowl


def seen_by_hall(m: Match) -> str:
    """Every frame and snapshot of the match as the hall, the phones and the bots get them."""
    frames = [project(dict(e, seq=i), a, t) for i, e in enumerate(m.events, 1) for a, t in HALL]
    snaps = [snapshot(m.state, a, t) for a, t in HALL]
    return json.dumps([frames, snaps])


def test_a_ruling_reason_reaches_only_the_moderator():
    m = quizbowl()
    ruling = m.send("rule", MOD, {"verdict": "reject", "answer": m.floor_seq(), "reason": SECRET})[0]
    assert ruling["data"]["reason"] == SECRET and "public" not in ruling["data"]
    assert project(ruling, "moderator")["data"]["reason"] == SECRET
    for audience, team in HALL:
        assert project(ruling, audience, team)["data"].get("reason") is None
    record = snapshot(m.state, "moderator")["rulings"][0]
    assert record["reason"] == SECRET and not record.get("public")
    assert SECRET not in seen_by_hall(m)


def test_a_reason_marked_public_is_shown_to_everyone():
    m = quizbowl()
    ruling = m.send("rule", MOD, {"verdict": "reject", "answer": m.floor_seq(), "reason": SECRET, "public": True})[0]
    assert ruling["data"]["public"] is True
    for audience, team in HALL[:3]:
        assert project(ruling, audience, team)["data"]["reason"] == SECRET
        assert snapshot(m.state, audience, team)["rulings"][0]["reason"] == SECRET


def test_a_blank_reason_is_no_reason_and_public_must_be_true_itself():
    m = quizbowl()
    ruling = m.send("rule", MOD, {"verdict": "reject", "answer": m.floor_seq(), "reason": "   ", "public": "yes"})[0]
    assert ruling["data"].get("reason") is None and "public" not in ruling["data"]


@pytest.mark.parametrize("kind, data", [
    ("adjust", {"team": "t0", "points": 5, "reason": SECRET}),
    ("throw_out", {"reason": SECRET}),
    ("pause", {"reason": SECRET}),
])
def test_adjustments_throw_outs_and_pauses_keep_their_reasons_private_too(kind, data):
    m = quizbowl()
    events = m.send(kind, MOD, data)
    assert events[0]["data"]["reason"] == SECRET
    assert SECRET not in seen_by_hall(m)
    assert SECRET in json.dumps([snapshot(m.state, "moderator"), [project(e, "moderator") for e in events]])
    public = quizbowl()
    shown = public.send(kind, MOD, dict(data, public=True))
    assert project(dict(shown[0], seq=1), "spectator")["data"]["reason"] == SECRET


def test_a_thrown_out_question_keeps_a_public_reason_in_the_halls_history():
    m = quizbowl()
    m.send("throw_out", MOD, {"reason": SECRET, "public": True})
    assert snapshot(m.state, "spectator")["history"][0]["reason"] == SECRET
    hidden = quizbowl()
    hidden.send("throw_out", MOD, {"reason": SECRET})
    assert snapshot(hidden.state, "spectator")["history"][0]["reason"] == ""
    assert snapshot(hidden.state, "moderator")["history"][0]["reason"] == SECRET


def test_the_judges_reasons_never_reach_the_hall():
    m = quizbowl()
    m.send("judge", {"role": "system"}, {"for": m.state.seq, "seat": "h0", "team": "t0", "text": "the moon",
                                        "verdict": "reject", "confidence": 0.9, "reason": SECRET})
    m.rule("reject")
    assert SECRET not in seen_by_hall(m)
