"""The replay's summary (game/archive/replay.py timeline) is one reading of the log; the engine's fold is
the other. At every seq of generated matches, the summary built from the moderator's frames so far says
what the fold says at that seq: which questions were played and closed or thrown out, how many words
of the current one were shown, every ruling standing with its verdict and points, and each question's
result. A change to either reading that makes them disagree fails here with the seq and the event."""
import json

from hypothesis import given, strategies as st

from game.archive.replay import Replay, timeline

from .test_properties import PROPERTY_SETTINGS, formats, play


def _rulings_of_fold(state) -> dict:
    return {rid: (r["verdict"], r["points"], bool(r.get("withdrawn"))) for rid, r in state.rulings.items()}


def _rulings_of_summary(questions) -> dict:
    return {r["id"]: (r["verdict"], r["points"], bool(r.get("withdrawn"))) for q in questions for r in q["rulings"]}


def _result(result):
    return None if result is None else (result.get("team"), result.get("points"))


@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_replay_summary_says_what_the_fold_says_at_every_seq(preset, data):
    run = play(data, preset)
    replay = Replay([dict(e, seq=seq) for seq, e in enumerate(json.loads(json.dumps(run.log)), 1)], every=5)
    frames = replay.frames("moderator")
    for seq in range(1, replay.last_seq + 1):
        state, event = replay.state_at(seq), replay.events[seq - 1]
        where = f"at seq {seq} ({event['type']})"
        summary = timeline(frames[:seq])
        assert _rulings_of_summary(summary) == _rulings_of_fold(state), f"{where}: the rulings differ"

        closed = [q for q in summary if q["end_seq"] is not None]
        assert [(q["number"], q["thrown_out"]) for q in closed] == \
               [(h["number"], h["thrown_out"]) for h in state.history], f"{where}: the questions played differ"
        for q, h in zip(closed, state.history):
            if not h["thrown_out"]:
                assert _result(q["result"]) == _result(h["result"]), f"{where}: question {q['number']}'s result"

        current = state.q
        # A bonus is played after its tossup closed: the timeline's question ended there, as its history entry did.
        if current is not None and not current.closed and current.bonus is None:
            assert summary and summary[-1]["number"] == current.number, f"{where}: the current question"
            assert summary[-1]["revealed"] == current.revealed, f"{where}: the words shown"
            assert summary[-1]["end_seq"] is None, f"{where}: an open question shown as ended"
