"""QBJ out: every match exported as a QBJ Match valid against the published schema (read from the shared
data folder), its numbers the box score's, for every built-in format; and an event as a QBJ Tournament."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from game.archive.boxscore import box_score
from game.demo import ensure_demo_packet
from game.engine.formats import PRESETS
from game.management.commands.simulate import play_simulated_match, simulated_teams
from game.archive.qbj import match_qbj, tournament_qbj
from game.archive.replay import Replay, load_log
from game.simulation import SimulatedCompetitor, VirtualMatch
from game.match_setup import TeamSpec, create_match_record
from game.runner import MatchRunner
from tests.qbj_schema import errors_of, qbj_validator
from tests.engine.played import PLAYED
from tests.archive.test_corrections_after_the_final import stored

pytestmark = pytest.mark.django_db

HOSTILE_NAME = '=HYPERLINK("http://e.vil","x")'


@pytest.fixture(scope="module")
def validator():
    return qbj_validator()


def exported_qbj(match, tmp_path) -> dict:
    call_command("export_match", match.code, "-o", str(tmp_path), stdout=io.StringIO())
    return json.loads((tmp_path / f"{match.code}.qbj").read_text(encoding="utf-8"))


def agrees_with_the_box_score(qbj: dict, state, frames) -> None:
    """Every number in the QBJ Match, checked against the box score read on its own."""
    box = box_score(state, frames)
    teams = {m["team"]["id"]: m["team"]["name"] for m in qbj["match_teams"]}
    players = {p["id"]: p["name"] for m in qbj["match_teams"] for p in m["team"]["players"]}
    assert {teams[m["team"]["id"]]: m["points"] for m in qbj["match_teams"]} == box["scores"]
    rows = {row["number"]: row for row in box["rows"] if not row["thrown_out"]}
    assert [q["question_number"] for q in qbj["match_questions"]] == list(rows)
    assert qbj["tossups_read"] == len(rows)
    for q in qbj["match_questions"]:
        row = rows[q["question_number"]]
        assert q["tossup_question"]["external_id"] in {r["qid"] for r in box["rows"] if r["number"] == row["number"]}
        points = {teams[b["team"]["$ref"]]: b["result"]["value"] for b in q["buzzes"]}
        assert {t: p for t, p in points.items() if p} == row["points"], q["question_number"]
        assert len(q["buzzes"]) <= len(teams)
        for b in q["buzzes"]:
            said = [a for a in row["answers"] if a["who"] == players[b["player"]["$ref"]] and a["word"] is not None]
            if "buzz_position" in b:  # 0-based: the word on screen at the buzz
                assert b["buzz_position"]["word_index"] in {a["word"] - 1 for a in said}
    stats = {p["name"]: p for p in box["players"]}
    for m in qbj["match_teams"]:
        for mp in m["match_players"]:
            name = players[mp["player"]["$ref"]]
            earned = sum(c["answer_type"]["value"] * c["number"] for c in mp["answer_counts"])
            assert earned == stats[name]["points"], name
            answered = sum(c["number"] for c in mp["answer_counts"])
            # QBJ keeps a withdrawn answer as a buzz worth 0; the box score's players count only what stands.
            withdrawn = sum(1 for row in rows.values() for a in row["answers"]
                            if a["who"] == name and a["withdrawn"] and a["verdict"] != "prompt")
            assert answered == stats[name]["correct"] + stats[name]["wrong"] + withdrawn, name
            assert mp["tossups_heard"] == len(rows)


@pytest.mark.parametrize("fmt", sorted(PRESETS))
def test_export_match_writes_a_valid_qbj_match_whose_numbers_are_the_box_scores(validator, tmp_path, fmt):
    state, match = play_simulated_match(ensure_demo_packet(), fmt, seed=5, questions=6)
    qbj = exported_qbj(match, tmp_path)
    assert errors_of(validator, qbj) == []
    assert qbj["type"] == "Match" and qbj["id"] == f"match_{match.code}"
    replay = Replay(load_log(match))
    agrees_with_the_box_score(qbj, replay.final, replay.frames("spectator"))
    bots = {s["name"] for s in state.seats.values() if s["kind"] == "bot"}
    computer = next(m["team"] for m in qbj["match_teams"] if m["team"]["name"] == "Computer")
    assert bots == {p["name"] for p in computer["players"]}, "each bot seat is a player of the computer team"
    assert any(b.get("buzz_position") for q in qbj["match_questions"] for b in q["buzzes"])


@pytest.mark.parametrize("fmt", sorted(PLAYED))
def test_prompts_throw_outs_team_phases_and_corrections_map_onto_qbj(validator, fmt):
    """The engine's played matches: a neg, a prompt, an undo, a throw-out and its replacement, team
    phases, an override and an adjustment after the final whistle."""
    replay = Replay(stored(PLAYED[fmt]().events))
    state, frames = replay.final, replay.frames("spectator")
    qbj = match_qbj(state, frames, "match_played")
    assert errors_of(validator, qbj) == []
    agrees_with_the_box_score(qbj, state, frames)
    replaced = [q for q in qbj["match_questions"] if "replacement_tossup_question" in q]
    assert len(replaced) == 1 and replaced[0]["tossup_question"] != replaced[0]["replacement_tossup_question"]
    assert "Points outside the questions" in qbj["notes"] and "Correction:" in qbj["notes"]
    # The played matches' protests: each in the notes with its outcome; the team's own words never.
    protests = [line for line in qbj["notes"].split("\n") if line.startswith("Protest:")]
    assert len(protests) == len(state.protests) >= 1
    assert [f"question {p['number']}," in line and p["status"] in line for p, line in zip(state.protests, protests)] \
        == [True] * len(protests)
    assert not any(p["text"] in qbj["notes"] for p in state.protests)
    values = [b["result"]["value"] for q in qbj["match_questions"] for b in q["buzzes"]]
    if fmt == "quizbowl":
        # Q1: Ann's neg overridden to a power after the whistle; the bot's ten withdrawn.
        first = qbj["match_questions"][0]["buzzes"]
        assert [b["result"]["value"] for b in first] == [15, 0]
        assert first[0]["buzz_position"]["word_index"] == 2  # buzzed with 3 words on screen
        assert 0 not in values[2:]  # Cho's prompt then wrong answer is one answer ruled wrong (-5), not a prompt
    else:
        # Q1: Ann's reject in the buzz phase overturned on protest (+3, at the word she buzzed on); Q2: the
        # computer's team answer in phase 3 (no buzz position).
        first = qbj["match_questions"][0]["buzzes"]
        assert sorted(b["result"]["value"] for b in first) == [0, 3]
        assert [b["buzz_position"]["word_index"] for b in first if b["result"]["value"] == 3] == [2]
        team_answer = [b for b in qbj["match_questions"][1]["buzzes"] if b["result"]["value"] == 1]
        assert len(team_answer) == 1 and "buzz_position" not in team_answer[0]
        assert "phase 2 team answer" in qbj["notes"]


def test_a_spreadsheet_hostile_team_name_stays_plain_data(validator, tmp_path):
    teams = simulated_teams("quizbowl")
    teams[0] = TeamSpec(HOSTILE_NAME, teams[0].seats)
    match = create_match_record(title="Hostile", packet=ensure_demo_packet(), format_name="quizbowl",
                                overrides={"questions": 3}, teams=teams, seed=1)
    runner = MatchRunner(match)
    VirtualMatch(runner, [SimulatedCompetitor(s["id"], s["team"], "bot" if s["kind"] == "bot" else "player")
                          for s in runner.state.seats.values()], seed=1, start_ms=1_000_000).run()
    qbj = exported_qbj(match, tmp_path)
    assert errors_of(validator, qbj) == []
    assert HOSTILE_NAME in [m["team"]["name"] for m in qbj["match_teams"]]
    assert f"'{HOSTILE_NAME}" not in (tmp_path / f"{match.code}.qbj").read_text(encoding="utf-8")


def test_an_event_is_one_qbj_tournament_with_each_team_once(validator):
    packet = ensure_demo_packet()
    matches = [play_simulated_match(packet, "efficientqa", seed=seed, questions=3)[1] for seed in (1, 2, 3)]
    qbj = tournament_qbj("Exhibition night", matches, phases=["Preliminaries", "Preliminaries", "Final"])
    assert errors_of(validator, qbj) == []
    by_type: dict = {}
    for obj in qbj["objects"]:
        by_type.setdefault(obj["type"], []).append(obj)
    assert len(by_type["Tournament"]) == 1 and len(by_type["Match"]) == 3
    tournament = by_type["Tournament"][0]
    assert [(p["name"], len(p["rounds"])) for p in tournament["phases"]] == [("Preliminaries", 2), ("Final", 1)]
    assert sorted(r["name"] for r in by_type["Registration"]) == ["Computer", "Humans"]
    defined = {o["id"] for o in by_type["Match"] + by_type["Registration"]}
    defined |= {t["id"] for r in by_type["Registration"] for t in r["teams"]}
    defined |= {p["id"] for r in by_type["Registration"] for t in r["teams"] for p in t["players"]}
    refs = set()

    def walk(value):
        if isinstance(value, dict):
            if "$ref" in value:
                refs.add(value["$ref"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(qbj)
    assert refs <= defined, "no reference dangles"
    for match, obj in zip(matches, by_type["Match"]):
        assert {m["points"] for m in obj["match_teams"]} == set(Replay(load_log(match)).final.scores.values())
    with pytest.raises(ValueError, match="one per match"):
        tournament_qbj("x", matches, phases=["Final"])


def test_the_schema_rejects_what_the_export_must_not_write(validator):
    """The validator is not a rubber stamp: a buzz with no player, or a field outside the schema, fails."""
    replay = Replay(stored(PLAYED["quizbowl"]().events))
    qbj = match_qbj(replay.final, replay.frames("spectator"), "m")
    broken = json.loads(json.dumps(qbj))
    del broken["match_questions"][0]["buzzes"][0]["player"]
    assert errors_of(validator, broken)
    broken = dict(qbj, answer="Isaac Newton")
    assert errors_of(validator, broken)
