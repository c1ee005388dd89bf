"""The kinds of miss the judge used to make, each as a general rule: directives read as they say, number forms,
a misspelt word in an answer otherwise complete, transliterations, initialisms and short forms, a part that
a clause makes sufficient, and a common word never read as a foreign one by sound.

Each test states its rule and checks it over made-up words or over every value the rule covers, so the
rule, not a list of known answers, is what passes."""
import random
import string

import pytest

from game.judging import lexicon
from game.judging.judge import judge
from game.judging.normalize import tokens

needs_wordnet = pytest.mark.wordnet  # tests/environment.py skips these without the index
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


def _title(*words):
    return " ".join(word.title() for word in words)


# A misspelt short word in an answer otherwise complete: one slip in a word of three to five letters is read as a
# typo when every other word met as written; not a word WordNet tells apart from it, not the given name in front.
@pytest.mark.parametrize("seed", range(5))
def test_one_slip_in_a_short_word_of_a_complete_answer_is_a_typo(seed):
    rng = random.Random(seed)
    first, second = _made_up_words(2, seed + 100)
    short = _made_up_words(1, seed + 200, length=(4, 5))[0]
    i = next(j for j in range(1, len(short) - 1) if short[j] in VOWELS)  # a vowel inside the word
    slip = short[:i] + rng.choice([v for v in VOWELS if v != short[i]]) + short[i + 1:]
    answer = _title(first, "le", short) if seed % 2 else f"{first} {second} {short}"
    response = answer.replace(short.title(), slip.title()) if seed % 2 else f"{first} {second} {slip}"
    assert judge(response, answer).verdict == "accept", (response, answer)
    assert judge(slip, short).verdict != "accept"  # alone, too short to be read as a typo
    if not seed % 2:
        assert judge(f"{first} {slip}", answer).verdict != "accept"  # not complete otherwise


@needs_wordnet
def test_a_short_word_wordnet_tells_apart_is_no_typo():
    data = lexicon.index()
    nouns = sorted(w for w in data["senses"] if w.isalpha() and 3 <= len(w) <= 4 and lexicon.is_common(w))
    by_start = {}
    for word in nouns:
        by_start.setdefault((word[0], len(word)), []).append(word)
    pairs = [(a, b) for group in by_start.values() for a in group for b in group
             if a < b and sum(x != y for x, y in zip(a, b)) == 1 and a[-1] == b[-1] and lexicon.different_words(a, b)]
    assert len(pairs) > 100
    for a, b in pairs[::25]:
        assert judge(f"Zumbaleko {b}", f"Zumbaleko {a}").verdict != "accept", (a, b)


@needs_wordnet
def test_two_things_wordnet_knows_apart_are_no_misspelling_of_each_other():
    data = lexicon.index()
    groups = {}
    for key in data["senses"]:
        words = key.split("_")
        if len(words) == 2 and words[1].isalpha() and len(words[1]) >= 4:
            groups.setdefault(words[0], []).append(key)
    from game.judging.match import TYPO, VARIANT, word_match
    pairs = [(a, b) for keys in groups.values() if len(keys) <= 60 for a in keys for b in keys
             if a < b and word_match(a.split("_")[1], b.split("_")[1], True) in (TYPO, VARIANT) and lexicon.different_words(a, b)]
    assert len(pairs) > 20
    for a, b in pairs:
        assert judge(_title(*b.split("_")), _title(*a.split("_"))).verdict != "accept", (a, b)


# Transliterations that differ by more than an accent: an apostrophe for a letter English lacks is left out, a
# final "h" after a vowel is spelt or not, doubled letters are single (Ka'bah/Kaaba, Makkah/Mecca, Qur'an/Koran).
@pytest.mark.parametrize("seed", range(8))
def test_one_name_spelt_by_two_transliterations(seed):
    rng = random.Random(seed)
    word = _made_up_words(1, seed + 300, length=(6, 7))[0]
    i = rng.randrange(2, len(word) - 2, 2)  # after a vowel
    answer = (word[:i] + "'" + word[i:] + "ah").title()  # "Ka'bah"
    doubled = word[:i - 1] + word[i - 1] * 2 + word[i:] + "a"  # "Kaaba"
    for response in (word + "a", doubled, word[:i] + word[i] + word[i:] + "a"):
        said = judge(response.title(), answer)
        assert said.verdict == "accept", (response, answer, said.reason)
        assert judge(answer, response.title()).verdict == "accept"


# A common word never matches a foreign-language clause by its sound: a word WordNet knows only as a common
# word ("lied") is not a transliteration of a foreign name one vowel away ("Lyod"); a name is.
@needs_wordnet
def test_a_common_word_is_never_a_foreign_word_by_sound():
    data = lexicon.index()
    from nicknames import name_triplets
    given = {row.name1 for row in name_triplets()} | {row.name2 for row in name_triplets()}
    # Four and five letters: too short for a typo, so only the reading by sound could take them.
    words = [w for w in sorted(data["senses"]) if w.isalpha() and 4 <= len(w) <= 5 and lexicon.is_common(w) and w not in given]
    checked = 0
    for word in words[::37]:
        i = next((j for j in range(1, len(word) - 1) if word[j] in VOWELS), None)
        if i is None:
            continue
        foreign = word[:i] + ("o" if word[i] != "o" else "a") + word[i + 1:]
        if data["senses"].get(foreign):
            continue
        line = f"Qwertzuiop [or {foreign.title()}]"
        assert judge(word, line).verdict == "reject", (word, line, judge(word, line).reason)
        made_up = "z" + word[1:] if not data["senses"].get("z" + word[1:]) else None
        if made_up:
            assert judge(made_up, f"Qwertzuiop [or {('z' + foreign[1:]).title()}]").verdict == "accept", made_up
        checked += 1
    assert checked > 50


# Initialisms: the initials of a multi-word title, the small words and articles inside it included ("LOTR").
@pytest.mark.parametrize("seed", range(5))
def test_the_initials_of_a_title_with_its_small_words(seed):
    a, b = _made_up_words(2, seed + 400)
    answer = f"The {a.title()} of the {b.title()}"
    assert judge(f"{a[0]}ot{b[0]}".upper(), answer).verdict == "accept"
    assert judge(f"T{a[0]}OT{b[0]}".upper(), answer).verdict == "accept"
    assert judge(f"{b[0]}ot{a[0]}".upper(), answer).verdict == "reject" or a[0] == b[0]


def _in_order(letters, word):
    rest = iter(word)
    return word[0] == letters[0] and all(letter in rest for letter in letters)


# The usual short form of a technical term inside a longer answer, as WordNet lists it ("DNA polymerase").
@needs_wordnet
def test_a_terms_short_form_stands_for_it_inside_a_longer_answer():
    data = lexicon.index()
    first = {}
    for key, senses in data["senses"].items():
        if key.count("_") in (1, 2) and key.replace("_", "").isalpha() and min(map(len, key.split("_"))) >= 4:
            first.setdefault(senses[0], key)
    pairs = sorted({(short, first[senses[0]]) for short, senses in data["senses"].items()
                    if short.isalpha() and 2 <= len(short) <= 4 and senses[0] in first and tokens(short) == (short,)  # not "CLI", 101
                    and _in_order("".join(w[0] for w in first[senses[0]].split("_")), short)
                    and not first[senses[0]].startswith(short)})  # "gala" for "gala affair" is the word itself
    assert ("dna", "deoxyribonucleic_acid") in pairs and len(pairs) > 40
    for short, term in pairs[::7] + [("dna", "deoxyribonucleic_acid")]:
        words = term.split("_")
        assert judge(f"{short.upper()} zorblaxity", f"{' '.join(words)} zorblaxity").verdict == "accept", (short, term)
        assert judge(f"{' '.join(words)} zorblaxity", f"{short.upper()} zorblaxity").verdict == "accept", (short, term)


# A part the clause itself makes sufficient: "X in combination with any of the other names".
@pytest.mark.parametrize("seed", range(4))
def test_a_name_with_any_other_name_of_the_answer_when_the_clause_says_so(seed):
    a, b, c, d = (w.title() for w in _made_up_words(4, seed + 500))
    line = f"{a}-{b}-{c}-{d} model [or {a} in combination with any of the other names]"
    for other in (b, c, d):
        assert judge(f"{a}-{other} model", line).verdict == "accept"
    assert judge(f"{a}-Quxbertly model", line).verdict == "reject"
    assert judge(f"{a}-{b} model", f"{a}-{b}-{c}-{d} model").verdict != "accept"  # only where the line says so


# A qualifier word that changes the answer: a common word left out before a name is no given name, so the rest is
# no "given and family names" of a title that is not a person's name ("Goodman Brown" for "Young Goodman Brown").
@needs_wordnet
def test_a_common_word_before_a_name_is_no_given_name():
    describing = [w for w in lexicon.index()["describing"] if w.isalpha() and len(w) > 3][::400]
    assert len(describing) > 10
    for word in describing:
        from game.judging.names import is_given_name
        if is_given_name(word):
            continue
        line = f"{word.title()} Quentin Zorblatt"
        assert judge("Quentin Zorblatt", line, question_text="Name this story, in which he walks.").verdict != "accept", line
    assert judge("Quentin Zorblatt", "Quentin Marcus Zorblatt", question_text="Name this man. He walks.").verdict == "accept"


@pytest.mark.parametrize("decade", range(1910, 2000, 20))
def test_a_year_within_the_decade_is_no_licence_when_a_reference_gives_the_year(decade):
    given = decade + 8
    for year in range(decade, decade + 10):
        said = judge(str(year), references=[str(given), f"the {decade}s"])
        assert said.verdict == ("accept" if year == given else "reject"), (year, said.reason)


@needs_wordnet
def test_with_word_forms_the_adjective_form_may_come_with_the_noun_the_question_describes():
    from game.judging.match import deep_stem
    adjectives = [w for w in lexicon.index()["describing"] if w.isalpha() and 5 <= len(w) <= 8 and deep_stem(w + "ity") == deep_stem(w)]
    assert len(adjectives) > 20
    for adjective in adjectives[::max(1, len(adjectives) // 15)]:
        line = f"{adjective}ity [accept any word forms]"
        question = "This property of a zorblat holds when any two of its points join. Name this property of the zorblat."
        assert judge(f"{adjective} zorblat", line, question_text=question).verdict == "accept", adjective
        assert judge(f"{adjective} zorblat", f"{adjective}ity", question_text=question).verdict != "accept", adjective
