"""What a bot is told (Query) and what it answers (Act), as plain data that crosses process lines.

Queries travel from the conductor through Celery to a bot worker and acts travel back over the
channel layer, so both sides are validated on the way in: a malformed message is a clear
ProtocolError, never a half-read object. A Query refuses unknown fields, so nothing the server
keeps private (the answer, the unread words) can ride along by mistake.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields

from bots.tiers import TIER_LIMITS

MODES = ("buzz", "team")


class ProtocolError(ValueError):
    """A query or act that does not have the agreed shape."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ProtocolError(message)


def _check_int(name: str, value, minimum: int) -> None:
    _require(isinstance(value, int) and not isinstance(value, bool), f"{name} must be an integer, got {value!r}")
    _require(value >= minimum, f"{name} must be at least {minimum}, got {value}")


def _check_known_keys(kind: str, data, allowed: set[str]) -> None:
    _require(isinstance(data, dict), f"a {kind} must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - allowed)
    _require(not unknown, f"a {kind} has no field(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


@dataclass(frozen=True)
class Query:
    """The part of a question a bot may see at one moment of play."""

    text: str
    word_index: int = 0
    char_index: int = 0
    sentence_index: int = 0
    phase: int = 1
    mode: str = "buzz"
    final: bool = False
    snippets: list = field(default_factory=list)
    tier: str = "unlimited"

    def __post_init__(self):
        _require(isinstance(self.text, str), f"text must be a string, got {type(self.text).__name__}")
        _check_int("word_index", self.word_index, 0)
        _check_int("char_index", self.char_index, 0)
        _check_int("sentence_index", self.sentence_index, 0)
        _check_int("phase", self.phase, 1)
        _require(self.mode in MODES, f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        _require(isinstance(self.final, bool), f"final must be true or false, got {self.final!r}")
        _require(self.tier in TIER_LIMITS, f"tier must be one of {', '.join(TIER_LIMITS)}, got {self.tier!r}")
        _require(isinstance(self.snippets, list), "snippets must be a list of {title, text} objects")
        for i, snippet in enumerate(self.snippets):
            _require(
                isinstance(snippet, dict)
                and set(snippet) == {"title", "text"}
                and all(isinstance(v, str) for v in snippet.values()),
                f"snippet {i} must be an object with string fields title and text, got {snippet!r}",
            )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data) -> Query:
        _check_known_keys("query", data, {f.name for f in fields(cls)})
        _require("text" in data, "a query needs its revealed text")
        return cls(**data)


def _clamp_confidence(value) -> float:
    _require(
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
        f"confidence must be a finite number, got {value!r}",
    )
    return min(1.0, max(0.0, float(value)))


def _alternative(i: int, item) -> tuple[str, float]:
    _require(
        isinstance(item, (list, tuple)) and len(item) == 2,
        f"alternative {i} must be a [guess, score] pair, got {item!r}",
    )
    guess, score = item
    _require(isinstance(guess, str), f"alternative {i} guess must be a string, got {guess!r}")
    _require(
        isinstance(score, (int, float)) and not isinstance(score, bool) and math.isfinite(score),
        f"alternative {i} score must be a finite number, got {score!r}",
    )
    return guess, float(score)


@dataclass(frozen=True)
class Act:
    """A bot's answer to one query: its best guess, how sure it is, and whether it buzzes."""

    guess: str
    confidence: float
    buzz: bool = False
    alternatives: list = field(default_factory=list)

    def __post_init__(self):
        _require(isinstance(self.guess, str), f"guess must be a string, got {self.guess!r}")
        _require(isinstance(self.buzz, bool), f"buzz must be true or false, got {self.buzz!r}")
        _require(isinstance(self.alternatives, (list, tuple)), "alternatives must be a list of [guess, score] pairs")
        object.__setattr__(self, "confidence", _clamp_confidence(self.confidence))
        object.__setattr__(self, "alternatives", [_alternative(i, a) for i, a in enumerate(self.alternatives)])

    def to_dict(self) -> dict:
        return {
            "guess": self.guess,
            "confidence": self.confidence,
            "buzz": self.buzz,
            "alternatives": [[g, s] for g, s in self.alternatives],
        }

    @classmethod
    def from_dict(cls, data) -> Act:
        _check_known_keys("act", data, {"guess", "confidence", "buzz", "alternatives"})
        missing = [k for k in ("guess", "confidence") if k not in data]
        _require(not missing, f"an act needs {' and '.join(missing)}")
        return cls(**data)
