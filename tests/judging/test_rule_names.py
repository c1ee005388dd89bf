"""Each of the judge's rules names itself in the reason, so the moderator's console shows which rule decided."""
import pytest

from game.judging.judge import judge

needs_wordnet = pytest.mark.wordnet  # tests/environment.py skips these without the index


@needs_wordnet
def test_place_adjective_names_itself():
    judgement = judge("Unification of Italy", "Italian unification")
    assert judgement.verdict == "accept"
    assert "(rule: place adjective)" in judgement.reason
    assert '"italy" and "italian"' in judgement.reason


@needs_wordnet
def test_place_adjective_needs_another_word_that_met():
    # "French" the language is not "France": the adjective stands for the place only beside the thing it describes.
    assert "(rule: place adjective)" not in judge("France", "French").reason
    assert judge("Chinese Revolution", "French Revolution").verdict == "reject"


@needs_wordnet
def test_place_added_names_itself_and_asks_to_check_the_place():
    judgement = judge("United States Secretary of the Interior", "Secretary of the Interior",
                      question_text="Name this cabinet position that runs the National Park Service.")
    assert judgement.verdict == "accept"
    assert "(rule: place added)" in judgement.reason and "check it is the right place" in judgement.reason


@needs_wordnet
def test_place_added_is_not_for_places_people_or_lists():
    assert judge("Paris Texas", "Paris").verdict == "reject"
    assert judge("North Macedonia", "Macedonia").verdict == "reject"
    assert "(rule: place added)" not in judge("Broken Hill and Sydney", references=["Broken Hill"]).reason


@needs_wordnet
def test_place_it_lies_in_left_out_names_itself():
    judgement = judge("Everglades", "Florida Everglades", question_text="Name this wetland, the River of Grass.")
    assert judgement.verdict == "accept"
    assert "(rule: place it lies in left out)" in judgement.reason


@needs_wordnet
def test_a_given_name_that_is_also_a_city_is_not_a_place_left_out():
    judgement = judge("Festinger", "Leon Festinger", question_text="Name this ship, launched in 1900.")
    assert "(rule: place it lies in left out)" not in judgement.reason


@needs_wordnet
def test_adjective_word_form_names_itself():
    judgement = judge("linearity", "linear", question_text="Name this word which describes equations of the form y = mx + b.")
    assert judgement.verdict == "accept"
    assert "(rule: adjective word form)" in judgement.reason
    assert judge("communism", "communist").verdict != "accept"  # a noun too: its forms name other things


@needs_wordnet
def test_adjective_with_its_noun_names_itself_and_needs_the_question_to_use_the_noun():
    question = "For 10 points, identify this adjective which names the Gaussian bell-curve distribution."
    judgement = judge("normal distribution", "normal", question_text=question)
    assert judgement.verdict == "accept"
    assert "(rule: adjective with its noun)" in judgement.reason
    assert judge("normal vector", "normal", question_text=question).verdict == "reject"


@needs_wordnet
def test_kind_asked_for_names_itself():
    judgement = judge("drag", "drag force", question_text="Name this force that balances gravity at terminal velocity.")
    assert judgement.verdict == "accept"
    assert '(rule: kind asked for)' in judgement.reason and '"this force"' in judgement.reason


@needs_wordnet
def test_kind_asked_for_is_not_for_adjectives_letters_or_other_questions():
    assert judge("Red", "Red Army", question_text="Name this army.").verdict == "prompt"
    assert judge("Swing", "S-waves", question_text="Name these waves.").verdict != "accept"
    assert judge("drag", "drag force", question_text="Name this quantity.").verdict == "prompt"


def test_key_left_out_names_itself():
    line = "Edward Elgar's Cello Concerto in E Minor [prompt on partial answers]"
    judgement = judge("Cello Concerto (Elgar)", line)
    assert judgement.verdict == "accept"
    assert "(rule: key left out)" in judgement.reason
    assert judge("Cello Concerto", line).verdict == "prompt"  # without the composer the key is what identifies it


def test_code_name_names_itself():
    judgement = judge("p53", "tumor protein p53")
    assert judgement.verdict == "accept"
    assert "(rule: code name)" in judgement.reason
    assert judge("CO2", "CO2 laser").verdict == "prompt"  # the code must be the last word, the thing itself
    assert "(rule: code name)" not in judge("1930s", references=["during the 1930s"]).reason


def test_agreeing_number_wins_names_itself():
    line = "the Pathetique Sonata [or Ludwig van Beethoven's Piano Sonata No. 8 in C Minor; or Ludwig van Beethoven's opus 13]"
    judgement = judge("Piano Sonata No. 8 (Beethoven)", line)
    assert judgement.verdict == "accept"
    assert "rule: agreeing number wins" in judgement.reason
    assert judge("Piano Sonata No. 9 (Beethoven)", line).verdict == "reject"


def test_short_given_name_names_itself():
    judgement = judge("Dan Radcliffe", references=["Daniel Radcliffe"], question_text="who plays harry potter")
    assert judgement.verdict == "accept"
    assert "(rule: short given name)" in judgement.reason
    assert judge("Paul Smith", references=["Paula Smith"], question_text="who won the race").verdict == "reject"


def test_modifier_the_question_gives_names_itself():
    judgement = judge("Friction", "pipe friction", question_text="Name this force that opposes the motion of fluids in pipes.")
    assert judgement.verdict == "accept"
    assert '(rule: modifier the question gives)' in judgement.reason and '"pipes"' in judgement.reason
    assert judge("Friction", "pipe friction", question_text="Name this force that opposes motion.").verdict == "prompt"
