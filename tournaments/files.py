"""A tournament's own files: tournament.json (its teams, schedule, every game's event log and the
standings) and tournament.qbj (a QBJ Tournament of every game, for YellowFruit and MODAQ). The host's
pages offer them; `simulate_tournament` writes them."""
from __future__ import annotations

import json

from game.archive.qbj import tournament_qbj
from game.archive.replay import load_log
from game.models import Match

from .models import Tournament
from .results import PLAYOFFS, games_of, playoff_results, pools_of, round_robin_standings
from .quizbowl_standings import TIEBREAKS, Standings

PHASE_NAMES = {"round robin": "Round robin", PLAYOFFS: "Playoffs"}


def standings_data(board: Standings) -> dict:
    return {
        "tiebreaks": list(TIEBREAKS),
        "teams": [{"rank": r.rank, "name": r.name, "pool": r.pool, "games": r.games, "wins": r.wins,
                   "losses": r.losses, "ties": r.ties, "win_pct": round(r.win_pct, 6), "points_for": r.points_for,
                   "points_against": r.points_against, "ppg": round(r.ppg, 6), "tossups_heard": r.tossups_heard,
                   "tossup_points": r.tossup_points, "powers": r.powers, "tens": r.tens, "negs": r.negs,
                   "bonuses_heard": r.bonuses_heard, "bonus_points": r.bonus_points,
                   "ppb": None if r.ppb is None else round(r.ppb, 6), "ppth": round(r.ppth, 6),
                   "placed_by": r.placed_by} for r in board.teams],
        "players": [{"name": p.name, "team": p.team, "games": p.games, "powers": p.powers, "tens": p.tens,
                     "negs": p.negs, "points": p.points} for p in board.players],
    }


def tournament_data(tournament: Tournament) -> dict:
    """tournament.json: everything a reader needs to check the standings from the logs alone."""
    pools = pools_of(tournament)
    games = list(games_of(tournament))
    by_id = {t.pk: t.name for t in tournament.teams.all()}
    results = playoff_results(tournament)
    final = results.get("Final")
    return {
        "tournament": tournament.name, "format": tournament.format_name, "kind": tournament.kind,
        "playoff_size": tournament.playoff_size,
        "teams": [{"name": t.name, "seed": t.position, "kind": t.kind, "players": t.players, "bot_tier": t.bot_tier,
                   "pool": pools[t.name]} for t in tournament.teams.order_by("position")],
        "schedule": [{"round": r.number, "stage": r.stage, "name": r.name,
                      "games": [{"room": g.room, "pool": g.pool, "label": g.label, "a": g.team_a.name,
                                 "b": g.team_b.name, "match": g.match.code if g.match else None}
                                for g in games if g.round_id == r.pk],
                      "byes": sorted(set(pools) - {n for g in games if g.round_id == r.pk
                                                   for n in (g.team_a.name, g.team_b.name)})}
                     for r in tournament.rounds.order_by("number")],
        "logs": {g.match.code: load_log(g.match) for g in games if g.match is not None},
        "standings": standings_data(round_robin_standings(tournament)),
        "seeds": [by_id[pk] for pk in tournament.seeds],
        "playoffs": [{"label": label, "winner": w, "loser": lo} for label, (w, lo) in results.items()],
        "champion": final[0] if final else None,
    }


def tournament_json(tournament: Tournament) -> str:
    return json.dumps(tournament_data(tournament), indent=1, ensure_ascii=False) + "\n"


def tournament_qbj_text(tournament: Tournament) -> str:
    """The QBJ Tournament of the finished games, each round's games one QBJ round."""
    games = [g for g in games_of(tournament) if g.match is not None and g.match.status == Match.Status.FINISHED]
    qbj = tournament_qbj(tournament.name, [g.match for g in games], [PHASE_NAMES[g.round.stage] for g in games],
                         [(g.round.number, g.round.name) for g in games])
    return json.dumps(qbj, indent=2, ensure_ascii=False) + "\n"
