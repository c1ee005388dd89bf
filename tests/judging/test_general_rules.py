"""The kinds of miss issue 22 names, each as a general rule: directives read as they say, number forms,
a misspelt word in an answer otherwise complete, transliterations, initialisms and short forms, a part that
a clause makes sufficient, and a common word never read as a foreign one by sound.

Each test states its rule and checks it over made-up words or over every value the rule covers, so the
rule, not a list of known answers, is what passes."""
import random
import string

import pytest

from game.judging import lexicon
from game.judging.judge import judge

needs_wordnet = pytest.mark.skipif(not lexicon.available(), reason="WordNet (Debian package wordnet-base) is not installed")
VOWELS = "aeiou"


def _made_up_words(count, seed, length=(6, 9)):
    """Pronounceable words no dictionary has (consonant-vowel pairs), so only the rule can match them."""
    rng = random.Random(seed)
    consonants = [c for c in string.ascii_lowercase if c not in VOWELS + "qxyw"]
    words = set()
    while len(words) < count:
        size = rng.randint(*length) // 2
        words.add("".join(rng.choice(consonants) + rng.choice(VOWELS) for _ in range(size)))
    return sorted(words)


# "or word forms": any form of each word counts; a misspelling is still read as one.
FORMS = [("ation", "ing"), ("ity", ""), ("ment", "ing"), ("ism", "istic"), ("ization", "ize")]


@pytest.mark.parametrize("seed", range(6))
def test_or_word_forms_accepts_any_form_of_each_word(seed):
    first, second = _made_up_words(2, seed)
    suffix, other = FORMS[seed % len(FORMS)]
    line = f"{first}{suffix} {second} [or word forms]"
    assert judge(f"{first}{other} {second}", line).verdict == "accept"
    typo = second[:3] + second[4] + second[3] + second[5:]  # two letters swapped
    assert judge(f"{first}{other} {typo}", line).verdict == "accept"
    assert judge(f"{first}{other} {second}", f"{first}{suffix} {second}").verdict != "accept"  # only where the line says so


# "accept any answer about X" / "anything that mentions X": an answer that contains X counts.
@pytest.mark.parametrize("directive", ["accept anything that mentions {x}", "accept any answer about {x}",
                                       "accept any answer mentioning {x}", "accept answers involving {x}"])
def test_any_answer_about_accepts_an_answer_containing_it(directive):
    for place in _made_up_words(4, hash(directive) % 1000):
        x = place.title()
        line = f"{x} Campaign [{directive.format(x=x)}; accept Blue Campaign]"
        for response in (f"Battle of {x}", f"{x} landings", x):
            assert judge(response, line).verdict == "accept", (response, line)
        assert judge("landings", line).verdict != "accept"


# Decades and centuries: a year within the decade or century the line names is accepted (more precise), as is
# the decade without its century ("the 60s", "60's"); a year outside is not.
@pytest.mark.parametrize("decade", range(1510, 2000, 70))  # "1500s" reads as a century (below)
def test_a_year_within_the_decade_is_accepted_and_one_outside_is_not(decade):
    line = f"the {decade}s"
    for year in range(decade - 3, decade + 13):
        said = judge(str(year), line)
        assert said.verdict == ("accept" if decade <= year < decade + 10 else "reject"), (year, line, said.reason)
    assert "(rule: year within)" in judge(str(decade + 5), line).reason
    for short in (f"the {decade % 100:02d}s", f"{decade % 100:02d}'s", f"{decade}'s"):
        assert judge(short, line).verdict == "accept", short


@pytest.mark.parametrize("century", [11, 14, 17, 19, 20])
def test_a_year_within_the_century_is_accepted(century):
    for line in (f"the {century}th century", f"{century - 1}00s"):
        for year in range((century - 1) * 100 - 2, century * 100 + 2, 7):
            expected = "accept" if (century - 1) * 100 <= year < century * 100 else "reject"
            assert judge(str(year), line).verdict == expected, (year, line)
