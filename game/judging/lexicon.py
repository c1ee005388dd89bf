"""Synonyms and abbreviations of common nouns from WordNet, so "grandma" meets "grandmother".

The data is Debian's `wordnet-base` package (WordNet 3.0 under /usr/share/wordnet), read with
NLTK's WordNet corpus reader. Reading it takes NLTK some twenty seconds and a couple of hundred MiB,
so it is read once, ahead of time, into a small JSON index under var/ of only what the judge asks
(each noun's senses, most frequent first, the irregular plurals, the words used mostly as
adjectives, the places, what they lie in, the adjectives of places, the people WordNet names,
with the single names (mostly surnames) each of them goes by, and each sense's hypernyms and the groups it is
a member of, for the learned equivalence model's features), which a process loads in
a fraction of a second. `make` and the Docker image build the index (`python -m game.judging.lexicon`).

A running server only ever loads the index, never builds it: the judge runs on the conductor's
database thread, which a build would stall for every match. Without the index the judge works on and
says in its reasons that synonyms were not checked; `manage.py check` (and so runserver and conduct
at their start) warns about it (game/checks.py), and the log says so the first time the judge asks.
"""
from __future__ import annotations

import io
import json
import logging
import os
import sys
import threading
import warnings
from functools import lru_cache
from pathlib import Path

from serving import environment

from game.judging.memo import memo

log = logging.getLogger(__name__)

WORDNET_DIR = environment.read("EXHIBITION_WORDNET_DIR")  # `make wordnet` runs this module without Django's settings
INDEX_PATH = environment.read("EXHIBITION_WORDNET_INDEX")
INDEX_VERSION = 8
MISSING = "WordNet is not installed (Debian package wordnet-base), so synonyms were not checked"
NOT_BUILT = "WordNet's index was not built for this server, so synonyms were not checked"

# The lexicographer files of WordNet 3.0 in number order (wndb(5WN), lexnames(5WN)); Debian's
# package leaves out the `lexnames` file NLTK's reader opens, so the reader is handed this list.
_LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition "
    "noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object "
    "noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape "
    "noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition "
    "verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession "
    "verb.social verb.stative verb.weather adj.ppl"
).split()
# Titles that open some of a person's names in WordNet ("President_Roosevelt"); the name shown is one without.
_TITLES = frozenset("president sir saint st king queen emperor pope general dr mr mrs madame lord lady".split())
# WordNet's own rules for taking a regular plural back to its noun (morphy(7WN)).
_NOUN_ENDINGS = (("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
                 ("ies", "y"), ("s", ""))
# How far down each word's list of senses (most frequent first) a shared sense may lie: one of the
# two must mean it first, the other among its first three ("radical" is "free radical" second).
_FIRST, _NEAR = 1, 3

_lock = threading.Lock()
_index: dict | None = None
_loaded = False


def _reader():
    """NLTK's WordNet reader on the Debian files (imported here: NLTK is slow to import)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    lexnames = "".join(f"{number:02d}\t{name}\t0\n" for number, name in enumerate(_LEXNAMES))

    class DebianWordNet(WordNetCorpusReader):
        def open(self, fileid):
            return io.StringIO(lexnames) if fileid == "lexnames" else super().open(fileid)

        def map_wn(self, version="wordnet"):
            return None  # this is WordNet 3.0 itself: nothing to map from

    if str(WORDNET_DIR) not in nltk.data.path:
        nltk.data.path.append(str(WORDNET_DIR))  # NLTK opens files only under its data paths
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no multilingual data": we need none
        return DebianWordNet(str(WORDNET_DIR), None)


def _source_stamp() -> str:
    return str((WORDNET_DIR / "index.noun").stat().st_mtime_ns)


def build_index() -> dict:
    """Read every noun's senses and the irregular plurals with NLTK, and keep them as JSON."""
    reader = _reader()
    senses = {name: [lemma.synset().offset() for lemma in reader.lemmas(name, pos="n")]
              for name in reader.all_lemma_names(pos="n")}
    adjectives = set(reader.all_lemma_names(pos="a")) | set(reader.all_lemma_names(pos="s"))

    def uses(word: str, *parts: str) -> int:  # how often the tagged corpora use the word so (cntlist)
        return sum(lemma.count() for pos in parts for lemma in reader.lemmas(word, pos=pos))

    # Words that are nouns too but mostly describe ("human" heart, "ideal" gas; not "light" pollution).
    describing = sorted(word for word in adjectives & set(senses) if "_" not in word and uses(word, "a", "s") > uses(word, "n"))
    adjectives = sorted(set(adjectives) - set(senses) | set(describing))
    plurals = {}
    with reader.open("noun.exc") as lines:
        for line in lines:
            words = line.split()
            if len(words) >= 2:
                plurals[words[0]] = words[1]
    # Places: nouns whose first sense WordNet files under locations ("Florida", "United States").
    places = sorted(name for name in senses if reader.lemmas(name, pos="n")[0].synset().lexname() == "noun.location")
    # What a place or landform lies in (WordNet's part holonyms): "everglades" -> florida, "paris" -> france.
    within = {}
    for name in senses:
        first = reader.lemmas(name, pos="n")[0].synset()
        if first.lexname() in ("noun.location", "noun.object") and first.part_holonyms():
            within[name] = sorted({lemma.name().lower() for whole in first.part_holonyms() for lemma in whole.lemmas()})
    # Adjectives of a place ("Italian" -> Italy, "American" -> America): WordNet's pertainyms that are places.
    of_place: dict[str, set[str]] = {}
    for pos in ("a", "s"):
        for name in reader.all_lemma_names(pos=pos):
            for lemma in reader.lemmas(name, pos=pos):
                for place in lemma.pertainyms():
                    if place.name()[:1].isupper() and place.synset().lexname() in ("noun.location", "noun.object"):
                        of_place.setdefault(name, set()).update(l.name().lower() for l in place.synset().lemmas())
    people, single_names = _people(reader, senses)
    # One-word nouns WordNet writes with a capital in some sense: names ("Koran", "Mecca", "Hafiz"), not only common words ("lied").
    proper = sorted(name for name in senses if "_" not in name and any(l.name()[:1].isupper() for l in reader.lemmas(name, pos="n")))
    # Each sense's hypernyms (instance hypernyms too: "paris" is a "national_capital") and the groups it is a member
    # of ("dog" of "canis"), by sense number.
    hypernyms, groups = {}, {}
    for synset in reader.all_synsets("n"):
        above = sorted(s.offset() for s in synset.hypernyms() + synset.instance_hypernyms())
        if above:
            hypernyms[str(synset.offset())] = above
        if synset.member_holonyms():
            groups[str(synset.offset())] = sorted(s.offset() for s in synset.member_holonyms())
    # "version" first: problem() reads only the start of the file.
    index = {"version": INDEX_VERSION, "source": _source_stamp(), "senses": senses, "plurals": plurals,
             "describing": adjectives, "places": places, "within": within, "of_place": {k: sorted(v) for k, v in sorted(of_place.items())},
             "people": people, "single_names": single_names, "proper": proper, "hypernyms": hypernyms, "groups": groups}
    INDEX_PATH.parent.mkdir(parents=True, exist_ok=True)
    partial = INDEX_PATH.with_suffix(f".{os.getpid()}.tmp")  # processes building at once each write their own
    partial.write_text(json.dumps(index, separators=(",", ":")))
    partial.replace(INDEX_PATH)  # whole or not at all: a server never loads half an index
    return index


def _people(reader, senses: dict) -> tuple[list[int], dict[str, list[list]]]:
    """The people WordNet names (instances filed under noun.person: "Theodore Roosevelt", not "president"),
    and for each single word that names one or more of them ("roosevelt", "tchaikovsky"), those people as
    [sense, full name], in WordNet's order. Only senses that are people count: "Beethoven" is also his music,
    "Lincoln" two cities, and neither makes the name ambiguous."""
    people = {}
    for synset in reader.all_synsets("n"):
        if synset.lexname() == "noun.person" and synset.instance_hypernyms():
            names = synset.lemma_names()  # "Roosevelt", "Theodore_Roosevelt", "President_Roosevelt"
            full = [n for n in names if "_" in n and n[:1].isupper() and n.split("_")[0].lower().strip(".") not in _TITLES]
            people[synset.offset()] = (full or names)[0].replace("_", " ")
    single_names = {name: [[offset, people[offset]] for offset in offsets if offset in people]
                    for name, offsets in senses.items() if "_" not in name and any(o in people for o in offsets)}
    return sorted(people), dict(sorted(single_names.items()))


def _stored(path: Path) -> dict | None:
    """The index at path if it is of this version; None if it is missing, unreadable or older."""
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) and stored.get("version") == INDEX_VERSION else None


def problem() -> str | None:
    """Why the judge would work without synonyms, as a sentence for the startup check; None when the
    index is in place. Cheap: it reads the start of the file, where build_index writes the version."""
    try:
        with INDEX_PATH.open("rb") as head:
            start = head.read(40)
    except OSError:
        start = b""
    if start.startswith(b'{"version":%d,' % INDEX_VERSION):
        return None
    what = "is missing" if not start else "is from an older version of Exhibition"
    fix = "build it with `make wordnet` (python -m game.judging.lexicon)"
    if not (WORDNET_DIR / "index.noun").is_file():
        fix = "install Debian's wordnet-base, then " + fix
    return f"The judge's WordNet index {INDEX_PATH} {what}, so answers are judged without synonyms; {fix}."


def _load() -> dict | None:
    loaded = _stored(INDEX_PATH)
    if loaded is None:
        log.warning("%s", problem() or f"The judge's WordNet index {INDEX_PATH} could not be read, so answers are "
                                       "judged without synonyms; build it again with `make wordnet`.")
    return loaded


def missing_reason() -> str:
    """What the judge's reasons say while the index is absent."""
    return MISSING if not (WORDNET_DIR / "index.noun").is_file() else NOT_BUILT


def index() -> dict | None:
    """The noun index, loaded (never built) on first use; None without it."""
    global _index, _loaded
    if not _loaded:
        with _lock:
            if not _loaded:
                _index, _loaded = _load(), True
    return _index


@lru_cache(maxsize=4)
def _word_set(name: str) -> frozenset:
    """One of the index's word lists ("describing", "places") as a set; empty without WordNet."""
    data = index()
    return frozenset(data[name]) if data else frozenset()


def describes(word: str) -> bool:
    """Whether WordNet's tagged texts use the word mostly as an adjective ("linear", "human", not "light")."""
    return index() is not None and word in _word_set("describing")


def is_place(key: str) -> bool:
    """Whether WordNet's first sense of a phrase (words joined by "_") is a place ("florida", "united_states")."""
    return index() is not None and key in _word_set("places")


def lies_in(key: str, whole: str) -> bool:
    """Whether WordNet says the place (or landform) lies in the other: "everglades" in "florida"."""
    data = index()
    return data is not None and whole in data["within"].get(key, ())


@memo
def place_of(word: str) -> frozenset:
    """The names of the place an adjective or people's name belongs to: "italian" -> {"italy", "italia"};
    "egyptians" -> {"egypt", ...}; empty for other words."""
    data = index()
    if data is None:
        return frozenset()
    for form in (word, word[:-1] if word.endswith("s") else ""):
        found = data["of_place"].get(form)
        if found:
            return frozenset(found)
    return frozenset()


@memo
def different_words(a: str, b: str) -> bool:
    """Whether WordNet knows both as nouns with no sense in common ("grandfather", "grandmother"):
    then one is no misspelling of the other."""
    first, second = senses(a), senses(b)
    return bool(first and second and not set(first) & set(second))


@lru_cache(maxsize=4)
def _people_set() -> frozenset:
    data = index()
    return frozenset(data.get("people", ())) if data else frozenset()


@memo
def people(key: str) -> frozenset:
    """The people (WordNet senses) a full name written with underscores names: "john_quincy_adams" -> one sense."""
    known = _people_set()
    return frozenset(sense for sense in senses(key) if sense in known)


def people_called(word: str) -> tuple[tuple[int, str], ...]:
    """The people WordNet calls by this one name, as (sense, full name): "roosevelt" -> Franklin, Eleanor and
    Theodore Roosevelt; "tchaikovsky" -> one; "beethoven" -> one (his music is no person)."""
    data = index()
    return tuple(tuple(entry) for entry in data.get("single_names", {}).get(word, ())) if data else ()


@memo
def is_common(word: str) -> bool:
    """Whether WordNet knows the word only as a common noun or an adjective, never as a name: "lied", "peace",
    "linear"; not "koran", "mecca" (a name too)."""
    if index() is None:
        return False
    return word in _word_set("describing") or bool(senses(word)) and word not in _word_set("proper")


def available() -> bool:
    return index() is not None


def _base_forms(key: str) -> list[str]:
    """The key, and the noun it may be a plural of ("torrid_zones" -> "torrid_zone")."""
    data = index()
    head, _, last = key.rpartition("_")
    found = [key]
    irregular = data["plurals"].get(last)
    if irregular:
        found.append(f"{head}_{irregular}" if head else irregular)
    for ending, base in _NOUN_ENDINGS:
        if last.endswith(ending) and len(last) > len(ending) + 1:
            found.append(f"{head}_{last[: -len(ending)] + base}" if head else last[: -len(ending)] + base)
    return found


@memo
def senses(key: str) -> tuple[int, ...]:
    """The noun senses of a phrase written with underscores, most frequent first; () if none."""
    data = index()
    if data is None or not key:
        return ()
    for form in _base_forms(key):
        found = data["senses"].get(form)
        if found:
            return tuple(found)
    return ()


def shared_sense(said: str, wanted: str) -> bool:
    """Whether a response names what the answer means: one's first sense is among the other's first few
    ("radicals" for "free radicals", "vodoun" for "voodoo"). A place's name means its first sense: "Republic
    of China" is Taiwan, which "China" means only second, so it is not the China of an answer."""
    first, second = senses(said), senses(wanted)
    if not first or not second:
        return False
    if set(second[:_FIRST]) & set(first[:_NEAR]):
        return True
    return bool(set(first[:_FIRST]) & set(second[:_NEAR])) and not is_place(wanted)


# How many steps up the hypernyms a relation is looked for, and how many of each word's senses are read.
_STEPS, _RELATED_SENSES = 4, 3


def _above(senses_: tuple[int, ...], link: str) -> dict[int, int]:
    """Every sense reached from these by up to _STEPS links of one kind ("hypernyms", "groups"), with its distance."""
    data = index()
    reached = {sense: 0 for sense in senses_}
    frontier = list(senses_)
    for step in range(1, _STEPS + 1):
        frontier = [up for sense in frontier for up in data[link].get(str(sense), ()) if up not in reached]
        for up in frontier:
            reached.setdefault(up, step)
    return reached


@memo
def relation(a: str, b: str, link: str) -> int:
    """How many links of one kind ("hypernyms": a kind of; "groups": a member of) lead from one phrase's first
    senses to the other's, either way: 1 for "poodle" and "dog" (hypernyms), or for "dog" and "canis" (groups);
    0 when none does within a few steps or WordNet knows either not."""
    first, second = senses(a)[:_RELATED_SENSES], senses(b)[:_RELATED_SENSES]
    if not first or not second or set(first) & set(second):
        return 0
    distances = [steps for mine, theirs in ((first, second), (second, first))
                 for sense, steps in _above(mine, link).items() if steps and sense in theirs]
    return min(distances, default=0)


def any_shared_sense(a: str, b: str) -> bool:
    """Whether WordNet lists both words for some one thing, however rare (for abbreviations)."""
    return bool(set(senses(a)) & set(senses(b)))


if __name__ == "__main__":  # make and the Dockerfile run this; it reads WordNet only if the index is stale
    if not (WORDNET_DIR / "index.noun").is_file():
        if environment.read("CI"):  # CI tests the judge with it: never without
            print(f"{MISSING}, and CI=true needs it. Install it with: apt-get install -y wordnet-base")
            sys.exit(1)
        print(f"{MISSING}; the judge works without it. Install it with: apt-get install -y wordnet-base")
        sys.exit(0)
    built = _stored(INDEX_PATH)
    if built is None or built.get("source") != _source_stamp():
        built = build_index()
    print(f"WordNet index: {len(built['senses']):,} nouns at {INDEX_PATH}")
