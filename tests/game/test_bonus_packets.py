"""A packet of tossups and bonuses: the demo's loads whole, and a format that plays tossups (or short
questions) never carries a bonus, in packet order or shuffled."""
from __future__ import annotations

import pytest

from game.demo import ensure_demo_bonus_packet
from game.engine.api import QuestionOrder, Rejected, make_rules, split_words
from game.judging.answerline import parse_answer_line
from game.match_setup import pick_questions
from game.models import Packet, Question

pytestmark = pytest.mark.django_db


def test_the_demo_bonus_packet_loads_eight_tossups_with_power_and_eight_three_part_bonuses():
    packet = ensure_demo_bonus_packet()
    assert ensure_demo_bonus_packet() == packet and packet.slug == "demo-bonus"
    tossups, bonuses = (list(packet.questions.filter(kind=kind).order_by("position")) for kind in ("tossup", "bonus"))
    assert len(tossups) == len(bonuses) == 8
    for tossup in tossups:
        assert split_words(tossup.text)[1] is not None, f"tossup {tossup.position} has a power mark"
        assert parse_answer_line(tossup.answer).required_source == "markup"
    for bonus in bonuses:
        assert bonus.text and bonus.answer == "" and [p["value"] for p in bonus.parts] == [10, 10, 10]
        assert all(parse_answer_line(p["answer"]).required_source == "markup" for p in bonus.parts), bonus.position
    assert {b.category for b in bonuses} >= {"Science", "History", "Literature", "Geography", "Fine Arts"}


@pytest.mark.parametrize("order", [QuestionOrder(), QuestionOrder(order="shuffled", seed=7)])
def test_a_tossup_format_never_plays_a_packets_bonuses(order):
    packet = ensure_demo_bonus_packet()
    picked = pick_questions(packet, make_rules("quizbowl"), order)
    assert [q["kind"] for q in picked] == ["tossup"] * 8
    assert not any(q["parts"] for q in picked)
    assert sorted(q["qid"] for q in picked) == [f"demo-bonus:{n}" for n in range(1, 9)]


def test_a_packet_of_bonuses_alone_offers_nothing_to_a_tossup_or_short_answer_format():
    packet = Packet.objects.create(slug="bonuses-only", title="Bonuses only")
    Question.objects.create(packet=packet, position=1, kind="bonus", text="For 10 points each:", answer="",
                            parts=[{"text": "Name this moon.", "answer": "Io", "value": 10}])
    for name, kind in (("quizbowl", "tossup"), ("efficientqa", "short")):
        with pytest.raises(Rejected, match=f"has no {kind} questions"):
            pick_questions(packet, make_rules(name))
