"""The learned equivalence model at judging time: gradient-boosted trees read from a small JSON file and scored
with numpy, every reference and every tree at once (no scikit-learn in a server). build.py makes the file; the
judge asks `closest()` only about open-domain answers its rules relate to no reference.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

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


@dataclass(frozen=True)
class Forest:
    """The trees as flat arrays, tree after tree (a node's place: tree * width + node); a leaf leads to itself, so
    every row takes `depth` steps."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray  # the child's place, not its number in its tree
    right: np.ndarray
    value: np.ndarray
    roots: np.ndarray  # each tree's first place
    depth: int
    init: float
    rate: float


def forest(trained: dict) -> Forest:
    trees = trained["trees"]
    width = max(len(tree["feature"]) for tree in trees)
    size = len(trees) * width
    feature, threshold, value = np.zeros(size, dtype=np.intp), np.zeros(size), np.zeros(size)
    left, right = np.arange(size), np.arange(size)
    depth = 0
    for number, tree in enumerate(trees):
        root = number * width
        levels = [0] * len(tree["feature"])
        for node, child in enumerate(tree["left"]):
            value[root + node] = tree["value"][node]
            if child != -1:  # scikit-learn marks a leaf with -1 children
                feature[root + node], threshold[root + node] = tree["feature"][node], tree["threshold"][node]
                left[root + node], right[root + node] = root + child, root + tree["right"][node]
                levels[child] = levels[tree["right"][node]] = levels[node] + 1
        depth = max(depth, *levels)
    roots = np.arange(len(trees)) * width
    return Forest(feature, threshold, left, right, value, roots, depth, trained["init"], trained["rate"])


@lru_cache(maxsize=1)
def _forest() -> Forest:
    return forest(model())


def probabilities(rows, trees: Forest) -> np.ndarray:
    """The trees' probability that each row of features (in the file's order) is a pair of equivalent answers.
    Features are compared as float32, as scikit-learn's trees compare them."""
    features_ = np.asarray(rows, dtype=np.float32)
    place = np.broadcast_to(trees.roots, (len(features_), len(trees.roots)))
    width = features_.shape[1]
    flat, starts = features_.ravel(), (np.arange(len(features_)) * width)[:, None]
    for _ in range(trees.depth):
        goes_left = flat[starts + trees.feature[place]] <= trees.threshold[place]
        place = np.where(goes_left, trees.left[place], trees.right[place])
    raw = trees.init + trees.rate * trees.value[place].sum(axis=1)
    return 1 / (1 + np.exp(-raw))


def _rows(response: str, references) -> list[list[float]]:
    names = model()["features"]
    return [[found[name] for name in names] for found in (features(response, reference) for reference in references)]


def score(response: str, reference: str) -> float:
    """How likely the model finds the response equivalent to the reference, in [0, 1]."""
    return float(probabilities(_rows(response, (reference,)), _forest())[0])


def closest(response: str, references: tuple[str, ...]) -> tuple[float, str] | None:
    """The reference the model finds the response closest to, with its score; None without a reference the model
    may be asked about (pair_features.askable)."""
    asked = [reference for reference in references if askable(response, reference)]
    if not asked:
        return None
    scores = probabilities(_rows(response, asked), _forest())
    best = int(np.argmax(scores))
    return float(scores[best]), asked[best]


def thresholds() -> tuple[float, float | None]:
    """The score from which the model turns a reject into a prompt, and into an accept (None: it may not accept,
    its held-out precision being under 98%)."""
    trained = model()
    return trained["prompt_at"], trained["accept_at"]
