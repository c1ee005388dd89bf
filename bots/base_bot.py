"""What every bot shares: its settings, its buzz threshold, and how a ranked list becomes an Act."""
from __future__ import annotations

from pathlib import Path

from bots.artefacts import read_meta
from bots.protocol import Act, Query


class BaseBot:
    kind = ""
    default_tier = "unlimited"
    simulated = False
    default_threshold = 0.5
    needs_artefacts = False

    def __init__(self, config: dict, artefact_dir: Path | None = None, name: str = ""):
        self.config = dict(config)
        self.artefact_dir = Path(artefact_dir) if artefact_dir else None
        self.name = name or self.kind
        self.threshold = float(self.config.get("threshold", self.default_threshold))
        self.top_k = int(self.config.get("top_k", 5))
        self.meta = read_meta(self.artefact_dir, self.kind) if self.needs_artefacts else {}

    @property
    def label(self) -> str:
        return f"{self.name} (simulated)" if self.simulated else self.name

    def act(self, query: Query) -> Act:
        raise NotImplementedError

    def with_private(self, private: dict) -> BaseBot:
        """This bot bound to trusted per-question data; most bots need none and return themselves."""
        return self

    def decide(self, ranked: list[tuple[str, float]], confidence: float) -> Act:
        """Guess the best-ranked answer; buzz only when sure enough.

        The alternatives are on the confidence's scale, [0, 1], like the threshold: the top guess at the
        confidence, the others in proportion to their ranking scores. Ranking scores are the bot's own
        (BM25 sums, vote counts) and mean nothing to a person as a percentage."""
        guess = ranked[0][0] if ranked else ""
        confidence = min(1.0, max(0.0, confidence))
        top = ranked[0][1] if ranked else 0.0
        return Act(
            guess=guess,
            confidence=confidence,
            buzz=bool(guess) and confidence >= self.threshold,
            alternatives=[(g, confidence * (s / top if top > 0 and s > 0 else 0.0))
                          for g, s in ranked[: self.top_k]] if guess else [],
        )
