"""The learned equivalence model (game/judging/learned/): where the open-domain rules relate an answer to no
reference, it turns the reject into a prompt when it finds the two close (a kind of the reference, a member of
the group it names), and leaves the negative twin rejected (another thing of the same kind, someone not in the
group). It never reads a quizbowl answer, never an answer of a kind the rules read to the end (two numbers, two
people, two places, a lone letter), and the reason names it with its score. Its file is small, and rebuilding it
from the shared data gives the same file."""
import json

import pytest

from game.judging import lexicon
from game.judging.judge import judge
from game.judging.learned import build, model

pytestmark = pytest.mark.wordnet

GROUPS = "who played in the band"


def _learned(judgement) -> bool:
    return "(rule: learned equivalence)" in judgement.reason


@pytest.mark.parametrize("response, reference, twin", [
    ("poodle", "dog", "tabby"),  # a kind of the reference, and a kind of something else
    ("oak", "tree", "granite"),
    ("John Lennon", "the Beatles", "Mick Jagger"),  # a member for his group, and someone of another band
    ("Germany", "NATO", "Sweden"),  # a member state for the alliance (WordNet 3.0's members), and one outside it
])
def test_a_kind_or_a_member_is_prompted_where_the_rules_reject_and_its_twin_stays_rejected(response, reference, twin):
    assert "matches nothing" in judge(response, references=[reference], learned=False).reason
    ruled = judge(response, references=[reference], question_text=GROUPS)
    assert ruled.verdict == "prompt" and _learned(ruled), ruled.reason
    assert ruled.prompt_question and ruled.matched == reference
    other = judge(twin, references=[reference], question_text=GROUPS)
    assert other.verdict == "reject" and not _learned(other), other.reason


def test_the_reason_names_the_model_the_reference_and_the_score():
    ruled = judge("poodle", references=["wolf", "dog"])
    score = model.score("poodle", "dog")
    assert f'the learned equivalence model finds "poodle" close to "dog" ({score:.2f})' in ruled.reason
    assert ruled.confidence == pytest.approx(score)


def test_it_only_prompts_while_its_held_out_precision_is_under_98_percent():
    trained = model.model()
    at_accept = trained["held_out"]["at_accept"]
    if trained["accept_at"] is None:
        for response, reference in (("poodle", "dog"), ("John Lennon", "the Beatles"), ("oak", "tree")):
            assert judge(response, references=[reference]).verdict == "prompt"
    else:
        assert at_accept["precision"] >= build.ACCEPT_PRECISION
        assert at_accept["positives_passed"] + at_accept["negatives_passed"] >= build.FEWEST_ACCEPTS


def test_quizbowl_rules_never_ask_it():
    for ruled in (judge("poodle", "dog"), judge("poodle", references=["dog"], rules="quizbowl"),
                  judge("John Lennon", "the Beatles", question_text=GROUPS)):
        assert ruled.verdict == "reject" and not _learned(ruled), ruled.reason


@pytest.mark.parametrize("response, reference", [
    ("2.2 billion", "1.8 billion"),  # two numbers: the number rules decide
    ("1972", "the summer of 1650"),  # two dates
    ("Keith Richards", "Mick Jagger"),  # two people: the name rules decide
    ("Taiwan", "China"),  # two places: a place is no other place
    ("M", "Marie Curie"),  # a lone letter says too little
])
def test_kinds_the_rules_read_to_the_end_are_never_asked(response, reference):
    ruled = judge(response, references=[reference])
    assert ruled.verdict == "reject" and not _learned(ruled), ruled.reason
    assert model.closest(response, (reference,)) is None


def test_a_reject_that_names_its_rule_stays_one():
    ruled = judge("North Korea", references=["Korea"], question_text="where is the old capital")
    assert ruled.verdict == "reject" and "(rule: qualifier that changes the referent)" in ruled.reason


def test_wordnet_relations_the_features_read():
    assert lexicon.relation("poodle", "dog", "hypernyms") == 1 == lexicon.relation("dog", "poodle", "hypernyms")
    assert lexicon.relation("dog", "animal", "hypernyms") == 2
    assert lexicon.relation("john_lennon", "beatles", "groups") == 1
    assert lexicon.relation("dog", "cat", "hypernyms") == 0 == lexicon.relation("sweden", "nato", "groups")


def test_the_model_file_is_small_and_scored_without_scikit_learn():
    assert model.PATH.stat().st_size <= 5 * 1024 * 1024
    source = "".join(path.read_text() for path in (model.PATH.with_name("model.py"), model.PATH.with_name("pair_features.py")))
    assert "sklearn" not in source


@pytest.mark.slow
def test_rebuilding_from_the_shared_data_gives_the_file_in_the_repository(shared_data):
    rebuilt = build.build(shared_data)
    assert json.loads(model.PATH.read_text()) == rebuilt, "rebuild it: .venv/bin/python -m game.judging.learned.build"
