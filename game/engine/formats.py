"""Match formats as data: presets a host picks and edits per match, and their validation.

Rules are data, not code paths: the engine reads every number from here, so a host can change
points, timers, speeds and the bot-tier of each phase without new code.
"""
from __future__ import annotations

import copy
import math

from bots.tiers import TIER_LIMITS
from game.engine.buzzrace import GRACE_CAP_MS

TIERS = tuple(TIER_LIMITS)  # a phase's bot_tier: bots.tiers, plain data at the bottom like the engine
# When bots' guesses reach the hall and the phones: once no human can score on the question any more
# ("after_humans"), or ("live") as they come in a buzz phase that is the question's last.
HALL_BOT_GUESSES = ("after_humans", "live")

EFFICIENTQA = {
    "name": "efficientqa",
    "label": "EfficientQA three-phase",
    "question_kind": "short",
    "questions": 10,
    "reveal": "clock",
    "lead_in_seconds": 2,
    "words_per_minute": 200,
    "comma_pause": 0.5,
    "sentence_pause": 1.0,
    "priority": "alternate",
    "answer_seconds": 15,
    "prompt_seconds": 10,
    "buzz_grace_ms": 150,
    "tiebreakers": 3,
    "bot_min_words": 0,
    "bot_reaction_ms": 300,
    "bot_act_timeout_ms": 3000,
    "hall_bot_guesses": "after_humans",
    "protest_seconds": 60,
    "phases": [
        {"mode": "buzz", "points": 3, "power_points": None, "neg_points": 0, "wrong_points": 0,
         "dead_seconds": 5, "bot_tier": "500mib", "snippets": False},
        {"mode": "team", "points": 2, "wrong_points": 0, "discussion_seconds": 30,
         "bot_tier": "6gib", "snippets": False},
        {"mode": "team", "points": 1, "wrong_points": 0, "discussion_seconds": 30,
         "bot_tier": "unlimited", "snippets": True},
    ],
}

QUIZBOWL = {
    "name": "quizbowl",
    "label": "Quizbowl tossups",
    "question_kind": "tossup",
    "questions": 20,
    "reveal": "clock",
    "lead_in_seconds": 2,
    "words_per_minute": 200,
    "comma_pause": 0.5,
    "sentence_pause": 1.0,
    "priority": "alternate",
    "answer_seconds": 10,
    "prompt_seconds": 8,
    "buzz_grace_ms": 150,
    "tiebreakers": 3,
    "bot_min_words": 0,
    "bot_reaction_ms": 300,
    "bot_act_timeout_ms": 3000,
    "hall_bot_guesses": "after_humans",
    "protest_seconds": 60,
    "phases": [
        {"mode": "buzz", "points": 10, "power_points": 15, "neg_points": -5, "wrong_points": 0,
         "dead_seconds": 5, "bot_tier": None, "snippets": False},
    ],
}

PRESETS = {p["name"]: p for p in (EFFICIENTQA, QUIZBOWL)}


class RulesError(ValueError):
    """A host's edit to a format is out of range; the message says which field and what is allowed."""


# field -> (kind, low, high); kinds: int, float, choice
_TOP_FIELDS = {
    "questions": ("int", 1, 200),
    "words_per_minute": ("int", 50, 600),
    "lead_in_seconds": ("float", 0, 30),
    "comma_pause": ("float", 0.0, 5.0),
    "sentence_pause": ("float", 0.0, 5.0),
    "answer_seconds": ("float", 0, 300),
    "prompt_seconds": ("float", 0, 300),
    "buzz_grace_ms": ("int", 0, GRACE_CAP_MS),
    "tiebreakers": ("int", 0, 20),
    "bot_min_words": ("int", 0, 500),
    "bot_reaction_ms": ("int", 0, 10000),
    "bot_act_timeout_ms": ("int", 100, 60000),
    # An event's preliminary: no new question starts once this much playing time (pauses left out)
    # has passed, or this many questions have been played. Absent from the presets: no limit.
    "stop_after_ms": ("int", 1000, 86_400_000),
    "stop_after_questions": ("int", 1, 200),
    "team_seats": ("int", 1, 32),  # players a human team may seat at once (an event's team size cap)
    "protest_seconds": ("int", 0, 600),  # how long after a ruling a captain may protest it; 0: no protests
}
# Numbers the server sets, not the host: checked like the others, never on the host's page.
_SERVER_FIELDS = {
    # The clock's grid: words and deadlines fall on multiples of this many ms (rules.on_grid). Absent
    # from the presets (0: exact); the server gives each new match its own (EXHIBITION_CLOCK_GRAIN_MS).
    "clock_grid_ms": ("int", 0, 100),
}
_PHASE_FIELDS = {
    "points": ("int", -100, 100),
    "power_points": ("int", -100, 100),
    "neg_points": ("int", -100, 100),
    "wrong_points": ("int", -100, 100),
    "dead_seconds": ("float", 0, 120),
    "discussion_seconds": ("float", 1, 600),
}


def number_ranges() -> tuple[dict, dict]:
    """The range of every number a host may set, as (match-wide fields, per-phase fields), each
    field -> (kind, low, high): the host page shows these and make_rules checks them."""
    return dict(_TOP_FIELDS), dict(_PHASE_FIELDS)


def _check_number(where: str, value, kind: str, low, high):
    if value is None:
        if where.endswith("power_points"):  # the one number that may be left out: no power mark bonus
            return None
        raise RulesError(f"{where} must be a number from {low} to {high}; it cannot be left empty.")
    if isinstance(value, bool):  # JSON true/false is not a count or a speed
        raise RulesError(f"{where} must be a number from {low} to {high}; got {value!r}.")
    if not isinstance(value, (int, float)):
        try:
            value = float(value) if kind == "float" else int(value)
        except (TypeError, ValueError):
            raise RulesError(f"{where} must be a number from {low} to {high}; got {value!r}.") from None
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite:
        raise RulesError(f"{where} must be from {low} to {high}; got {value!r}.")
    if kind == "int":
        if float(value) != int(value):
            raise RulesError(f"{where} must be a whole number from {low} to {high}; got {value!r}.")
        value = int(value)
    else:
        value = float(value)
    if not low <= value <= high:
        raise RulesError(f"{where} must be from {low} to {high}; got {value}.")
    return value


def make_rules(preset: str, overrides: dict | None = None) -> dict:
    """Return the preset with the host's edits applied and checked."""
    if preset not in PRESETS:
        raise RulesError(f"There is no format called {preset!r}; choose one of {', '.join(PRESETS)}.")
    rules = copy.deepcopy(PRESETS[preset])
    overrides = copy.deepcopy(overrides or {})
    phase_edits = overrides.pop("phases", None)
    for key, value in overrides.items():
        if key in _TOP_FIELDS or key in _SERVER_FIELDS:
            rules[key] = _check_number(key, value, *(_TOP_FIELDS.get(key) or _SERVER_FIELDS[key]))
        elif key == "reveal":
            if value not in ("clock", "moderator", "voice"):
                raise RulesError("reveal must be 'clock' (words at the set speed), 'moderator' (one word per key press) "
                                 "or 'voice' (read aloud, words as the voice says them).")
            rules[key] = value
        elif key == "priority":
            if value not in ("alternate", "first"):
                raise RulesError("priority must be 'alternate' (odd questions to the first team) or 'first'.")
            rules[key] = value
        elif key == "hall_bot_guesses":
            if value not in HALL_BOT_GUESSES:
                raise RulesError("hall_bot_guesses must be 'after_humans' (bots' guesses reach the hall and the "
                                 "phones once no human can score on the question any more) or 'live' (in a "
                                 f"question's last buzz phase they are shown as they come); got {value!r}.")
            rules[key] = value
        elif key in ("label", "name", "question_kind"):
            rules[key] = str(value)
        else:
            raise RulesError(f"{key!r} is not a setting of a format.")
    if phase_edits is not None:
        if not isinstance(phase_edits, list) or not phase_edits:
            raise RulesError("phases must be a non-empty list.")
        rules["phases"] = [_check_phase(i, p) for i, p in enumerate(phase_edits, 1)]
    return rules


def _check_phase(number: int, phase: dict) -> dict:
    if not isinstance(phase, dict):
        raise RulesError(f"Phase {number} must be an object.")
    mode = phase.get("mode")
    if mode not in ("buzz", "team"):
        raise RulesError(f"Phase {number}: mode must be 'buzz' or 'team'.")
    checked = {"mode": mode, "snippets": bool(phase.get("snippets", False))}
    tier = phase.get("bot_tier")
    if tier not in (None, *TIERS):
        raise RulesError(f"Phase {number}: bot_tier must be one of {', '.join(TIERS)} or empty for any bot.")
    checked["bot_tier"] = tier
    defaults = {"points": 10, "wrong_points": 0}
    if mode == "buzz":
        defaults.update(power_points=None, neg_points=0, dead_seconds=5)
    else:
        defaults.update(discussion_seconds=30)
    for key, default in defaults.items():
        checked[key] = _check_number(f"Phase {number} {key}", phase.get(key, default), *_PHASE_FIELDS[key])
    unknown = set(phase) - set(checked)
    if unknown:
        raise RulesError(f"Phase {number}: {', '.join(sorted(unknown))} is not a phase setting.")
    return checked
