"""A conductor judges every answer of an event of hours: what the judge remembers is bounded, so its memory
stops growing however many new questions come (bench/judge.py --conductor measures how much)."""
from game.judging.judge import judge
from game.judging.memo import ENTRIES, caches
from game.judging.normalize import tokens

LOADERS = 4  # a function that loads one table (the nicknames, WordNet's word sets) keeps at most this many


def test_every_cache_of_the_judge_has_a_bound_no_larger_than_the_memos():
    found = caches()
    assert len(found) > 20, [f.__qualname__ for f in found]  # the walk reached the judge's modules
    unbounded = [f"{f.__module__}.{f.__qualname__}: {f.cache_info().maxsize}" for f in found
                 if f.cache_info().maxsize is None or f.cache_info().maxsize > ENTRIES]
    assert not unbounded, unbounded
    assert sum(f.cache_info().maxsize > LOADERS for f in found) >= 20  # the word and text functions share the memo


def test_judging_ever_new_answers_keeps_no_more_than_the_bound():
    """More distinct answers than the memo keeps, each judged against its own line: every cache stays within it,
    and the latest answers are still remembered (the least recently used go first)."""
    for n in range(ENTRIES + 500):
        word = f"zq{n:05d}"
        judge(f"{word} river", answer_line=f"{word} River [accept {word}]", question_text=f"Name this {word} river.")
    assert max(f.cache_info().currsize for f in caches()) <= ENTRIES
    hits = tokens.cache_info().hits
    tokens(f"zq{ENTRIES + 499:05d} river")
    assert tokens.cache_info().hits == hits + 1
