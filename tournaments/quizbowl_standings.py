"""A tournament's standings, folded from its finished matches' event logs and nothing else.

Per team: wins, losses, ties, win %, points for and against, points per game (PPG), tossup points and
powers/tens/negs (the box score's quizbowl line), bonuses heard, bonus points and points per bonus (PPB:
bonus points / bonuses heard, bouncebacks apart; game.archive.bonus_stats), points per tossup heard
(PPTH: all points / tossups heard). Per player: powers, tens, negs, tossup points, games.

Ranking, as quizbowl tournaments seed (NAQT's and ACF's tiebreak procedures): win % first; among teams
level on it, the head-to-head record in the games they played each other (when every pair of them has
met); then PPB (only when every level team heard bonuses); then PPG; then the name, which only orders
teams level in every figure (they share the place). Each row says which figure placed it below the row
before. A tied game counts half a win.

Pure Python: the callers load the logs (tournaments.results) and hand them in.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from game.archive.bonus_stats import bonus_lines
from game.archive.boxscore import box_score, powers_tens_negs, tossups_heard
from game.engine.api import fold

TIEBREAKS = ("win %", "head-to-head", "points per bonus", "points per game")
LEVEL = "level in every figure"  # placed_by of a row that shares the place of the row before


@dataclass
class PlayedGame:
    """A finished game of the tournament: its two teams (by tournament name, side A first: the match's
    first team) and the match's event log."""

    a: str
    b: str
    events: list[dict]
    pool: str = ""
    round: int = 0
    label: str = ""


@dataclass
class GameResult:
    a: str
    b: str
    score_a: int
    score_b: int
    winner: str | None  # None: a tie
    round: int = 0
    label: str = ""

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else (self.b if self.winner == self.a else self.a)


@dataclass
class PlayerLine:
    name: str
    team: str
    games: int = 0
    powers: int = 0
    tens: int = 0
    negs: int = 0
    points: int = 0  # tossup points


@dataclass
class TeamLine:
    name: str
    pool: str = ""
    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    tossups_heard: int = 0
    tossup_points: int = 0
    powers: int = 0
    tens: int = 0
    negs: int = 0
    bonuses_heard: int = 0
    bonus_points: int = 0
    bounceback_points: int = 0
    rank: int = 0
    placed_by: str = ""  # the figure that put it below the row before ("" when win % alone did)

    @property
    def shares_place(self) -> bool:
        return self.placed_by == LEVEL

    @property
    def win_pct(self) -> float:
        return (self.wins + self.ties / 2) / self.games if self.games else 0.0

    @property
    def ppg(self) -> float:
        return self.points_for / self.games if self.games else 0.0

    @property
    def ppb(self) -> float | None:
        return self.bonus_points / self.bonuses_heard if self.bonuses_heard else None

    @property
    def ppth(self) -> float:
        return self.points_for / self.tossups_heard if self.tossups_heard else 0.0


@dataclass
class Standings:
    teams: list[TeamLine] = field(default_factory=list)  # every pool's rows together, each pool ranked
    players: list[PlayerLine] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)

    def pool(self, letter: str) -> list[TeamLine]:
        return [row for row in self.teams if row.pool == letter]

    @property
    def pools(self) -> list[str]:
        return list(dict.fromkeys(row.pool for row in self.teams))


def game_figures(game: PlayedGame):
    """(result, {side name: TeamLine of this game alone}, [PlayerLine]) of one finished game."""
    state = fold(game.events)
    if state.status != "finished":
        raise ValueError(f"The game {game.a} v {game.b} has not finished.")
    names = {state.teams[0]["id"]: game.a, state.teams[1]["id"]: game.b}
    score_a, score_b = (state.scores.get(t["id"], 0) for t in state.teams[:2])
    winner = names[state.winner] if state.winner in names else None
    result = GameResult(game.a, game.b, score_a, score_b, winner, game.round, game.label)
    box = box_score(state)
    heard = tossups_heard(state, [{"seq": n, **event} for n, event in enumerate(game.events, 1)])  # a log's own seq wins
    line = powers_tens_negs(state, box["rows"], heard)
    bonus = bonus_lines(game.events)
    lines, players = {}, []
    for team_id, name in names.items():
        mine, theirs = (score_a, score_b) if name == game.a else (score_b, score_a)
        row = TeamLine(name=name, games=1, wins=int(winner == name), losses=int(winner not in (None, name)),
                       ties=int(winner is None), points_for=mine, points_against=theirs, tossups_heard=line["heard"])
        if team_id in bonus:
            row.bonuses_heard, row.bonus_points = bonus[team_id].heard, bonus[team_id].points
            row.bounceback_points = bonus[team_id].bounceback_points
        lines[name] = row
    for entry in line["lines"]:
        team = names[next(t["id"] for t in state.teams if t["name"] == entry["team"])]
        if entry["kind"] == "team":
            row = lines[team]
            row.tossup_points, row.powers, row.tens, row.negs = (entry["points"], entry["powers"], entry["tens"],
                                                                 entry["negs"])
        else:
            players.append(PlayerLine(entry["name"], team, 1, entry["powers"], entry["tens"], entry["negs"],
                                      entry["points"]))
    return result, lines, players


_SUMMED = ("games", "wins", "losses", "ties", "points_for", "points_against", "tossups_heard", "tossup_points",
           "powers", "tens", "negs", "bonuses_heard", "bonus_points", "bounceback_points")


def standings(teams: dict[str, str], games: list[PlayedGame]) -> Standings:
    """The standings of `teams` (name -> pool letter, "" for one pool) over the finished `games`: each
    pool ranked by TIEBREAKS, head-to-head from that pool's games."""
    return standings_of(teams, [game_figures(game) for game in games])


def standings_of(teams: dict[str, str], figures: list[tuple]) -> Standings:
    """The standings from each finished game's game_figures(), which it only reads (they may be kept)."""
    rows = {name: TeamLine(name=name, pool=pool) for name, pool in teams.items()}
    players: dict[tuple[str, str], PlayerLine] = {}
    results = []
    for result, lines, player_lines in figures:
        results.append(result)
        for name, line in lines.items():
            row = rows[name]
            for key in _SUMMED:
                setattr(row, key, getattr(row, key) + getattr(line, key))
        for p in player_lines:
            total = players.setdefault((p.team, p.name), PlayerLine(p.name, p.team))
            for key in ("games", "powers", "tens", "negs", "points"):
                setattr(total, key, getattr(total, key) + getattr(p, key))
    ranked = []
    for pool in dict.fromkeys(teams.values()):
        ranked += rank([row for row in rows.values() if row.pool == pool], results)
    ordered_players = sorted(players.values(), key=lambda p: (-p.points, p.team, p.name))
    return Standings(teams=ranked, players=ordered_players, results=results)


def head_to_head(names: set[str], results: list[GameResult]) -> dict[str, float] | None:
    """Each team's win % in the games among `names`; None unless every pair of them has met."""
    among = [r for r in results if {r.a, r.b} <= names and r.a != r.b]
    met = {frozenset((r.a, r.b)) for r in among}
    if len(met) != len(names) * (len(names) - 1) // 2:
        return None
    won = {name: 0.0 for name in names}
    played = {name: 0 for name in names}
    for r in among:
        for side in (r.a, r.b):
            played[side] += 1
            won[side] += 1.0 if r.winner == side else 0.5 if r.winner is None else 0.0
    return {name: won[name] / played[name] for name in names}


def rank(rows: list[TeamLine], results: list[GameResult]) -> list[TeamLine]:
    """The rows best first by TIEBREAKS, each with its rank (rows level in every figure share it) and
    the figure that placed it below the row before."""
    rows = sorted(rows, key=lambda r: (-r.win_pct, r.name.casefold(), r.name))
    out: list[TeamLine] = []
    for pct in dict.fromkeys(r.win_pct for r in rows):
        level = [r for r in rows if r.win_pct == pct]
        h2h = head_to_head({r.name for r in level}, results) if len(level) > 1 else None
        use_ppb = all(r.ppb is not None for r in level)

        def key(r, h2h=h2h, use_ppb=use_ppb):
            return ((-h2h[r.name]) if h2h else 0.0, -(r.ppb or 0.0) if use_ppb else 0.0, -r.ppg)

        level.sort(key=lambda r: key(r))
        for r in level:
            before = out[-1] if out else None
            r.placed_by = ""
            if before is None or before.win_pct != r.win_pct:
                r.rank = len(out) + 1
            else:
                mine, theirs = key(r), key(before)
                decided = next((name for name, x, y in zip(TIEBREAKS[1:], theirs, mine) if x != y), None)
                r.rank = len(out) + 1 if decided else before.rank
                r.placed_by = decided or LEVEL
            out.append(r)
    return out
