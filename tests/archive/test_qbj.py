"""QBJ out: every match exported as a QBJ Match, and an event as a QBJ Tournament, valid against the
published schema (read from the shared data folder) and taken by the statistics programs that read
QBJ (every rule of tests/qbj_readers.py), with every team's and player's points the box score's."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from game.archive.boxscore import box_score
from game.demo import ensure_demo_bonus_packet, ensure_demo_packet
from game.engine.formats import PRESETS
from game.management.commands.simulate import play_simulated_match, simulated_teams
from game.archive.qbj import match_qbj, tournament_qbj
from game.archive.replay import Replay, load_log
from game.simulation import SimulatedCompetitor, VirtualMatch
from game.match_setup import TeamSpec, create_match_record
from game.models import Match
from game.runner import MatchRunner
from tests.qbj_readers import (match_file_problems, modaq_points, stats_points, tournament_matches,
                               tournament_problems)
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


def question_words(state) -> dict[int, int]:
    """The words of each question of the match, by the tossup number the QBJ gives it."""
    return {index + 1: len(q.words) for index, q in enumerate(state.questions)}


def state_adjusted_teams(state) -> set[str]:
    return {name for name, points in box_score(state)["adjustments"].items() if points}


def question_points(q: dict, teams: list[str]) -> dict[str, int]:
    """A MatchQuestion's points per team as the schema reads them: each buzz's value; the bonus's controlled
    points to the team of the right buzz, its bounceback points to the other team."""
    points = {b["team"]["name"]: b["result"]["value"] for b in q["buzzes"]}
    right = [b["team"]["name"] for b in q["buzzes"] if b["result"]["value"] > 0]
    for part in q.get("bonus", {}).get("parts", []) if right else []:
        points[right[0]] += part["controlled_points"]
        if part.get("bounceback_points"):
            other = next(t for t in teams if t != right[0])
            points[other] = points.get(other, 0) + part["bounceback_points"]
    return {t: p for t, p in points.items() if p}


def agrees_with_the_box_score(qbj: dict, state, frames) -> None:
    """Every number in a QBJ Match (teams and players named, as in a match file or a tournament's match
    resolved), checked against the box score read on its own; the teams' and players' points as
    YellowFruit's import totals them."""
    box = box_score(state, frames)
    teams, players = stats_points(qbj)
    assert teams == box["scores"]
    rows = {row["number"]: row for row in box["rows"] if not row["thrown_out"]}
    assert [q["question_number"] for q in qbj["match_questions"]] == list(rows)
    assert qbj["tossups_read"] == len(rows)
    answered = {team: 0 for team in teams}
    for q in qbj["match_questions"]:
        row = rows[q["question_number"]]
        assert q["tossup_question"]["external_id"] in {r["qid"] for r in box["rows"] if r["number"] == row["number"]}
        assert len({b["team"]["name"] for b in q["buzzes"]}) == len(q["buzzes"]), "one buzz a team"
        assert question_points(q, list(teams)) == row["points"], q["question_number"]
        for b in q["buzzes"]:
            answered[b["team"]["name"]] += 1
            said = [a for a in row["answers"] if a["who"] == b["player"]["name"] and a["word"] is not None]
            if said:  # a buzz: the word on screen at it, 0-based
                assert b["buzz_position"]["word_index"] in {max(a["word"] - 1, 0) for a in said}
    stats = {p["name"]: p for p in box["players"]}
    for (team, name), points in players.items():
        assert points == stats[name]["points"], name
    for m in qbj["match_teams"]:
        counted = sum(c["number"] for mp in m["match_players"] for c in mp["answer_counts"])
        assert counted == answered[m["team"]["name"]], "one answer counted a team a question it answered"
        for mp in m["match_players"]:
            assert mp["tossups_heard"] == len(rows)


@pytest.mark.parametrize("fmt", sorted(PRESETS))
def test_export_match_writes_a_valid_qbj_match_whose_numbers_are_the_box_scores(validator, tmp_path, fmt):
    # A format with bonuses plays from the demo bonus packet (the demo packet has none).
    packet = ensure_demo_bonus_packet() if PRESETS[fmt]["bonuses"] else ensure_demo_packet()
    state, match = play_simulated_match(packet, fmt, seed=5, questions=6)
    qbj = exported_qbj(match, tmp_path)
    assert errors_of(validator, qbj) == []
    assert qbj["type"] == "Match" and qbj["id"] == f"match_{match.code}"
    replay = Replay(load_log(match))
    agrees_with_the_box_score(qbj, replay.final, replay.frames("spectator"))
    assert match_file_problems(qbj, question_words(replay.final)) == []
    bots = {s["name"] for s in state.seats.values() if s["kind"] == "bot"}
    computer = next(m["team"] for m in qbj["match_teams"] if m["team"]["name"] == "Computer")
    assert bots == {p["name"] for p in computer["players"]}, "each bot seat is a player of the computer team"
    assert any(b["buzz_position"]["word_index"] > 0 for q in qbj["match_questions"] for b in q["buzzes"])
    box = box_score(replay.final, replay.frames("spectator"))
    power_at = {index + 1: q.power_index for index, q in enumerate(replay.final.questions)}
    modaq = modaq_points(qbj, question_words(replay.final), power_at)
    if fmt in ("quizbowl", "quizbowl_bonus"):  # MODAQ scores the buzzes again at its own values: quizbowl's are the same
        assert modaq == box["scores"]
    elif fmt == "efficientqa":  # and cannot carry EfficientQA's 3/2/1 (docs/after-the-match.md says so), nor QANTA's tossups
        assert any(b["result"]["value"] > 0 for q in qbj["match_questions"] for b in q["buzzes"])
        assert modaq != box["scores"]


@pytest.mark.parametrize("fmt", ["efficientqa", "quizbowl"])
def test_prompts_throw_outs_team_phases_and_corrections_map_onto_qbj(validator, fmt):
    """The engine's played matches: a neg, a prompt, an undo, a throw-out and its replacement, team
    phases, an override and an adjustment after the final whistle."""
    replay = Replay(stored(PLAYED[fmt]().events))
    state, frames = replay.final, replay.frames("spectator")
    qbj = match_qbj(state, frames, "match_played")
    assert errors_of(validator, qbj) == []
    agrees_with_the_box_score(qbj, state, frames)
    assert state_adjusted_teams(state)
    # The readers take it all but the adjustment: a score moved outside the questions is in the team's
    # points and no player's, and YellowFruit is right to ask the stat keeper about it.
    assert [p.split(": ", 1)[0] for p in match_file_problems(qbj, question_words(state))] == [
        "YellowFruit (MatchTeam.ts validateTotalAndTuPtsEqual (no bonuses)), match match_played"] * len(
        state_adjusted_teams(state))
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
        # computer's team answer in phase 3, at the question's last word (the whole question was shown).
        first = qbj["match_questions"][0]["buzzes"]
        assert sorted(b["result"]["value"] for b in first) == [0, 3]
        assert [b["buzz_position"]["word_index"] for b in first if b["result"]["value"] == 3] == [2]
        team_answer = [b for b in qbj["match_questions"][1]["buzzes"] if b["result"]["value"] == 1]
        played = qbj["match_questions"][1]["tossup_question"]["question_number"]
        assert len(team_answer) == 1
        assert team_answer[0]["buzz_position"]["word_index"] == question_words(state)[played] - 1
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
    assert tournament_problems(qbj) == []
    assert [o["type"] for o in qbj["objects"]] == ["Match"] * 3 + ["Tournament"]
    tournament = qbj["objects"][-1]
    assert [(p["name"], [r["name"] for r in p["rounds"]]) for p in tournament["phases"]] == [
        ("Preliminaries", ["1", "2"]), ("Final", ["3"])]
    assert [r["description"] for p in tournament["phases"] for r in p["rounds"]] == [m.title or m.code for m in matches]
    assert sorted(r["name"] for r in tournament["registrations"]) == ["Computer", "Humans"]
    for match, obj in zip(matches, tournament_matches(qbj)):
        replay = Replay(load_log(match))
        agrees_with_the_box_score(obj, replay.final, replay.frames("spectator"))
    with pytest.raises(ValueError, match="one per match"):
        tournament_qbj("x", matches, phases=["Final"])


@pytest.mark.slow
def test_a_simulated_events_qbj_files_are_read_by_both_readers_with_the_box_scores_numbers(validator, tmp_path):
    """simulate_event's event.qbj (YellowFruit opens it and imports its teams, MODAQ reads its roster)
    and each match's own file (both import it as a game), every number the box score's."""
    call_command("simulate_event", "--teams", "3", "--prelim-questions", "4", "--final-questions", "5",
                 "--seed", "7", "-o", str(tmp_path), stdout=io.StringIO())
    qbj = json.loads((tmp_path / "event.qbj").read_text(encoding="utf-8"))
    assert errors_of(validator, qbj) == []
    assert tournament_problems(qbj) == []
    summary = json.loads((tmp_path / "event.json").read_text(encoding="utf-8"))
    codes = [team["match"] for team in summary["teams"]] + [summary["final"]["match"]]
    rounds = [(p["name"], r["name"]) for p in qbj["objects"][-1]["phases"] for r in p["rounds"]]
    assert sorted(rounds, key=lambda r: float(r[1])) == [("Preliminaries", "1"), ("Preliminaries", "2"),
                                                         ("Preliminaries", "3"), ("Final", "4")]
    by_code = {m["id"].removeprefix("match_"): m for m in tournament_matches(qbj)}
    assert set(by_code) == set(codes)
    for code in codes:
        replay = Replay(load_log(Match.objects.get(code=code)))
        agrees_with_the_box_score(by_code[code], replay.final, replay.frames("spectator"))
        own = json.loads((tmp_path / f"{code}.qbj").read_text(encoding="utf-8"))
        assert errors_of(validator, own) == []
        assert match_file_problems(own, question_words(replay.final)) == []
        agrees_with_the_box_score(own, replay.final, replay.frames("spectator"))


def test_the_schema_rejects_what_the_export_must_not_write(validator):
    """The validator is not a rubber stamp: a buzz with no player, or a field outside the schema, fails."""
    replay = Replay(stored(PLAYED["quizbowl"]().events))
    qbj = match_qbj(replay.final, replay.frames("spectator"), "m")
    broken = json.loads(json.dumps(qbj))
    del broken["match_questions"][0]["buzzes"][0]["player"]
    assert errors_of(validator, broken)
    broken = dict(qbj, answer="Isaac Newton")
    assert errors_of(validator, broken)


def _first_buzz(match: dict) -> dict:
    return next(b for q in match["match_questions"] for b in q["buzzes"])


def _second_right_buzz(match: dict) -> None:
    q = next(q for q in match["match_questions"] if any(b["result"]["value"] > 0 for b in q["buzzes"]))
    q["buzzes"].append(dict(next(b for b in q["buzzes"] if b["result"]["value"] > 0)))


def _counted_per_answer(match: dict) -> None:
    """As the files were: every ruling counted, a team's phase-1 miss and its later answers each."""
    player = match["match_teams"][0]["match_players"][0]
    player["answer_counts"].append({"answer_type": {"value": 0}, "number": match["tossups_read"] + 1})


MATCH_FILE_BREAKS = {  # what each rule of a match file's readers catches, broken on purpose
    "resolvePlayerIdentity": lambda m: m["match_teams"][0]["match_players"][0].update(player={"$ref": "player_1"}),
    "resolveTeamIdentity": lambda m: m["match_teams"][0].update(team={"$ref": "team_1"}),
    "buzz.buzz_position.word_index": lambda m: _first_buzz(m).pop("buzz_position"),
    "getPlayerSetFromLineup": lambda m: m["match_teams"][0]["lineups"][0]["players"].append({"name": "Nobody"}),
    "addCorrectBuzzEvent": _second_right_buzz,
    "buzzes: playerMap lookup": lambda m: _first_buzz(m).update(player={"name": "Nobody"}),
    "validateTotalAndTuPtsEqual": lambda m: m["match_teams"][0].update(points=m["match_teams"][0]["points"] + 1),
    "validateTotalBuzzes": _counted_per_answer,
    "validatePlayerTuh": lambda m: m["match_teams"][1]["match_players"][0].update(tossups_heard=m["tossups_read"] + 1),
    "parseMatchMatchTeams": lambda m: m["match_teams"].pop(),
}


@pytest.mark.parametrize("where", sorted(MATCH_FILE_BREAKS))
def test_each_rule_of_a_match_files_readers_catches_its_break(tmp_path, where):
    """The reader checks are no rubber stamp: each finds the file broken the way its rule forbids."""
    state, match = play_simulated_match(ensure_demo_packet(), "efficientqa", seed=5, questions=4)
    qbj = exported_qbj(match, tmp_path)
    words = question_words(Replay(load_log(match)).final)
    assert match_file_problems(qbj, words) == []
    MATCH_FILE_BREAKS[where](qbj)
    assert any(where in problem for problem in match_file_problems(qbj, words)), where


def _matches_of(qbj: dict) -> list[dict]:
    return [o for o in qbj["objects"] if o["type"] == "Match"]


def _tournament_of(qbj: dict) -> dict:
    return qbj["objects"][-1]


TOURNAMENT_BREAKS = {
    "qbjFileValidVersion": lambda t: t.update(version="2.1"),
    "parseRound": lambda t: _tournament_of(t)["phases"][0]["rounds"][0].update(name="Round 1"),
    "parseMatchCarryoverPhasesStart": lambda t: _matches_of(t)[0].pop("carryover_phases"),
    "parseRegistration": lambda t: _tournament_of(t)["registrations"].__setitem__(0, {"$ref": "registration_team_1"}),
    "parseScoringRules": lambda t: _tournament_of(t)["scoring_rules"].update(teams_per_match=3),
    "validateAllMatchPlayersTuh": lambda t: _tournament_of(t)["scoring_rules"].update(maximum_players_per_team=1),
    "parsePlayerAnswerCount": lambda t: _tournament_of(t)["scoring_rules"]["answer_types"].pop(0),
    "validateTotalAndOtTuhRelationship": lambda t: _tournament_of(t)["scoring_rules"].update(
        maximum_regulation_tossup_count=1),
    "validateOvertimeTuhField": lambda t: _matches_of(t)[0].update(overtime_tossups_read=_matches_of(t)[0]["tossups_read"]),
    "findMatches": lambda t: _tournament_of(t)["phases"][0]["rounds"].pop(),
    "resolveTeamIdentity, resolvePlayerIdentity": lambda t: _matches_of(t)[0]["match_teams"][0].update(
        team={"$ref": "team_9"}),
}


@pytest.mark.parametrize("where", sorted(TOURNAMENT_BREAKS))
def test_each_rule_of_a_tournament_files_readers_catches_its_break(where):
    packet = ensure_demo_packet()
    matches = [play_simulated_match(packet, "efficientqa", seed=seed, questions=4)[1] for seed in (5, 9)]
    qbj = tournament_qbj("Exhibition night", matches, phases=["Preliminaries", "Final"])
    assert tournament_problems(qbj) == []
    TOURNAMENT_BREAKS[where](qbj)
    assert any(where in problem for problem in tournament_problems(qbj)), where
