"""One table of rules (game/engine/rule_table.py): every rule the code reads is in it, nothing reads a
rule with a fallback of its own, the formats are valid values over it, the docs print it, and a match
stored before a rule existed replays under what it played under."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.engine.api import AUDIENCES, PRESETS, fold, make_rules, project, snapshot
from game.engine.rule_table import (ALWAYS, GROUPS, HOST, KINDS, MATCH_RULES, NUMBERS, OWN, PHASE_RULES, PHASES,
                                    complete)

from .support import MOD, TEAMS, Match, make_questions, quizbowl_seats

ROOT = Path(__file__).resolve().parents[2]
KNOWN = set(MATCH_RULES) | set(PHASE_RULES) | {PHASES}
RULES_TABLE = list(MATCH_RULES.values()) + list(PHASE_RULES.values())


# -- what the code reads --------------------------------------------------------------------------

def _is_rules(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression is a match's rules, its list of phases or one phase's rules, as the code
    spells them: rules, s.rules, state.rules, self.state.rules, s.phase_rules(), rules["phases"][i],
    and a name bound to one of those (phase = s.rules["phases"][0]; for phase in rules["phases"])."""
    if isinstance(node, ast.Name):
        return node.id == "rules" or node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr == "rules"
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "phase_rules"
    if isinstance(node, ast.Subscript):  # rules["phases"], and any phase of it
        inner = node.value
        return (_is_rules(inner, names) and _literal(node.slice) == PHASES) or \
            (isinstance(inner, ast.Subscript) and _literal(inner.slice) == PHASES and _is_rules(inner.value, names))
    return False


def _literal(node: ast.AST):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Scopes inside a function that see its names but bind their own (a comprehension's loop variable).
INNER = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, down to (and including) the scopes inside it, not into them."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, FUNCTIONS + INNER):
            todo.extend(ast.iter_child_nodes(node))


def _bound(scope: ast.AST, names: set[str]) -> set[str]:
    """These names and those the scope binds to rules: by assignment, or as the phase of a loop over a
    rules' phases (also under enumerate), to a fixed point so a name bound from such a name counts too."""
    while True:
        found = set(names)
        for node in _own_nodes(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and _is_rules(node.value, names):
                found.add(node.targets[0].id)
            elif isinstance(node, (ast.For, ast.comprehension)):
                target, over = node.target, node.iter
                if isinstance(over, ast.Call) and getattr(over.func, "id", "") == "enumerate" and over.args \
                        and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                    target, over = target.elts[1], over.args[0]
                if isinstance(target, ast.Name) and _is_rules(over, names):
                    found.add(target.id)
        if found == names:
            return names
        names = found


def _scan(scope: ast.AST, inherited: set[str], keys: set, gets: set):
    names = _bound(scope, inherited)
    for node in _own_nodes(scope):
        if isinstance(node, ast.Subscript) and _literal(node.slice) is not None and _is_rules(node.value, names):
            keys.add((node.slice.value, node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and _is_rules(node.func.value, names):
            gets.add(node.lineno)
        elif isinstance(node, FUNCTIONS + INNER):
            _scan(node, names if isinstance(node, INNER) else set(), keys, gets)


def rule_reads(source: str) -> tuple[list[tuple[str, int]], list[int]]:
    """(every literal key read from or written to rules, with its line; the lines that call .get on
    rules), scope by scope, so a name means what its own function or comprehension bound it to."""
    keys, gets = set(), set()
    _scan(ast.parse(source), set(), keys, gets)
    return sorted(keys, key=lambda read: (read[1], read[0])), sorted(gets)


def test_the_scan_sees_every_spelling_of_a_rules_read():
    keys, gets = rule_reads(textwrap.dedent("""
        def one(s, state, rules):
            a = s.rules["alpha"] + state.rules.get("beta", 0) + self.state.rules["gamma"]
            b = s.phase_rules()["delta"] + rules["phases"][0]["epsilon"]
            phase = s.rules["phases"][s.q.phase]
            c = phase["zeta"]
            for number, p in enumerate(rules["phases"], 1):
                d = p.get("eta")
            e = [q["theta"] for q in state.rules["phases"]] + [q["not_rules"] for q in trail]
            rules["iota"] = 1
        def other(phase, data):
            return phase["not_rules"] + data.get("rules")  # another function's phase; an event's data
    """))
    assert [k for k, _ in keys] == ["alpha", "gamma", "delta", "epsilon", "phases", "phases", "zeta", "phases",
                                    "phases", "theta", "iota"]
    assert gets == [3, 8]


def _python_sources():
    for package in ("game", "bots", "events", "tournaments"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_code_reads_only_rules_the_table_has_and_never_with_a_fallback():
    unknown, fallbacks, seen = [], [], set()
    for path in _python_sources():
        keys, gets = rule_reads(path.read_text())
        where = path.relative_to(ROOT)
        unknown += [f"{where}:{line} {key!r}" for key, line in keys if key not in KNOWN]
        fallbacks += [f"{where}:{line}" for line in gets]
        seen |= {key for key, _ in keys}
    assert not unknown, "rules read that the rule table lacks: " + ", ".join(unknown)
    assert not fallbacks, ("rules read with .get: a fallback is a second definition; complete rules have every key "
                           "(rule_table.complete): " + ", ".join(fallbacks))
    assert {"answer_seconds", "protest_seconds", "bot_tier", "neg_points"} <= seen  # the scan does see the engine


JS_READ = re.compile(r"(?<![\w/-])rules\??\.(\w+)")
JS_PHASE_READ = re.compile(r"(?<![\w/-])rules\??\.phases\??\.?\[[^\]]*\]\??\.(\w+)")
JS_FALLBACK = re.compile(r"(?<![\w/-])rules\??\.\w+(?:\??\.?\[[^\]]*\]\??\.\w+)?\s*(?:\|\||\?\?)")


def test_the_browser_reads_only_rules_the_table_has_and_never_with_a_fallback():
    unknown, fallbacks, seen = [], [], set()
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{number}"
            keys = JS_READ.findall(line) + JS_PHASE_READ.findall(line)
            unknown += [f"{where} {key!r}" for key in keys if key not in KNOWN]
            fallbacks += [where] if JS_FALLBACK.search(line) else []
            seen |= set(keys)
    assert not unknown, "rules read that the rule table lacks: " + ", ".join(unknown)
    assert not fallbacks, "rules read with a fallback (|| or ??): " + ", ".join(fallbacks)
    assert {"protest_seconds", "points", "reveal"} <= seen


def test_the_browser_scan_sees_reads_and_fallbacks():
    line = "const a = view.rules?.protest_seconds || 0; b = fresh.rules.phases[q.phase - 1]?.points ?? null; // game/engine/rules.py"
    assert JS_READ.findall(line) == ["protest_seconds", "phases"] and JS_PHASE_READ.findall(line) == ["points"]
    assert len(JS_FALLBACK.findall(line)) == 2


# -- the table itself -----------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES_TABLE, ids=lambda r: r.key)
def test_every_rule_has_a_label_help_and_a_default_and_absent_value_it_allows(rule):
    assert rule.kind in KINDS and rule.label.strip() and rule.help.strip()
    if rule.kind in NUMBERS:
        assert rule.low <= rule.high
    if rule.kind == "choice":
        assert rule.choices and all(label for _, label in rule.choices)
    for value in (rule.default, rule.absent):
        if value not in (OWN, ALWAYS):
            assert rule.check(value) == value
    assert (rule.group in GROUPS) == (rule.by == HOST and rule.scope == "match")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_is_complete_and_valid_over_the_table(name):
    preset = PRESETS[name]
    assert make_rules(name) == preset
    assert set(preset) == set(MATCH_RULES) | {PHASES}
    for phase in preset[PHASES]:
        assert set(phase) == {rule.key for rule in PHASE_RULES.values() if phase["mode"] in rule.modes}
    assert complete(preset) is preset  # nothing for the fold to fill in


def test_a_phase_the_host_writes_gets_the_tables_defaults_for_what_it_leaves_out():
    [phase] = make_rules("quizbowl", {"phases": [{"mode": "buzz"}]})[PHASES]
    assert phase == {rule.key: (rule.default if rule.key != "mode" else "buzz") for rule in PHASE_RULES.values()
                     if "buzz" in rule.modes}


def test_the_docs_table_is_the_one_the_rule_table_prints():
    command = ".venv/bin/python -m game.engine.formats"
    doc = (ROOT / "docs" / "playing.md").read_text()
    assert f"`{command}`" in doc, "docs/playing.md must say how its table of rules is made"
    printed = subprocess.run([sys.executable, *command.split()[1:]], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    shown = doc.split("<!-- rules table: start -->\n", 1)[1].split("<!-- rules table: end -->", 1)[0]
    assert shown == printed, f"docs/playing.md's table of rules is out of date: run {command} and paste its output"
    for rule in RULES_TABLE:
        assert f"| `{rule.key}` | {rule.label} |" in printed


# -- matches stored before a rule existed ---------------------------------------------------------

# A quizbowl match's rules as the first version stored them, written out by hand: none of the rules
# added since (protests, the grace window, the audience rule, seats, stop rules, the clock grid).
FIRST_VERSION_RULES = {
    "name": "quizbowl", "label": "Quizbowl tossups", "question_kind": "tossup", "questions": 2, "reveal": "clock",
    "lead_in_seconds": 2, "words_per_minute": 200, "comma_pause": 0.5, "sentence_pause": 1.0, "priority": "alternate",
    "answer_seconds": 10, "prompt_seconds": 8, "tiebreakers": 0, "bot_min_words": 0, "bot_reaction_ms": 300,
    "bot_act_timeout_ms": 3000,
    "phases": [{"mode": "buzz", "points": 10, "power_points": 15, "neg_points": -5, "wrong_points": 0,
                "dead_seconds": 5, "bot_tier": None, "snippets": False}],
}
PLAYED_UNDER = {"protest_seconds": 0, "buzz_grace_ms": 0, "hall_bot_guesses": "after_humans", "team_seats": None,
                "stop_after_questions": None, "stop_after_ms": None, "clock_grid_ms": 0,
                "bonuses": False, "bonus_confer_seconds": 5, "bounceback": False, "bounceback_seconds": 3,
                "consult_teammate_bots": True,

                "ai_tossup_deflation": "none", "ai_tossup_static_deflation": 5, "ai_tossup_factor_lightweight": 1.0,
                "ai_tossup_factor_midweight": 0.8, "ai_tossup_factor_heavyweight": 0.4, "bonus_decisions": False,
                "bonus_consult_deflation": "weighted", "bonus_static_deflation": 5, "bonus_weight_lightweight": 1,
                "bonus_weight_midweight": 2, "bonus_weight_heavyweight": 3, "bonus_abstain_points": 1,
                "autonomous_default_k": 1}


def old_match() -> Match:
    """A match whose log starts with a first-version match_created."""
    m = Match("quizbowl", {"questions": 2, "tiebreakers": 0})
    created = {"seq": 1, "t": 0, "type": "match_created",
               "data": {"rules": FIRST_VERSION_RULES, "teams": TEAMS, "seats": quizbowl_seats(),
                        "questions": make_questions(4, "tossup")}}
    m.events = [created]
    m.state = fold(m.events)
    return m


def test_an_old_log_folds_and_projects_to_complete_rules_with_what_it_played_under():
    m = old_match()
    assert m.state.rules == dict(FIRST_VERSION_RULES, **PLAYED_UNDER)
    assert set(m.state.rules) == set(MATCH_RULES) | {PHASES}
    assert m.events[0]["data"]["rules"] == FIRST_VERSION_RULES and "protest_seconds" not in FIRST_VERSION_RULES
    for audience in AUDIENCES:  # so the browser's fold has every rule too
        assert project(m.events[0], audience)["data"]["rules"] == m.state.rules
        assert snapshot(m.state, audience)["rules"] == m.state.rules


def test_an_old_match_plays_on_under_its_old_rules():
    m = old_match()
    m.start(0)
    m.reveal_until(3)
    m.buzz("h0", at=m.now + 50)
    m.answer("h0", "the moon")
    m.rule("reject", at=m.now + 100)
    assert m.state.scores["t0"] == -5
    refused = m.refuse("protest", "h0", {"ruling": 1, "text": "the moon is on the line"}, at=m.now + 1000)
    assert refused.args[0] == "Protests are off in this match."  # there were no protests then
    assert m.send("undo", MOD)


def test_a_log_that_lacks_a_rule_every_match_stores_is_called_damaged():
    rules = {k: v for k, v in FIRST_VERSION_RULES.items() if k != "answer_seconds"}
    with pytest.raises(ValueError, match="answer_seconds.*damaged"):
        complete(rules)
    phase = {k: v for k, v in FIRST_VERSION_RULES[PHASES][0].items() if k != "dead_seconds"}
    with pytest.raises(ValueError, match="phase 1 dead_seconds"):
        complete(dict(FIRST_VERSION_RULES, phases=[phase]))
