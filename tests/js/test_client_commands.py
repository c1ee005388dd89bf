"""The browser's command handling (static/js/match-socket.js MatchClient), run under Node with a
fake socket and a fake clock: every command is sent with an id, sent again with the same id when
it is not answered or the connection drops, and always settled (answered, refused, or given up
with a message), never left waiting. After a close that reconnecting cannot mend (the seat went to
another device, was removed or left) it stays closed and says why."""
import json
import shutil
import subprocess

import pytest

from tests.conftest import need_service
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "client_commands.mjs"


def run(scenario: str) -> dict:
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the browser's client code in tests)")
    done = subprocess.run([node, str(HARNESS), str(ROOT), scenario], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_an_unanswered_command_is_sent_again_with_the_same_id_until_answered():
    out = run("retry_until_answered")
    sent = out["commands"]
    assert len(sent) == 3 and len({c["id"] for c in sent}) == 1, "three sends, one id"
    assert [s["name"] for s in out["settled"]] == ["adjust"] and out["settled"][0]["ok"]


def test_a_command_is_sent_again_after_a_reconnect_with_the_same_id():
    out = run("resent_after_reconnect")
    buzzes = [c for c in out["commands"] if c["type"] == "buzz"]
    assert len(buzzes) == 2 and buzzes[0]["id"] == buzzes[1]["id"]
    assert out["settled"] == [{"name": "buzz", "ok": True, "data": {"seqs": [9]}, "at": out["settled"][0]["at"]}]


def test_try_again_errors_are_retried_and_a_real_refusal_settles_the_command():
    out = run("try_again_errors")
    assert len(out["commands"]) == 2 and len({c["id"] for c in out["commands"]}) == 1
    assert out["settled"][0]["ok"] is False and out["settled"][0]["code"] == "stale"


def test_a_command_nobody_answers_is_given_up_with_a_message():
    out = run("gives_up")
    [settled] = out["settled"]
    assert settled["ok"] is False and settled["code"] == "timeout"
    assert "has not answered" in settled["message"]
    assert len({c["id"] for c in out["commands"]}) == 1 and len(out["commands"]) >= 5


def test_a_socket_closed_for_a_bad_frame_reconnects_as_after_any_close():
    out = run("closed_for_a_bad_frame")  # 1009 (over the size bound), then 1007 (broken UTF-8)
    assert out["hellos"] == [1, 1, 1], "each close is followed by a new socket that says hello"


@pytest.mark.parametrize("code, reason, shown", [
    (4409, "This seat is now playing on another device.", "This seat is now playing on another device."),
    (4410, "", "The moderator removed you from this seat."),  # no reason from the server: the page's own words
    (4411, "You left this match.", "You left this match."),
    (4412, "", "Your seat's pass has expired. Join again with the match code to keep playing."),
    (4403, "", "This page may not open the match any more."),
])
def test_a_seat_closed_for_good_is_not_reopened_and_the_page_is_told_why(code, reason, shown):
    out = run(f"closed_for_good:{code}:{reason}")
    assert out["sockets"] == 1, "no reconnect"
    assert out["ended"] == [{"code": code, "reason": shown}]
    assert [(s["name"], s["code"], s["message"]) for s in out["settled"]] == [("buzz", "ended", shown)]


def test_a_snapshot_sent_in_parts_is_joined_and_applied_once_whole(tmp_path, monkeypatch):
    """The server's own split (game/live/catchup.py): parts are joined in order; a part out of its
    place (a snapshot cut short by a newer one) is dropped, and only a whole snapshot is applied."""
    from game.live import catchup

    monkeypatch.setattr(catchup, "PART_CHARS", 40)
    history = [{"text": f"Question {n}: \"quoted\", accented é, emoji 🎉", "index": n} for n in range(5)]
    old = catchup.in_parts(catchup.encode({"type": "snapshot", "data": {"seq": 5, "history": history[:2]}}), 5)
    new = catchup.in_parts(catchup.encode({"type": "snapshot", "data": {"seq": 9, "history": history}}), 9)
    assert len(old) > 2 and len(new) > 2
    frames = old[:2] + new[1:2] + new  # seq 5 cut short; a part of 9 before its first is out of place
    path = tmp_path / "frames.json"
    path.write_text(json.dumps(frames), encoding="utf-8")
    out = run(f"snapshot_in_parts:{path}")
    *seqs, texts = out["marks"]
    assert seqs == [0] * (len(frames) - 1) + [9], "applied once, when the last part of 9 came"
    assert texts == "|".join(h["text"] for h in history)


def test_an_ordinary_drop_still_reconnects():
    out = run("closed_for_good:1006:")
    assert out["sockets"] == 2 and out["ended"] == []


def test_a_heartbeat_ahead_waits_for_the_frames_on_their_way_before_asking_for_a_snapshot():
    """The heartbeat names the last stored seq; a frame still held for the play-out delay comes after
    it. A snapshot asked for at once would skip that frame (its feed line, what the page says aloud)."""
    out = run("heartbeat_ahead")
    assert out["marks"] == [0, 1], "behind for the grace plus the delay: one resync, and not before"
    assert out["resyncs"] == 1 and out["seq"] == 1


def test_a_gap_is_filled_by_the_missed_frames_and_an_undo_still_asks_for_a_snapshot():
    """A missing frame: the client asks for the frames after its last seq and folds each (its feed line,
    what the page says aloud); the fold after an undo cannot rebuild the question: a snapshot."""
    out = run("gap_caught_up_by_frames")
    assert out["marks"] == [1, 4, 2, 6], "asked once per gap; the missed frames folded; after the undo nothing until the snapshot"
    assert out["asked"] == [{"last_seq": 1}, {"last_seq": 4}, None]


def test_an_ask_for_missed_frames_that_is_refused_is_made_again_at_the_next_gap():
    """A resync refused with slow_down would leave the page behind until it reconnects: it asks again
    at the next sign of a gap, but not before ASK_AGAIN_MS (no ask per frame while an answer may come)."""
    out = run("ask_again")
    assert out["marks"] == [1, 2]
    assert out["asked"] == [{"last_seq": 1}, {"last_seq": 1}]
