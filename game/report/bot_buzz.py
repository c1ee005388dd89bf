"""What the report's figures count with: a ratio that is None over nothing, and a bot's buzz on a question
(from its trail of guesses, as game.report.figures.read_match keeps it)."""
from __future__ import annotations


def ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def in_buzz_phase(trail: list[dict], question: dict) -> bool:
    """Whether the bot played the question in a buzz phase (a guess of its trail there; a question has words)."""
    return bool(question["words"]) and any(p["mode"] == "buzz" for p in trail)


def first_buzz(trail: list[dict]) -> dict | None:
    """The bot's buzz on a question: the first point of its trail in a buzz phase that says buzz with a guess."""
    return next((p for p in trail if p["mode"] == "buzz" and p["buzz"] and p["guess"]), None)
