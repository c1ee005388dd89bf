"""Training a built-in bot's buzzer on training questions only, by cross-validation.

The training questions are split into folds; each fold is read, word by word, by a bot built
without it (and without any passage taken from its questions), so every labelled prefix is one the
bot could not have memorised, as in a match. The rows feed bots.builtin.buzzer.Buzzer.fit, which
also calibrates the buzz threshold on them. Test questions are never read here.
"""
from __future__ import annotations

from bots.builtin.buzzer import Buzzer
from bots.datasets import Pair
from bots.text import exact_match

DEFAULT_FOLDS = 5
DEFAULT_STEP = 4


def prefix_cuts(length: int, step: int) -> list[int]:
    """The word counts a bot is asked at: every step-th word and the last."""
    return sorted(set(range(step, length, step)) | {length})


def held_out_rows(pairs: list[Pair], folds: int, step: int, reader_for, progress):
    """(rows, labels, question keys) from every fold read by a bot built without it.

    reader_for(kept pairs, held-out sources) returns read(prefixes, finals) -> [(guess, feature row)].
    """
    rows, labels, questions = [], [], []
    for fold in range(folds):
        held = pairs[fold::folds]
        rest = [p for i, p in enumerate(pairs) if i % folds != fold]
        if not held or not rest:
            continue
        read = reader_for(rest, {p.source for p in held if p.source is not None})
        for number, pair in enumerate(held):
            words = pair.question.split()
            cuts = prefix_cuts(len(words), step)
            for guess, row in read([words[:cut] for cut in cuts], [cut == len(words) for cut in cuts]):
                rows.append(row)
                labels.append(int(bool(guess) and exact_match(guess, pair.answers)))
                questions.append((fold, number))
        progress(f"buzzer fold {fold + 1}/{folds}: {len(rows):,} prefixes, {sum(labels):,} answered right")
    return rows, labels, questions


def train_buzzer(features, pairs: list[Pair], config: dict, reader_for, progress) -> Buzzer | None:
    """A buzzer trained and calibrated on pairs by cross-validation, or None with nothing to learn."""
    if len(pairs) < 2:
        progress("buzzer not trained: no training questions (pass --questions to build_bot)")
        return None
    folds = min(int(config.get("folds", DEFAULT_FOLDS)), len(pairs))
    rows, labels, questions = held_out_rows(pairs, folds, int(config.get("train_step", DEFAULT_STEP)), reader_for,
                                            progress)
    target = float(config.get("target_precision", 0.85))
    buzzer = Buzzer.fit(features, rows, labels, questions, target)
    if buzzer is None:
        progress("buzzer not trained (every held-out prefix had the same label)")
    else:
        c = buzzer.calibration
        progress(f"buzzer trained; threshold {buzzer.threshold:.2f} gives {c['buzzes']} first buzzes on "
                 f"{c['questions']} held-out questions at {c['precision']:.1%} precision (target {target:.0%})")
    return buzzer
