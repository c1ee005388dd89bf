"""Protests after the match: the box score's protests section (per team filed, upheld, overturned), its
CSV table (cells through the formula guard), and the replay's timeline, where each protest and its
resolution sit at their seq; the team's text and a private reason reach only those who saw them live."""
from __future__ import annotations

import csv
import io
import json

import pytest

from game.archive.boxscore import box_score, format_box_score
from game.archive.exports import PROTEST_COLUMNS, boxscore_csv
from game.archive.match_archive import import_archive
from game.archive.replay import Replay
from tests.engine.played import PLAYED
from tests.engine.support import Match

pytestmark = pytest.mark.django_db


def stored(events):
    return json.loads(json.dumps([dict(e, seq=i) for i, e in enumerate(events, 1)]))


def efficientqa():
    """Ann's protest of her phase-1 miss, overturned in play; the computer's protest of its big bot's miss,
    overturned after the final whistle (public reason "a fair reading")."""
    return Replay(stored(PLAYED["efficientqa"]().events))


def test_the_box_score_lists_each_protest_and_counts_them_per_team():
    replay = efficientqa()
    box = box_score(replay.final, replay.frames("spectator"))
    first, second = box["protests"]["rows"]
    assert first == {"number": 1, "team": "Humans", "answer_of": "Ann", "answer": "the moon", "verdict": "reject",
                     "outcome": "overturned", "now": "accept", "reason": None}  # the moderator kept the reason
    assert (second["team"], second["answer_of"], second["outcome"], second["reason"]) == \
        ("Computer", "Big", "overturned", "a fair reading")
    assert box["protests"]["teams"] == {"Humans": {"filed": 1, "upheld": 0, "overturned": 1, "open": 0},
                                        "Computer": {"filed": 1, "upheld": 0, "overturned": 1, "open": 0}}
    # The overturn after the whistle is a correction like any other.
    assert [c["kind"] for c in box["corrections"]] == ["adjust", "override"]
    text = format_box_score(box)
    assert "Q1: Humans protested Ann's reject — overturned" in text and "the moon is on the line" not in text


def test_the_box_score_csv_has_a_protests_table():
    replay = Replay(stored(PLAYED["quizbowl"]().events))
    tables = boxscore_csv(box_score(replay.final, replay.frames("spectator"))).split("\n\n")
    rows = list(csv.reader(io.StringIO(tables[-1])))
    assert tuple(rows[0]) == PROTEST_COLUMNS
    assert rows[1:] == [["3", "Computer", "Ben", "tesla coil", "accept", "upheld", "accept", "the line accepts it"]]


def test_a_protested_answer_typed_as_a_formula_is_written_as_text():
    m = Match("quizbowl", {"questions": 1, "tiebreakers": 0})
    m.start(0)
    m.reveal_until(3)
    m.buzz("h0", at=m.now + 50)
    m.answer("h0", "=HYPERLINK(\"http://x\")")
    m.rule("reject", at=m.now + 100)
    m.send("protest", "h0", {"ruling": 1, "text": "-2+3"}, at=m.now + 100)
    replay = Replay(stored(m.events))
    out = boxscore_csv(box_score(replay.final, replay.frames("spectator")))
    row = list(csv.reader(io.StringIO(out.split("\n\n")[-1])))[1]
    assert row[3] == "'=HYPERLINK(\"http://x\")" and row[5] == "open"


def test_the_replay_puts_each_protest_and_its_resolution_at_their_seq():
    replay = efficientqa()
    events = replay.events
    filed = [e["seq"] for e in events if e["type"] == "protest_filed"]
    resolved = [e["seq"] for e in events if e["type"] == "protest_resolved"]
    public = Replay(events).bundle("spectator")["questions"]
    staff = Replay(events).bundle("moderator")["questions"]
    q1 = public[0]
    assert [(p["seq"], p["resolved_seq"], p["outcome"], p["team"]) for p in q1["protests"]] == \
        [(filed[0], resolved[0], "overturned", "t0")]
    assert q1["protests"][0]["text"] is None and q1["protests"][0]["reason"] is None  # the team's; the moderator's
    assert staff[0]["protests"][0]["text"] == "Zebulon: the moon is right"
    assert staff[0]["protests"][0]["reason"] == "the moon is on the line"
    last = public[-1]  # the replacement question 2, protested in play, resolved after the whistle
    assert [(p["seq"], p["resolved_seq"], p["reason"]) for p in last["protests"]] == [(filed[1], resolved[1], "a fair reading")]
    assert q1["result"]["team"] == "t0"  # the overturn's override rescored the question


def test_the_box_score_page_shows_the_protests(client):
    events = efficientqa().events
    header = {"format": "exhibition-match", "version": 1, "events": len(events),
              "match": {"code": "PROT01", "title": "Protested match", "format_name": "efficientqa"}}
    match = import_archive([json.dumps(header)] + [json.dumps(e) for e in events])
    page = client.get(f"/m/{match.code}/boxscore").content.decode()
    assert 'id="protests"' in page and "1 filed, 0 upheld, 1 overturned" in page
    assert "a fair reading" in page and "the moon is on the line" not in page and "Zebulon: the moon" not in page
