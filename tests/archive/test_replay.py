"""The replay of a played match: any moment rebuilt from the log equals what every audience had live,
and the public replay holds only what the spectator projection let through."""
from __future__ import annotations

import json
import pickle

import pytest

from game.engine.api import AUDIENCES, fold, project, snapshot
from game.archive.replay import Replay, timeline
from tests.engine.played import PLAYED

AUDIENCE_TEAMS = [(a, t) for a in AUDIENCES for t in (("t0", "t1") if a == "player" else (None,))]


def stored(events):
    """The log as the database hands it back: numbered, through JSON."""
    return json.loads(json.dumps([dict(e, seq=i) for i, e in enumerate(events, 1)]))


@pytest.fixture(scope="module", params=sorted(PLAYED))
def played(request):
    return PLAYED[request.param]()


@pytest.mark.parametrize("every", [1, 7, 250])
def test_the_state_at_every_command_and_the_end_equals_the_live_state_for_every_audience(played, every):
    replay = Replay(stored(played.events), every=every)
    assert replay.last_seq == len(played.events)
    for seq, live in played.live.items():
        live_state = pickle.loads(live)
        assert replay.state_at(seq) == live_state, f"the state at seq {seq} is not the live one"
        for audience, team in AUDIENCE_TEAMS:
            assert replay.snapshot_at(seq, audience, team) == json.loads(json.dumps(snapshot(live_state, audience, team))), \
                f"{audience} {team} sees something else at seq {seq}"
    assert replay.final == played.state


def test_seeking_back_and_forth_does_not_disturb_the_kept_states(played):
    replay = Replay(stored(played.events), every=5)
    order = [len(played.events), 3, 17, 6, len(played.events) - 1, 11, 11]
    first = {seq: pickle.dumps(replay.state_at(seq)) for seq in order}
    for seq in reversed(order):
        state = replay.state_at(seq)
        assert pickle.dumps(state) == first[seq]
        if state is not None:
            state.scores["t0"] = 999  # a caller changing its copy changes nothing kept
    assert {seq: pickle.dumps(replay.state_at(seq)) for seq in order} == first


def test_the_public_replay_is_the_spectator_projection_and_nothing_more(played):
    events = stored(played.events)
    bundle = Replay(events).bundle("spectator")
    assert bundle["frames"] == [project(e, "spectator") for e in events]
    text = json.dumps(bundle)
    created = events[0]["data"]
    played_indexes = {e["data"]["index"] for e in events if e["type"] == "question_started"}
    for i, q in enumerate(created["questions"]):
        if i not in played_indexes:  # a reserve question nobody heard: not a word of it, nor its answer
            assert q["answer"] not in text
            assert not [w for w in _words(q["text"]) if w in text.lower()], q["text"]
    for e in events:  # a question thrown out before it was read to the end: its unread words stay unread
        if e["type"] == "question_thrown_out":
            started = max(x["seq"] for x in events[: e["seq"]] if x["type"] == "question_started")
            read = max(x["data"]["index"] for x in events[started: e["seq"]] if x["type"] == "word_revealed")
            unread = _words(created["questions"][e["data"]["index"]]["text"])[read + 1:]
            assert unread and not [w for w in unread if w in text.lower()]
    for kind in ("chat", "judge_suggested"):
        assert not [f for f in bundle["frames"] if f["type"] == kind]
    # The hall saw that a team submitted, never what; a bot's miss, never its reason.
    assert all(f["data"]["text"] is None for f in bundle["frames"] if f["type"] == "submission")
    assert all(set(f["data"]) == {"seat", "status"} for f in bundle["frames"] if f["type"] == "bot_missed")
    assert "surely gravity" not in text  # team chat stays in the team
    for q in bundle["questions"]:
        assert q["suggestions"] == [] and q["refused"] == []


def _words(text: str) -> list[str]:
    return [w.strip(".,?").lower() for w in text.split() if w != "(*)"]


def test_the_staff_replay_has_the_answer_lines_and_judge_suggestions():
    m = PLAYED["efficientqa"]()
    m.send("judge", {"role": "system"}, {"for": 5, "seat": "h0", "team": "t0", "text": "gravity", "verdict": "reject",
                                          "confidence": 0.9, "reason": "no clause matches"})
    bundle = Replay(stored(m.events)).bundle("moderator")
    assert bundle["frames"][0]["data"]["questions"][0]["answer"]
    assert bundle["questions"][-1]["suggestions"][0]["reason"] == "no clause matches"


def test_an_undo_carries_the_snapshot_the_live_screen_resynced_to(played):
    events = stored(played.events)
    bundle = Replay(events).bundle("spectator")
    undos = [e["seq"] for e in events if e["type"] == "undo"]
    assert undos and sorted(int(k) for k in bundle["resync"]) == undos
    live = pickle.loads(played.live[undos[0]])
    assert bundle["resync"][undos[0]] == snapshot(live, "spectator")


def test_the_timeline_places_buzzes_guesses_and_outcomes():
    m = PLAYED["quizbowl"]()
    frames = [project(e, "spectator") for e in stored(m.events)]
    q1, q2, q3, q3b = timeline(frames)
    assert [(b["name"], b["word"], b["verdict"]) for b in q1["buzzes"]] == [("Ann", 3, "accept"), ("Qbot", 6, "accept")]
    # The hall saw the bot's thinking only once Ann's neg locked the humans out: then every guess it had
    # made (0.2, 0.35), all at that moment, and the rest as it came. The staff replay had each as it came.
    released = next(e["seq"] for e in stored(m.events) if e["type"] == "bot_guesses_released")
    assert [(g["confidence"], g["seq"] == released) for g in q1["guesses"]["bot"]] == [(0.2, True), (0.35, True), (0.7, False)]
    staff = timeline([project(e, "moderator") for e in stored(m.events)])[0]
    assert [(g["confidence"], g["seq"] < released) for g in staff["guesses"]["bot"]] == [(0.2, True), (0.35, True), (0.7, False)]
    assert q1["result"]["team"] == "t0" and q1["words"] == 12 and q1["answer"]  # the override made Ann's answer count
    assert [(b["name"], b["verdict"]) for b in q2["buzzes"]] == [("Cho", "reject")] and q2["dead"]
    assert [r["verdict"] for r in q2["rulings"]] == ["prompt", "reject"]  # the undone accept is gone
    assert q3["thrown_out"] and q3["reason"] == "misread" and q3["answer"] is None  # never read to the end
    # The efficientqa match's throw-out reason was the moderator's own note: the public replay never has it.
    efficientqa = timeline([project(e, "spectator") for e in stored(PLAYED["efficientqa"]().events)])
    assert [q["reason"] for q in efficientqa if q["thrown_out"]] == [""]
    assert q3b["replaces"] is not None and q3b["result"]["team"] == "t0"
    # The staff audit times each buzz from the question's first word.
    first_words = [f["t"] for f in frames if f["type"] == "word_revealed" and f["data"]["index"] == 0]
    assert [q["first_word_t"] for q in (q1, q2, q3, q3b)] == first_words


def test_event_types_the_replay_does_not_know_are_carried_and_ignored():
    m = PLAYED["quizbowl"]()
    frames = [project(e, "moderator") for e in stored(m.events)]
    start = next(i for i, f in enumerate(frames) if f["type"] == "buzz")
    refused = {"seq": frames[start]["seq"], "t": frames[start]["t"], "type": "buzz_refused",
               "data": {"seat": "h2", "team": "t1", "received": 1, "word": 3, "seen": 2, "code": "beaten",
                        "reason": "Ann buzzed first."}}
    odd = {"seq": 0, "t": 0, "type": "something_new", "data": {"x": 1}}
    q1 = timeline(frames[: start + 1] + [refused, odd] + frames[start + 1:])[0]
    assert q1["refused"][0]["name"] == "Cho" and q1["refused"][0]["reason"] == "Ann buzzed first."
    assert len(q1["buzzes"]) == 2


def test_a_log_with_an_event_type_this_engine_does_not_know_still_replays():
    m = PLAYED["quizbowl"]()
    at = next(i for i, e in enumerate(m.events) if e["type"] == "buzz")
    events = m.events[:at] + [{"type": "from_a_newer_version", "t": m.events[at]["t"], "data": {"x": 1}}] + m.events[at:]
    replay = Replay(stored(events), every=7)
    final = replay.final
    assert (final.scores, final.winner, final.history) == (m.state.scores, m.state.winner, m.state.history)
    assert final.seq == len(events)
    assert replay.state_at(at + 1).scores == fold(m.events[:at]).scores
    bundle = replay.bundle("spectator")
    assert [q["number"] for q in bundle["questions"]] == [q["number"] for q in timeline(
        [project(e, "spectator") for e in stored(m.events)])]
