"""The built-in bots' buzzer: how likely is the top guess right, and how sure must a bot be to buzz?

A logistic regression over features of one act (bots.builtin.features): the retrieval scores (top,
gap to the second, rise since the previous word), how familiar the question is (the share of its
words the bot's index has ever seen, the top answer's prior), whether the guess is named in the
question or clashes with the type the question asks for, and how far into a typical question we
are. It is trained on incremental prefixes of held-out training questions only (cross-validation:
each fold is answered by a bot built without it), labelled by whether the top guess was right.

The buzz threshold is calibrated on the same held-out prefixes: the lowest probability at which the
first buzz on each training question is right at least TARGET_PRECISION of the time. A guess that
clashes with the asked type has its probability quartered: related answers (the poet's book for the
poet) are the wrong buzzes a retrieval bot makes most. Stored as plain JSON.
"""
from __future__ import annotations

import math

import numpy as np

from bots.artefacts import read_json

TARGET_PRECISION = 0.85
MIN_BUZZES = 10
CLASH_FACTOR = 0.25
THRESHOLDS = np.round(np.arange(0.05, 0.991, 0.01), 2)


def top_two(row: np.ndarray) -> tuple[int, float, float]:
    """(index of best, best score, second-best score) of one score row."""
    if len(row) == 1:
        return 0, float(row[0]), 0.0
    pair = np.argpartition(-row, 1)[:2]
    first, second = (pair[0], pair[1]) if row[pair[0]] >= row[pair[1]] else (pair[1], pair[0])
    return int(first), float(row[first]), float(row[second])


def first_buzzes(probabilities, labels, questions, threshold: float) -> list[int]:
    """The label of each question's first row at or over threshold (rows in reading order)."""
    buzzed, out = set(), []
    for p, label, question in zip(probabilities, labels, questions):
        if question not in buzzed and p >= threshold:
            buzzed.add(question)
            out.append(int(label))
    return out


def calibrate(probabilities, labels, questions, target: float = TARGET_PRECISION) -> tuple[float, float, int]:
    """(threshold, precision, buzzes): the lowest threshold whose first buzzes reach target precision.

    Without one, the threshold of the best precision reached with at least MIN_BUZZES buzzes.
    """
    best = (0.99, 0.0, 0)
    for threshold in THRESHOLDS:
        buzzes = first_buzzes(probabilities, labels, questions, threshold)
        if len(buzzes) < MIN_BUZZES:
            break
        precision = sum(buzzes) / len(buzzes)
        if precision >= target:
            return float(threshold), precision, len(buzzes)
        if precision > best[1]:
            best = (float(threshold), precision, len(buzzes))
    return best


class Buzzer:
    def __init__(self, features, mean, scale, coef, intercept: float, threshold: float = 0.5, calibration=None):
        self.features = list(features)
        self.mean = np.asarray(mean, dtype=np.float64)
        self.scale = np.asarray(scale, dtype=np.float64)
        self.coef = np.asarray(coef, dtype=np.float64)
        self.intercept = float(intercept)
        self.threshold = float(threshold)
        self.calibration = calibration or {}
        self._clash = self.features.index("clash") if "clash" in self.features else None

    @classmethod
    def fit(cls, features: list[str], rows, labels, questions=None, target: float = TARGET_PRECISION
            ) -> Buzzer | None:
        """A trained, calibrated buzzer, or None when the labels hold one class only (nothing to learn).

        questions names the question of each row (rows of a question in reading order); without it
        the threshold stays 0.5.
        """
        if len(set(labels)) < 2:
            return None
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        x = np.asarray(rows, dtype=np.float64)
        scaler = StandardScaler().fit(x)
        model = LogisticRegression(C=1.0, max_iter=2000).fit(scaler.transform(x), labels)
        buzzer = cls(features, scaler.mean_, scaler.scale_, model.coef_[0], model.intercept_[0])
        if questions is not None:
            probabilities = [buzzer.probability(row) for row in x]
            threshold, precision, buzzes = calibrate(probabilities, labels, questions, target)
            buzzer.threshold = threshold
            buzzer.calibration = {"target_precision": target, "precision": round(precision, 4), "buzzes": buzzes,
                                  "questions": len(set(questions)), "prefixes": len(labels),
                                  "right": int(sum(labels))}
        return buzzer

    def probability(self, row) -> float:
        row = np.asarray(row, dtype=np.float64)
        z = float(((row - self.mean) / self.scale) @ self.coef + self.intercept)
        p = 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))
        if self._clash is not None and row[self._clash] > 0:
            p *= CLASH_FACTOR
        return p

    def to_json(self) -> dict:
        return {
            "features": self.features,
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept,
            "threshold": self.threshold,
            "calibration": self.calibration,
        }

    @classmethod
    def from_json(cls, data: dict | None) -> Buzzer | None:
        if data is None:
            return None
        return cls(data["features"], data["mean"], data["scale"], data["coef"], data["intercept"],
                   data.get("threshold", 0.5), data.get("calibration"))


def load_buzzer(bot) -> Buzzer | None:
    """The trained buzzer in a built-in bot's artefacts (or None); its calibrated threshold becomes the
    bot's unless the bot's settings name one."""
    buzzer = Buzzer.from_json(read_json(bot.artefact_dir / "buzzer.json"))
    if buzzer is not None and "threshold" not in bot.config:
        bot.threshold = buzzer.threshold
    return buzzer
