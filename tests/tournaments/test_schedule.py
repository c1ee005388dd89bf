"""The schedule from the rules of a round robin and a playoff bracket: every pair meets exactly once
(twice, sides swapped, in a double), nobody plays twice in a round, byes are spread evenly, no room
holds two games at once, pools are snake-seeded, and the playoffs pair the seeds as brackets do."""
from collections import Counter
from itertools import combinations

import pytest

from tournaments.schedule import (ScheduleError, bracket, cross_pool_seeds, next_playoff_games, playoff_rounds,
                                  round_robin, snake)


def teams(n):
    return [f"T{i}" for i in range(1, n + 1)]


def meetings(schedule):
    return Counter(frozenset((g.a, g.b)) for r in schedule.rounds for g in r.games)


def check_rounds(schedule, names):
    for r in schedule.rounds:
        playing = [t for g in r.games for t in (g.a, g.b)]
        assert len(playing) == len(set(playing)), f"{r.name}: a team plays twice"
        rooms = [g.room for g in r.games]
        assert len(rooms) == len(set(rooms)) and all(room >= 1 for room in rooms), f"{r.name}: a room double-booked"
        assert set(r.byes) == set(names) - set(playing)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11, 12])
def test_a_full_round_robin_pairs_everyone_once_with_one_bye_each_for_an_odd_count(n):
    names = teams(n)
    schedule = round_robin(names)
    assert meetings(schedule) == Counter({frozenset(p): 1 for p in combinations(names, 2)})
    check_rounds(schedule, names)
    assert len(schedule.rounds) == (n if n % 2 else n - 1)
    byes = Counter(t for r in schedule.rounds for t in r.byes)
    assert byes == (Counter({t: 1 for t in names}) if n % 2 else Counter())


def test_sides_even_out_over_a_round_robin():
    names = teams(8)
    first = Counter(g.a for r in round_robin(names).rounds for g in r.games)
    assert max(first.values()) - min(first.get(t, 0) for t in names) <= 2


def test_a_double_round_robin_meets_each_pair_twice_with_the_sides_swapped():
    names = teams(5)
    schedule = round_robin(names, "double")
    assert meetings(schedule) == Counter({frozenset(p): 2 for p in combinations(names, 2)})
    sides = Counter((g.a, g.b) for r in schedule.rounds for g in r.games)
    assert all(count == 1 for count in sides.values())  # once each way
    check_rounds(schedule, names)
    assert Counter(t for r in schedule.rounds for t in r.byes) == Counter({t: 2 for t in names})


def test_pools_are_snake_seeded():
    assert snake(teams(8), 2) == {"A": ["T1", "T4", "T5", "T8"], "B": ["T2", "T3", "T6", "T7"]}
    assert snake(teams(7), 3) == {"A": ["T1", "T6", "T7"], "B": ["T2", "T5"], "C": ["T3", "T4"]}


def test_pools_play_their_round_robins_side_by_side_in_rooms_of_their_own():
    names = teams(7)
    schedule = round_robin(names, "pools", pools=2)
    pools = schedule.pools
    assert set(pools) == {"A", "B"}
    expected = Counter({frozenset(p): 1 for members in pools.values() for p in combinations(members, 2)})
    assert meetings(schedule) == expected  # nobody meets a team of another pool
    check_rounds(schedule, names)
    assert len(schedule.rounds) == 3  # the pools' rounds run at once: the larger pool's three
    for r in schedule.rounds:
        for g in r.games:
            assert {g.a, g.b} <= set(pools[g.pool])


def test_fewer_rooms_split_a_round_into_sittings_and_still_pair_everyone_once():
    names = teams(6)
    schedule = round_robin(names, rooms=2)
    assert meetings(schedule) == Counter({frozenset(p): 1 for p in combinations(names, 2)})
    check_rounds(schedule, names)
    assert all(len(r.games) <= 2 for r in schedule.rounds)


@pytest.mark.parametrize("args, words", [((teams(1),), "from 2 to"), ((["A", "A"],), "same name"),
                                         ((teams(4), "pools", 3), "from 1 to 2 pools"),
                                         ((teams(4), "triple"), "not 'triple'")])
def test_impossible_schedules_are_refused_in_words(args, words):
    with pytest.raises(ScheduleError, match=words):
        round_robin(*args)


def test_playoff_brackets_pair_the_seeds_best_against_worst():
    first = {size: [(a.ref, b.ref) for _, a, b in bracket(size)[0]] for size in (2, 4, 8)}
    assert first == {2: [(1, 2)], 4: [(1, 4), (2, 3)], 8: [(1, 8), (4, 5), (2, 7), (3, 6)]}
    assert [len(r) for r in bracket(8)] == [4, 2, 2]  # quarters, semis, final with 3rd place
    names = [r.name for r in playoff_rounds(8, first=6)]
    assert names == ["Quarterfinals", "Semifinals", "Final"]
    with pytest.raises(ScheduleError):
        bracket(6)


def test_the_bracket_follows_the_results_to_the_final_and_third_place():
    seeds = ["S1", "S2", "S3", "S4"]
    assert next_playoff_games(4, seeds, {}) == [("Semifinal 1", "S1", "S4"), ("Semifinal 2", "S2", "S3")]
    after = {"Semifinal 1": ("S4", "S1"), "Semifinal 2": ("S2", "S3")}
    assert next_playoff_games(4, seeds, after) == [("Final", "S4", "S2"), ("3rd place", "S1", "S3")]
    done = dict(after, **{"Final": ("S2", "S4"), "3rd place": ("S1", "S3")})
    assert next_playoff_games(4, seeds, done) == []
    eight = [f"S{i}" for i in range(1, 9)]
    quarters = {f"Quarterfinal {i}": (a, b) for i, (_, a, b) in enumerate(next_playoff_games(8, eight, {}), 1)}
    assert next_playoff_games(8, eight, quarters) == [("Semifinal 1", "S1", "S4"), ("Semifinal 2", "S2", "S3")]


def test_cross_pool_seeding_puts_every_pool_winner_before_any_runner_up():
    places = {"A": ["A1", "A2", "A3"], "B": ["B1", "B2", "B3"]}
    across = ["A2", "B1", "A1", "B3", "B2", "A3"]  # the standings across pools, best first
    assert cross_pool_seeds(places, across)[:4] == ["B1", "A1", "A2", "B2"]
