"""Formats are data: the two presets, the host's edits to them, and the checks on those edits."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.api import PRESETS, RulesError, make_rules


def test_efficientqa_preset_is_the_three_phase_exhibition():
    rules = make_rules("efficientqa")
    assert [(p["mode"], p["points"], p["bot_tier"]) for p in rules["phases"]] == [
        ("buzz", 3, "500mib"), ("team", 2, "6gib"), ("team", 1, "unlimited")]
    assert [p.get("discussion_seconds") for p in rules["phases"][1:]] == [30, 30]
    assert rules["phases"][2]["snippets"] and not rules["phases"][1]["snippets"]
    assert rules["priority"] == "alternate" and rules["words_per_minute"] == 200
    assert all(p["wrong_points"] == 0 for p in rules["phases"])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_guesses_wait_for_the_humans_by_default(preset):
    assert make_rules(preset)["hall_bot_guesses"] == "after_humans"


def test_quizbowl_preset_is_powers_and_negs():
    rules = make_rules("quizbowl")
    (phase,) = rules["phases"]
    assert (phase["mode"], phase["power_points"], phase["points"], phase["neg_points"], phase["dead_seconds"]) == \
        ("buzz", 15, 10, -5, 5)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_are_json_and_edits_do_not_leak_between_matches(preset):
    rules = make_rules(preset, {"words_per_minute": 300})
    assert json.loads(json.dumps(rules)) == rules
    rules["phases"][0]["points"] = 99
    assert make_rules(preset)["phases"][0]["points"] != 99
    assert make_rules(preset)["words_per_minute"] == 200


@pytest.mark.parametrize("overrides, field, value", [
    ({"words_per_minute": 50}, "words_per_minute", 50),
    ({"words_per_minute": 600}, "words_per_minute", 600),
    ({"words_per_minute": "250"}, "words_per_minute", 250),  # a form field arrives as text
    ({"words_per_minute": 250.0}, "words_per_minute", 250),
    ({"questions": 1}, "questions", 1),
    ({"lead_in_seconds": 0}, "lead_in_seconds", 0.0),
    ({"comma_pause": 1.5}, "comma_pause", 1.5),
    ({"reveal": "moderator"}, "reveal", "moderator"),
    ({"priority": "first"}, "priority", "first"),
    ({"tiebreakers": 0}, "tiebreakers", 0),
    ({"hall_bot_guesses": "live"}, "hall_bot_guesses", "live"),
    ({"hall_bot_guesses": "after_humans"}, "hall_bot_guesses", "after_humans"),
])
def test_edits_in_range_are_taken(overrides, field, value):
    assert make_rules("quizbowl", overrides)[field] == value


@pytest.mark.parametrize("preset, overrides, mentions", [
    ("quizbowl", {"words_per_minute": 49}, "words_per_minute"),
    ("quizbowl", {"words_per_minute": 601}, "words_per_minute"),
    ("quizbowl", {"words_per_minute": 200.5}, "whole number"),
    ("quizbowl", {"words_per_minute": "fast"}, "words_per_minute"),
    ("quizbowl", {"words_per_minute": None}, "words_per_minute"),
    ("quizbowl", {"words_per_minute": float("inf")}, "words_per_minute"),
    ("quizbowl", {"questions": True}, "questions"),
    ("quizbowl", {"questions": 0}, "questions"),
    ("quizbowl", {"questions": 201}, "questions"),
    ("quizbowl", {"questions": float("nan")}, "questions"),
    ("quizbowl", {"lead_in_seconds": -1}, "lead_in_seconds"),
    ("quizbowl", {"comma_pause": 6}, "comma_pause"),
    ("quizbowl", {"answer_seconds": 301}, "answer_seconds"),
    ("quizbowl", {"tiebreakers": 21}, "tiebreakers"),
    ("quizbowl", {"bot_act_timeout_ms": 99}, "bot_act_timeout_ms"),
    ("quizbowl", {"reveal": "auto"}, "reveal"),
    ("quizbowl", {"priority": "random"}, "priority"),
    ("quizbowl", {"speed": 3}, "speed"),
    ("quizbowl", {"hall_bot_guesses": "never"}, "hall_bot_guesses must be 'after_humans'"),
    ("efficientqa", {"hall_bot_guesses": None}, "'live'"),
    ("quizbowl", {"phases": []}, "phases"),
    ("quizbowl", {"phases": "buzz"}, "phases"),
    ("quizbowl", {"phases": [{"mode": "solo"}]}, "mode"),
    ("quizbowl", {"phases": [{"mode": "buzz", "points": None}]}, "points"),
    ("quizbowl", {"phases": [{"mode": "buzz", "points": 101}]}, "points"),
    ("quizbowl", {"phases": [{"mode": "buzz", "dead_seconds": 121}]}, "dead_seconds"),
    ("quizbowl", {"phases": [{"mode": "buzz", "bot_tier": "1gib"}]}, "bot_tier"),
    ("efficientqa", {"phases": [{"mode": "team", "discussion_seconds": 0}]}, "discussion_seconds"),
    ("efficientqa", {"phases": [{"mode": "team", "power_points": 15}]}, "power_points"),
    ("efficientqa", {"phases": ["team"]}, "Phase 1"),
    ("jeopardy", {}, "jeopardy"),
])
def test_edits_out_of_range_are_refused_with_the_field_named(preset, overrides, mentions):
    with pytest.raises(RulesError) as refused:
        make_rules(preset, overrides)
    assert mentions in str(refused.value)


def test_a_host_can_rewrite_the_phases():
    rules = make_rules("efficientqa", {"phases": [
        {"mode": "buzz", "points": 5, "power_points": None, "bot_tier": "6gib"},
        {"mode": "team", "points": 1, "discussion_seconds": 10, "snippets": True},
    ]})
    buzz, team = rules["phases"]
    assert (buzz["points"], buzz["power_points"], buzz["neg_points"], buzz["dead_seconds"], buzz["bot_tier"]) == \
        (5, None, 0, 5, "6gib")
    assert (team["points"], team["discussion_seconds"], team["snippets"], team["bot_tier"]) == (1, 10, True, None)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=8,
)
KEYS = ["questions", "words_per_minute", "lead_in_seconds", "reveal", "priority", "tiebreakers", "phases",
        "comma_pause", "label", "hall_bot_guesses"]


@settings(max_examples=150, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)),
       overrides=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=3),
       phases=st.none() | st.lists(st.fixed_dictionaries(
           {"mode": st.sampled_from(["buzz", "team", "x"])},
           optional={k: JSON for k in ("points", "power_points", "neg_points", "dead_seconds",
                                       "discussion_seconds", "bot_tier")}), max_size=3))
def test_any_edit_gives_usable_rules_or_a_rules_error(preset, overrides, phases):
    if phases is not None:
        overrides = dict(overrides, phases=phases)
    try:
        rules = make_rules(preset, overrides)
    except RulesError:
        return
    json.dumps(rules, allow_nan=False)
    assert 50 <= rules["words_per_minute"] <= 600 and 1 <= rules["questions"] <= 200
    for phase in rules["phases"]:
        assert isinstance(phase["points"], int) and not isinstance(phase["points"], bool)
        assert phase["mode"] in ("buzz", "team")
