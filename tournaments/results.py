"""The tournament's standings now: every finished game's event log loaded and folded
(tournaments/quizbowl_standings.py), and from them the playoff seeds."""
from __future__ import annotations

from dataclasses import replace

from game.archive.replay import load_log
from game.models import Match

from .models import Tournament, TournamentGame
from .schedule import cross_pool_seeds
from .quizbowl_standings import PlayedGame, Standings, rank, standings

ROUND_ROBIN, PLAYOFFS = "round robin", "playoffs"


def games_of(tournament: Tournament, stage: str | None = None):
    games = (TournamentGame.objects.filter(round__tournament=tournament).select_related("round", "team_a", "team_b",
                                                                                          "match")
             .order_by("round__number", "room"))
    return games.filter(round__stage=stage) if stage else games


def played(tournament: Tournament, stage: str) -> list[PlayedGame]:
    """The finished games of a stage, with their logs."""
    return [PlayedGame(a=g.team_a.name, b=g.team_b.name, events=load_log(g.match), pool=g.pool, round=g.round.number,
                       label=g.label)
            for g in games_of(tournament, stage) if g.match is not None and g.match.status == Match.Status.FINISHED]


def pools_of(tournament: Tournament) -> dict[str, str]:
    """team name -> its pool's letter ("" for one pool), from the round robin's games."""
    pools = {t.name: "" for t in tournament.teams.order_by("position")}
    for game in games_of(tournament, ROUND_ROBIN):
        pools[game.team_a.name] = pools[game.team_b.name] = game.pool
    return pools


def round_robin_standings(tournament: Tournament) -> Standings:
    return standings(pools_of(tournament), played(tournament, ROUND_ROBIN))


def playoff_results(tournament: Tournament) -> dict[str, tuple[str, str]]:
    """Playoff game label -> (winner, loser) of each finished playoff game. A game still tied after its
    tiebreakers goes to the higher seed (the side listed first)."""
    out = {}
    for game in played(tournament, PLAYOFFS):
        result = standings({game.a: "", game.b: ""}, [game]).results[0]
        winner = result.winner or game.a
        out[game.label] = (winner, game.b if winner == game.a else game.a)
    return out


def seed_order(board: Standings) -> list[str]:
    """The playoff seeds, best first: one pool's ranking; from pools, every pool's winner first (ranked
    across the pools by the same tiebreaks, head-to-head aside), then every runner-up, and so on."""
    if len(board.pools) == 1:
        return [row.name for row in board.teams]
    across = [row.name for row in rank([replace(row) for row in board.teams], [])]  # copies: keep the pools' ranks
    return cross_pool_seeds({pool: [row.name for row in board.pool(pool)] for pool in board.pools}, across)
