"""The judge's memo: one bound on what each of its word and text functions remembers.

A conductor judges every answer of every match it plays, through an event of hours. What helps a
judgement is what it met a moment ago (the words of the question's answer line, the same pair of
words compared twice in one judgement) and the common words; a memo that keeps every word of every
past question helps nobody and holds memory for good. `bench/judge.py --conductor` measures the rate
and what the caches hold as they fill.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

ENTRIES = 4096  # what each memoised function of the judge keeps, the least recently used forgotten first


def memo(function):
    """`function` remembering its last ENTRIES answers."""
    return lru_cache(maxsize=ENTRIES)(function)


def caches() -> list:
    """Every memoised function of the judge's modules (memo's, and the few that load a table once)."""
    import game.judging as package  # the package's modules import this one: read them only when asked
    modules = [importlib.import_module(f"{package.__name__}.{m.name}") for m in pkgutil.iter_modules(package.__path__)]
    return [f for m in modules for f in vars(m).values()
            if hasattr(f, "cache_info") and getattr(f, "__module__", None) == m.__name__]
