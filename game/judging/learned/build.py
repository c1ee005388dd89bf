"""Build the learned equivalence model from NQ-open's public reference lists and write it beside this module.

    .venv/bin/python -m game.judging.learned.build

Pairs: two references of one question, one read as the response and the rest as its references, are a positive
(NQ lists aliases side by side: "Vancouver" / "Mission, British Columbia"); for each positive, a reference of
another question of the same answer type as its response (pair_features.answer_type), read against the same
references, is a negative. The model is only asked where the judge's rules relate a response to no reference,
so it is trained and measured on those pairs only (judge(..., learned=False) says which), and on the references
of another kind than the response's where the rules read that kind to the end (pair_features.askable). Questions are split,
not pairs: a fixed-seed 20% of the questions is held out and never trained on.

The model is scikit-learn's gradient-boosted trees, written as JSON (model.py scores it with numpy alone).
A pair's score is the best over its references, as the judge takes it. The prompt threshold is the lowest score
at which out-of-fold scores of the training questions (five folds by question) reach PROMPT_PRECISION; the accept
threshold, where they reach ACCEPT_PRECISION, is kept only if the held-out pairs reach ACCEPT_PRECISION there too,
over at least FEWEST_ACCEPTS pairs. Same data and seed, same file: the test suite rebuilds it and compares.
"""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from game.judging import lexicon
from game.judging.judge import judge
from game.judging.learned import model
from game.judging.learned.pair_features import answer_type, askable, features
from game.judging.normalize import squad_normalize
from serving import environment

FILES = ("NQ-open.dev.jsonl", "NQ-open.efficientqa.dev.1.1.jsonl")
SEED = 44
HELD_OUT, FOLDS = 0.2, 5
# Pairs one question gives at most (a list of seven references would give 42): no question outweighs the others.
PAIRS_PER_QUESTION = 6
TREES, DEPTH, RATE = 100, 3, 0.1
# A prompt only asks: the moderator still rules, so it may be wrong one time in five; an accept, one in fifty.
PROMPT_PRECISION, ACCEPT_PRECISION, FEWEST_ACCEPTS = 0.8, 0.98, 50
_NOTHING = "matches nothing in the answer line or the references"


@dataclass(frozen=True)
class Pair:
    response: str
    references: tuple[str, ...]  # the question's references but the response, those the model may be asked about
    label: int  # 1: the response is one of the question's references
    question: int  # its number in the split's rows


def questions(folder: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(question, its references with repeats under SQuAD normalisation left out) of every NQ-open file."""
    found = []
    for name in FILES:
        for line in (folder / "nq-open" / name).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                seen, refs = set(), []
                for ref in row["answer"]:
                    if squad_normalize(ref) and squad_normalize(ref) not in seen:
                        seen.add(squad_normalize(ref))
                        refs.append(ref)
                found.append((row["question"], tuple(refs)))
    return found


def pairs(rows: list[tuple[str, tuple[str, ...]]], rng: random.Random) -> list[Pair]:
    """The positives and their negatives among these rows that the rules relate to no reference."""
    by_type: dict[str, list[tuple[int, str]]] = {}
    for number, (_, refs) in enumerate(rows):
        for ref in refs:
            by_type.setdefault(answer_type(ref), []).append((number, ref))
    made = []
    for number, (question, refs) in enumerate(rows):
        if len(refs) < 2:
            continue
        mine = {squad_normalize(ref) for ref in refs}
        for response in refs[:PAIRS_PER_QUESTION]:
            others = tuple(ref for ref in refs if ref != response)
            pool = by_type[answer_type(response)]  # the kind of the response it stands for: no kind tells them apart
            while True:
                other, wrong = pool[rng.randrange(len(pool))]
                if other != number and squad_normalize(wrong) not in mine:
                    break
            for said, label in ((response, 1), (wrong, 0)):
                asked = tuple(ref for ref in others if askable(said, ref))
                if asked and _NOTHING in judge(said, references=others, question_text=question, learned=False).reason:
                    made.append(Pair(said, asked, label, number))
    return made


def _tree(estimator) -> dict:
    tree = estimator.tree_
    return {"feature": [int(f) for f in tree.feature], "threshold": [float(t) for t in tree.threshold],
            "left": [int(n) for n in tree.children_left], "right": [int(n) for n in tree.children_right],
            "value": [float(v[0][0]) for v in tree.value]}


def _rows(made: list[Pair], names: list[str]) -> tuple[list[list[float]], list[int], list[int]]:
    """One row of features a (response, reference), its label, and which pair it belongs to."""
    rows, labels, owners = [], [], []
    for number, pair in enumerate(made):
        for reference in pair.references:
            found = features(pair.response, reference)
            rows.append([found[name] for name in names])
            labels.append(pair.label)
            owners.append(number)
    return rows, labels, owners


def _best(probabilities, owners: list[int], count: int) -> list[float]:
    """Each pair's score: the best of its references'."""
    best = [0.0] * count
    for probability, owner in zip(probabilities, owners):
        best[owner] = max(best[owner], float(probability))
    return best


def _fit(rows, labels):
    from sklearn.ensemble import GradientBoostingClassifier  # only the build needs it

    return GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=SEED).fit(rows, labels)


def _out_of_fold(made: list[Pair], names: list[str]) -> list[float]:
    """Each training pair's score by a model fitted on the other folds' questions."""
    scores = [0.0] * len(made)
    for fold in range(FOLDS):
        inside = [pair for pair in made if pair.question % FOLDS != fold]
        outside = [number for number, pair in enumerate(made) if pair.question % FOLDS == fold]
        fitted = _fit(*_rows(inside, names)[:2])
        rows, _, owners = _rows([made[n] for n in outside], names)
        for number, score in zip(outside, _best(fitted.predict_proba(rows)[:, 1], owners, len(outside))):
            scores[number] = score
    return scores


def _lowest_at(scored: list[tuple[float, int]], precision: float) -> float | None:
    """The lowest score from which the pairs at or above it are right at least this often."""
    right = total = 0
    best = None
    ordered = sorted(scored, reverse=True)
    for number, (score, label) in enumerate(ordered):
        right, total = right + label, total + 1
        tied = number + 1 < len(ordered) and ordered[number + 1][0] == score  # a threshold takes all of a tie or none
        if not tied and right / total >= precision:
            best = score
    return best


def figures(scored: list[tuple[float, int]], threshold: float | None) -> dict:
    """Precision and recall from a threshold, and how many negatives and positives reach it."""
    above = [label for score, label in scored if threshold is not None and score >= threshold]
    positives = sum(label for _, label in scored)
    return {"threshold": threshold, "precision": round(sum(above) / len(above), 4) if above else None,
            "recall": round(sum(above) / max(positives, 1), 4), "positives": positives, "negatives": len(scored) - positives,
            "positives_passed": sum(above), "negatives_passed": len(above) - sum(above)}


def build(folder: Path) -> dict:
    """The model, as the file holds it."""
    if lexicon.index() is None:
        raise SystemExit(f"{lexicon.problem()} The model's features need it.")
    rows = questions(folder)
    order = list(range(len(rows)))
    random.Random(SEED).shuffle(order)
    cut = int(len(rows) * HELD_OUT)
    held, kept = [rows[i] for i in sorted(order[:cut])], [rows[i] for i in sorted(order[cut:])]
    train, test = pairs(kept, random.Random(SEED)), pairs(held, random.Random(SEED + 1))
    names = list(features("a", "b"))
    fitted = _fit(*_rows(train, names)[:2])
    prior = fitted.init_.class_prior_[1]
    result = {
        "version": model.VERSION,
        "trained_on": {"files": list(FILES), "seed": SEED, "questions": len(kept), "pairs": len(train),
                       "held_out_questions": len(held), "held_out_pairs": len(test)},
        "features": names, "init": math.log(prior / (1 - prior)), "rate": RATE,
        "trees": [_tree(estimator) for estimator in fitted.estimators_[:, 0]],
    }
    rows_out, _, owners = _rows(test, names)
    mine = model.probabilities(rows_out, model.forest(result))
    assert np.allclose(mine, fitted.predict_proba(rows_out)[:, 1], rtol=0, atol=1e-9), "model.py scores as scikit-learn"
    held_scores = list(zip(_best(mine, owners, len(test)), (pair.label for pair in test)))
    oof = list(zip(_out_of_fold(train, names), (pair.label for pair in train)))
    prompt_at, accept_at = _lowest_at(oof, PROMPT_PRECISION), _lowest_at(oof, ACCEPT_PRECISION)
    at_accept = figures(held_scores, accept_at)
    accepts = at_accept["precision"] is not None and at_accept["precision"] >= ACCEPT_PRECISION and (
        at_accept["positives_passed"] + at_accept["negatives_passed"] >= FEWEST_ACCEPTS)
    result["prompt_at"] = prompt_at if prompt_at is not None else 1.0
    result["accept_at"] = accept_at if accepts else None
    result["held_out"] = {"at_prompt": figures(held_scores, prompt_at), "at_accept": at_accept}
    return result


def write(result: dict) -> str:
    text = json.dumps(result, separators=(",", ":")) + "\n"
    model.PATH.write_text(text)
    return text


def main() -> None:
    result = build(environment.read("EXHIBITION_DATA_DIR"))
    write(result)
    about = result["trained_on"]
    print(f"Trained on {about['pairs']:,} pairs of {about['questions']:,} questions that the rules relate to no reference; "
          f"held out {about['held_out_pairs']:,} pairs of {about['held_out_questions']:,} questions (seed {about['seed']}).")
    for name, shown in result["held_out"].items():
        print(f"  {name.replace('_', ' ')} ({shown['threshold']}): held-out precision {shown['precision']}, recall "
              f"{shown['recall']}: of {shown['negatives']:,} negatives the rules reject, {shown['negatives_passed']:,} "
              f"pass; of {shown['positives']:,} positives, {shown['positives_passed']:,}")
    accept = result["accept_at"]
    print(f"  it may accept: {f'yes, from {accept}' if accept is not None else 'no (held-out precision under 98%, or too few pairs): it only prompts'}")
    print(f"Wrote {model.PATH} ({model.PATH.stat().st_size:,} bytes).")


if __name__ == "__main__":
    main()
