"""The host's new-match form with every rule of the format as a field, and the remote-bot form.

Rules are data (game/engine/formats.py): each number a format has is a field here, with the range
the engine allows shown beside it and checked again by the engine's own make_rules, so the page and
the engine can never disagree on a range. A field left empty keeps the format's own value.
"""
from __future__ import annotations

from django import forms

from bots.remote_registration import PROTOCOLS
from game.engine import formats
from game.engine.formats import PRESETS, RulesError, make_rules
from game.web.forms import NewMatchForm
from game.question_order import QuestionOrderFields, category_choices, packet_outlines

# The engine's ranges, read from it rather than copied: field -> (kind, low, high).
TOP_RANGES, PHASE_RANGES = formats.number_ranges()

# What each rule is called on the page and what it means (the numbers come from the ranges above).
TOP_TEXT = {
    "questions": ("Questions", "questions in the match"),
    "tiebreakers": ("Tiebreakers", "extra questions at most after a tie"),
    "words_per_minute": ("Words per minute", "reading speed"),
    "lead_in_seconds": ("Lead-in", "seconds before the first word"),
    "comma_pause": ("Pause at a comma", "extra seconds"),
    "sentence_pause": ("Pause at a sentence end", "extra seconds"),
    "answer_seconds": ("Answer time", "seconds to answer after a buzz"),
    "prompt_seconds": ("Prompt time", "seconds to answer a prompt"),
    "protest_seconds": ("Protest time", "seconds after a ruling a captain may protest it; 0: no protests"),
    "buzz_grace_ms": ("Buzz grace window", "milliseconds a press made earlier but arriving later may still win; 0: arrival order"),
    "bot_min_words": ("Bot minimum words", "words read before a bot may buzz"),
    "bot_reaction_ms": ("Bot reaction delay", "milliseconds added to a bot's buzz"),
    "bot_act_timeout_ms": ("Bot time limit", "milliseconds a bot has to answer each query"),
    "stop_after_questions": ("Stop after questions", "no question starts after this many; empty: no limit"),
    "stop_after_ms": ("Stop after time", "milliseconds of play after which no question starts; empty: no limit"),
    "team_seats": ("Players per team", "at most, on a human team; empty: no limit"),
}
PHASE_TEXT = {
    "points": ("Points", "for a correct answer"),
    "power_points": ("Power points", "before the power mark; empty: no bonus"),
    "neg_points": ("Neg", "for a wrong buzz before the end"),
    "wrong_points": ("Wrong answer", "for a wrong answer"),
    "dead_seconds": ("Dead time", "seconds to buzz after the last word"),
    "discussion_seconds": ("Discussion time", "seconds a team discusses"),
}
CHOICES = {
    "reveal": ("Reveal", [("clock", "clock: words at the set speed"), ("moderator", "moderator: one word per key press"),
               ("voice", "voice: read aloud on the big screen, words as the voice says them")]),
    "priority": ("Priority", [("alternate", "alternate: odd questions to team 1, even to team 2"),
                              ("first", "first: team 1 on every question")]),
    "hall_bot_guesses": ("Bots' guesses on the big screen", [
        ("after_humans", "after the humans: shown once they can no longer score on the question"),
        ("live", "live in a question's last buzz phase (a quizbowl tossup): shown as the bots think")]),
}
GROUPS = [
    ("Match", ["questions", "tiebreakers", "priority", "team_seats", "stop_after_questions", "stop_after_ms"]),
    ("Reading", ["reveal", "words_per_minute", "lead_in_seconds", "comma_pause", "sentence_pause"]),
    ("Answering", ["answer_seconds", "prompt_seconds", "buzz_grace_ms", "protest_seconds"]),
    ("Bots: fairness and audience", ["bot_min_words", "bot_reaction_ms", "bot_act_timeout_ms", "hall_bot_guesses"]),
]
MAX_PHASES = 3
PHASE_FIELD = "{key}_{number}"  # points_1 … discussion_seconds_3


def _range_text(kind: str, low, high) -> str:
    show = (lambda x: f"{x:g}") if kind == "float" else str
    return f"{show(low)} to {show(high)}"


def _number_field(label: str, meaning: str, kind: str, low, high) -> forms.Field:
    field_class = forms.FloatField if kind == "float" else forms.IntegerField
    field = field_class(label=label, required=False, min_value=low, max_value=high,
                        help_text=f"{meaning}; {_range_text(kind, low, high)}")
    if kind == "float":
        field.widget.attrs["step"] = "any"
    return field


class HostMatchForm(NewMatchForm, QuestionOrderFields):
    """NewMatchForm (packet, format, teams, bot seats) with every rule of the format as a field, and
    the question order (which of the packet's questions, in what order)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outlines = packet_outlines()
        self.fields["categories"].choices = category_choices(self.outlines)
        self.rule_keys = list(TOP_RANGES)
        for key, (kind, low, high) in TOP_RANGES.items():
            self.fields[key] = _number_field(*TOP_TEXT.get(key, (key, key)), kind, low, high)
        for key, (label, choices) in CHOICES.items():
            self.fields[key] = forms.ChoiceField(label=label, required=False,
                                                 choices=[("", "the format's own")] + choices)
            self.rule_keys.append(key)
        for number in range(1, MAX_PHASES + 1):
            for key, (kind, low, high) in PHASE_RANGES.items():
                label, meaning = PHASE_TEXT.get(key, (key, key))
                self.fields[PHASE_FIELD.format(key=key, number=number)] = _number_field(
                    f"Phase {number} {label.lower()}" if key != "points" else f"Phase {number} points",
                    meaning, kind, low, high)
        self.rule_groups = [(legend, [self[k] for k in keys if k in self.fields]) for legend, keys in GROUPS]
        self.phase_groups = [(number, [self[PHASE_FIELD.format(key=key, number=number)] for key in PHASE_RANGES])
                             for number in range(1, MAX_PHASES + 1)]

    def clean(self):
        data = forms.Form.clean(self)
        if self.errors:
            return data
        preset = PRESETS[data["format_name"]]
        overrides = {key: data[key] for key in self.rule_keys if data.get(key) not in (None, "")}
        phases = []
        for number, phase in enumerate(preset["phases"], 1):
            edited = dict(phase)
            for key in PHASE_RANGES:
                value = data.get(PHASE_FIELD.format(key=key, number=number))
                if value is not None and key in phase:  # a buzz phase has no discussion time, and so on
                    edited[key] = value
            phases.append(edited)
        overrides["phases"] = phases
        try:
            make_rules(preset["name"], overrides)  # the engine has the last word on every range
        except RulesError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["overrides"] = overrides
        data["bot_seats"] = self._bot_seats(data)
        data["question_order"] = self.question_order()  # what the packet allows is checked as the match is made
        return data


def preset_values() -> dict:
    """Per format, each field's value in the format itself (the page shows it where a field is empty)."""
    values = {}
    for name, preset in PRESETS.items():
        shown = {key: preset.get(key) for key in (*TOP_RANGES, *CHOICES) if key in preset}
        phase_fields = {}
        for number, phase in enumerate(preset["phases"][:MAX_PHASES], 1):
            for key in PHASE_RANGES:
                if key in phase:
                    phase_fields[PHASE_FIELD.format(key=key, number=number)] = phase[key]
        values[name] = {"fields": shown, "phases": phase_fields, "phase_count": len(preset["phases"]),
                        "kind": preset["question_kind"]}
    return values


class RemoteBotForm(forms.Form):
    """A remote bot: its name, where it answers, and the protocol it speaks."""

    name = forms.CharField(max_length=60, help_text="letters, digits, '.', '_' or '-'")
    url = forms.URLField(label="URL", max_length=500, assume_scheme="http",
                         help_text="QANTA: the server's base URL; JSON: the endpoint it answers at")
    protocol = forms.ChoiceField(choices=list(PROTOCOLS.items()),
                                 help_text="QANTA: GET /api/1.0/quizbowl/status, POST …/act; JSON: POST a query, "
                                           "get an act with its confidence (docs/bots.md: Remote protocols)")
