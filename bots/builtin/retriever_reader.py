"""Passage retriever-reader: find passages about the question, then read answers out of them.

Retrieval is BM25 over a passage corpus ({title, text} lines); phase-3 search snippets in the
query are read too. Reading takes each passage's title as a candidate (Wikipedia-style passages are
about their title) and the spans of the type the question asks for (bots.builtin.passage_candidates),
dropping any candidate made only of the question's own words. A candidate's score is the sum of
the weights of the passages it comes from; confidence is the top candidate's share of all
candidate score.

Whether to buzz is a trained buzzer's probability that the top candidate is right, from that share,
the scores, and the features every built-in bot reads (bots.builtin.features), trained on training
questions only: the questions the passages came from (QANTA JSON) or --questions. Without any, the
share itself is the confidence.
"""
from __future__ import annotations

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

import math
from collections import defaultdict
from pathlib import Path
from statistics import median

from bots.artefacts import read_json, write_json
from bots.base_bot import BaseBot
from bots.builtin.answer_types import TypeProfiles
from bots.builtin.buzzer import load_buzzer
from bots.builtin.passage_candidates import extract, in_question
from bots.builtin.features import COMMON, common
from bots.builtin.ranking import merge_answers
from bots.builtin.training import train_buzzer
from bots.datasets import Pair, holds_questions, read_pairs, read_passages
from bots.protocol import Act, Query
from bots.sparse_index import SparseIndex
from bots.text import answer_type, normalize_answer

PASSAGES = 20
TITLE_WEIGHT = 1.0
# How much a span found in a passage counts, by answer type: typed spans (years, dates, numbers)
# are what the question asks for; a capitalised name in a passage is often just another clue.
SPAN_WEIGHT = {"year": 0.8, "date": 0.8, "number": 0.8, "person": 0.4, "place": 0.4, "thing": 0.2}
# People are mostly named in full: "Jorn Utzon" rather than "Danish".
FULL_NAME_BONUS = 1.5


def span_weight(span: str, wanted: str) -> float:
    bonus = FULL_NAME_BONUS if wanted == "person" and " " in span else 1.0
    return SPAN_WEIGHT[wanted] * bonus


FEATURES = ("share", "top", "gap", "second_over_top", "candidates", "best_passage", "title", *COMMON)
TYPICAL_WORDS = 30.0


def content_words(text: str) -> set[str]:
    return {w for w in normalize_answer(text).split() if w not in ENGLISH_STOP_WORDS}


class Passages:
    """A BM25 index over passages, with what is known about each title (support, type profile)."""

    def __init__(self, index: SparseIndex, titles: list[str], texts: list[str], profiles: TypeProfiles,
                 support: list[int], keys: dict[str, int], retrieve: int = PASSAGES):
        self.index, self.titles, self.texts = index, titles, texts
        self.profiles, self.support, self.keys = profiles, support, keys
        self.retrieve = retrieve

    @classmethod
    def build(cls, passages: list[dict]) -> Passages:
        index = SparseIndex.build([f"{p['title']} {p['text']}" for p in passages], scheme="bm25")
        by_title: dict[str, list[str]] = defaultdict(list)
        for p in passages:
            by_title[normalize_answer(p["title"])].append(p["text"])
        keys = {key: i for i, key in enumerate(by_title)}
        profiles = TypeProfiles.from_texts(list(by_title.values()), [texts[:1] for texts in by_title.values()])
        support = [len(texts) for texts in by_title.values()]
        return cls(index, [p["title"] for p in passages], [p["text"] for p in passages], profiles, support, keys)

    def save(self, out_dir: Path) -> None:
        self.index.save(out_dir, "passages")
        write_json(out_dir / "titles.json", self.titles)
        write_json(out_dir / "texts.json", self.texts)
        write_json(out_dir / "types.json", {"keys": self.keys, "profiles": self.profiles.to_json(),
                                            "support": self.support})

    @classmethod
    def load(cls, directory: Path, retrieve: int) -> Passages:
        about = read_json(directory / "types.json")
        return cls(SparseIndex.load(directory, "passages"), read_json(directory / "titles.json"),
                   read_json(directory / "texts.json"), TypeProfiles(about["profiles"]), about["support"],
                   about["keys"], retrieve)

    def _retrieve(self, text: str, snippets: list) -> tuple[list[tuple[str, str, float]], float]:
        """(title, text, weight in [0, 1]) of the best passages and of the snippets; the best BM25 score.

        Every passage weighs the share of the question's content words it holds; one from the index
        also weighs its BM25 score over the best passage's (a snippet was already chosen for this
        question by a search engine).
        """
        asked = content_words(text)
        hits = self.index.top(text, self.retrieve)
        found = [(self.titles[i], self.texts[i], score / hits[0][1]) for i, score in hits]
        found += [(s["title"], s["text"], 1.0) for s in snippets]
        weighted = []
        for title, passage, weight in found:
            coverage = len(asked & content_words(f"{title} {passage}")) / max(len(asked), 1)
            if coverage:
                weighted.append((title, passage, weight * coverage))
        return weighted, hits[0][1] if hits else 0.0

    def read(self, text: str, snippets: list, word_index: int, final: bool, typical: float):
        """(ranked candidates, buzzer feature row) for the revealed text."""
        wanted = answer_type(text)
        asked = set(normalize_answer(text).split())
        scored = []
        passages, best_passage = self._retrieve(text, snippets)
        for title, passage, weight in passages:
            scored.append((title, weight * TITLE_WEIGHT))
            scored.extend((span, weight * span_weight(span, wanted)) for span in extract(passage, wanted))
        ranked = merge_answers(((a, s) for a, s in scored if not in_question(a, asked)), how="sum")
        s1 = ranked[0][1] if ranked else 0.0
        s2 = ranked[1][1] if len(ranked) > 1 else 0.0
        total = sum(s for _, s in ranked)
        guess = ranked[0][0] if ranked else ""
        answer = self.keys.get(normalize_answer(guess), -1)
        row = [s1 / total if total else 0.0, s1, s1 - s2, s2 / s1 if s1 else 1.0, math.log1p(len(ranked)),
               best_passage, 1.0 if answer >= 0 else 0.0]  # a passage's title, or only a span read out of one
        row += common(text, guess, answer, self.profiles, self.index.familiarity(text),
                      self.support[answer] if answer >= 0 else 0, word_index, final, typical)
        return ranked, row


class RetrieverReaderBot(BaseBot):
    kind = "retriever_reader"
    default_tier = "6gib"
    needs_artefacts = True

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.passages = Passages.load(self.artefact_dir, int(self.config.get("passages", PASSAGES)))
        self.typical = float(self.meta.get("typical_words", TYPICAL_WORDS))
        self.buzzer = load_buzzer(self)

    @classmethod
    def build(cls, data_path, out_dir, config: dict, progress, questions=None) -> dict:
        passages = read_passages(data_path)
        progress(f"read {len(passages):,} passages from {data_path}")
        questions = questions or (data_path if holds_questions(data_path) else None)
        pairs = read_pairs(questions) if questions else []
        same_file = questions is not None and Path(questions).resolve() == Path(data_path).resolve()
        typical = float(median(len(p.question.split()) for p in pairs)) if pairs else TYPICAL_WORDS

        def reader_for(kept: list[Pair], held_out: set):
            # Passages taken from a held-out question would tell the bot its answer: leave them out.
            index = Passages.build([p for p in passages if not (same_file and p.get("source") in held_out)])
            return lambda prefixes, finals: [
                (ranked[0][0] if ranked else "", row)
                for ranked, row in (index.read(" ".join(w), [], len(w), f, typical) for w, f in zip(prefixes, finals))
            ]

        buzzer = train_buzzer(list(FEATURES), pairs, config, reader_for, progress)
        index = Passages.build(passages)
        progress(f"indexed {index.index.size:,} passages over {len(index.index.idf):,} terms")
        index.save(out_dir)
        write_json(out_dir / "buzzer.json", buzzer.to_json() if buzzer else None)
        return {"passages": len(passages), "questions": len(pairs), "typical_words": typical}

    def act(self, query: Query) -> Act:
        ranked, row = self.passages.read(query.text, query.snippets, query.word_index, query.final, self.typical)
        if not ranked:
            return self.decide([], 0.0)
        confidence = self.buzzer.probability(row) if self.buzzer is not None else row[0]
        return self.decide(ranked, confidence)
