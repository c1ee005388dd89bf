"""The tournament's standings now: every finished game's event log folded (tournaments/quizbowl_standings.py),
each game once for as long as its log stays as it is, and from them the playoff seeds."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

from django.db.models import Max

from game.archive.replay import load_log
from game.models import Match, MatchEvent

from .models import Tournament, TournamentGame
from .schedule import cross_pool_seeds
from .quizbowl_standings import PlayedGame, Standings, game_figures, rank, standings_of

ROUND_ROBIN, PLAYOFFS = "round robin", "playoffs"


def games_of(tournament: Tournament, stage: str | None = None):
    games = (TournamentGame.objects.filter(round__tournament=tournament).select_related("round", "team_a", "team_b",
                                                                                          "match")
             .order_by("round__number", "room"))
    return games.filter(round__stage=stage) if stage else games


def _played(game: TournamentGame, events: list[dict]) -> PlayedGame:
    return PlayedGame(a=game.team_a.name, b=game.team_b.name, events=events, pool=game.pool, round=game.round.number,
                      label=game.label)


def _finished(tournament: Tournament, stage: str) -> list[TournamentGame]:
    return [g for g in games_of(tournament, stage) if g.match is not None and g.match.status == Match.Status.FINISHED]


# Each finished game's figures, kept by what they are made of: the match and its log's last seq (a correction after
# the final whistle is a new event, so a new seq), the names and the game's place. A hall's standings screen asks
# every REFRESH_SECONDS; without this each ask loaded and folded every game of the day again.
FIGURES_KEPT = 4096
_figures: OrderedDict[tuple, tuple] = OrderedDict()
_figures_lock = threading.Lock()


def figures(tournament: Tournament, stage: str) -> list[tuple]:
    """game_figures() of every finished game of a stage, in order; only a game not folded before (or whose log
    grew since) has its log loaded and folded."""
    games = _finished(tournament, stage)
    last = dict(MatchEvent.objects.filter(match_id__in=[g.match_id for g in games]).values("match_id")
                .annotate(last=Max("seq")).values_list("match_id", "last"))
    out = []
    for game in games:
        key = (game.match_id, last.get(game.match_id, 0), game.team_a.name, game.team_b.name, game.pool,
               game.round.number, game.label)
        with _figures_lock:
            found = _figures.get(key)
            if found is not None:
                _figures.move_to_end(key)
        if found is None:
            found = game_figures(_played(game, load_log(game.match)))
            with _figures_lock:
                _figures[key] = found
                while len(_figures) > FIGURES_KEPT:
                    _figures.popitem(last=False)
        out.append(found)
    return out


def pools_of(tournament: Tournament) -> dict[str, str]:
    """team name -> its pool's letter ("" for one pool), from the round robin's games."""
    pools = {t.name: "" for t in tournament.teams.order_by("position")}
    for game in games_of(tournament, ROUND_ROBIN):
        pools[game.team_a.name] = pools[game.team_b.name] = game.pool
    return pools


def round_robin_standings(tournament: Tournament) -> Standings:
    return standings_of(pools_of(tournament), figures(tournament, ROUND_ROBIN))


def playoff_results(tournament: Tournament) -> dict[str, tuple[str, str]]:
    """Playoff game label -> (winner, loser) of each finished playoff game. A game still tied after its
    tiebreakers goes to the higher seed (the side listed first)."""
    out = {}
    for result, _, _ in figures(tournament, PLAYOFFS):
        winner = result.winner or result.a
        out[result.label] = (winner, result.b if winner == result.a else result.a)
    return out


def seed_order(board: Standings) -> list[str]:
    """The playoff seeds, best first: one pool's ranking; from pools, every pool's winner first (ranked
    across the pools by the same tiebreaks, head-to-head aside), then every runner-up, and so on."""
    if len(board.pools) == 1:
        return [row.name for row in board.teams]
    across = [row.name for row in rank([replace(row) for row in board.teams], [])]  # copies: keep the pools' ranks
    return cross_pool_seeds({pool: [row.name for row in board.pool(pool)] for pool in board.pools}, across)
