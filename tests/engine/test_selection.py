"""Which of a packet's questions a match plays, and in what order: the same settings and seed always
give the same order (so a match can be made again), start-at, categories and the power preference
do what the host page says, and settings that pick nothing are refused naming the setting."""
from __future__ import annotations

import json
import random

import pytest

from game.engine.formats import make_rules
from game.engine.selection import (PACKET_ORDER, QuestionOrder, SelectionError, describe, has_power_mark,
                                   select_questions)
from game.importers.qanta import to_question

QUIZBOWL = make_rules("quizbowl")
EFFICIENTQA = make_rules("efficientqa")
CATEGORIES = ("History", "Science", "Literature")


def packet(n: int = 30) -> list[dict]:
    """n tossups in packet order: categories in turn, every third one with a power mark."""
    return [{"qid": f"p:{i}", "kind": "tossup", "category": CATEGORIES[i % 3],
             "text": f"Clue {i} {'(*) ' if i % 3 == 1 else ''}for ten points, name this?", "answer": f"A{i}"}
            for i in range(1, n + 1)]


def qids(questions) -> list[str]:
    return [q["qid"] for q in questions]


def shuffled(seed, **settings) -> QuestionOrder:
    return QuestionOrder(order="shuffled", seed=seed, **settings)


@pytest.fixture(scope="module")
def qanta(shared_data) -> list[dict]:
    """The 227 tossups of QANTA's small guessdev set, as a packet of them would reach the selection."""
    records = json.loads((shared_data / "qanta" / "small.guessdev.json").read_text())["questions"]
    return [dict(to_question(r), qid=f"small:{i}") for i, r in enumerate(records)]


def test_packet_order_from_question_one_is_the_packet_as_it_is():
    questions = packet()
    assert select_questions(questions, PACKET_ORDER, QUIZBOWL) == questions


def test_the_same_seed_gives_the_same_order_and_other_seeds_other_orders(qanta):
    first = qids(select_questions(qanta, shuffled(2024), QUIZBOWL))
    again = qids(select_questions([dict(q) for q in qanta], shuffled(2024), QUIZBOWL))
    assert first == again
    assert sorted(first) == sorted(qids(qanta)) and first != qids(qanta), "a shuffle of the whole packet"
    orders = {tuple(qids(select_questions(qanta, shuffled(seed), QUIZBOWL))) for seed in range(20)}
    assert len(orders) == 20, "twenty seeds, twenty orders"
    openings = {order[:20] for order in orders}
    assert len(openings) == 20, "a match's twenty questions differ from seed to seed, not just the reserve"


def test_a_seed_picks_the_same_questions_on_every_run_and_version():
    # Pinned: a stored match's seed must pick the same questions again after an upgrade.
    assert qids(select_questions(packet(), shuffled(42), QUIZBOWL))[:6] == \
        ["p:20", "p:15", "p:11", "p:27", "p:23", "p:7"]


def test_the_shuffle_neither_reads_nor_moves_the_global_random_state():
    random.seed(7)
    expected = random.random()
    random.seed(7)
    one = select_questions(packet(), shuffled(3), QUIZBOWL)
    assert random.random() == expected
    random.seed(99)
    assert select_questions(packet(), shuffled(3), QUIZBOWL) == one


def test_start_at_skips_the_packets_first_questions_before_the_shuffle():
    questions = packet()
    assert qids(select_questions(questions, QuestionOrder(start_at=5), QUIZBOWL)) == qids(questions[4:])
    mixed = select_questions(questions, shuffled(11, start_at=21), QUIZBOWL)
    assert sorted(qids(mixed)) == sorted(qids(questions[20:])), "only questions 21 to 30, shuffled among themselves"
    assert qids(mixed) != qids(questions[20:])


@pytest.mark.parametrize("start", [31, 500])
def test_starting_beyond_the_packet_is_refused_with_its_size(start):
    with pytest.raises(SelectionError) as refusal:
        select_questions(packet(), QuestionOrder(start_at=start), QUIZBOWL)
    assert refusal.value.setting == "start_at"
    assert str(refusal.value) == f"The packet has 30 tossups; start at a question from 1 to 30 (not {start})."


def test_categories_keep_only_theirs_in_the_chosen_order():
    questions = packet()
    history = select_questions(questions, QuestionOrder(categories=("History",)), QUIZBOWL)
    assert qids(history) == [q["qid"] for q in questions if q["category"] == "History"]
    two = select_questions(questions, shuffled(5, categories=("History", "Science"), start_at=10), QUIZBOWL)
    assert {q["category"] for q in two} == {"History", "Science"}
    assert sorted(qids(two)) == sorted(q["qid"] for q in questions[9:] if q["category"] != "Literature")


def test_a_category_the_packet_lacks_is_refused_naming_the_ones_it_has():
    with pytest.raises(SelectionError) as refusal:
        select_questions(packet(), QuestionOrder(categories=("History", "Trash")), QUIZBOWL)
    assert refusal.value.setting == "categories"
    assert str(refusal.value) == ("The packet has no tossups in Trash; choose among History, Literature or Science.")


def test_categories_that_all_come_before_the_start_are_refused_with_how_many_there_are():
    questions = packet(30)[:3] + [dict(q, category="Science") for q in packet(30)[3:]]
    with pytest.raises(SelectionError) as refusal:
        select_questions(questions, QuestionOrder(start_at=4, categories=("History", "Literature")), QUIZBOWL)
    assert refusal.value.setting == "categories"
    assert str(refusal.value) == ("The packet's 2 tossups in History or Literature all come before question 4; "
                                  "start earlier or choose more categories.")


def test_preferring_power_puts_power_marked_tossups_first_each_group_in_the_chosen_order():
    questions = packet()
    plain = select_questions(questions, shuffled(8), QUIZBOWL)
    preferred = select_questions(questions, shuffled(8, prefer_power=True), QUIZBOWL)
    marked = [q for q in plain if has_power_mark(q)]
    assert len(marked) == 10
    assert preferred == marked + [q for q in plain if not has_power_mark(q)]
    in_packet_order = select_questions(questions, QuestionOrder(prefer_power=True), QUIZBOWL)
    assert qids(in_packet_order[:3]) == ["p:1", "p:4", "p:7"] and qids(in_packet_order[10:12]) == ["p:2", "p:3"]


def test_preferring_power_in_a_format_without_power_points_is_refused():
    with pytest.raises(SelectionError) as refusal:
        select_questions(packet(), QuestionOrder(prefer_power=True), EFFICIENTQA)
    assert refusal.value.setting == "prefer_power"
    assert "gives no power points" in str(refusal.value)
    rules = make_rules("efficientqa", {"phases": [dict(EFFICIENTQA["phases"][0], power_points=5),
                                                  *EFFICIENTQA["phases"][1:]]})
    assert select_questions(packet(), QuestionOrder(prefer_power=True), rules)[0]["qid"] == "p:1"


def test_a_shuffle_without_its_seed_is_refused_rather_than_made_unrepeatable():
    with pytest.raises(SelectionError) as refusal:
        select_questions(packet(), QuestionOrder(order="shuffled"), QUIZBOWL)
    assert refusal.value.setting == "seed"


def test_settings_survive_storing_and_bad_stored_settings_are_refused():
    order = shuffled(12345, start_at=3, categories=("History",), prefer_power=True)
    assert QuestionOrder.from_dict(json.loads(json.dumps(order.to_dict()))) == order
    assert QuestionOrder.from_dict({}) == PACKET_ORDER  # a match made before the setting existed
    for bad, setting in [({"order": "random"}, "order"), ({"seed": "12"}, "seed"), ({"seed": -1}, "seed"),
                         ({"start_at": 0}, "start_at"), ({"start_at": True}, "start_at"),
                         ({"categories": [""]}, "categories"), ({"prefer_power": "yes"}, "prefer_power"),
                         ({"shuffle": True}, "order")]:
        with pytest.raises(SelectionError) as refusal:
            QuestionOrder.from_dict(bad)
        assert refusal.value.setting == setting, bad


def test_the_settings_in_words():
    order = shuffled(77, start_at=4, categories=("History", "Science"), prefer_power=True)
    assert describe(order) == ("shuffled with seed 77; from question 4; categories: History, Science; "
                               "tossups with a power mark first")
    assert describe(order, seed=False).startswith("shuffled; from question 4")
    assert describe(PACKET_ORDER) == "packet order; every category"
