"""What every bot shares: its settings, its buzz threshold, and how a ranked list becomes an Act."""
from __future__ import annotations

from pathlib import Path

from bots.artefacts import read_json, read_meta
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

    def load_buzzer(self):
        """The trained buzzer in the artefacts (or None); its calibrated threshold applies unless the
        bot's settings name one."""
        from bots.builtin.buzzer import Buzzer

        buzzer = Buzzer.from_json(read_json(self.artefact_dir / "buzzer.json"))
        if buzzer is not None and "threshold" not in self.config:
            self.threshold = buzzer.threshold
        return buzzer

    @property
    def label(self) -> str:
        return f"{self.name} (simulated)" if self.simulated else self.name

    def act(self, query: Query) -> Act:
        raise NotImplementedError

    def with_private(self, private: dict) -> BaseBot:
        """This bot bound to trusted per-question data; most bots need none and return themselves."""
        return self

    def decide(self, ranked: list[tuple[str, float]], confidence: float) -> Act:
        """Guess the best-ranked answer; buzz only when sure enough."""
        guess = ranked[0][0] if ranked else ""
        return Act(
            guess=guess,
            confidence=confidence,
            buzz=bool(guess) and confidence >= self.threshold,
            alternatives=[(g, round(s, 6)) for g, s in ranked[: self.top_k]],
        )
