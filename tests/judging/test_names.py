"""People's names: nicknames of given names, initials, and surnames alone by how many people
WordNet knows by them. Cases are drawn from the two sources the rules read, the nicknames package's table
and WordNet's people, so a test holds for the rule rather than for a list written beside it."""
import pytest
from nicknames import name_triplets

from game.judging import lexicon
from game.judging.judge import judge
from game.judging.names import TITLES

needs_wordnet = pytest.mark.wordnet  # tests/environment.py skips these without the index
QUESTION = "This person was born in a small town. Name this figure, whose work he finished late in life."
SURNAME = "Quillfeather"  # a surname nobody in WordNet has


def _table_sample(step=37):
    """Every step-th (name, nickname) pair of the package's table, a spread over its whole alphabet."""
    rows = [row for row in name_triplets() if row.name1.isalpha() and row.name2.isalpha()]
    return [(row.name1, row.name2) for row in rows[::step]]


@pytest.mark.parametrize("formal, nick", _table_sample())
def test_a_nickname_stands_for_the_given_name_both_ways(formal, nick):
    answer, response = f"{formal.title()} {SURNAME}", f"{nick.title()} {SURNAME}"
    said = judge(response, answer, question_text=QUESTION)
    assert said.verdict == "accept", said.reason
    assert judge(answer, response, question_text=QUESTION).verdict == "accept"


def test_a_nickname_of_another_given_name_names_another_person():
    table = {}
    for row in name_triplets():
        table.setdefault(row.name1, set()).add(row.name2)
        table.setdefault(row.name2, set()).add(row.name1)
    formal = sorted(name for name in table if name.isalpha() and len(name) > 3)[::41]
    for name, other in zip(formal, formal[1:]):
        stranger = next((n for n in sorted(table[other]) if n.isalpha() and n not in table[name] | {name}
                         and not name.startswith(n) and not n.startswith(name)), None)
        if stranger is None:
            continue
        said = judge(f"{stranger.title()} {SURNAME}", f"{name.title()} {SURNAME}", question_text=QUESTION)
        assert said.verdict == "reject", (name, stranger, said.reason)


def test_teddy_roosevelt_is_theodore_roosevelt():
    assert judge("Teddy Roosevelt", "Theodore Roosevelt", question_text=QUESTION).verdict == "accept"
    assert judge("Bill Clinton", "William Jefferson Clinton", question_text=QUESTION).verdict == "accept"


def _given_and_surname(words, surname):
    """A name of given names and the surname, each capitalised, that names one person in WordNet: not "Claudius I",
    "Saint George", "Thomas a Becket", nor "Thomas Hart Benton" (a painter and a senator: the full name is no clearer)."""
    return (len(words) >= 2 and words[-1].lower() == surname and all(w[:1].isupper() and w.isalpha() for w in words)
            and words[0].lower() not in TITLES and len(lexicon.people("_".join(words).lower())) == 1)


def _single_names(people):
    data = lexicon.index()
    return sorted(word for word, entries in data["single_names"].items() if people(len(entries)) and word.isalpha())


@needs_wordnet
def test_a_surname_that_wordnet_gives_several_people_is_prompted_for_each_of_them():
    ambiguous = _single_names(lambda n: n >= 2)
    assert len(ambiguous) > 100 and {"roosevelt", "adams"} <= set(ambiguous)
    checked = 0
    for word in ambiguous[::7]:
        for _, full in lexicon.people_called(word):
            words = full.split()
            if not _given_and_surname(words, word):
                continue
            said = judge(word.title(), full, question_text=QUESTION)
            assert said.verdict == "prompt", (word, full, said.reason)
            assert "(rule: ambiguous surname)" in said.reason and said.prompt_question == f"Which {word.title()}?"
            checked += 1
    assert checked > 50
    said = judge("Roosevelt", "Theodore Roosevelt", question_text=QUESTION)
    assert said.verdict == "prompt" and "Franklin Roosevelt" in said.reason and "Eleanor Roosevelt" in said.reason


@needs_wordnet
def test_a_surname_that_wordnet_gives_one_person_is_accepted_whatever_else_it_means():
    data = lexicon.index()
    single = _single_names(lambda n: n == 1)
    also_things = [word for word in single if len(data["senses"][word]) > 1]  # Beethoven's music, Copernicus's crater
    assert {"beethoven", "copernicus", "tchaikovsky"} <= set(single) and {"beethoven", "copernicus"} <= set(also_things)
    checked = 0
    for word in also_things[::5] + ["beethoven", "copernicus", "tchaikovsky"]:
        (_, full), = lexicon.people_called(word)
        if not _given_and_surname(full.split(), word):
            continue
        said = judge(word.title(), full, question_text=QUESTION)
        assert said.verdict == "accept", (word, full, said.reason)
        checked += 1
    assert checked > 30


@needs_wordnet
def test_the_others_wordnet_knows_are_no_confusion_when_the_line_accepts_them_too():
    assert judge("Curie", references=["Marie Curie", "Pierre Curie"]).verdict == "accept"
    assert judge("Curie", references=["Marie Curie"]).verdict == "prompt"


@needs_wordnet
def test_another_person_of_the_surname_with_more_names_is_rejected():
    """For every two people WordNet knows whose names are one another's with names added in the middle (John Adams
    and John Quincy Adams), the longer name is rejected for the shorter."""
    data = lexicon.index()
    people = set(data["people"])
    names = {}
    for key, senses in data["senses"].items():
        mine = [s for s in senses if s in people]
        if mine and "_" in key and key.replace("_", "").isalpha():
            names.setdefault(tuple(key.split("_")), set()).update(mine)
    def middle_added(short, long):  # the same given name and surname, with names between them
        return (len(long) > len(short) >= 2 and long[: len(short) - 1] == short[:-1] and long[-1] == short[-1]
                and not set(long) & TITLES and bool(lexicon.people_called(short[-1])))  # a surname, not "Frederick I"

    pairs = [(short, long) for long in names for short in names if middle_added(short, long) and not names[long] & names[short]]
    assert (("john", "adams"), ("john", "quincy", "adams")) in pairs
    for short, long in pairs:
        said = judge(" ".join(long).title(), " ".join(short).title(), question_text=QUESTION)
        assert said.verdict == "reject" and "(rule: another person of that surname)" in said.reason, (short, long, said.reason)
    same = [(short, long) for long in names for short in names if middle_added(short, long) and names[long] & names[short]]
    assert (("franklin", "roosevelt"), ("franklin", "delano", "roosevelt")) in same
    for short, long in same:
        assert judge(" ".join(long).title(), " ".join(short).title(), question_text=QUESTION).verdict == "accept", (short, long)


def test_an_initial_must_be_the_given_names_own():
    assert judge("T. Roosevelt", "Theodore Roosevelt", question_text=QUESTION).verdict == "accept"
    assert judge("F. Roosevelt", "Theodore Roosevelt", question_text=QUESTION).verdict == "reject"
    assert judge("J. Q. Adams", "John Quincy Adams", question_text=QUESTION).verdict == "accept"


@needs_wordnet
def test_a_title_and_the_surname_say_no_more_than_the_surname():
    assert judge("President Roosevelt", "Theodore Roosevelt", question_text=QUESTION).verdict == "prompt"
    assert judge("President Lincoln", "Abraham Lincoln", question_text=QUESTION).verdict == "accept"
    for word in _single_names(lambda n: n >= 2)[::40]:
        for _, full in lexicon.people_called(word)[:1]:
            if _given_and_surname(full.split(), word):
                assert judge(f"Professor {word.title()}", full, question_text=QUESTION).verdict == "prompt", (word, full)
