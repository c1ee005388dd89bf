"""QA-pair nearest question: answer with the answer of the most similar known question.

The EfficientQA small-track family: no reader at all, just a TF-IDF index over the questions of
question-answer pairs. Its confidence is the cosine similarity of the revealed text to the nearest
known question, so a question it has seen word for word scores 1.0. The similarity it must reach
to buzz is calibrated on the pairs themselves by cross-validation (bots.builtin.training): the
lowest at which its first buzzes on held-out pairs were right often enough.
"""
from __future__ import annotations

from bots.artefacts import read_json, write_json
from bots.base_bot import BaseBot
from bots.builtin.buzzer import MIN_BUZZES, TARGET_PRECISION, calibrate
from bots.builtin.ranking import merge_answers
from bots.builtin.training import DEFAULT_FOLDS, DEFAULT_STEP, held_out_rows
from bots.datasets import Pair, read_pairs
from bots.protocol import Act, Query
from bots.sparse_index import SparseIndex

NEIGHBOURS = 20


class QaPairBot(BaseBot):
    kind = "qa_pairs"
    default_tier = "500mib"
    default_threshold = 0.6
    needs_artefacts = True

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.index = SparseIndex.load(self.artefact_dir, "questions")
        self.answers = read_json(self.artefact_dir / "answers.json")
        calibrated = self.meta.get("threshold")
        if calibrated is not None and "threshold" not in self.config:
            self.threshold = calibrated

    @staticmethod
    def _index(pairs: list[Pair]) -> SparseIndex:
        return SparseIndex.build([p.question for p in pairs], scheme="tfidf", ngram_range=(1, 2))

    @staticmethod
    def rank(index: SparseIndex, answers: list[str], text: str) -> list[tuple[str, float]]:
        return merge_answers((answers[doc], score) for doc, score in index.top(text, NEIGHBOURS))

    @classmethod
    def build(cls, data_path, out_dir, config: dict, progress, questions=None) -> dict:
        pairs = read_pairs(data_path)
        progress(f"read {len(pairs):,} question-answer pairs from {data_path}")
        threshold = cls._calibrate(pairs, config, progress)
        index = cls._index(pairs)
        progress(f"indexed {index.size:,} questions over {len(index.idf):,} terms")
        index.save(out_dir, "questions")
        write_json(out_dir / "answers.json", [p.answer for p in pairs])
        return {"pairs": len(pairs), "threshold": threshold}

    @classmethod
    def _calibrate(cls, pairs: list[Pair], config: dict, progress) -> float | None:
        """The lowest similarity at which first buzzes on held-out pairs reach the target precision."""
        def reader_for(kept: list[Pair], held_out: set):
            index, answers = cls._index(kept), [p.answer for p in kept]
            top = lambda words: (cls.rank(index, answers, " ".join(words)) or [("", 0.0)])[0]  # noqa: E731
            return lambda prefixes, finals: [(guess, [score]) for guess, score in map(top, prefixes)]

        folds = min(int(config.get("folds", DEFAULT_FOLDS)), len(pairs))
        if folds < 2:
            return None
        rows, labels, keys = held_out_rows(pairs, folds, int(config.get("train_step", DEFAULT_STEP)), reader_for,
                                           progress)
        target = float(config.get("target_precision", TARGET_PRECISION))
        threshold, precision, buzzes = calibrate([r[0] for r in rows], labels, keys, target)
        if buzzes < MIN_BUZZES:
            progress("similarity threshold not calibrated: too few right answers among the held-out pairs")
            return None
        progress(f"similarity threshold {threshold:.2f}: {buzzes} first buzzes on held-out pairs at "
                 f"{precision:.1%} precision (target {target:.0%})")
        return threshold

    def act(self, query: Query) -> Act:
        ranked = self.rank(self.index, self.answers, query.text)
        return self.decide(ranked, ranked[0][1] if ranked else 0.0)
