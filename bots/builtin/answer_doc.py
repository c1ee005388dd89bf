"""Answer-document guesser: every answer is one document, and the best-matching document is the guess.

This is QANTA's IR guesser. An answer's document is everything known about it: its article's text
when built from a knowledge corpus (titles are the answers), and the training questions it answered
when built from questions (QANTA JSON or question-answer pairs); both at once when given both. The
revealed text is scored against every document with BM25. Whether to buzz is a trained buzzer's
probability that the guess is right (bots.builtin.buzzer), trained on training questions only; with
none to learn from, the confidence is the relative gap between the two best scores.
"""
from __future__ import annotations

from collections import defaultdict
from statistics import median

from bots.artefacts import read_json, write_json
from bots.base_bot import BaseBot
from bots.builtin.answer_types import TypeProfiles
from bots.builtin.buzzer import load_buzzer, top_two
from bots.builtin.features import COMMON, common
from bots.builtin.training import train_buzzer
from bots.datasets import Pair, holds_questions, read_pairs, read_passages
from bots.protocol import Act, Query
from bots.sparse_index import SparseIndex, best_of
from bots.text import normalize_answer

INDEX_PARAMS = {"scheme": "bm25", "ngram_range": (1, 2)}
FEATURES = ("top", "gap", "second_over_top", "rise", "same_top", "top_per_term", *COMMON)
TYPICAL_WORDS = 30.0  # a quizbowl question's length, when no training questions say otherwise


class AnswerDocuments:
    """An index with one document per distinct answer, and what is known about each answer."""

    def __init__(self, index: SparseIndex, answers: list[str], support: list[int], profiles: TypeProfiles):
        self.index = index
        self.answers = answers
        self.support = support  # how many questions and passages make up each answer's document
        self.profiles = profiles

    @classmethod
    def build(cls, pairs: list[Pair], passages: list[dict]) -> AnswerDocuments:
        texts: dict[str, list[str]] = defaultdict(list)
        questions: dict[str, list[str]] = defaultdict(list)
        articles: dict[str, list[str]] = defaultdict(list)
        spelling: dict[str, str] = {}
        for passage in passages:
            key = normalize_answer(passage["title"])
            spelling.setdefault(key, passage["title"])
            texts[key].append(passage["text"])
            articles[key].append(passage["text"])
        for pair in pairs:
            key = normalize_answer(pair.answer)
            spelling.setdefault(key, pair.answer)
            texts[key].append(pair.question)
            questions[key].append(pair.question)
        keys = [k for k in texts if k]
        index = SparseIndex.build([" ".join(texts[k]) for k in keys], **INDEX_PARAMS)
        profiles = TypeProfiles.from_texts([questions[k] for k in keys], [articles[k][:1] for k in keys])
        return cls(index, [spelling[k] for k in keys], [len(texts[k]) for k in keys], profiles)

    def read_prefixes(self, prefixes: list[list[str]], finals: list[bool], typical: float):
        """Scores and buzzer features for word prefixes, scoring each prefix and its one-shorter self at once."""
        n = len(prefixes)
        texts = [" ".join(w) for w in prefixes]
        vectors = self.index.query_vectors(texts + [" ".join(w[:-1]) for w in prefixes])
        scores = (vectors @ self.index.postings).toarray()
        terms = vectors[:n].getnnz(axis=1)
        read = []
        for i in range(n):
            best, s1, s2 = top_two(scores[i])
            best_before, s1_before, _ = top_two(scores[n + i])
            guess = self.answers[best] if s1 > 0 else ""
            row = [s1, s1 - s2, s2 / s1 if s1 > 0 else 1.0, s1 - s1_before, 1.0 if best == best_before else 0.0,
                   s1 / max(int(terms[i]), 1)]
            row += common(texts[i], guess, best if guess else -1, self.profiles, self.index.familiarity(texts[i]),
                          self.support[best] if guess else 0, len(prefixes[i]), finals[i], typical)
            read.append((guess, row))
        return scores[:n], read


def sources(data_path, questions_path) -> tuple[list[Pair], list[dict]]:
    """(training pairs, knowledge passages) from a data file and an optional questions file."""
    if holds_questions(data_path):
        pairs, passages = read_pairs(data_path), []
    else:
        pairs, passages = [], read_passages(data_path)
    if questions_path:
        pairs += read_pairs(questions_path)
    return pairs, passages


class AnswerDocBot(BaseBot):
    kind = "answer_doc"
    default_tier = "500mib"
    needs_artefacts = True

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.typical = float(self.meta["typical_words"])
        index = SparseIndex.load(self.artefact_dir, "answers")
        self.docs = AnswerDocuments(index, read_json(self.artefact_dir / "answers.json"),
                                    read_json(self.artefact_dir / "support.json"),
                                    TypeProfiles(read_json(self.artefact_dir / "types.json")))
        self.buzzer = load_buzzer(self)

    @classmethod
    def build(cls, data_path, out_dir, config: dict, progress, questions=None) -> dict:
        pairs, passages = sources(data_path, questions)
        progress(f"read {len(pairs):,} questions and {len(passages):,} passages")
        typical = float(median(len(p.question.split()) for p in pairs)) if pairs else TYPICAL_WORDS

        def reader_for(kept: list[Pair], held_out: set):
            kept_passages = [p for p in passages if p.get("source") not in held_out]
            docs = AnswerDocuments.build(kept, kept_passages)
            return lambda prefixes, finals: docs.read_prefixes(prefixes, finals, typical)[1]

        buzzer = train_buzzer(list(FEATURES), pairs, config, reader_for, progress)
        docs = AnswerDocuments.build(pairs, passages)
        progress(f"indexed {len(docs.answers):,} answer documents over {len(docs.index.idf):,} terms")
        docs.index.save(out_dir, "answers")
        write_json(out_dir / "answers.json", docs.answers)
        write_json(out_dir / "support.json", docs.support)
        write_json(out_dir / "types.json", docs.profiles.to_json())
        write_json(out_dir / "buzzer.json", buzzer.to_json() if buzzer else None)
        return {"questions": len(pairs), "passages": len(passages), "answers": len(docs.answers),
                "typical_words": typical}

    def act(self, query: Query) -> Act:
        all_scores, read = self.docs.read_prefixes([query.text.split()], [query.final], self.typical)
        scores, (_, row) = all_scores[0], read[0]
        ranked = [(self.docs.answers[i], score) for i, score in best_of(scores, self.top_k)]
        if self.buzzer is not None:
            confidence = self.buzzer.probability(row)
        else:
            confidence = row[1] / row[0] if row[0] > 0 else 0.0
        return self.decide(ranked, confidence)
