"""`manage.py simulate_event`: a whole event with simulated teams, written as event.json with every
match's exports beside it, the same for the same seed, and no question played twice across the
preliminaries or again in the final."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from events.models import Event, EventTeam
from game.models import Match
from game.archive.replay import load_log
from game.engine.api import fold
from tests.qbj_schema import errors_of, qbj_validator

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
ARGS = ["--teams", "3", "--prelim-questions", "4", "--final-questions", "5", "--seed", "7"]


def simulate(folder, *extra) -> dict:
    call_command("simulate_event", *ARGS, *extra, "-o", str(folder), stdout=io.StringIO())
    return json.loads((folder / "event.json").read_text())


def forget_everything():
    Event.objects.all().update(final_match=None, finalist=None)
    EventTeam.objects.all().delete()
    Event.objects.all().delete()
    Match.objects.all().delete()


def test_event_json_has_the_issues_shape_and_matches_the_logs(tmp_path):
    summary = simulate(tmp_path)
    assert set(summary) >= {"teams", "finalist", "final"}
    assert len(summary["teams"]) == 3
    for team in summary["teams"]:
        assert set(team) == {"name", "questions", "points_for", "points_against", "average_margin", "match"}
        assert team["questions"] == 4  # the question limit, never a tiebreaker more
        assert team["average_margin"] == pytest.approx((team["points_for"] - team["points_against"]) / 4)
        # every figure is the log's: fold the exported log again, independently of the command
        lines = (tmp_path / f"{team['match']}.events.jsonl").read_text().splitlines()
        state = fold(json.loads(line) for line in lines[1:])  # the first line is the archive's header
        assert (state.scores["t0"], state.scores["t1"]) == (team["points_for"], team["points_against"])
        assert state.end_reason == "question_limit" and state.tiebreakers_played == 0
    margins = [t["average_margin"] for t in summary["teams"]]
    assert margins == sorted(margins, reverse=True)
    assert summary["finalist"] == summary["teams"][0]["name"]
    final = summary["final"]
    assert set(final) >= {"match", "questions", "points_for", "points_against", "winner"}
    assert final["questions"] >= 5
    for code in [t["match"] for t in summary["teams"]] + [final["match"]]:
        for suffix in ("events.jsonl", "gameplay.csv", "boxscore.csv"):
            assert (tmp_path / f"{code}.{suffix}").is_file()


def test_the_event_exports_a_valid_qbj_tournament_and_its_report_as_one_offline_file(tmp_path):
    summary = simulate(tmp_path)
    tournament = json.loads((tmp_path / "event.qbj").read_text())
    assert errors_of(qbj_validator(), tournament) == []
    objects = {o["type"]: o for o in tournament["objects"] if o["type"] in ("Tournament",)}
    phases = {p["name"]: p for p in objects["Tournament"]["phases"]}
    assert set(phases) == {"Preliminaries", "Final"}
    assert len(phases["Preliminaries"]["rounds"]) == 3 and len(phases["Final"]["rounds"]) == 1
    names = {r["name"] for r in objects["Tournament"]["registrations"]}
    assert {t["name"] for t in summary["teams"]} <= names
    report = (tmp_path / "report.html").read_text()
    assert summary["finalist"] in report and "/static/" not in report and 'src="http' not in report


def test_no_question_is_played_twice_across_the_preliminaries_and_the_final(tmp_path):
    simulate(tmp_path)
    seen = []
    for match in Match.objects.all():
        state = fold(load_log(match))
        seen += [state.questions[i].qid for i in state.played]
    assert len(seen) == len(set(seen)) >= 3 * 4 + 5


def test_the_same_questions_for_every_team_when_the_host_chooses_so(tmp_path):
    simulate(tmp_path, "--draw", "same")
    event = Event.objects.get()
    played = [tuple(fold(load_log(t.preliminary)).questions[i].qid for i in fold(load_log(t.preliminary)).played)
              for t in event.teams.all()]
    assert len(set(played)) == 1
    final = fold(load_log(event.final_match))
    assert not {final.questions[i].qid for i in final.played} & set(played[0])


def test_the_same_seed_writes_the_same_event_json(tmp_path):
    simulate(tmp_path / "one")
    forget_everything()
    simulate(tmp_path / "two")
    assert (tmp_path / "one" / "event.json").read_bytes() == (tmp_path / "two" / "event.json").read_bytes()


@pytest.mark.parametrize("args, message", [(["--teams", "0"], "--teams must be from 1"),
                                           (["--prelim-questions", "900"], "--prelim-questions must be from 1 to 200")])
def test_out_of_range_arguments_are_refused_before_anything_is_played(tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate_event", *ARGS, *args, "-o", str(tmp_path), stdout=io.StringIO())
    assert not Event.objects.exists() and not Match.objects.exists()
