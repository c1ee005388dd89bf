"""After the final whistle a change of score is a correction: the engine takes an override or
an adjustment of a finished match only when the moderator confirms it (confirm: true), refuses it
otherwise with a sentence saying so, and marks the event as a correction; the state keeps the list
of corrections, so every screen, the box score and the replay can show them as such."""
from __future__ import annotations

import pytest

from game.engine.api import project, snapshot

from .support import MOD, Match, answered_quizbowl


def ruled_wrong(questions: int) -> Match:
    """Ann's "the moon" on question 1 ruled wrong (a neg), and the question played to its close."""
    m = answered_quizbowl(questions)
    m.rule("reject", at=m.now + 100)
    m.play_to_close()
    return m


def finished() -> Match:
    m = ruled_wrong(1)
    m.send("next", MOD, at=m.now + 1000)
    assert m.state.status == "finished"
    return m


@pytest.mark.parametrize("kind, data", [
    ("override", {"ruling": 1, "verdict": "accept"}),
    ("adjust", {"team": "t1", "points": 5, "reason": "protest upheld"}),
])
def test_after_the_final_a_score_change_needs_the_moderators_confirmation(kind, data):
    m = finished()
    refused = m.refuse(kind, MOD, data)
    assert refused.code == "confirm_correction"
    assert "final" in str(refused) and "confirm" in str(refused) and str(refused).endswith(".")
    assert m.refuse(kind, MOD, dict(data, confirm="yes")).code == "confirm_correction"
    before = dict(m.scores)
    event = m.send(kind, MOD, dict(data, confirm=True))[0]
    assert event["data"]["correction"] is True and "confirm" not in event["data"]
    assert m.scores != before


def test_corrections_are_kept_in_order_with_what_they_changed_and_their_reasons_as_shown():
    m = finished()
    m.send("override", MOD, {"ruling": 1, "verdict": "accept", "confirm": True, "reason": "the moon was right"},
           at=m.now + 1000)
    m.send("adjust", MOD, {"team": "t1", "points": 5, "reason": "protest upheld", "public": True, "confirm": True},
           at=m.now + 1000)
    override, adjust = m.state.corrections
    assert (override["kind"], override["number"], override["ruling"], override["verdict"], override["team"]) == \
        ("override", 1, 1, "accept", "t0")  # the neg (-5) became a power (+15)
    assert override["score_changes"] == {"t0": 20} and override["seq"] == m.state.seq - 1
    assert (adjust["kind"], adjust["team"], adjust["points"], adjust["score_changes"]) == ("adjust", "t1", 5, {"t1": 5})
    staff, hall = snapshot(m.state, "moderator"), snapshot(m.state, "spectator")
    assert [c["reason"] for c in staff["corrections"]] == ["the moon was right", "protest upheld"]
    assert [c["reason"] for c in hall["corrections"]] == [None, "protest upheld"]  # the first one was private
    assert hall["scores"] == {"t0": 15, "t1": 5} and hall["winner"] == "t0"


def test_while_the_match_is_live_an_override_is_no_correction_and_needs_no_confirmation():
    m = ruled_wrong(2)
    event = m.send("override", MOD, {"ruling": 1, "verdict": "accept"}, at=m.now + 1000)[0]
    assert "correction" not in event["data"] and m.state.corrections == []
    adjusted = m.send("adjust", MOD, {"team": "t0", "points": 1, "reason": "r", "confirm": True})[0]
    assert "correction" not in adjusted["data"]
    assert project(dict(adjusted, seq=1), "spectator")["data"].get("correction") is None
