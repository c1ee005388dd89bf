"""The leaderboard's order and its words: average margin per question first, then total margin, then
fewer questions, then the name; each row level with a neighbour says what decided between them."""
from events.standings import Row, rank


def names(rows):
    return [r.name for r in rows]


def test_teams_rank_by_average_margin_per_question_not_by_points():
    rows = rank([Row("Many points", questions=40, points_for=60, points_against=40),   # +0.50 a question
                 Row("Few questions", questions=10, points_for=12, points_against=2),  # +1.00 a question
                 Row("Behind", questions=20, points_for=5, points_against=15)])        # -0.50 a question
    assert names(rows) == ["Few questions", "Many points", "Behind"]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert [r.average_margin for r in rows] == [1.0, 0.5, -0.5]
    assert all(r.tie == "" for r in rows)


def test_a_tie_on_average_margin_goes_to_the_higher_total_margin_and_both_rows_say_so():
    rows = rank([Row("Short", questions=10, points_for=10, points_against=5),     # +5 over 10: +0.50
                 Row("Long", questions=20, points_for=20, points_against=10)])     # +10 over 20: +0.50
    assert names(rows) == ["Long", "Short"]
    assert [r.rank for r in rows] == [1, 2]
    assert rows[0].tie == "level with Short on average margin (+0.50); placed before it on total margin (+10 against +5)"
    assert rows[1].tie == "level with Long on average margin (+0.50); placed after it on total margin (+10 against +5)"


def test_then_fewer_questions_played_wins_when_the_total_margin_is_equal_too():
    # equal average and total margin needs zero margin: 0 over 8 and 0 over 12
    rows = rank([Row("Twelve", questions=12, points_for=6, points_against=6),
                 Row("Eight", questions=8, points_for=3, points_against=3)])
    assert names(rows) == ["Eight", "Twelve"]
    assert "fewer questions played (8 against 12)" in rows[0].tie and "fewer questions played" in rows[1].tie


def test_teams_equal_in_every_figure_share_the_place_listed_by_name():
    rows = rank([Row("Zebras", questions=10, points_for=9, points_against=4),
                 Row("aardvarks", questions=10, points_for=9, points_against=4),
                 Row("Last", questions=10, points_for=0, points_against=4)])
    assert names(rows) == ["aardvarks", "Zebras", "Last"]
    assert [r.rank for r in rows] == [1, 1, 3]
    assert rows[0].tie == "level with Zebras in every figure: they share the place (listed by name)"
    assert rows[2].tie == ""


def test_a_row_between_two_level_neighbours_explains_both():
    rows = rank([Row("A", questions=10, points_for=20, points_against=10),  # +1.00, margin +10
                 Row("B", questions=5, points_for=10, points_against=5),    # +1.00, margin +5
                 Row("C", questions=2, points_for=2, points_against=0)])    # +1.00, margin +2
    assert names(rows) == ["A", "B", "C"]
    assert rows[1].tie.count("level with") == 2
    assert "placed after it" in rows[1].tie and "placed before it" in rows[1].tie


def test_a_preliminary_with_no_question_played_has_no_margin_rather_than_an_error():
    rows = rank([Row("Nothing yet", questions=0, points_for=0, points_against=0),
                 Row("Played", questions=3, points_for=3, points_against=0)])
    assert names(rows) == ["Played", "Nothing yet"] and rows[1].average_margin == 0.0
