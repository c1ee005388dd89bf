"""A tossup-bonus match in the results: its QBJ file (valid against the published schema, taken by
YellowFruit and MODAQ as tests/qbj_readers.py restates them, every team's and player's points the box
score's), the box score's bonus figures and page, and the CSVs; and the per-team totals recomputed from
the exported event log alone, equal in the box score, the QBJ file and both CSVs."""
from __future__ import annotations

import csv
import io
import json

import pytest

from game.archive.boxscore import box_score, format_box_score
from game.archive.exports import BOXSCORE_COLUMNS, GAMEPLAY_COLUMNS, boxscore_csv, gameplay_csv
from game.archive.match_archive import import_archive
from game.archive.match_files import match_files
from game.archive.qbj import match_qbj, tournament_qbj
from game.archive.replay import Replay, load_log
from tests.archive.test_corrections_after_the_final import stored
from tests.archive.test_qbj import agrees_with_the_box_score, question_words
from tests.engine.played import PLAYED, Recorded
from tests.engine.support import MOD
from tests.qbj_readers import (match_file_problems, modaq_points, stats_bonuses, stats_points, tournament_matches,
                               tournament_problems)
from tests.qbj_schema import errors_of, qbj_validator
from tests.report.logs import played_text

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def validator():
    return qbj_validator()


def without_bouncebacks() -> Recorded:
    """Two tossups with bonuses and no bouncebacks: Ann powers the first and her team gets parts 1 and 3;
    Cho tens the second and her team misses every part (nobody else may answer them); after the final
    whistle the computer's team is given 5 points."""
    m = Recorded("quizbowl_bonus", {"questions": 2, "tiebreakers": 0}, reserve=2, length=12, power_after=5)
    m.start(0)
    m.reveal_until(3)
    m.attempt("h0", "Isaac Newton", "accept")
    for text, verdict in ((None, "accept"), ("the moon", "reject"), (None, "accept")):
        m.read_part(at=m.now + 1500)
        m.answer_part("h0", text, verdict)
    m.send("next", MOD, at=m.now + 2000)
    m.reveal_until(8)
    m.attempt("h2", "Isaac Newton", "accept")
    for _ in range(3):
        m.read_part(at=m.now + 1500)
        m.answer_part("h2", "no idea", "reject")
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished"
    m.send("adjust", MOD, {"team": "t1", "points": 5, "reason": "appeal", "confirm": True}, at=m.now + 1000)
    return m


def played(match: Recorded):
    replay = Replay(stored(match.events))
    return replay.final, replay.frames("spectator")


def power_marks(state) -> dict[int, int | None]:
    return {index + 1: q.power_index for index, q in enumerate(state.questions)}


def test_a_tossup_bonus_matchs_qbj_carries_each_bonus_and_the_box_scores_points(validator):
    """The engine's played match: a bounceback taken, a part the clock ended for both teams, an undo, a
    throw-out, a dead replacement made right after the final whistle (a tossup right with no bonus)."""
    state, frames = played(PLAYED["quizbowl_bonus"]())
    qbj = match_qbj(state, frames, "match_bonus")
    assert errors_of(validator, qbj) == []
    agrees_with_the_box_score(qbj, state, frames)
    assert match_file_problems(qbj, question_words(state)) == []
    first, second, third = qbj["match_questions"]
    assert first["bonus"] == {"question": {"question_number": 1, "type": "bonus", "parts": 3, "external_id": "b0",
                                           "category": "Science"},
                              "parts": [{"controlled_points": 10, "bounceback_points": 0},
                                        {"controlled_points": 0, "bounceback_points": 10},
                                        {"controlled_points": 0, "bounceback_points": 0}]}
    assert second["bonus"]["question"]["question_number"] == 2
    assert [p["controlled_points"] for p in second["bonus"]["parts"]] == [10, 0, 10]
    assert "bonus" not in third  # thrown out, and its replacement went dead (made right after the whistle)
    teams = {t["team"]["name"]: t for t in qbj["match_teams"]}
    assert {key: teams["Humans"][key] for key in teams["Humans"] if "points" in key or "bonus" in key} == {
        "bonus_points": 10, "bonus_bounceback_points": 0, "correct_tossups_without_bonuses": 1}
    # The computer's team was given 10 points after the final: its total is written as points (never
    # beside bonus_points, which the schema forbids), its bounceback points as they were.
    assert {key: teams["Computer"][key] for key in teams["Computer"] if "points" in key or "bonus" in key} == {
        "points": 50, "bonus_bounceback_points": 10}
    box = box_score(state, frames)
    assert stats_points(qbj)[0] == box["scores"] == {"Humans": 35, "Computer": 50}
    # YellowFruit's bonus figures: our bonus points (and the adjustment, where it has nowhere else to go);
    # bonuses heard are its right tossups (it reads no correct_tossups_without_bonuses), so the tossup made
    # right after the whistle counts as one heard.
    ours = {t["team"]: t for t in box["bonuses"]["teams"]}
    for name, figures in stats_bonuses(qbj).items():
        assert (figures["points"], figures["bounceback_points"]) == (
            ours[name]["points"] + box["adjustments"].get(name, 0), ours[name]["bounceback_points"])
        assert figures["heard"] == ours[name]["heard"] + teams[name].get("correct_tossups_without_bonuses", 0)
    # MODAQ drops bounceback points (docs/after-the-match.md says so) and reads no adjustment: the rest
    # are the box score's.
    assert modaq_points(qbj, question_words(state), power_marks(state)) == {
        name: points - ours[name]["bounceback_points"] - box["adjustments"].get(name, 0)
        for name, points in box["scores"].items()}


def test_without_bouncebacks_both_readers_total_the_box_score(validator):
    state, frames = played(without_bouncebacks())
    qbj = match_qbj(state, frames, "match_plain")
    assert errors_of(validator, qbj) == []
    agrees_with_the_box_score(qbj, state, frames)
    assert match_file_problems(qbj, question_words(state)) == []
    assert [[p for p in q["bonus"]["parts"]] for q in qbj["match_questions"]] == [
        [{"controlled_points": 10}, {"controlled_points": 0}, {"controlled_points": 10}],
        [{"controlled_points": 0}] * 3], "no bounceback_points where bonuses do not bounce back"
    teams = {t["team"]["name"]: t for t in qbj["match_teams"]}
    assert "bonus_bounceback_points" not in teams["Humans"] and teams["Humans"]["bonus_points"] == 20
    # The computer's score was adjusted outside the questions: it keeps its points, which YellowFruit
    # reads as its total (the adjustment lands among its bonus points; the notes say what it was).
    assert teams["Computer"] == dict(teams["Computer"], points=15) and "bonus_points" not in teams["Computer"]
    assert "Points outside the questions (score adjustments): Computer +5." in qbj["notes"]
    box = box_score(state, frames)
    assert stats_points(qbj)[0] == box["scores"] == {"Humans": 35, "Computer": 15}
    assert stats_bonuses(qbj)["Computer"]["points"] == 5
    assert modaq_points(qbj, question_words(state), power_marks(state)) == {
        name: points - box["adjustments"].get(name, 0) for name, points in box["scores"].items()}


def test_the_box_score_has_bonus_figures_and_per_player_tossup_stats():
    state, frames = played(PLAYED["quizbowl_bonus"]())
    box = box_score(state, frames)
    humans, computer = box["bonuses"]["teams"]
    assert (humans["team"], humans["heard"], humans["points"], humans["ppb"], humans["bounceback_points"]) == (
        "Humans", 1, 10, 10.0, 0)
    assert (computer["heard"], computer["points"], computer["ppb"], computer["bounceback_points"]) == (1, 20, 20.0, 10)
    assert [(p["right"], p["heard"]) for p in humans["parts"]] == [(1, 1), (0, 1), (0, 1)]
    assert [(p["right"], p["heard"]) for p in computer["parts"]] == [(1, 1), (0, 1), (1, 1)]
    first = box["rows"][0]["bonus"]
    assert (first["team"], first["other"], first["points"], first["bounceback_points"]) == ("Humans", "Computer", 10, 10)
    assert [(p["controlled"], p["bounced"], p["bounceback"]) for p in first["parts"]] == [
        (10, False, 0), (0, True, 10), (0, True, 0)]
    assert [row["bonus"] is None for row in box["rows"]] == [False, False, True, True]
    lines = {line["name"]: line for line in box["quizbowl"]["lines"] if line["kind"] == "player"}
    assert set(lines) == {"Ann", "Ben", "Cho", "Qbot"}, "every player, scoring or not"
    assert (lines["Ann"]["powers"], lines["Ann"]["negs"], lines["Ann"]["points"], lines["Ann"]["heard"],
            lines["Ann"]["pptuh"]) == (2, 1, 25, 3, 8.33)
    text = format_box_score(box)
    assert "bonus (Humans): 10 / 0 (bounced: Computer 10) / 0 (bounced: Computer 0) = 10" in text
    assert "Computer: 1 heard, 20 points, 20.00 PPB, 10 on bouncebacks; part 1 1/1, part 2 0/1, part 3 1/1" in text


def test_a_match_without_bonuses_has_no_bonus_figures_and_the_same_csv_columns():
    state, frames = played(PLAYED["quizbowl"]())
    box = box_score(state, frames)
    assert box["bonuses"] is None and all(row["bonus"] is None for row in box["rows"])
    assert "Bonuses:" not in format_box_score(box)
    table = boxscore_csv(box)
    assert table.startswith(",".join(BOXSCORE_COLUMNS) + "\n") and "bonuses_heard" not in table
    rows = list(csv.DictReader(io.StringIO(table.split("\n\n")[0])))
    assert rows and all(r["bonus_part"] == r["bounceback"] == "" for r in rows)
    plays = list(csv.DictReader(io.StringIO(gameplay_csv(state, frames))))
    assert list(plays[0]) == list(GAMEPLAY_COLUMNS) and all(r["bonus_part"] == "" for r in plays)


def test_the_boxscore_page_shows_bonuses_only_for_a_match_with_them(client):
    pages = {}
    for fmt in ("quizbowl_bonus", "quizbowl"):
        match = import_archive(played_text(fmt).splitlines())
        pages[fmt] = client.get(f"/m/{match.code}/boxscore").content.decode()
    page = pages["quizbowl_bonus"]
    assert 'id="bonus-table"' in page and "<th>Part 3</th>" in page and "<th>Bounceback points</th>" in page
    assert "Bonus, <span class=\"who\">Humans</span>" in page and "100% (1/1)" in page
    assert "Points per tossup heard" in page
    assert 'id="bonus-table"' not in pages["quizbowl"] and "bonus-line" not in pages["quizbowl"].split("<main")[-1]


def log_totals(events: list[dict]) -> dict[str, dict[str, int]]:
    """Per team, from the event log alone: every score change the log wrote (its final score), and of
    those the points on bonus parts it controlled and on bouncebacks (part rulings that stand: not undone,
    not on a question thrown out) and the adjustments."""
    names = {t["id"]: t["name"] for t in events[0]["data"]["teams"]}
    totals = {name: {"score": 0, "bonus": 0, "bounceback": 0, "adjusted": 0} for name in names.values()}
    parts: dict[int, dict] = {}
    for event in events:
        data = event["data"]
        for team, points in (data.get("score_changes") or {}).items():
            totals[names[team]]["score"] += points
        if event["type"] == "bonus_part_ruled":
            parts[data["id"]] = data
        elif event["type"] == "undo":
            parts.pop(data["ruling"], None)
        elif event["type"] == "question_thrown_out":
            parts = {rid: p for rid, p in parts.items() if p["number"] != data["number"]}
        elif event["type"] == "score_adjusted":
            totals[names[data["team"]]]["adjusted"] += data["points"]
    for part in parts.values():
        totals[names[part["team"]]]["bounceback" if part["bounce"] else "bonus"] += part["points"]
    return totals


def csv_tables(text: str) -> list[list[dict]]:
    return [list(csv.DictReader(io.StringIO(block))) for block in text.strip().split("\n\n")]


def archived(m: Recorded, code: str) -> list[str]:
    """A played match as the lines of an exported event log (a header, then its events)."""
    events = stored(m.events)
    head = {"format": "exhibition-match", "version": 1, "events": len(events), "match": {"code": code, "title": code}}
    return [json.dumps(line) for line in [head, *events]]


@pytest.mark.parametrize("make", [PLAYED["quizbowl_bonus"], without_bouncebacks], ids=["bounceback", "plain"])
def test_totals_recomputed_from_the_exported_log_are_the_box_scores_the_qbjs_and_the_csvs(make):
    match = import_archive(archived(make(), "BONUS1"))
    files = match_files(match)
    events = [json.loads(line) for line in files[f"{match.code}.events.jsonl"].splitlines()[1:]]
    totals = log_totals(events)
    assert any(t["bonus"] for t in totals.values())
    # The box score.
    replay = Replay(events)
    box = box_score(replay.final, replay.frames("spectator"))
    assert box["scores"] == {name: t["score"] for name, t in totals.items()}
    assert {t["team"]: (t["points"], t["bounceback_points"]) for t in box["bonuses"]["teams"]} == {
        name: (t["bonus"], t["bounceback"]) for name, t in totals.items()}
    # The QBJ file, as YellowFruit totals it; its bonus fields, where the team's score needs no adjustment.
    qbj = json.loads(files[f"{match.code}.qbj"])
    assert stats_points(qbj)[0] == {name: t["score"] for name, t in totals.items()}
    for team in qbj["match_teams"]:
        mine = totals[team["team"]["name"]]
        if not mine["adjusted"]:
            assert team["bonus_points"] == mine["bonus"]
            assert team.get("bonus_bounceback_points", 0) == mine["bounceback"]
    # The box-score CSV: its answers' points (tossups and bonus parts, thrown-out questions aside) and the
    # adjustments make the score; its bonus table has the bonus and bounceback points.
    answers, _players, bonuses, _parts, *_ = csv_tables(files[f"{match.code}.boxscore.csv"])
    for name, t in totals.items():
        scored = sum(int(r["points"]) for r in answers if r["team"] == name and r["thrown_out"] == "False")
        assert scored + t["adjusted"] == t["score"], name
        assert sum(int(r["points"]) for r in answers if r["team"] == name and r["phase"] == "bonus") == (
            t["bonus"] + t["bounceback"])
    assert {r["team"]: (int(r["bonus_points"]), int(r["bounceback_points"])) for r in bonuses} == {
        name: (t["bonus"], t["bounceback"]) for name, t in totals.items()}
    # The gameplay CSV: one row per buzz and per bonus part ruling; its points and the adjustments make the score.
    plays = list(csv.DictReader(io.StringIO(files[f"{match.code}.gameplay.csv"])))
    for name, t in totals.items():
        assert sum(int(r["points"]) for r in plays if r["team"] == name) + t["adjusted"] == t["score"], name
        assert sum(int(r["points"]) for r in plays if r["team"] == name and r["bounceback"] == "True") == t["bounceback"]


def test_a_tournament_of_tossup_bonus_matches_gives_the_bonus_rules(validator):
    matches = [import_archive(archived(PLAYED["quizbowl_bonus"](), code)) for code in ("ROUND1", "ROUND2")]
    qbj = tournament_qbj("Bonus night", matches, phases=["Preliminaries", "Final"])
    assert errors_of(validator, qbj) == []
    assert tournament_problems(qbj) == []
    rules = qbj["objects"][-1]["scoring_rules"]
    assert {key: rules[key] for key in rules if "bonus" in key} == {
        "maximum_bonus_score": 30, "minimum_parts_per_bonus": 3, "maximum_parts_per_bonus": 3, "bonus_divisor": 10,
        "bonuses_bounce_back": True, "points_per_bonus_part": 10}
    for match, obj in zip(matches, tournament_matches(qbj)):
        replay = Replay(load_log(match))
        agrees_with_the_box_score(obj, replay.final, replay.frames("spectator"))
    # Without the bonus rules YellowFruit would take every bonus for points on a dead tossup.
    del rules["maximum_bonus_score"]
    assert any("Dead tossup with nonzero bonus points" in problem for problem in tournament_problems(qbj))


BONUS_BREAKS = {  # what each bonus rule of the readers catches, broken on purpose
    "bonus.question.question_number": lambda m: m["match_questions"][1]["bonus"]["question"].update(question_number=1),
    "the bonus goes to the team of the question's right buzz": lambda m: m["match_questions"][0]["buzzes"][0][
        "result"].update(value=0),
    "a bonus of bonus.parts.length parts": lambda m: m["match_questions"][0]["bonus"]["parts"].pop(),
    "MatchQuestion.ts validate (a bonus)": lambda m: m["match_questions"][0]["bonus"]["parts"][0].pop(
        "bounceback_points"),
    "validateBonusPoints": lambda m: m["match_teams"][0].update(bonus_points=100),
    "QBJ.ts fromQBJ (bonus_points)": lambda m: m["match_teams"][0].update(bonus_points=-10),
}


@pytest.mark.parametrize("where", sorted(BONUS_BREAKS))
def test_each_bonus_rule_of_the_readers_catches_its_break(where):
    state, frames = played(PLAYED["quizbowl_bonus"]())
    qbj = match_qbj(state, frames, "match_bonus")
    words = question_words(state)
    assert match_file_problems(qbj, words) == []
    BONUS_BREAKS[where](qbj)
    assert any(where in problem for problem in match_file_problems(qbj, words)), where


BONUS_SETTING_BREAKS = {
    "points per bonus part times": lambda rules: rules.update(points_per_bonus_part=15),
    "below the minimum": lambda rules: rules.update(minimum_parts_per_bonus=4),
    "incompatible": lambda rules: rules.update(bonus_divisor=3, maximum_bonus_score=30, points_per_bonus_part=10),
}


@pytest.mark.parametrize("what", sorted(BONUS_SETTING_BREAKS))
def test_the_bonus_settings_rule_catches_rules_yellowfruit_refuses(what):
    match = import_archive(archived(PLAYED["quizbowl_bonus"](), "ROUND9"))
    qbj = tournament_qbj("Bonus night", [match])
    assert tournament_problems(qbj) == []
    BONUS_SETTING_BREAKS[what](qbj["objects"][-1]["scoring_rules"])
    assert any("parseScoringRulesBonusSettings" in p and what in p for p in tournament_problems(qbj)), what
