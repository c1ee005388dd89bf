"""The host's new-match form with every rule of the format as a field, and the remote-bot form.

Rules are data (game/engine/rule_table.py): each rule the host sets is a field here, with the label,
help, fieldset and range or choices the table gives it, checked again by the engine's own make_rules,
so the page and the engine can never disagree. A field left empty keeps the format's own value.
"""
from __future__ import annotations

from django import forms

from bots.remote_registration import PROTOCOLS
from game.engine.api import (GROUPS, host_rules, make_rules, number_range, NUMBERS, PHASE, phase_has, PRESETS, Rule,
                             RulesError)
from game.web.forms import NewMatchForm
from game.question_order import QuestionOrderFields, category_choices, packet_outlines

TOP_RULES = host_rules()
PHASE_RULES = host_rules(PHASE)
# The engine's ranges of the numbers on the page, read from the table: field -> (kind, low, high).
TOP_RANGES = {rule.key: (rule.kind, rule.low, rule.high) for rule in TOP_RULES if rule.kind in NUMBERS}
PHASE_RANGES = {rule.key: (rule.kind, rule.low, rule.high) for rule in PHASE_RULES}
MAX_PHASES = 3
PHASE_FIELD = "{key}_{number}"  # points_1 … discussion_seconds_3


def _field(rule: Rule, label: str | None = None) -> forms.Field:
    """The rule's field: a number with its range, or its choices (yes or no for a flag) after "the format's own"."""
    if rule.kind == "choice":
        return forms.ChoiceField(label=rule.label, required=False,
                                 choices=[("", "the format's own")] + list(rule.choices))
    if rule.kind == "flag":  # yes, no, or the format's own (a checkbox could not leave it to the format)
        return forms.TypedChoiceField(label=rule.label, required=False, help_text=rule.help, empty_value=None,
                                      coerce=lambda value: value == "true",
                                      choices=[("", "the format's own"), ("true", "yes"), ("false", "no")])
    field_class = forms.FloatField if rule.kind == "float" else forms.IntegerField
    field = field_class(label=label or rule.label, required=False, min_value=rule.low, max_value=rule.high,
                        help_text=f"{rule.help}; {number_range(rule)}")
    if rule.kind == "float":
        field.widget.attrs["step"] = "any"
    return field


class HostMatchForm(NewMatchForm, QuestionOrderFields):
    """NewMatchForm (packet, format, teams, bot seats) with every rule of the format as a field, and
    the question order (which of the packet's questions, in what order)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outlines = packet_outlines()
        self.fields["categories"].choices = category_choices(self.outlines)
        self.rule_keys = [rule.key for rule in TOP_RULES]
        for rule in TOP_RULES:
            self.fields[rule.key] = _field(rule)
        for number in range(1, MAX_PHASES + 1):
            for rule in PHASE_RULES:
                self.fields[PHASE_FIELD.format(key=rule.key, number=number)] = _field(
                    rule, f"Phase {number} {rule.label.lower()}")
        self.rule_groups = [(legend, [self[rule.key] for rule in TOP_RULES if rule.group == legend])
                            for legend in GROUPS]
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
                if value is not None and phase_has(phase, key):  # a buzz phase has no discussion time, and so on
                    edited[key] = value
            phases.append(edited)
        overrides["phases"] = phases
        try:
            make_rules(preset["name"], overrides)  # the engine has the last word on every range
        except RulesError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["overrides"] = overrides
        data["bot_seats"] = self._bot_seats(data)
        self._check_computer(data)
        data["question_order"] = self.question_order()  # what the packet allows is checked as the match is made
        return data


def preset_values() -> dict:
    """Per format, each field's value in the format itself (the page shows it where a field is empty)."""
    values = {}
    for name, preset in PRESETS.items():
        shown = {rule.key: preset[rule.key] for rule in TOP_RULES}
        phase_fields = {}
        for number, phase in enumerate(preset["phases"][:MAX_PHASES], 1):
            for key in PHASE_RANGES:
                if phase_has(phase, key):
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
