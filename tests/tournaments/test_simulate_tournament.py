"""`manage.py simulate_tournament`: six teams in two pools and a four-team playoff, played whole; the
standings in tournament.json are recomputed here from its logs alone (folded by the engine, not by the
tournament's standings code), the playoffs follow the pools, and tournament.qbj is a valid QBJ
Tournament that YellowFruit and MODAQ take."""
import io
import json
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from game.engine.api import fold
from tests.qbj_readers import tournament_problems
from tests.qbj_schema import errors_of, qbj_validator
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
ARGS = ["--teams", "6", "--pools", "2", "--playoffs", "4", "--questions", "6", "--seed", "3"]


@pytest.fixture(params=["quizbowl", "quizbowl_bonus"])
def played(tmp_path, request):
    call_command("simulate_tournament", *ARGS, "--format", request.param, "-o", str(tmp_path), stdout=io.StringIO())
    return tmp_path, json.loads((tmp_path / "tournament.json").read_text())


def bonuses_from_log(events) -> Counter:
    """name -> bonuses heard and the points earned on them (bouncebacks left out), from the bonus_ended events."""
    names = {t["id"]: t["name"] for t in events[0]["data"]["teams"]}
    out = Counter()
    for event in events:
        if event["type"] == "bonus_ended":
            team = event["data"]["team"]
            out[(names[team], "heard")] += 1
            out[(names[team], "points")] += event["data"]["points"].get(team, 0)
    return out


def figures_from_log(events) -> dict:
    """name -> (won, lost, tied, points for, points against, powers, tens, negs) of one game, by folding."""
    state = fold(events)
    assert state.status == "finished"
    out = {}
    void = {rid for h in state.history if h["thrown_out"] for rid in h["rulings"]}
    power = state.rules["phases"][0]["power_points"]
    for team in state.teams:
        other = next(t for t in state.teams if t["id"] != team["id"])
        mine = [r for rid, r in state.rulings.items() if r["team"] == team["id"] and rid not in void]
        out[team["name"]] = Counter(
            won=int(state.winner == team["id"]), lost=int(state.winner == other["id"]), tied=int(state.winner is None),
            points_for=state.scores[team["id"]], points_against=state.scores[other["id"]],
            powers=sum(r["verdict"] == "accept" and r["points"] >= power for r in mine),
            tens=sum(r["verdict"] == "accept" and 0 < r["points"] < power for r in mine),
            negs=sum(r["verdict"] != "accept" and r["points"] < 0 for r in mine))
    return out


def test_the_standings_are_what_the_logs_say(played):
    _, data = played
    totals = {t["name"]: Counter() for t in data["teams"]}
    bonuses = Counter()
    robin = [g for r in data["schedule"] if r["stage"] == "round robin" for g in r["games"]]
    assert len(robin) == 6  # two pools of three: three games each
    for g in robin:
        for name, figures in figures_from_log(data["logs"][g["match"]]).items():
            totals[name].update(figures)  # update keeps a negative score; += would drop it
        bonuses.update(bonuses_from_log(data["logs"][g["match"]]))
    for row in data["standings"]["teams"]:
        mine = totals[row["name"]]
        assert (row["wins"], row["losses"], row["ties"]) == (mine["won"], mine["lost"], mine["tied"])
        assert (row["points_for"], row["points_against"]) == (mine["points_for"], mine["points_against"])
        assert (row["powers"], row["tens"], row["negs"]) == (mine["powers"], mine["tens"], mine["negs"])
        assert row["games"] == 2 and row["ppg"] == pytest.approx(mine["points_for"] / 2)
        heard, points = bonuses[(row["name"], "heard")], bonuses[(row["name"], "points")]
        assert (row["bonuses_heard"], row["bonus_points"]) == (heard, points)
        assert row["ppb"] == (pytest.approx(points / heard) if heard else None)
    if data["format"] == "quizbowl_bonus":
        assert sum(v for (_, kind), v in bonuses.items() if kind == "heard") > 0, "a tossup-bonus tournament hears bonuses"
    else:
        assert not bonuses
    for pool in ("A", "B"):
        rows = [r for r in data["standings"]["teams"] if r["pool"] == pool]
        pct = [r["win_pct"] for r in rows]
        assert pct == sorted(pct, reverse=True) and [r["rank"] for r in rows][0] == 1


def test_the_pools_play_a_round_robin_each_and_the_pool_winners_are_the_top_seeds(played):
    _, data = played
    pools = {}
    for team in data["teams"]:
        pools.setdefault(team["pool"], []).append(team["name"])
    assert sorted(map(len, pools.values())) == [3, 3]
    met = Counter(frozenset((g["a"], g["b"])) for r in data["schedule"] if r["stage"] == "round robin"
                  for g in r["games"])
    assert met == Counter({frozenset(p): 1 for members in pools.values() for p in combinations(members, 2)})
    first = {pool: next(r["name"] for r in data["standings"]["teams"] if r["pool"] == pool) for pool in pools}
    assert set(data["seeds"][:2]) == set(first.values())  # every pool's winner before any runner-up
    playoffs = [r for r in data["schedule"] if r["stage"] == "playoffs"]
    assert [r["name"] for r in playoffs] == ["Semifinals", "Final"]
    semis = [(g["a"], g["b"]) for g in playoffs[0]["games"]]
    s = data["seeds"]
    assert semis == [(s[0], s[3]), (s[1], s[2])]
    results = {p["label"]: p for p in data["playoffs"]}
    final = playoffs[1]["games"][0]
    assert {final["a"], final["b"]} == {results["Semifinal 1"]["winner"], results["Semifinal 2"]["winner"]}
    assert data["champion"] == results["Final"]["winner"]
    final_state = fold(data["logs"][final["match"]])
    assert final_state.team_name(final_state.winner) == data["champion"]


def test_the_qbj_is_a_valid_tournament_the_readers_take(played):
    folder, data = played
    qbj = json.loads((folder / "tournament.qbj").read_text())
    assert errors_of(qbj_validator(), qbj) == []
    assert tournament_problems(qbj) == []
    tournament = next(o for o in qbj["objects"] if o["type"] == "Tournament")
    phases = {p["name"]: p for p in tournament["phases"]}
    assert [len(r["matches"]) for r in phases["Round robin"]["rounds"]] == [2, 2, 2]  # a round's rooms together
    assert [len(r["matches"]) for r in phases["Playoffs"]["rounds"]] == [2, 2]
    assert sum(o["type"] == "Match" for o in qbj["objects"]) == len(data["logs"]) == 10


@pytest.mark.parametrize("args, words", [(["--teams", "1"], "--teams must be from 2"),
                                         (["--teams", "3", "--playoffs", "4"], "Playoffs of 4 need at least 4"),
                                         (["--pools", "2", "--kind", "full"], "--pools over 1 needs --kind pools")])
def test_impossible_tournaments_are_refused_before_anything_is_played(tmp_path, args, words):
    with pytest.raises(CommandError, match=words):
        call_command("simulate_tournament", *ARGS, *args, "-o", str(tmp_path), stdout=io.StringIO())
    assert not Tournament.objects.exists()


def test_the_same_seed_plays_the_same_tournament(played, tmp_path):
    _, first = played
    call_command("simulate_tournament", *ARGS, "--format", first["format"], "-o", str(tmp_path / "again"),
                 stdout=io.StringIO())
    again = json.loads((tmp_path / "again" / "tournament.json").read_text())
    for key in ("teams", "standings", "seeds", "playoffs", "champion"):
        assert again[key] == first[key]
