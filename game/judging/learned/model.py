"""The learned equivalence model at judging time: gradient-boosted trees read from a small JSON file, scored in
plain Python (no scikit-learn in a server). build.py makes the file; the judge asks `closest()` only about
open-domain answers its rules reject.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from game.judging.learned.features import askable, features

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


def _leaf(tree: dict, row: list[float]) -> float:
    node = 0
    feature, threshold, left, right = tree["feature"], tree["threshold"], tree["left"], tree["right"]
    while left[node] != -1:
        node = left[node] if row[feature[node]] <= threshold[node] else right[node]
    return tree["value"][node]


def probability(row: list[float], trained: dict) -> float:
    """The trees' probability that a row of features (in the file's order) is a pair of equivalent answers."""
    raw = trained["init"] + trained["rate"] * sum(_leaf(tree, row) for tree in trained["trees"])
    return 1 / (1 + math.exp(-raw))


def score(response: str, reference: str) -> float:
    """How likely the model finds the response equivalent to the reference, in [0, 1]."""
    trained = model()
    found = features(response, reference)
    return probability([found[name] for name in trained["features"]], trained)


def closest(response: str, references: tuple[str, ...]) -> tuple[float, str] | None:
    """The reference the model finds the response closest to, with its score; None without a reference the model
    may be asked about (features.askable)."""
    scored = [(score(response, reference), reference) for reference in references if askable(response, reference)]
    return max(scored, key=lambda pair: pair[0]) if scored else None


def thresholds() -> tuple[float, float | None]:
    """The score from which the model turns a reject into a prompt, and into an accept (None: it may not accept,
    its held-out precision being under 98%)."""
    trained = model()
    return trained["prompt_at"], trained["accept_at"]
