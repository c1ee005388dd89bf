"""Protests: a captain protests a ruling within the match's protest_seconds, the moderator upholds or
overturns it with a reason, and the score moves only through an overturn, exactly as an override moves
it (a confirmed correction after the final whistle). Who may protest, what is refused and why, and
what each audience sees of it."""
from __future__ import annotations

import pytest

from game.engine.api import project, snapshot
from game.engine.protests import MAX_PROTEST
from game.live.client_frames import FrameError, parse

from .support import MOD, Match


def kinds(events) -> list[str]:
    """The event types a command caused, without the words the reading clock revealed on the way."""
    return [e["type"] for e in events if e["type"] != "word_revealed"]


def negged(**rules) -> Match:
    """Quizbowl: Ann (the humans' captain) negs on word 3 (ruling 1, -5); the question goes on."""
    m = Match("quizbowl", {"questions": 2, "tiebreakers": 0, **rules})
    m.start(0)
    m.reveal_until(3)
    m.buzz("h0", at=m.now + 50)
    m.answer("h0", "the moon")
    m.rule("reject", at=m.now + 100)
    return m


def protest(m: Match, seat: str = "h0", ruling: int = 1, text: str = "the moon is on the line", after: int = 1000):
    return m.send("protest", seat, {"ruling": ruling, "text": text}, at=m.now + after)


def resolve(m: Match, outcome: str, reason: str = "read the line again", **extra):
    return m.send("resolve_protest", MOD, {"protest": len(m.state.protests), "outcome": outcome, "reason": reason,
                                           **extra}, at=m.now + 100)


def test_a_captain_protests_within_the_window_and_not_after():
    m = negged(protest_seconds=30)
    ruled_at = m.state.rulings[1]["t"]
    events = protest(m, after=0)
    assert kinds(events) == ["protest_filed"] and not events[-1]["data"].get("score_changes")
    assert m.state.protests[0] == {"id": 1, "ruling": 1, "number": 1, "team": "t0", "seat": "h0", "verdict": "reject",
                                   "text": "the moon is on the line", "t": m.now, "status": "open", "reason": None}
    late = negged(protest_seconds=30)
    late.now = ruled_at + 30_001
    assert late.refuse("protest", "h0", {"ruling": 1, "text": "too late"}).code == "too_late"
    ontime = negged(protest_seconds=30)
    ontime.now = ruled_at + 30_000
    assert protest(ontime, after=0)


def test_protests_are_off_at_zero_seconds_and_the_default_is_a_minute():
    assert negged().rules["protest_seconds"] == 60
    m = negged(protest_seconds=0)
    assert m.refuse("protest", "h0", {"ruling": 1, "text": "x"}).args[0] == "Protests are off in this match."


def test_either_teams_captain_may_protest_but_nobody_else():
    m = negged()
    assert m.refuse("protest", "h1", {"ruling": 1, "text": "x"}).code == "not_captain"  # Ben is no captain
    assert m.refuse("protest", "bot", {"ruling": 1, "text": "x"}).code == "forbidden"
    assert m.refuse("protest", MOD, {"ruling": 1, "text": "x"}).code == "forbidden"
    assert m.refuse("protest", {"role": "player", "seat": "h2", "team": "t0"}, {"ruling": 1, "text": "x"}).code == "forbidden"
    protest(m, seat="h2", text="a neg? it was after the power mark")  # the other team's captain
    assert m.state.protests[0]["team"] == "t1"


def test_what_cannot_be_protested_is_refused_with_a_sentence():
    m = negged()
    assert m.refuse("protest", "h0", {"ruling": 9, "text": "x"}).code == "bad_ruling"
    assert m.refuse("protest", "h0", {"ruling": 1, "text": "  "}).code == "empty"
    assert m.refuse("protest", "h0", {"ruling": 1, "text": "x" * (MAX_PROTEST + 1)}).code == "too_long"
    protest(m)
    refused = m.refuse("protest", "h2", {"ruling": 1, "text": "we too"})
    assert refused.code == "already_open" and "already open" in refused.args[0]
    # A prompt is not final; a pass is no ruling.
    m.reveal_until(5)
    m.buzz("h2", at=m.now + 50)
    m.answer("h2", "maybe")
    m.rule("prompt", at=m.now + 100)
    assert m.refuse("protest", "h2", {"ruling": 2, "text": "x"}).code == "bad_ruling"
    m.send("pass", "h2", at=m.now + 100)
    assert m.state.rulings[3]["by"] == "pass"
    assert m.refuse("protest", "h2", {"ruling": 3, "text": "x"}).code == "bad_ruling"


def test_a_ruling_already_corrected_or_undone_cannot_be_protested():
    m = negged()
    m.play_to_close()
    m.send("override", MOD, {"ruling": 1, "verdict": "accept"}, at=m.now + 100)
    refused = m.refuse("protest", "h2", {"ruling": 1, "text": "x"})
    assert refused.code == "corrected" and "already corrected" in refused.args[0]
    undone = negged()
    undone.send("undo", MOD, at=undone.now + 100)
    assert undone.refuse("protest", "h0", {"ruling": 1, "text": "x"}).code == "bad_ruling"


def test_upheld_leaves_every_score_as_it_was():
    m = negged()
    protest(m)
    scores, rulings = dict(m.state.scores), dict(m.state.rulings)
    events = resolve(m, "upheld")  # allowed while the question is still played
    assert kinds(events) == ["protest_resolved"]
    assert m.state.scores == scores and m.state.rulings == rulings
    assert m.state.protests[0]["status"] == "upheld" and m.state.protests[0]["reason"] == "read the line again"
    assert m.refuse("resolve_protest", MOD, {"protest": 1, "outcome": "overturned", "reason": "x"}).code == "stale"
    # The team has had its protest of this ruling.
    assert m.refuse("protest", "h0", {"ruling": 1, "text": "again"}).code == "already_protested"


def test_overturned_moves_the_score_exactly_as_an_override_does():
    by_protest, by_override = negged(), negged()
    protest(by_protest)
    by_override.tick(by_override.now + 1000)  # the same moment, so both logs keep the same times
    for m in (by_protest, by_override):
        m.reveal_until(6)
        m.buzz("bot", at=m.now + 50)
        m.answer("bot", "Isaac Newton")
        m.rule("accept", at=m.now + 100)  # the bot's ten; the question closes
    refused = by_protest.refuse("resolve_protest", MOD, {"protest": 1, "outcome": "overturned", "reason": ""})
    assert refused.code == "no_reason"
    events = resolve(by_protest, "overturned", "the moon is on the line")
    assert kinds(events) == ["protest_resolved", "override"]
    assert events[1]["data"]["protest"] == 1 and events[1]["data"]["verdict"] == "accept"
    by_override.send("override", MOD, {"ruling": 1, "verdict": "accept", "reason": "the moon is on the line"},
                     at=by_override.now + 100)
    a, b = by_protest.state, by_override.state
    assert a.scores == b.scores == {"t0": 15, "t1": 0}  # Ann's power; the bot's later ten withdrawn
    assert a.history == b.history and a.rulings == b.rulings and a.q.result == b.q.result


def test_an_overturn_waits_for_the_question_to_close():
    m = negged()
    protest(m)
    refused = m.refuse("resolve_protest", MOD, {"protest": 1, "outcome": "overturned", "reason": "x"})
    assert refused.code == "question_open" and "once it closes" in refused.args[0]
    m.play_to_close()
    resolve(m, "overturned")
    assert m.state.scores == {"t0": 15, "t1": 0}
    assert [b["verdict"] for b in m.state.q.buzzes] == ["accept"]  # Ann's marker shows the ruling as it stands


def test_an_overturn_after_the_final_whistle_is_a_confirmed_correction():
    m = negged(questions=1)
    protest(m)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 100)
    assert m.state.status == "finished" and m.state.winner == "t1"
    refused = m.refuse("resolve_protest", MOD, {"protest": 1, "outcome": "overturned", "reason": "x"})
    assert refused.code == "confirm_correction"
    events = resolve(m, "overturned", confirm=True)
    override = events[-1]["data"]
    assert override["correction"] is True and override["score_changes"] == {"t0": 20}
    assert m.state.corrections[-1]["kind"] == "override" and m.state.winner == "t0"
    # Upholding needs no confirmation: no score moves.
    other = negged(questions=1)
    protest(other)
    other.play_to_close()
    other.send("next", MOD, at=other.now + 100)
    assert kinds(resolve(other, "upheld")) == ["protest_resolved"] and not other.state.corrections


def test_a_protest_filed_after_the_final_whistle_within_the_window():
    m = negged(questions=1)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 100)
    assert protest(m, after=100)


def test_the_text_is_the_teams_and_a_private_reason_stays_the_moderators():
    m = negged()
    filed = protest(m)[-1]
    assert project(filed, "player", "t0")["data"]["text"] == "the moon is on the line"
    for audience, team in (("player", "t1"), ("spectator", None), ("bot", None)):
        assert project(filed, audience, team)["data"]["text"] is None
    assert project(filed, "moderator")["data"]["text"] == "the moon is on the line"
    resolved = resolve(m, "upheld", "private note")[-1]
    assert project(resolved, "spectator")["data"]["reason"] is None
    assert project(resolved, "spectator")["data"]["outcome"] == "upheld"
    assert snapshot(m.state, "spectator")["protests"][0]["text"] is None
    assert snapshot(m.state, "spectator")["protests"][0]["reason"] is None
    assert snapshot(m.state, "player", "t0")["protests"][0]["text"] == "the moon is on the line"
    assert snapshot(m.state, "moderator")["protests"][0]["reason"] == "private note"
    public = negged()
    protest(public)
    shown = resolve(public, "upheld", "said to the room", public=True)[-1]
    assert project(shown, "spectator")["data"]["reason"] == "said to the room"


def test_the_frames_name_what_they_are_for_and_keep_the_text_short():
    ok = parse('{"type": "protest", "id": "cmd-00001", "data": {"ruling": 3, "text": "it was right", "seat": "h9"}}')
    assert ok.data == {"ruling": 3, "text": "it was right"}  # a seat a client adds never reaches the engine
    with pytest.raises(FrameError, match="the ruling"):
        parse('{"type": "protest", "id": "cmd-00001", "data": {"text": "it was right"}}')
    with pytest.raises(FrameError, match="too long"):
        parse('{"type": "protest", "id": "cmd-00001", "data": {"ruling": 1, "text": "%s"}}' % ("x" * 501))
    with pytest.raises(FrameError, match="the protest"):
        parse('{"type": "resolve_protest", "id": "cmd-00002", "data": {"outcome": "upheld"}}')
