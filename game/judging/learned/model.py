"""The learned equivalence model at judging time: gradient-boosted trees read from a small JSON file and scored
as one compiled Python expression (no scikit-learn, no numpy in a server). build.py makes the file; the
judge asks `closest()` only about open-domain answers its rules relate to no reference.
"""
from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from game.judging.learned.pair_features import askable, features

PATH = Path(__file__).with_name("equivalence.json")
VERSION = 1


@lru_cache(maxsize=1)
def model() -> dict:
    """The model file, read once."""
    loaded = json.loads(PATH.read_text())
    if loaded["version"] != VERSION:
        raise ValueError(f"{PATH} is version {loaded['version']}, not {VERSION}: rebuild it with "
                         "`.venv/bin/python -m game.judging.learned.build`")
    return loaded


Forest = Callable[[Sequence[float]], float]  # a row of features (as float32) -> the trees' raw score


def forest(trained: dict) -> Forest:
    """The trees as one Python expression, compiled once: a pair's row is scored by its few comparisons a tree in
    bytecode (a few tens of microseconds), where numpy's fixed cost a call was more than the whole of it."""
    def node(tree: dict, number: int) -> str:
        if tree["left"][number] == -1:  # scikit-learn marks a leaf with -1 children
            return repr(tree["value"][number])
        return (f"({node(tree, tree['left'][number])} if x[{tree['feature'][number]}] <= {tree['threshold'][number]!r} "
                f"else {node(tree, tree['right'][number])})")

    summed = " + ".join(node(tree, 0) for tree in trained["trees"])
    source = f"lambda x: {trained['init']!r} + {trained['rate']!r} * ({summed})"
    return eval(compile(source, f"<{PATH.name}>", "eval"), {"__builtins__": {}})  # our own file's numbers only


@lru_cache(maxsize=1)
def _forest() -> Forest:
    return forest(model())


def probabilities(rows, trees: Forest) -> list[float]:
    """The trees' probability that each row of features (in the file's order) is a pair of equivalent answers.
    Features are compared as float32, as scikit-learn's trees compare them."""
    return [1 / (1 + math.exp(-trees(array("f", row).tolist()))) for row in rows]


def _rows(response: str, references) -> list[list[float]]:
    names = model()["features"]
    return [[found[name] for name in names] for found in (features(response, reference) for reference in references)]


def score(response: str, reference: str) -> float:
    """How likely the model finds the response equivalent to the reference, in [0, 1]."""
    return probabilities(_rows(response, (reference,)), _forest())[0]


def closest(response: str, references: tuple[str, ...]) -> tuple[float, str] | None:
    """The reference the model finds the response closest to, with its score; None without a reference the model
    may be asked about (pair_features.askable)."""
    asked = [reference for reference in references if askable(response, reference)]
    if not asked:
        return None
    scores = probabilities(_rows(response, asked), _forest())
    best = max(range(len(scores)), key=scores.__getitem__)  # the first of equal scores, as before
    return scores[best], asked[best]


def thresholds() -> tuple[float, float | None]:
    """The score from which the model turns a reject into a prompt, and into an accept (None: it may not accept,
    its held-out precision being under 98%)."""
    trained = model()
    return trained["prompt_at"], trained["accept_at"]
