"""Word lists the rulings share: general words, titles, kinds of thing, hedges on numbers.

Kept apart so that each rule names the words it relies on, and a change to a list is one change.
"""
from __future__ import annotations

from game.judging.match import stem

# Words whose absence or presence does not change which thing is meant ("Republic of Poland").
GENERIC = frozenset(
    "republic state states kingdom empire commonwealth federation city county province region district "
    "river lake sea ocean mount mountain mountains island islands battle siege war treaty people peoples "
    "saint st sir lord lady dr doctor mr mrs ms king queen emperor empress president general pope "
    "dynasty family house no number opus op language utc ad ce federal principality duchy grand sultanate "
    "emirate caliphate federation confederation territory dom comte period era epoch civilization university "
    "party system desert plateau basin valley peninsula law theory reaction gas dollars dollar percent "
    "il la le les los las el lo der die das com".split()
)
# Words that may be added to an answer without naming something else: a title before a person's name,
# or the kind of thing the question asks for ("Battle of Hastings" when it asks for "this battle").
# Others ("state", "university", "city") make another thing of it: "Indiana State University" is not "Indiana".
ADDED_TITLES = frozenset(
    "saint st sir lord lady dr doctor mr mrs ms king queen emperor empress president pope prince princess "
    "general tsar czar sultan pharaoh archduke archduchess duke duchess count countess baron baroness "
    "marquis emir shah kaiser".split()
)
ADDED_KINDS = frozenset(
    "battle siege mount mountain mountains lake ocean sea desert island islands peninsula dynasty civilization "
    "culture people peoples period era epoch theory law reaction effect war architecture movement style "
    "religion mythology".split()
)
# Kinds of place: added to a one-word name they may make a place of a person ("Lake Victoria").
PLACE_KINDS = frozenset("mount mountain mountains lake ocean sea desert island islands peninsula river".split())
# Added words that always name another thing, whatever the question asks ("Indiana State University").
INSTITUTIONS = frozenset("state states university college school city county company corporation party team club "
                         "province district republic kingdom".split())
# Words that say how a person is related to the one named: "the son of X" is not X.
RELATIONS = frozenset("of son sons daughter daughters father mother wife husband brother sister child children "
                      "friend widow grandson granddaughter nephew niece uncle aunt cousin partner".split())
# Words that make a different place or thing of a one-word answer ("North Korea", "New England").
CHANGING_WORDS = frozenset("north south east west northern southern eastern western new old upper lower great "
                           "little greater lesser".split())
# Open-domain rules: qualifiers that change which thing is meant, however they are written: compass words and
# "New"/"Old" in a name ("North Korea", "East Germany", "New England"), political words ("Democratic Republic",
# "Soviet Union"), and words that make another thing or negate ("non-metal", "vice president", "former").
REFERENT_CHANGING = CHANGING_WORDS | frozenset(
    "northeastern northwestern southeastern southwestern central middle inner outer far near "
    "democratic socialist soviet federal islamic united imperial royal free independent republican confederate "
    "national nationalist communist colonial provisional "
    "non not no un anti pseudo counter ex former proto semi quasi half step vice deputy assistant acting crown grand "
    "arch sub super ultra neo post pre".split())
# Qualifiers that narrow a place without making another of it: "New Jersey State", "the province of Ontario".
NARROWING_KINDS = frozenset("state province region area territory country nation colony".split())
# Compass adjectives: written in lower case they say which part ("the southern Kingdom of Judah"); capitalised
# ("Southern Rhodesia") they are part of another name.
COMPASS_ADJECTIVES = frozenset("northern southern eastern western northeastern northwestern southeastern southwestern".split())
# Ranks and offices before a person's name, besides the titles of names.TITLES ("Colonel William Henry Smith").
RANKS = frozenset("lieutenant major sergeant commander marshal brigadier corporal commodore reverend rev father "
                  "brother sister rabbi imam ayatollah sheikh chief rt hon honourable honorable gen col capt lt sgt "
                  "adm gov sen pres prof dr".split())
# Words that open the formal title of a work: "The Tragedy of Hamlet, Prince of Denmark".
WORK_TITLES = frozenset("tragedy tragical history life lives adventures story tale ballad legend chronicle "
                        "chronicles comedy romance song epic".split())
# Words that hedge or place a number ("around 1.8 billion", "the year 2026", "late 1967") without changing it.
HEDGES = frozenset(
    "about around approximately approx roughly nearly almost some circa c ca estimated est over under "
    "more less than just exactly only up to year in since late early mid by on".split()
)
# "in G minor" only keys a numbered work ("Symphony No. 40 in G minor").
KEY_WORDS = frozenset("in a b c d e f g flat sharp major minor".split())
GENERIC_STEMS = frozenset(stem(word) for word in GENERIC)


def is_generic(word: str) -> bool:
    """A general word, in any form ("reactions" as "reaction")."""
    return word in GENERIC or stem(word) in GENERIC_STEMS
