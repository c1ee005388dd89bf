"""What a judgement carries besides the verdict: confidence, the matched text, the reason, the prompt question."""

import pytest

from game.judging.judge import judge
from game.judging.normalize import squad_normalize, tokens


def test_judgement_fields_and_reason_name_the_clause():
    result = judge("ships", 'battleships [prompt on "ships" by asking "What kind of ships?"]')
    assert result.verdict == "prompt" and result.prompt_question == "What kind of ships?"
    assert result.matched == "ships" and "prompt on" in result.reason and 0 < result.confidence <= 1
    assert set(result.to_dict()) == {"verdict", "confidence", "reason", "matched", "prompt_question"}


def test_reason_says_how_the_words_met():
    assert "misspelling" in judge("Kierkegard", "Kierkegaard").reason
    assert "initials" in judge("JFK", "John F. Kennedy").reason
    assert "form of" in judge("lions", "Lion").reason
    assert "SQuAD" in judge("the Beatles", references=["Beatles"]).reason


def test_a_surname_is_prompted_when_the_question_names_another_person_of_that_name():
    question = "He succeeded George Washington, and his cousin Samuel Adams led the Sons of Liberty."
    ambiguous = judge("Adams", "John Adams", question_text=question)
    assert (ambiguous.verdict, ambiguous.prompt_question) == ("prompt", "Which Adams?")
    assert "Samuel Adams" in ambiguous.reason
    assert judge("Tchaikovsky", "Pyotr Ilyich Tchaikovsky", question_text="He wrote Swan Lake.").verdict == "accept"
    assert judge("Adams", 'John Adams [do not accept "John Quincy Adams"]').verdict == "prompt"


def test_a_surname_is_not_accepted_for_a_thing_the_question_calls_a_thing():
    assert judge("Festinger", "Leon Festinger", question_text="This psychologist studied cognitive dissonance.").verdict == "accept"
    assert judge("Festinger", "Leon Festinger", question_text="Name this ship, launched in 1900.").verdict == "prompt"


def test_qualified_clauses_lower_the_confidence_and_say_so():
    plain = judge("Norman", "Romanesque [or Norman]")
    qualified = judge("Norman", "Romanesque [accept Norman until it is read]")
    assert plain.verdict == qualified.verdict == "accept"
    assert qualified.confidence < plain.confidence and "until it is read" in qualified.reason


def test_reject_clauses_beat_accept_clauses_for_the_same_text():
    result = judge("Istanbul", "Constantinople [or Istanbul; do not accept Istanbul]")
    assert result.verdict == "reject" and "do not accept" in result.reason


def test_nothing_to_judge_against_is_said_plainly():
    result = judge("Paris")
    assert result.verdict == "reject" and result.confidence == 0 and "rule by hand" in result.reason


def test_squad_normalisation_matches_the_official_rule():
    assert squad_normalize("The  Beatles!") == "beatles"
    assert squad_normalize("A Tale of Two Cities.") == "tale of two cities"
    assert tokens("U.S.A.") == ("usa",) and tokens("the 4th of July") == ("july", "4")


@pytest.mark.wordnet
def test_synonyms_come_from_wordnet_and_their_absence_is_said(monkeypatch):
    from game.judging import lexicon

    assert judge("nanna", "grandmother").verdict == "accept"
    assert "WordNet" in judge("nanna", "grandmother").reason
    monkeypatch.setattr(lexicon, "_index", None)
    monkeypatch.setattr(lexicon, "_loaded", True)
    lexicon.senses.cache_clear()
    without = judge("nana", "grandmother")
    assert without.verdict == "reject" and "synonyms were not checked" in without.reason
    assert judge("grandmother", "grandmother").verdict == "accept"  # everything else works on
    lexicon.senses.cache_clear()


def test_the_reason_says_how_the_response_was_read():
    assert "Read without the description" in judge("Jefferson Davis, the president of the Confederacy", "Jefferson Davis").reason
    assert "Read without the words around" in judge("What is Paris?", "Paris").reason
    assert "Read without the place" in judge("Plymouth, Massachusetts", "Plymouth").reason
    assert "Read in Latin letters" in judge("Άργος", "Argos").reason
    assert "Read" not in judge("Paris", "Paris").reason


def test_each_kind_of_rule_names_itself_in_the_reason():
    assert "anti-prompt" in judge("dissolving", "mixing [anti-prompt on dissolving]").reason
    assert "more specific" in judge("dissolving", "mixing [anti-prompt on dissolving]").reason
    assert "short form" in judge("Dr. Zhivago", "Doctor Zhivago").reason
    assert "transliteration" in judge("Mohamad Ali", "Muhammad Ali").reason
    assert "rounded" in judge("$2.18 billion", references=["$2.187 billion"]).reason
    assert "only the year" in judge("2001", references=["October 9, 2001"]).reason
    assert "different date" in judge("October 9, 2001", references=["2001", "October 10, 2001"]).reason
    assert "places it in" in judge("Plymouth, England", references=["Plymouth, Massachusetts"]).reason
    assert "ruled out by" in judge("The Invisible Man", 'Invisible Man [do not accept "The Invisible Man"]').reason
    assert "no longer held" in judge("Faunus", "Pan [accept Faunus before mention]", buzz=(4, ("Romans", "called", "him", "Faunus"))).reason
