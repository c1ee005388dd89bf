"""The standings' order, from quizbowl's tiebreak procedure: win % first, then head-to-head among the
level teams (when they have all met), then points per bonus (when all heard bonuses), then points per
game; level in every figure, they share the place. Each row says what placed it below the one before."""
from tournaments.quizbowl_standings import GameResult, TeamLine, head_to_head, rank


def line(name, wins, losses, points=300, bonuses=0, bonus_points=0, ties=0):
    return TeamLine(name=name, games=wins + losses + ties, wins=wins, losses=losses, ties=ties, points_for=points,
                    bonuses_heard=bonuses, bonus_points=bonus_points)


def game(a, b, winner):
    return GameResult(a, b, 0, 0, winner)


def names(rows):
    return [r.name for r in rows]


def test_win_percentage_ranks_first_and_a_tie_counts_half_a_win():
    rows = rank([line("Low", 1, 3, points=900), line("High", 3, 1, points=100), line("Tied", 2, 1, ties=1)], [])
    assert names(rows) == ["High", "Tied", "Low"]
    assert [r.rank for r in rows] == [1, 2, 3] and all(r.placed_by == "" for r in rows)


def test_head_to_head_breaks_a_tie_before_the_points():
    rows = [line("Big scorer", 2, 1, points=900), line("Beat them", 2, 1, points=100)]
    results = [game("Big scorer", "Beat them", "Beat them")]
    ranked = rank(rows, results)
    assert names(ranked) == ["Beat them", "Big scorer"]
    assert ranked[1].placed_by == "head-to-head"


def test_head_to_head_counts_only_when_every_level_team_has_met():
    assert head_to_head({"A", "B", "C"}, [game("A", "B", "A"), game("B", "C", "B")]) is None
    assert head_to_head({"A", "B"}, [game("A", "B", "A"), game("B", "A", None)]) == {"A": 0.75, "B": 0.25}


def test_points_per_bonus_before_points_per_game():
    rows = [line("More points", 2, 2, points=800, bonuses=20, bonus_points=300),
            line("Better bonuses", 2, 2, points=600, bonuses=10, bonus_points=200)]
    ranked = rank(rows, [])  # they have not met: head-to-head does not apply
    assert names(ranked) == ["Better bonuses", "More points"]
    assert ranked[1].placed_by == "points per bonus"


def test_without_bonuses_points_per_game_decides():
    ranked = rank([line("Fewer", 2, 2, points=600), line("More", 2, 2, points=800)], [])
    assert names(ranked) == ["More", "Fewer"] and ranked[1].placed_by == "points per game"


def test_teams_level_in_every_figure_share_the_place():
    ranked = rank([line("Bee", 1, 1), line("Ant", 1, 1), line("Top", 2, 0)], [game("Ant", "Bee", None)])
    assert names(ranked) == ["Top", "Ant", "Bee"]
    assert [r.rank for r in ranked] == [1, 2, 2]
    assert ranked[2].shares_place and not ranked[1].shares_place
