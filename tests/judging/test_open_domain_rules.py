"""The open-domain rules, each built from its rule with made-up words, each with its negative twin: a date inside a
reference's span (not outside it), a person's full name with a rank for a nickname (not another given name), a
qualifier that narrows (not one that changes the referent), another form of a word or a place's adjective (not
another place's), and two answers joined by "or" (right under open-domain rules only when both are, never under
quizbowl rules). Every reading names its kind in the reason, so the moderator sees why."""
import random

import pytest

from game.judging import lexicon
from game.judging.judge import judge
from game.judging.open_domain import OPEN_DOMAIN, QUIZBOWL, rules_for
from game.judging.vocabulary import COMPASS_ADJECTIVES, NARROWING_KINDS, REFERENT_CHANGING

from .test_general_rules import _made_up_words

MONTHS = "January February March April May June July August September October November December".split()
WHEN, WHO, WHERE = "when did it happen", "who led the expedition", "where is the old capital"


def _open(response, refs, question=WHEN):
    return judge(response, references=refs, question_text=question)


def _ruled(judgement, verdict, rule):
    return judgement.verdict == verdict and f"(rule: {rule})" in judgement.reason


# Dates and spans: a date, season or part inside a reference's span is that answer, more precisely; outside, another.
@pytest.mark.parametrize("year", [1066, 1650, 1777, 1903, 1969, 2017])
def test_a_date_inside_the_reference_span_is_accepted_and_one_outside_is_not(year):
    rng = random.Random(year)
    first = rng.randint(0, 6)
    last = first + rng.randint(2, 4)
    span = f"{MONTHS[first]} to {MONTHS[last]} {year}"
    inside = _open(f"{MONTHS[first + 1]} {year}", [span])
    assert _ruled(inside, "accept", "date inside span"), inside.reason
    assert f"{MONTHS[first]}–{MONTHS[last]} {year}" in inside.reason  # the kind and the span, named
    assert _ruled(_open(f"{MONTHS[first + 1]} {first + 3}, {year}", [span]), "accept", "date inside span")
    for outside in (f"{MONTHS[last + 1]} {year}", f"{MONTHS[first + 1]} {year + 1}", str(year - 1)):
        ruled = _open(outside, [span])
        assert _ruled(ruled, "reject", "date outside span"), (outside, ruled.reason)


@pytest.mark.parametrize("year", [1650, 1812, 1944])
def test_a_season_inside_the_span_is_accepted_and_one_outside_is_not(year):
    assert _ruled(_open(f"the summer of {year}", [f"May to September {year}"]), "accept", "date inside span")
    assert _open(f"the winter of {year}", [f"May to September {year}"]).verdict == "reject"


@pytest.mark.parametrize("year", [44, 640, 1215, 1492])
def test_an_approximate_date_is_the_date_and_an_approximate_other_date_is_not(year):
    for said, wanted in ((f"around {year} BCE", f"{year} BC"), (f"circa {year} AD", f"{year} AD")):
        assert _ruled(_open(said, [wanted]), "accept", "approximate date"), said
    for said in (f"c. {year}", f"about {year}"):  # a hedged number: the number rules accept these
        assert _open(said, [str(year)]).verdict == "accept"
    assert _open(f"around {year + 3} BCE", [f"{year} BC"]).verdict == "reject"
    assert _open(f"around {year} AD", [f"{year} BC"]).verdict == "reject"  # the other era


@pytest.mark.parametrize("decade", [1890, 1950, 1980])
def test_during_the_decade_is_the_decade_and_a_vague_part_around_a_year_is_prompted(decade):
    assert _ruled(_open(f"during the {decade}s", [f"{decade}s"]), "accept", "approximate date")
    assert _open(f"during the {decade + 10}s", [f"{decade}s"]).verdict == "reject"
    for part, year in (("early", decade + 2), ("mid", decade + 5), ("late", decade + 8)):
        ruled = _open(f"the {part} {decade}s", [str(year)])
        assert _ruled(ruled, "prompt", "span around the date"), ruled.reason
    assert _open(f"the early {decade}s", [str(decade + 8)]).verdict == "reject"  # the early part does not hold it


def test_the_early_1900s_for_1903_is_a_prompt():
    assert _ruled(_open("the early 1900s", ["1903"]), "prompt", "span around the date")


@pytest.mark.parametrize("year", [1791, 1944, 2016])
def test_a_narrow_span_holding_the_date_is_accepted_a_wide_one_prompted_and_one_apart_rejected(year):
    assert _ruled(_open(f"{year}–{str(year + 1)[2:]}", [str(year + 1)]), "accept", "span around the date")
    assert _ruled(_open(f"{year - 3} to {year + 3}", [str(year)]), "prompt", "span around the date")
    assert _open(f"{year + 1} to {year + 2}", [str(year)]).verdict == "reject"


@pytest.mark.parametrize("year", [1776, 2001])
def test_the_year_of_a_reference_date_is_prompted_and_another_year_rejected(year):
    """Less precise than the reference, as "the early 1900s" for "1903": the moderator asks for the date."""
    assert _open(str(year), [f"16 November {year}"]).verdict == "prompt"
    assert _ruled(_open(str(year + 1), [f"16 November {year}"]), "reject", "date outside span")


def test_a_more_precise_reference_decides_against_its_span():
    """"1965" is inside "the 1960s", but not when "1968" is given as well: the precise reference decides."""
    assert _open("March 1965", ["the 1960s", "1968"]).verdict != "accept"
    assert _open("March 1968", ["the 1960s", "1968"]).verdict == "accept"


# People: the full name with middle names and a rank for a nickname form; a given name with a bare surname; a
# title or office before the name; initials. The negative twin: another person of the surname.
NICKNAMES = [("William", "Bill"), ("Robert", "Bob"), ("Elizabeth", "Liz"), ("Theodore", "Teddy"), ("Margaret", "Peggy")]


@pytest.mark.parametrize("seed", range(5))
def test_a_full_name_with_middle_names_and_a_rank_is_the_nickname_form(seed):
    surname, middle = (word.title() for word in _made_up_words(2, 100 + seed))
    full, short = NICKNAMES[seed]
    rank = ("Colonel", "Lt.", "General", "Sir", "Captain")[seed]
    ruled = _open(f"{rank} {full} {middle} {surname}", [f"{short} {surname}"], WHO)
    assert _ruled(ruled, "accept", "full name"), ruled.reason
    other = _made_up_words(1, 150 + seed)[0].title()  # another given name: another person of the surname
    assert _open(f"{rank} {other} {middle} {surname}", [f"{short} {surname}"], WHO).verdict == "reject"


@pytest.mark.parametrize("seed", range(4))
def test_a_given_name_a_title_or_initials_with_the_surname_name_the_person_and_another_given_name_does_not(seed):
    surname, given, other = (word.title() for word in _made_up_words(3, 200 + seed))
    assert _open(f"{given} {surname}", [surname], WHO).verdict == "accept"  # a bare surname reference
    for title in ("President", "General", "Saint"):
        assert _open(f"{title} {given} {surname}", [f"{given} {surname}"], WHO).verdict == "accept"
    assert _open(f"{given[0]}. {surname}", [f"{given} {surname}"], WHO).verdict == "accept"
    assert _open(f"{other} {surname}", [f"{given} {surname}"], WHO).verdict == "reject"


@pytest.mark.parametrize("seed", range(4))
def test_a_given_name_added_to_a_bare_surname_is_another_person_when_a_reference_names_the_person_otherwise(seed):
    surname, given, other = (word.title() for word in _made_up_words(3, 250 + seed))
    assert _open(f"{other} {surname}", [surname], WHO).verdict == "accept"  # nothing says otherwise
    ruled = _open(f"{other} {surname}", [surname, f"{given} {surname}"], WHO)
    assert _ruled(ruled, "reject", "another person of the surname"), ruled.reason
    assert _open(f"{given} {surname}", [surname, f"{given} {surname}"], WHO).verdict == "accept"


@pytest.mark.parametrize("seed", range(4))
def test_words_of_the_reference_that_the_question_says_may_be_left_out(seed):
    """ "legislative" for "legislative branch" when the question asks "which branch": the question says the rest."""
    word, kind, other = _made_up_words(3, 270 + seed)
    ruled = _open(word, [f"{word} {kind}"], f"which {kind} of the club makes the rules")
    assert _ruled(ruled, "accept", "rest in the question"), ruled.reason
    assert _open(word, [f"{word} {kind}"], f"which {other} of the club makes the rules").verdict != "accept"
    # A word that changes the referent is never left out on the question's say.
    assert "rest in the question" not in _open(word, [f"north {word}"], "is it in north or south").reason


@pytest.mark.parametrize("seed", range(3))
def test_the_person_of_a_cast_reference_is_accepted_without_the_role_and_the_role_is_not(seed):
    given, surname, role = (word.title() for word in _made_up_words(3, 280 + seed))
    ruled = _open(f"{given} {surname}", [f"{given} {surname} as {role}"], "who played the villain")
    assert _ruled(ruled, "accept", "role left out"), ruled.reason
    assert _open(role, [f"{given} {surname} as {role}"], "who played the villain").verdict != "accept"


@pytest.mark.wordnet
@pytest.mark.parametrize("place", ["Boston", "Los Angeles", "American", "English"])
def test_a_name_without_the_place_that_leads_it_is_accepted_and_a_kind_or_a_place_left_alone_is_not(place):
    team = _made_up_words(1, len(place))[0].title()
    ruled = _open(f"the {team}s", [f"{place} {team}s"], "which team won")
    assert _ruled(ruled, "accept", "place left out"), ruled.reason
    for kind in ("Revolution", "Empire", "Open", "Bulldog"):  # "Revolution" of "French Revolution" is any revolution
        assert "place left out" not in _open(kind, [f"{place} {kind}"], "which one").reason
    assert _open("Virginia", ["West Virginia"], "which state").verdict != "accept"  # a compass word is no place
    assert _open("America", ["Latin America"], "where").verdict != "accept"  # what is left is a place of its own


# Qualified containment: a qualifier that narrows is accepted; one that changes the referent (a declared table of
# compass, political and other words) is not, and the reason says so.
@pytest.mark.parametrize("seed", range(3))
def test_a_qualifier_that_narrows_is_accepted(seed):
    first, second = (word.title() for word in _made_up_words(2, 300 + seed))
    place = f"{first} {second}"
    for kind in sorted(NARROWING_KINDS):
        ruled = _open(f"{place} {kind.title()}", [place], WHERE)
        assert ruled.verdict == "accept", ruled.reason  # "area" and "region" are places too: the place rules may accept
    assert _ruled(_open(f"{place} State", [place], WHERE), "accept", "qualifier that narrows")
    assert _ruled(_open(f"the southern Kingdom of {second}", [f"Kingdom of {second}"], WHERE), "accept", "qualifier that narrows")


@pytest.mark.parametrize("word", sorted(REFERENT_CHANGING - COMPASS_ADJECTIVES))
def test_a_qualifier_from_the_table_of_referent_changing_words_is_not_accepted(word):
    place = _made_up_words(1, hash(word) % 1000)[0].title()
    ruled = _open(f"{word.title()} {place}", [place], WHERE)
    assert ruled.verdict != "accept", ruled.reason


@pytest.mark.parametrize("word", sorted(COMPASS_ADJECTIVES))
def test_a_compass_adjective_narrows_in_lower_case_and_names_another_place_capitalised(word):
    place = _made_up_words(1, hash(word) % 1000)[0].title()
    assert _open(f"{word} {place}", [place], WHERE).verdict == "accept"
    ruled = _open(f"{word.title()} {place}", [place], WHERE)
    assert _ruled(ruled, "reject", "qualifier that changes the referent"), ruled.reason


def test_north_korea_and_east_germany_are_other_countries():
    for said, wanted in (("North Korea", "Korea"), ("East Germany", "Germany"), ("South Vietnam", "Vietnam")):
        assert _ruled(_open(said, [wanted], WHERE), "reject", "qualifier that changes the referent"), said


@pytest.mark.wordnet
def test_an_adjective_that_only_describes_narrows_a_thing():
    thing = _made_up_words(1, 400)[0]
    for adjective in ("mammalian", "human", "coastal"):
        assert _open(f"{adjective} {thing}", [thing], "what organ is it").verdict == "accept"
    assert _open(f"non-{thing}", [thing], "what organ is it").verdict == "reject"


# Word forms: another form of a word ("-ic", plural, gerund); a place's adjective or people for the place.
@pytest.mark.parametrize("seed", range(4))
def test_another_form_of_a_word_is_accepted_and_another_word_is_not(seed):
    stem, noun, other = _made_up_words(3, 500 + seed, length=(6, 8))
    assert _ruled(_open(f"{stem}ic {noun}s", [f"{stem} {noun}s"], "what is it"), "accept", "word form")
    assert _open(f"{noun}s", [noun], "what is it").verdict == "accept"
    assert _open(f"{noun}ing", [noun], "what is it").verdict == "accept"
    assert _open(f"{other}ic {noun}s", [f"{stem} {noun}s"], "what is it").verdict == "reject"


@pytest.mark.wordnet
def test_a_place_adjective_or_people_stands_for_the_place_both_ways_and_never_for_another_place():
    pairs = sorted((adjective, place) for adjective, places in lexicon.index()["of_place"].items() for place in places
                   if adjective.isalpha() and place.isalpha() and adjective != place)
    sample = random.Random(44).sample(pairs, 40)
    for adjective, place in sample:
        ruled = _open(adjective.title(), [place.title()], "where did it begin")
        assert ruled.verdict == "accept", (adjective, place, ruled.reason)  # some read as a slip of the letters too
        assert _open(place.title(), [adjective.title()], "where did it begin").verdict == "accept"
    adjective, place = "welsh", "wales"
    assert _open("Welsh", ["Wales"], "where").verdict == "accept"
    assert _open("Scottish", ["Wales"], "where").verdict == "reject"
    assert _open("Taiwan", ["China"], "where").verdict == "reject"  # a place is no other place
    assert _open("French", ["France"], "what language do they speak").verdict != "accept"
    assert _open("France", ["French"], "what do they speak in the north").verdict != "accept"


# Two answers joined by "or": right under open-domain rules when both are, prompted when one is; a tossup answer
# with two guesses is wrong, even when each is an alternative of the line.
@pytest.mark.parametrize("seed", range(3))
def test_two_answers_joined_by_or(seed):
    first, second, wrong = _made_up_words(3, 600 + seed)
    assert _ruled(_open(f"{first} or {second}", [first, second], "what is it"), "accept", "two answers")
    assert _ruled(_open(f"{first}/{second}", [first, second], "what is it"), "accept", "two answers")
    assert _ruled(_open(f"{first} or {wrong}", [first], "what is it"), "prompt", "two answers")
    assert _open(f"{wrong} or {wrong}x", [first], "what is it").verdict == "reject"
    line = f"{first.title()} [or {second.title()}]"
    assert _ruled(judge(f"{first} or {second}", line), "reject", "two answers")
    assert _ruled(judge(f"{first} or {second}", references=[first, second], rules=QUIZBOWL), "reject", "two answers")
    assert _ruled(judge(f"{first} or {second}", f"{first} or {second}"), "reject", "two answers")  # alternatives: one, not both


def test_the_rules_follow_the_question():
    assert rules_for(None, ("Paris",), None) == OPEN_DOMAIN
    assert rules_for("Paris", ("Paris", "City of Paris"), None) == OPEN_DOMAIN  # an NQ question: its line is its first reference
    assert rules_for("<b><u>Paris</u></b> [prompt on France]", ("Paris",), None) == QUIZBOWL  # a QANTA tossup with its page
    assert rules_for("Paris", (), None) == QUIZBOWL
    assert rules_for("Paris", ("Paris",), QUIZBOWL) == QUIZBOWL
    with pytest.raises(ValueError):
        rules_for("Paris", (), "jeopardy")


def test_open_domain_readings_stay_out_of_quizbowl_lines():
    """A tossup's line says what it takes: "June 1650" is no answer to a line that reads "May to August 1650"."""
    assert judge("June 1650", "May to August 1650").verdict != "accept"
    assert judge("June 1650", references=["May to August 1650"], rules=QUIZBOWL).verdict != "accept"
    assert judge("June 1650", references=["May to August 1650"], rules=OPEN_DOMAIN).verdict == "accept"
