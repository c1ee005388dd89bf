"""A sparse term index (TF-IDF cosine or Okapi BM25) that scores every document for a text at once.

Documents are turned into term counts by scikit-learn's CountVectorizer; the weights are kept as
an inverted index, one scipy CSR matrix of terms x documents (float32), so scoring a query is one
sparse product that touches only the postings of its terms. On disk an index is <prefix>.npz (the
postings), <prefix>.terms.json (the vocabulary in column order) and <prefix>.index.json (the
scheme, its parameters and the idf).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer

SCHEMES = ("tfidf", "bm25")
TOKEN_PATTERN = r"(?u)\b\w+\b"


def _vectorizer(vocabulary=None, ngram_range=(1, 1), min_df=1) -> CountVectorizer:
    return CountVectorizer(
        lowercase=True,
        strip_accents="unicode",
        token_pattern=TOKEN_PATTERN,
        stop_words="english",
        ngram_range=tuple(ngram_range),
        min_df=min_df if vocabulary is None else 1,
        vocabulary=vocabulary,
        dtype=np.float32,
    )


def _l2_normalise_rows(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ matrix, dtype=np.float32)


def best_of(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k best (document, score) pairs with a positive score, best first."""
    k = min(k, len(scores))
    if k <= 0:
        return []
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(int(i), float(scores[i])) for i in best if scores[i] > 0]


class SparseIndex:
    def __init__(self, vectorizer: CountVectorizer, postings: sparse.csr_matrix, idf: np.ndarray, params: dict):
        self.vectorizer = vectorizer
        self.postings = postings
        self.idf = idf
        self.params = params

    @property
    def size(self) -> int:
        return self.postings.shape[1]

    def familiarity(self, text: str) -> float:
        """Share of the text's words (stop words aside) that occur anywhere in the indexed documents:
        low for a question about things this index has never seen."""
        if not hasattr(self, "_words"):
            self._words = self.vectorizer.build_analyzer()
            self._vocabulary = self.vectorizer.vocabulary_ if hasattr(self.vectorizer, "vocabulary_") \
                else self.vectorizer.vocabulary
        words = [w for w in self._words(text) if " " not in w]
        return sum(w in self._vocabulary for w in words) / len(words) if words else 0.0

    @classmethod
    def build(cls, texts: list[str], scheme="bm25", k1=1.2, b=0.75, ngram_range=(1, 1), min_df=1) -> SparseIndex:
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
        vectorizer = _vectorizer(ngram_range=ngram_range, min_df=min_df)
        counts = sparse.csr_matrix(vectorizer.fit_transform(texts), dtype=np.float32)
        n_docs = counts.shape[0]
        df = np.bincount(counts.indices, minlength=counts.shape[1]).astype(np.float64)
        params = {"scheme": scheme, "k1": k1, "b": b, "ngram_range": list(ngram_range), "min_df": min_df}
        weights = counts.copy()
        if scheme == "tfidf":
            idf = np.log((1 + n_docs) / (1 + df)) + 1.0
            weights.data = (1.0 + np.log(weights.data)) * idf[weights.indices]
            weights = _l2_normalise_rows(weights)
        else:
            idf = np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
            lengths = np.asarray(counts.sum(axis=1)).ravel()
            norm = k1 * (1 - b + b * lengths / max(lengths.mean(), 1e-9))
            row_norm = np.repeat(norm, np.diff(counts.indptr))
            tf = weights.data
            weights.data = (idf[weights.indices] * tf * (k1 + 1) / (tf + row_norm)).astype(np.float32)
        return cls(vectorizer, sparse.csr_matrix(weights.T, dtype=np.float32), idf.astype(np.float32), params)

    def query_vectors(self, texts: list[str]) -> sparse.csr_matrix:
        counts = sparse.csr_matrix(self.vectorizer.transform(texts), dtype=np.float32)
        if self.params["scheme"] == "tfidf":
            counts.data = (1.0 + np.log(counts.data)) * self.idf[counts.indices]
            return _l2_normalise_rows(counts)
        counts.data[:] = 1.0  # BM25 counts each query term once
        return counts

    def score_matrix(self, texts: list[str]) -> np.ndarray:
        """texts x documents scores (cosine for tfidf, BM25 otherwise), all in one sparse product."""
        return (self.query_vectors(texts) @ self.postings).toarray()

    def scores(self, text: str) -> np.ndarray:
        return self.score_matrix([text])[0]

    def top(self, text: str, k: int) -> list[tuple[int, float]]:
        return best_of(self.scores(text), k)

    def save(self, directory, prefix: str) -> None:
        directory = Path(directory)
        sparse.save_npz(directory / f"{prefix}.npz", self.postings, compressed=False)
        terms = self.vectorizer.get_feature_names_out().tolist()
        (directory / f"{prefix}.terms.json").write_text(json.dumps(terms), encoding="utf-8")
        meta = {**self.params, "idf": self.idf.tolist()}
        (directory / f"{prefix}.index.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def load(cls, directory, prefix: str) -> SparseIndex:
        directory = Path(directory)
        postings = sparse.csr_matrix(sparse.load_npz(directory / f"{prefix}.npz"), dtype=np.float32)
        terms = json.loads((directory / f"{prefix}.terms.json").read_text(encoding="utf-8"))
        meta = json.loads((directory / f"{prefix}.index.json").read_text(encoding="utf-8"))
        idf = np.asarray(meta.pop("idf"), dtype=np.float32)
        vectorizer = _vectorizer({t: i for i, t in enumerate(terms)}, meta["ngram_range"])
        return cls(vectorizer, postings, idf, meta)
