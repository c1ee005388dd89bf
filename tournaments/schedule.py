"""A tournament's schedule as plain data: which teams meet in which room in each round.

Pure Python (no Django), so the host's pages, `simulate_tournament` and the tests read one schedule.
Teams are names, given best seed first. The round robin is the circle method (one team fixed, the
others turning round it; an odd count adds a bye, so each team sits out exactly once); a double round
robin plays it twice with the sides swapped; pools are filled by snake seeding (1st to pool A, 2nd to B
... and back) and their rounds played side by side, each pool's games in rooms of their own. Playoffs
are a bracket of 2, 4 or 8 seeds: the later rounds name the winners (and losers, for 3rd place) of
earlier games and are resolved once those games are played.

When there are fewer rooms than games in a round, the round is played in sittings of at most `rooms`
games, and the teams that have sat out most so far play first.
"""
from __future__ import annotations

from dataclasses import dataclass, field

KINDS = {"full": "Round robin", "double": "Double round robin", "pools": "Round robin in pools"}
PLAYOFF_SIZES = (0, 2, 4, 8)
MAX_TEAMS = 64
MAX_POOLS = 8
POOL_LETTERS = "ABCDEFGH"
# Bracket order for the first playoff round, by seed: the top two seeds can meet only in the final.
FIRST_ROUND = {2: [(1, 2)], 4: [(1, 4), (2, 3)], 8: [(1, 8), (4, 5), (2, 7), (3, 6)]}
PLAYOFF_ROUND_NAMES = {8: "Quarterfinals", 4: "Semifinals", 2: "Final"}


class ScheduleError(ValueError):
    """A schedule that cannot be made, in a sentence the host can act on."""


@dataclass(frozen=True)
class Game:
    room: int  # 1-based
    a: str  # team name, or in an unresolved playoff game the slot it waits for ("Winner of Semifinal 1")
    b: str
    pool: str = ""  # the pool's letter in a pooled round robin
    label: str = ""  # a playoff game's own name: "Semifinal 1", "Final", "3rd place"


@dataclass(frozen=True)
class Round:
    number: int  # numbered through the tournament, from 1
    stage: str  # "round robin" or "playoffs"
    name: str  # as the pages show it
    games: tuple[Game, ...]
    byes: tuple[str, ...] = ()  # teams of the stage that do not play this round


@dataclass
class Schedule:
    kind: str
    pools: dict[str, list[str]]  # letter ("" for a single pool) -> team names in seed order
    rounds: list[Round] = field(default_factory=list)


def pairings(teams: list[str]) -> list[tuple[list[tuple[str, str]], list[str]]]:
    """A single round robin by the circle method: per round, the pairs (first named plays as side A)
    and the team with the bye (none for an even count). Each pair meets once; the fixed team changes
    side each round so sides even out."""
    if len(teams) < 2:
        return []
    circle: list[str | None] = list(teams) + ([None] if len(teams) % 2 else [])
    n = len(circle)
    out = []
    for r in range(n - 1):
        pairs, byes = [], []
        for i in range(n // 2):
            one, other = circle[i], circle[n - 1 - i]
            if one is None or other is None:
                byes.append(one if other is None else other)
                continue
            flip = (r % 2 == 1) if i == 0 else (i % 2 == 1)
            pairs.append((other, one) if flip else (one, other))
        out.append((pairs, byes))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return out


def snake(teams: list[str], pools: int) -> dict[str, list[str]]:
    """Teams in seed order into `pools` pools: seeds 1..k to pools A..k, the next k back from k to A."""
    out: dict[str, list[str]] = {POOL_LETTERS[p]: [] for p in range(pools)}
    for i, team in enumerate(teams):
        row, place = divmod(i, pools)
        out[POOL_LETTERS[place if row % 2 == 0 else pools - 1 - place]].append(team)
    return out


def round_robin(teams: list[str], kind: str = "full", pools: int = 1, rooms: int | None = None) -> Schedule:
    """The round robin of `teams` (best seed first): kind "full", "double" (each pair twice, sides
    swapped in the second half) or "pools" (`pools` pools by snake seeding, each a full round robin,
    their rounds played at the same time). `rooms`: how many games can be played at once (default:
    as many as the largest round needs)."""
    _check_teams(teams)
    if kind not in KINDS:
        raise ScheduleError(f"A round robin is one of {', '.join(KINDS)}, not {kind!r}.")
    if kind != "pools":
        pools = 1
    if not 1 <= pools <= min(MAX_POOLS, len(teams) // 2):
        raise ScheduleError(f"{len(teams)} teams make from 1 to {min(MAX_POOLS, len(teams) // 2)} pools of at least "
                            f"two teams; {pools} were asked for.")
    grouped = snake(teams, pools) if pools > 1 else {"": list(teams)}
    per_pool = {letter: pairings(members) for letter, members in grouped.items()}
    if kind == "double":
        per_pool = {letter: rounds + [([(b, a) for a, b in pairs], byes) for pairs, byes in rounds]
                    for letter, rounds in per_pool.items()}
    slots = []
    for r in range(max(len(rounds) for rounds in per_pool.values())):
        games = [(letter, a, b) for letter, rounds in per_pool.items() if r < len(rounds) for a, b in rounds[r][0]]
        slots.append(games)
    return Schedule(kind=kind, pools=grouped, rounds=_in_rooms(slots, list(teams), rooms, "round robin"))


def _check_teams(teams: list[str]):
    if not 2 <= len(teams) <= MAX_TEAMS:
        raise ScheduleError(f"A tournament has from 2 to {MAX_TEAMS} teams; this one has {len(teams)}.")
    if len(set(teams)) != len(teams):
        raise ScheduleError("Two teams have the same name; give each team its own.")


def _in_rooms(slots: list[list[tuple[str, str, str]]], teams: list[str], rooms: int | None, stage: str) -> list[Round]:
    """Rounds from slots of (pool, a, b): each slot split into sittings of at most `rooms` games, the
    teams that have sat out most so far first, and the games given rooms 1, 2, ..."""
    most = max((len(slot) for slot in slots), default=0)
    rooms = rooms or most or 1
    if rooms < 1:
        raise ScheduleError("A tournament needs at least one room.")
    sat_out = {team: 0 for team in teams}
    out: list[Round] = []
    for index, slot in enumerate(slots):
        waiting = list(slot)
        part = 0
        while waiting:
            waiting.sort(key=lambda g: -(sat_out.get(g[1], 0) + sat_out.get(g[2], 0)))
            now, waiting = waiting[:rooms], waiting[rooms:]
            part += 1
            playing = {t for _, a, b in now for t in (a, b)}
            for team in teams:
                sat_out[team] += team not in playing
            name = f"Round {index + 1}"
            if len(slot) > rooms:
                name += f" (sitting {part})"
            out.append(Round(number=len(out) + 1, stage=stage, name=name,
                             games=tuple(Game(room=i, a=a, b=b, pool=pool) for i, (pool, a, b) in
                                         enumerate(now, 1)),
                             byes=tuple(t for t in teams if t not in playing)))
    return out


# -- playoffs -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Slot:
    """A side of a playoff game: a seed (1-based), or the winner or loser of an earlier playoff game."""

    kind: str  # "seed" | "winner" | "loser"
    ref: int | str  # the seed, or the label of the game

    def text(self) -> str:
        return f"Seed {self.ref}" if self.kind == "seed" else f"{self.kind.capitalize()} of {self.ref}"


def bracket(size: int) -> list[list[tuple[str, Slot, Slot]]]:
    """The playoff bracket of `size` seeds as rounds of (label, side A, side B): seeds by FIRST_ROUND,
    then the winners of neighbouring games, and with the final a 3rd-place game of the semifinal losers."""
    if size not in PLAYOFF_SIZES or not size:
        raise ScheduleError(f"Playoffs are for {', '.join(map(str, PLAYOFF_SIZES[1:]))} teams, not {size}.")
    name = PLAYOFF_ROUND_NAMES[size]
    games = [(f"{name[:-1] if size > 2 else name} {i}" if size > 2 else name, Slot("seed", a), Slot("seed", b))
             for i, (a, b) in enumerate(FIRST_ROUND[size], 1)]
    rounds = [games]
    while len(games) > 1:  # the winners' games halve each round; the 3rd-place game comes with the final
        earlier = games
        name = PLAYOFF_ROUND_NAMES[len(earlier)]
        games = [(f"{name[:-1]} {i + 1}" if len(earlier) > 2 else name, Slot("winner", earlier[2 * i][0]),
                  Slot("winner", earlier[2 * i + 1][0])) for i in range(len(earlier) // 2)]
        third = [("3rd place", Slot("loser", earlier[0][0]), Slot("loser", earlier[1][0]))] if len(earlier) == 2 else []
        rounds.append(games + third)
    return rounds


def playoff_rounds(size: int, first: int) -> list[Round]:
    """The bracket as rounds numbered on from `first`, every side still a slot's text."""
    return [Round(number=first + i, stage="playoffs", name=round_name(games[0][0]),
                  games=tuple(Game(room=room, a=a.text(), b=b.text(), label=label)
                              for room, (label, a, b) in enumerate(games, 1)))
            for i, games in enumerate(bracket(size))]


def round_name(label: str) -> str:
    """A playoff round's name from its first game's label: "Semifinal 1" -> "Semifinals"."""
    return "Final" if label == "Final" else label.rsplit(" ", 1)[0] + "s"


def resolve(slot: Slot, seeds: list[str], results: dict[str, tuple[str, str]]) -> str | None:
    """The team a slot names: seeds best first; results: game label -> (winner, loser) of the playoff
    games played. None while the game it waits for is unplayed."""
    if slot.kind == "seed":
        return seeds[slot.ref - 1]
    if slot.ref not in results:
        return None
    winner, loser = results[slot.ref]
    return winner if slot.kind == "winner" else loser


def next_playoff_games(size: int, seeds: list[str], results: dict[str, tuple[str, str]]) -> list[tuple[str, str, str]]:
    """The playoff games that can be played next: (label, team A, team B) of the first bracket round
    with an unplayed game, once every side of it is known; [] when the bracket is over or waiting."""
    if len(seeds) < size:
        raise ScheduleError(f"Playoffs of {size} need {size} seeds; the standings have {len(seeds)} teams.")
    for games in bracket(size):
        if all(label in results for label, _, _ in games):
            continue
        sides = [(label, resolve(a, seeds, results), resolve(b, seeds, results)) for label, a, b in games
                 if label not in results]
        return [] if any(a is None or b is None for _, a, b in sides) else sides
    return []


def cross_pool_seeds(places: dict[str, list[str]], order: list[str]) -> list[str]:
    """Playoff seeds from pools: every pool's 1st place first, then every 2nd place, and so on; within
    a place, the teams in `order` (the standings across pools, best first)."""
    at = {team: (place, order.index(team)) for members in places.values() for place, team in enumerate(members)}
    return sorted(at, key=lambda team: at[team])
