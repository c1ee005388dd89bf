"""Match formats as data: presets a host picks and edits per match, and their validation.

Rules are data, not code paths: every rule is declared once in game/engine/rule_table.py (kind,
range, default, label, help), and a format is its values over that table, so a host can change
points, timers, speeds and the bot-tier of each phase without new code.
"""
from __future__ import annotations

from game.engine.rule_table import MATCH_RULES, PHASE_RULES, PHASES, TIERS, RulesError, markdown  # noqa: F401

# Each format states what makes it itself and leaves the rest to the table's defaults, so a rule added
# to the table reaches every format with its default. PRESETS holds them complete and checked (an
# invalid preset fails on import).
EFFICIENTQA = {
    "name": "efficientqa",
    "label": "EfficientQA three-phase",
    "question_kind": "short",
    "questions": 10,
    "answer_seconds": 15,
    "prompt_seconds": 10,
    "phases": [
        {"mode": "buzz", "points": 3, "bot_tier": "500mib"},
        {"mode": "team", "points": 2, "bot_tier": "6gib"},
        {"mode": "team", "points": 1, "bot_tier": "unlimited", "snippets": True},
    ],
}

QUIZBOWL = {
    "name": "quizbowl",
    "label": "Quizbowl tossups",
    "question_kind": "tossup",
    "phases": [
        {"mode": "buzz", "points": 10, "power_points": 15, "neg_points": -5},
    ],
}

QUIZBOWL_BONUS = {
    "name": "quizbowl_bonus",
    "label": "Quizbowl tossups and bonuses (ACF)",
    "question_kind": "tossup",
    "bonuses": True,
    "phases": QUIZBOWL["phases"],
}

# QANTA 2026 (qanta-org/qb-tournament-runner, config/rule-presets/qanta26.json): AI players sit on human teams
# and score by weight class (game/engine/ai_points.py); the class numbers are the table's defaults.
QANTA26 = {
    "name": "qanta26",
    "label": "QANTA 2026",
    "question_kind": "tossup",
    "bonuses": True,
    "bonus_decisions": True,
    "ai_tossup_deflation": "weighted",
    "bonus_consult_deflation": "weighted",
    "phases": [
        {"mode": "buzz", "points": 10, "neg_points": -5},
    ],
}

_VALUES = {p["name"]: p for p in (EFFICIENTQA, QUIZBOWL, QUIZBOWL_BONUS, QANTA26)}


def _checked(values: dict) -> dict:
    """A format's values, every rule of the table present and checked (the default where left out)."""
    unknown = [key for key in values if key not in MATCH_RULES and key != PHASES]
    if unknown:
        raise RulesError(f"{unknown[0]!r} is not a setting of a format.")
    rules = {rule.key: rule.value_in(values) for rule in MATCH_RULES.values()}
    phases = values.get(PHASES)
    if not isinstance(phases, list) or not phases:
        raise RulesError("phases must be a non-empty list.")
    rules[PHASES] = [_check_phase(number, phase) for number, phase in enumerate(phases, 1)]
    return rules


def _check_phase(number: int, phase: dict) -> dict:
    if not isinstance(phase, dict):
        raise RulesError(f"Phase {number} must be an object.")
    mode = PHASE_RULES["mode"].value_in(phase, f"Phase {number} mode")
    checked = {rule.key: rule.value_in(phase, f"Phase {number} {rule.key}")
               for rule in PHASE_RULES.values() if mode in rule.modes}
    unknown = set(phase) - set(checked)
    if unknown:
        raise RulesError(f"Phase {number}: {', '.join(sorted(unknown))} is not a phase setting.")
    return checked


PRESETS = {name: _checked(values) for name, values in _VALUES.items()}


def make_rules(preset: str, overrides: dict | None = None) -> dict:
    """Return the preset with the host's edits applied and checked: every rule of the table, a rule the
    edits leave out as the preset has it (a phase list replaces the preset's, each phase's rules it
    leaves out at the table's defaults)."""
    if preset not in PRESETS:
        raise RulesError(f"There is no format called {preset!r}; choose one of {', '.join(PRESETS)}.")
    return _checked({**_VALUES[preset], **(overrides or {})})


if __name__ == "__main__":
    # docs/playing.md's table of every rule, with each preset's values beside the table's own.
    print(markdown(PRESETS), end="")
