"""Text a person typed into a command, as the engine keeps it: whitespace folded to single spaces,
never empty, never longer than its limit; each refusal a sentence the person can act on."""
from __future__ import annotations

from game.engine.rejected import Rejected


def typed_text(data: dict, key: str, limit: int, empty: str, too_long: str) -> str:
    text = data.get(key)
    if not isinstance(text, str) or not text.strip():
        raise Rejected(empty, "empty")
    text = " ".join(text.split())
    if len(text) > limit:
        raise Rejected(too_long, "too_long")
    return text
