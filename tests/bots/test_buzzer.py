"""The buzzer: learned from held-out training prefixes, its threshold calibrated on them, and a
guess of the wrong type held back."""
import pytest

from bots.builtin.answer_types import TypeProfiles, article_types, asked_types
from bots.builtin.buzzer import Buzzer, calibrate, first_buzzes

FEATURES = ["top", "gap", "clash"]


def test_it_learns_which_scores_mean_a_right_answer_and_survives_json():
    rows = [[s, g, 0] for s, g in ((5, 4), (6, 5), (7, 6), (1, 0.1), (2, 0.1), (1.5, 0.2))]
    buzzer = Buzzer.fit(FEATURES, rows, [1, 1, 1, 0, 0, 0])
    assert buzzer.probability([6.5, 5.5, 0]) > 0.5 > buzzer.probability([1, 0.1, 0])
    restored = Buzzer.from_json(buzzer.to_json())
    assert restored.probability(rows[0]) == pytest.approx(buzzer.probability(rows[0]))
    assert Buzzer.fit(FEATURES, rows, [0] * 6) is None


def test_a_guess_that_clashes_with_the_asked_type_is_quartered():
    buzzer = Buzzer.fit(FEATURES, [[s, s, 0] for s in range(10)], [0] * 5 + [1] * 5)
    assert buzzer.probability([9, 9, 1]) == pytest.approx(buzzer.probability([9, 9, 0]) / 4)


def test_only_each_questions_first_buzz_counts():
    probabilities = [0.2, 0.7, 0.9, 0.6, 0.95]
    labels = [0, 0, 1, 1, 1]
    questions = ["a", "a", "a", "b", "b"]
    assert first_buzzes(probabilities, labels, questions, 0.65) == [0, 1]  # a buzzes (wrongly) at 0.7, b at 0.95
    assert first_buzzes(probabilities, labels, questions, 0.5) == [0, 1]


def test_the_threshold_is_the_lowest_that_reaches_the_target_precision():
    # Twenty questions: right ones peak at 0.8, wrong ones at 0.3 .. 0.7 in steps.
    probabilities, labels, questions = [], [], []
    for q in range(20):
        right = q < 12
        probabilities.append(0.8 if right else 0.3 + 0.05 * (q - 12))
        labels.append(int(right))
        questions.append(q)
    threshold, precision, buzzes = calibrate(probabilities, labels, questions, target=0.85)
    # At 0.64 three wrong questions (0.65, 0.66.. i.e. 0.65 and 0.65+) still buzz; from 0.66 at most one.
    assert precision >= 0.85 and buzzes == len(first_buzzes(probabilities, labels, questions, threshold))
    lower = round(threshold - 0.01, 2)
    low = first_buzzes(probabilities, labels, questions, lower)
    assert sum(low) / len(low) < 0.85


def test_questions_say_what_type_they_ask_for_and_articles_what_they_are():
    assert asked_types("For 10 points, name this Chilean poet of love.") == {"chilean", "poet"}
    assert asked_types("He wrote Canto General.") == set()
    assert article_types("Pablo Neruda was a Chilean poet-diplomat and politician who won the Nobel Prize.") >= {
        "chilean", "poet-diplomat", "politician"}
    profiles = TypeProfiles.from_texts([["Name this poet who wrote odes"], ["Name this collection of poems"]])
    assert profiles.match({"poet"}, 0) == (1.0, 1.0, 0.0)
    assert profiles.match({"poet"}, 1) == (1.0, 0.0, 1.0)  # the poet's book for the poet: a clash
    assert profiles.match(set(), 1) == (0.0, 0.0, 0.0)
