"""The suggestion the judge hands the moderator, and how suggestions outrank each other."""
from __future__ import annotations

from dataclasses import asdict, dataclass

# Ranks: what the line says outright beats what the judge infers. A rejection clause matched word for
# word beats everything; then full matches read as written (exact, plurals, numbers in words); then a
# clause that was not in force at the buzz; then full matches that guess (typos, initials, short forms,
# synonyms), where a rejected text still comes first; then partial readings, among which a WordNet
# synonym of a whole text counts less than a reading of the answer's own words.
RANK = {
    "reject clause": 10, "accept": 9, "prompt clause": 8, "lapsed clause": 7,
    "fuzzy reject clause": 6, "fuzzy accept": 5, "fuzzy prompt clause": 4,
    "firm reject": 3.5, "partial accept": 3, "synonym accept": 2.8, "synonym prompt clause": 2.4,
    "partial prompt": 2, "weak reject": 1,
}


@dataclass(frozen=True)
class Judgement:
    verdict: str  # accept | prompt | reject
    confidence: float  # in [0, 1]: how sure the suggestion is
    reason: str  # a sentence for the moderator
    matched: str | None = None  # the answer-line or reference text that decided it
    prompt_question: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)
