"""Corrections after the final whistle show as corrections afterwards too: the box score has a
"Corrections after the final" section, the final score marked as corrected beside the score as it was
called, the overridden answer marked; the replay's data lists each correction at its moment (a marker on
the timeline); a reason the moderator kept private stays out of both."""
from __future__ import annotations

import csv
import io
import json

import pytest

from game.archive.boxscore import box_score, format_box_score
from game.archive.exports import boxscore_csv, gameplay_csv
from game.archive.match_archive import import_archive
from game.archive.replay import Replay
from tests.engine.played import PLAYED
from tests.engine.support import MOD
from tests.engine.test_efficientqa import new_match, to_phase

pytestmark = pytest.mark.django_db


def stored(events):
    return json.loads(json.dumps([dict(e, seq=i) for i, e in enumerate(events, 1)]))


def quizbowl_log():
    """The played quizbowl match: after the final, Ann's neg is overridden to correct (private reason
    "heard it wrong") and the computer gets 5 points for a protest (public reason "protest upheld")."""
    return stored(PLAYED["quizbowl"]().events)


def test_the_box_score_lists_the_corrections_and_the_score_as_called():
    replay = Replay(quizbowl_log())
    box = box_score(replay.final, replay.frames("spectator"))
    first, second = box["corrections"]
    assert first["kind"] == "override" and first["what"] == "Q1: Ann's answer overridden to accept"
    # Ann's neg became a power, and the bot's later ten is withdrawn: at most one side scores.
    assert first["changes"] == {"Humans": 20, "Computer": -10} and first["reason"] is None  # a private reason
    assert second == {"seq": second["seq"], "kind": "adjust", "what": "Computer adjusted by +5",
                      "reason": "protest upheld", "changes": {"Computer": 5}}
    called = {name: box["scores"][name] - sum(c["changes"].get(name, 0) for c in box["corrections"]) for name in box["scores"]}
    assert box["called_scores"] == called
    ann = next(a for a in box["rows"][0]["answers"] if a["who"] == "Ann")
    assert ann["corrected"] and ann["overridden"]
    text = format_box_score(box)
    assert "Corrections after the final:" in text and "heard it wrong" not in text
    assert "As called at the final whistle: " in text and "Final score, corrected: " in text


def test_the_box_score_page_shows_the_corrections(client):
    events = quizbowl_log()
    header = {"format": "exhibition-match", "version": 1, "events": len(events),
              "match": {"code": "CORR01", "title": "Corrected match", "format_name": "quizbowl"}}
    match = import_archive([json.dumps(header)] + [json.dumps(e) for e in events])
    page = client.get(f"/m/{match.code}/boxscore").content.decode()
    assert "Corrections after the final" in page and "corrected after the final" in page
    assert 'id="called-score"' in page and "overridden after the final" in page
    assert "protest upheld" in page and "heard it wrong" not in page


def test_the_replay_lists_each_correction_at_its_moment_with_the_reasons_its_audience_saw():
    events = quizbowl_log()
    public, staff = Replay(events).bundle("spectator"), Replay(events).bundle("moderator")
    ended = next(e["seq"] for e in events if e["type"] == "match_ended")
    assert [(c["kind"], c["reason"]) for c in public["corrections"]] == [("override", None), ("adjust", "protest upheld")]
    assert [c["reason"] for c in staff["corrections"]] == ["heard it wrong", "protest upheld"]
    assert all(c["seq"] > ended for c in public["corrections"])
    assert public["corrections"][0]["score_changes"] == {"t0": 20, "t1": -10}
    # A match with no correction has none to show.
    clean = [e for e in events if not e["data"].get("correction")]
    assert Replay(clean).bundle("spectator")["corrections"] == []


def _table(text: str) -> list[dict]:
    """The first table of a CSV export (the box score's answers; the gameplay CSV's only one)."""
    return list(csv.DictReader(io.StringIO(text.split("\n\n")[0])))


def test_the_csvs_mark_a_withdrawn_ruling_and_the_players_table_counts_only_rulings_that_stand():
    """Q1: Ann's neg is overridden to a power after the final, so the bot's later ten on it is withdrawn:
    both CSVs say so in a column of their own, and neither table counts the bot's withdrawn answer right."""
    replay = Replay(quizbowl_log())
    frames = replay.frames("spectator")
    box = box_score(replay.final, frames)
    answers = [row for row in _table(boxscore_csv(box)) if row["question_number"] == "1"]
    ann, bot = (next(row for row in answers if row["kind"] == kind) for kind in ("human", "bot"))
    assert (ann["ruling"], ann["overridden"], ann["withdrawn"], ann["points"]) == ("accept", "True", "False", "15")
    assert (bot["ruling"], bot["overridden"], bot["withdrawn"], bot["points"]) == ("accept", "False", "True", "0")
    buzzes = [row for row in _table(gameplay_csv(replay.final, frames)) if row["question_number"] == "1"]
    assert [(row["kind"], row["overridden"], row["withdrawn"], row["points"]) for row in buzzes] == [
        ("human", "True", "False", "15"), ("bot", "False", "True", "0")]
    players = list(csv.DictReader(io.StringIO(boxscore_csv(box).split("\n\n")[1])))
    standing = {name: 0 for name in (p["name"] for p in box["players"])}
    for row in box["rows"]:
        for a in row["answers"]:
            if a["verdict"] == "accept" and not a["withdrawn"] and not row["thrown_out"]:
                standing[a["who"]] += 1
    assert {p["player"]: int(p["correct"]) for p in players} == standing
    assert any(a["withdrawn"] and a["verdict"] == "accept" for row in box["rows"] for a in row["answers"])


def test_a_sides_answer_overridden_reads_with_a_correct_possessive():
    """A spoken answer ruled for the team with the floor has no seat: the correction names the team,
    "Humans' answer", never "Humans's"."""
    m = new_match({"tiebreakers": 0}, n=1)
    to_phase(m, 2)
    m.rule("accept", heard="Pilandre")
    m.send("next", MOD, at=m.now + 1000)
    assert m.state.status == "finished"
    m.send("override", MOD, {"ruling": 1, "verdict": "reject", "confirm": True})
    assert [c["what"] for c in box_score(m.state)["corrections"]] == ["Q1: Humans' answer overridden to reject"]
