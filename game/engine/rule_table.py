"""Every rule a match is played by, once, as data: its kind, range or choices, default, label and help.

The formats (game/engine/formats.py) are values over this table and make_rules checks every value
against it; the host's form (game/web/forms_host.py) builds its fields, labels, help and fieldsets
from it; the table of rules in docs/playing.md is printed from it (`python -m game.engine.formats`).
So a new rule costs one entry here, and a test (tests/engine/test_rule_table.py) fails when code reads
a rule this table lacks.

A match's rules travel in its match_created event, so a log written before a rule existed lacks that
rule. Such a match played under what the code did before the rule (`absent`: no protests, buzzes in
arrival order, words off any grid, …), which is not always today's default. complete() fills those in
once, where match_created is folded (engine/fold.py) and projected (engine/projection.py), so every
reader says rules[key] and nobody guesses. Pure: no Django.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from bots.tiers import TIER_LIMITS
from game.engine.buzzrace import GRACE_CAP_MS
from game.engine.weight_class import WEIGHT_CLASSES


class RulesError(ValueError):
    """A host's edit to a format is out of range; the message says which field and what is allowed."""


class _Marker:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


# `absent` of a rule as old as the event log: every stored match has it, so a log without it is damaged.
ALWAYS = _Marker("ALWAYS")
# `default` of a rule with none: each format (or each phase of a format) names its own.
OWN = _Marker("OWN")

MATCH, PHASE = "match", "phase"  # a rule's scope: the whole match, or each phase
HOST, SERVER, FORMAT = "host", "server", "format"  # who sets it: the host's page, the server, the format itself
NUMBERS = ("int", "float")
KINDS = (*NUMBERS, "choice", "flag", "text")
# How a phase is played (its rule "mode"): a rule of a phase may belong to some modes only.
MODE_CHOICES = (("buzz", "buzz in: a player buzzes as the words are read"),
                ("team", "team discussion: the whole question is shown, the captain submits"))
MODES = tuple(mode for mode, _ in MODE_CHOICES)
TIERS = tuple(TIER_LIMITS)  # a phase's bot_tier: the tiers of bots/tiers.py, plain data below the engine
# The host page's fieldsets for the rules of the whole match, in page order (each phase has its own).
GROUPS = ("Match", "Reading", "Answering", "Bonuses", "Bots: fairness and audience", "AI players' points (QANTA 2026)")


@dataclass(frozen=True)
class Rule:
    key: str
    kind: str  # one of KINDS
    label: str  # what the host page calls it
    help: str  # what it means, beside the field
    default: object  # the value a format has unless it says otherwise; OWN: each format names its own
    absent: object = ALWAYS  # what a log written before this rule existed played under
    low: float | None = None  # numbers: the range, both ends allowed
    high: float | None = None
    choices: tuple = ()  # choices: (value, what the host page calls it); a None value means it may be left empty
    empty: bool = False  # numbers: None is allowed (the help says what it means)
    scope: str = MATCH
    modes: tuple = MODES  # a phase rule: the phase modes that have it
    by: str = HOST  # who sets it: HOST (on the page), SERVER, or FORMAT (a preset's own, never on the page)
    group: str | None = None  # a match rule the host sets: its fieldset on the page (one of GROUPS)

    def check(self, value, where: str | None = None):
        """The value as the match stores it, or RulesError saying what is allowed."""
        where = where or self.key
        if self.kind in NUMBERS:
            if value is None and self.empty:
                return None
            return _check_number(where, value, self.kind, self.low, self.high)
        if self.kind == "choice":
            if value in [choice for choice, _ in self.choices]:
                return value
            raise RulesError(f"{where} must be {_alternatives(self.choices)}; got {value!r}.")
        if self.kind == "flag":
            return bool(value)
        return str(value)

    def value_in(self, values: dict, where: str | None = None):
        """This rule's value in a format's values (or a host's phase), or the table's default where they
        leave it out; checked either way, so a default out of its own range fails as soon as it is used."""
        where = where or self.key
        if self.key in values:
            return self.check(values[self.key], where)
        if self.default is OWN:
            raise RulesError(f"{where} has no default: give it.")
        return self.check(self.default, where)


def _alternatives(choices: tuple) -> str:
    said = [f"empty ({label})" if value is None else f"{value!r} ({label.removeprefix(f'{value}: ')})"
            for value, label in choices]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


def _check_number(where: str, value, kind: str, low, high):
    if value is None:
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


_MATCH, _READING, _ANSWERING, _BONUSES, _BOTS, _AI = GROUPS

# The rules of the whole match. The host page shows each group's rules in this order.
_MATCH_RULES = (
    Rule("name", "text", "Format key", "the format's name in commands, the archive and exports", OWN, by=FORMAT),
    Rule("label", "text", "Format name", "what the host page and the exports call the format", OWN, by=FORMAT),
    Rule("question_kind", "text", "Question kind", "the kind of the packet's questions the format plays "
         "(short or tossup; a format with bonuses also plays the packet's bonuses)", OWN, by=FORMAT),
    Rule("questions", "int", "Questions", "questions in the match", 20, low=1, high=200, group=_MATCH),
    Rule("tiebreakers", "int", "Tiebreakers", "extra questions at most after a tie", 3, low=0, high=20, group=_MATCH),
    Rule("priority", "choice", "Priority", "which team is ruled first on each question", "alternate",
         choices=(("alternate", "alternate: odd questions to team 1, even to team 2"),
                  ("first", "first: team 1 on every question")), group=_MATCH),
    # An event's team size cap and its preliminary's stop rules (events/matches.py). A stop rule ends
    # the match at a question boundary; pauses are not time played.
    Rule("team_seats", "int", "Players per team", "at most, on a human team; empty: no limit", None, absent=None,
         low=1, high=32, empty=True, group=_MATCH),
    Rule("stop_after_questions", "int", "Stop after questions", "no question starts after this many; empty: no limit",
         None, absent=None, low=1, high=200, empty=True, group=_MATCH),
    Rule("stop_after_ms", "int", "Stop after time", "milliseconds of play after which no question starts; empty: no "
         "limit", None, absent=None, low=1000, high=86_400_000, empty=True, group=_MATCH),
    Rule("reveal", "choice", "Reveal", "how the words of a question appear", "clock",
         choices=(("clock", "clock: words at the set speed"), ("moderator", "moderator: one word per key press"),
                  ("voice", "voice: read aloud on the big screen, words as the voice says them")), group=_READING),
    Rule("words_per_minute", "int", "Words per minute", "reading speed", 200, low=50, high=600, group=_READING),
    Rule("lead_in_seconds", "float", "Lead-in", "seconds before the first word", 2, low=0, high=30, group=_READING),
    Rule("comma_pause", "float", "Pause at a comma", "extra seconds", 0.5, low=0.0, high=5.0, group=_READING),
    Rule("sentence_pause", "float", "Pause at a sentence end", "extra seconds", 1.0, low=0.0, high=5.0,
         group=_READING),
    Rule("answer_seconds", "float", "Answer time", "seconds to answer after a buzz", 10, low=0, high=300,
         group=_ANSWERING),
    Rule("prompt_seconds", "float", "Prompt time", "seconds to answer a prompt", 8, low=0, high=300, group=_ANSWERING),
    # Before the grace window buzzes went by arrival, which is what 0 means.
    Rule("buzz_grace_ms", "int", "Buzz grace window", "milliseconds a press made earlier but arriving later may "
         "still win; 0: arrival order", 150, absent=0, low=0, high=GRACE_CAP_MS, group=_ANSWERING),
    Rule("protest_seconds", "int", "Protest time", "seconds after a ruling a captain may protest it; 0: no "
         "protests", 60, absent=0, low=0, high=600, group=_ANSWERING),
    # Tossup-bonus quizbowl (ACF rules). Before these rules no match had bonuses.
    Rule("bonuses", "flag", "Bonuses", "a team that answers a tossup correctly hears a bonus (the packet's "
         "next, in packet order; none after a dead tossup or a tiebreaker)", False, absent=False, group=_BONUSES),
    Rule("bonus_confer_seconds", "float", "Bonus conferring time", "seconds the team confers on a bonus part "
         "once it is read, before its captain must answer (ACF: 5)", 5, absent=5, low=1, high=120,
         group=_BONUSES),
    Rule("bounceback", "flag", "Bouncebacks", "a bonus part the controlling team misses goes to the other team "
         "(two-team matches only)", False, absent=False, group=_BONUSES),
    Rule("bounceback_seconds", "float", "Bounceback time", "seconds the other team confers on a missed part: "
         "shorter than conferring, since it heard the part and thought along while the controlling team "
         "conferred", 3, absent=3, low=1, high=60, group=_BONUSES),
    Rule("bot_min_words", "int", "Bot minimum words", "words read before a bot may buzz", 0, low=0, high=500,
         group=_BOTS),
    Rule("bot_reaction_ms", "int", "Bot reaction delay", "milliseconds added to a bot's buzz", 300, low=0,
         high=10000, group=_BOTS),
    Rule("bot_act_timeout_ms", "int", "Bot time limit", "milliseconds a bot has to answer each query", 3000,
         low=100, high=60000, group=_BOTS),
    # A log from before this rule held guesses as "after_humans" does (the hold came with the rule).
    Rule("hall_bot_guesses", "choice", "Bots' guesses on the big screen", "when the bots' guesses (and the "
         "computer's team answers) reach the hall and the phones; the moderator always sees them live",
         "after_humans", absent="after_humans",
         choices=(("after_humans", "after the humans: shown once they can no longer score on the question"),
                  ("live", "live in a question's last buzz phase (a quizbowl tossup): shown as the bots think")),
         group=_BOTS),
    # AI teammates (game/engine/seat_table.py): before them no human team had a bot, so nothing was consulted.
    Rule("consult_teammate_bots", "flag", "Teams consult their own bots", "a human team sees its own bots' guesses "
         "where it may consult them: in a team phase, and on a bonus part it controls (QANTA 2026); never while "
         "it buzzes against the clock", True, absent=True, group=_BOTS),
    # AI players' points, QANTA 2026 (game/engine/ai_points.py). Before these rules a bot scored what a
    # person did and a bonus part had no decision.
    Rule("ai_tossup_deflation", "choice", "AI tossup points", "what a bot's correct tossup scores (negs are "
         "never changed)", "none", absent="none",
         choices=(("none", "none: what a person's scores"),
                  ("static", "static: less the static amount, never below 0"),
                  ("weighted", "weighted: times its weight class's factor, rounded")), group=_AI),
    Rule("ai_tossup_static_deflation", "int", "AI tossup static deflation", "points taken off a bot's correct "
         "tossup under static", 5, absent=5, low=0, high=100, group=_AI),
    *(Rule(f"ai_tossup_factor_{weight}", "float", f"AI tossup factor, {weight}", f"a {weight} bot's correct "
           "tossup points are multiplied by it under weighted", factor, absent=factor, low=0, high=2, group=_AI)
      for weight, factor in zip(WEIGHT_CLASSES, (1.0, 0.8, 0.4))),
    Rule("bonus_decisions", "flag", "Bonus part decisions", "on each bonus part the controlling team (its captain "
         "or the moderator) decides: answer on its own, consult its AI (fewer points) or abstain (points when "
         "nobody, human or AI, was right)", False, absent=False, group=_AI),
    Rule("bonus_consult_deflation", "choice", "Consulting the AI", "what a part the team got right after "
         "consulting its AI scores", "weighted", absent="weighted",
         choices=(("none", "none: the part's full points"),
                  ("static", "static: less the static amount, never below 0"),
                  ("weighted", "weighted: less each of the team's bots' class weight, never below 0")),
         group=_AI),
    Rule("bonus_static_deflation", "int", "Consult static deflation", "points taken off a consulted part under "
         "static", 5, absent=5, low=0, high=100, group=_AI),
    *(Rule(f"bonus_weight_{weight}", "int", f"Consult weight, {weight}", f"points each {weight} bot of the team "
           "takes off a consulted part under weighted", weight_points, absent=weight_points, low=0, high=100,
           group=_AI)
      for weight, weight_points in zip(WEIGHT_CLASSES, (1, 2, 3))),
    Rule("bonus_abstain_points", "int", "Abstain points", "what a team that abstained on a part scores when the "
         "moderator rules that nobody, human or AI, was right", 1, absent=1, low=0, high=100, group=_AI),
    Rule("autonomous_default_k", "int", "Autonomous bot gate", "a bot's buzz counts once it has read k words "
         "(1: no gate, as QANTA counts; the bot minimum words apply as well)", 1, absent=1, low=1, high=500, group=_AI),
    # The server gives each new match its own grid (EXHIBITION_CLOCK_GRAIN_MS, game/match_setup.py); words
    # before the grid were exact, which is what 0 means.
    Rule("clock_grid_ms", "int", "Clock grid", "milliseconds: words and deadlines fall on multiples of "
         "it; 0: exact", 0, absent=0, low=0, high=100, by=SERVER),
)

# The rules of each phase; which ones a phase has depends on its mode.
_PHASE_RULES = (
    Rule("mode", "choice", "Mode", "how the phase is played", OWN, scope=PHASE, by=FORMAT, choices=MODE_CHOICES),
    Rule("points", "int", "Points", "for a correct answer", 10, low=-100, high=100, scope=PHASE),
    Rule("power_points", "int", "Power points", "before the power mark; empty: no power (points apply)", None, low=-100, high=100,
         empty=True, scope=PHASE, modes=("buzz",)),
    Rule("neg_points", "int", "Neg", "for a wrong buzz before the end", 0, low=-100, high=100, scope=PHASE,
         modes=("buzz",)),
    Rule("wrong_points", "int", "Wrong answer", "for a wrong answer", 0, low=-100, high=100, scope=PHASE),
    Rule("dead_seconds", "float", "Dead time", "seconds to buzz after the last word", 5, low=0, high=120,
         scope=PHASE, modes=("buzz",)),
    Rule("discussion_seconds", "float", "Discussion time", "seconds a team discusses", 30, low=1, high=600,
         scope=PHASE, modes=("team",)),
    Rule("bot_tier", "choice", "Bot tier", "the bot tier that plays the phase; empty: any bot", None, scope=PHASE,
         by=FORMAT, choices=((None, "any bot"), *((tier, f"the {tier} bot") for tier in TIERS))),
    Rule("snippets", "flag", "Search snippets", "the phase shows search snippets for the question", False,
         scope=PHASE, by=FORMAT),
)

MATCH_RULES = {rule.key: rule for rule in _MATCH_RULES}
PHASE_RULES = {rule.key: rule for rule in _PHASE_RULES}
PHASES = "phases"  # the key of a match's list of phases (each a dict of PHASE_RULES)


def phase_has(phase: dict, key: str) -> bool:
    """Whether a phase of this mode has this rule (a buzz phase has no discussion time, and so on)."""
    return phase["mode"] in PHASE_RULES[key].modes


def number_range(rule: Rule) -> str:
    """A number rule's range as the host page and the docs write it: "1 to 200", "0 to 0.5"."""
    show = (lambda x: f"{x:g}") if rule.kind == "float" else str
    return f"{show(rule.low)} to {show(rule.high)}"


def host_rules(scope: str = MATCH) -> list[Rule]:
    """The rules the host sets on the page, in table order."""
    return [rule for rule in (_MATCH_RULES if scope == MATCH else _PHASE_RULES) if rule.by == HOST]


def complete(rules: dict) -> dict:
    """These stored rules with every rule of the table: one a log lacks (it was written before the rule
    existed) gets the value that match played under. Rules already complete come back as they are."""
    phases = rules[PHASES]
    missing = [rule for rule in _MATCH_RULES if rule.key not in rules]
    phases_missing = [[rule for rule in _PHASE_RULES if rule.key not in phase and phase_has(phase, rule.key)]
                      for phase in phases]
    if not missing and not any(phases_missing):
        return rules
    done = dict(rules)
    done.update((rule.key, _absent(rule, rule.key)) for rule in missing)
    done[PHASES] = [dict(phase, **{rule.key: _absent(rule, f"phase {number} {rule.key}") for rule in lacks})
                    for number, (phase, lacks) in enumerate(zip(phases, phases_missing), 1)]
    return done


def _absent(rule: Rule, where: str):
    if rule.absent is ALWAYS:
        raise ValueError(f"The match's rules lack {where}, which every match has stored since the first version: "
                         "the log is damaged or was not written by Exhibition.")
    return rule.absent


# -- the table in the docs ------------------------------------------------------------------------

def _shown(value) -> str:
    if value is None:
        return "empty"
    if value is ALWAYS:
        return "(always stored)"
    if value is OWN:
        return "(the format's)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _range(rule: Rule) -> str:
    if rule.kind in NUMBERS:
        return number_range(rule) + ("; or empty" if rule.empty else "")
    if rule.kind == "choice":
        return ", ".join("empty" if value is None else f"`{value}`" for value, _ in rule.choices)
    return "yes or no" if rule.kind == "flag" else "text"


def _preset_value(preset: dict, rule: Rule) -> str:
    if rule.scope == MATCH:
        return _shown(preset[rule.key])
    return " / ".join(_shown(phase[rule.key]) if phase_has(phase, rule.key) else "—" for phase in preset[PHASES])


def markdown(presets: dict) -> str:
    """The rules as Markdown tables for docs/playing.md, with each preset's values (a format's phases
    separated by "/", "—" where a phase of that mode lacks the rule)."""
    names = list(presets)
    lines = []
    who = {HOST: "", SERVER: " (set by the server)", FORMAT: " (the format's own, not on the host page)"}
    for title, rules in (("The whole match", _MATCH_RULES), ("Each phase", _PHASE_RULES)):
        head = ["Rule", "Label", "Kind", "Range", "Default", *(presets[n]["label"] for n in names),
                "A log without it", "Meaning"]
        lines += [f"**{title}**", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for rule in rules:
            kind = rule.kind + ("" if rule.modes == MODES else f" ({', '.join(rule.modes)} phases)")
            row = [f"`{rule.key}`", rule.label, kind, _range(rule), _shown(rule.default),
                   *(_preset_value(presets[n], rule) for n in names), _shown(rule.absent), rule.help + who[rule.by]]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines)

