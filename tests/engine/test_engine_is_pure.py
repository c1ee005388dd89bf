"""The engine is plain Python: no Django, Channels or Celery, so it can be folded anywhere (conductor,
replay, exports, tests) and reasoned about without a database or a broker."""
from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "game" / "engine"
BLOCKED = ("django", "channels", "channels_redis", "daphne", "celery", "kombu")
SOURCES = sorted(ENGINE.glob("*.py"))


def test_the_engine_has_the_modules_the_design_names():
    names = {p.stem for p in SOURCES}
    assert {"questions", "formats", "clock", "state", "fold", "rules", "projection", "api"} <= names


def _imports(tree: ast.AST):
    """(module, line) for every import statement and every import_module("...")/__import__("...") call."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level >= 2:  # from ..something: reaches out of the engine package
                yield "." * node.level + (node.module or ""), node.lineno
            elif node.level == 0:
                yield node.module or "", node.lineno
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                yield str(node.args[0].value), node.lineno


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_engine_module_imports_a_framework(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = [(module, line) for module, line in _imports(tree)
           if module.startswith("..") or module.split(".")[0] in BLOCKED]
    assert not bad, f"{path.name} imports {bad}; the engine must stay plain Python"


def test_the_import_scan_sees_every_form_of_import():
    tree = ast.parse(textwrap.dedent("""
        import django.db
        from celery import shared_task
        from ..models import Match
        def later():
            import channels.layers
            importlib.import_module("kombu")
    """))
    assert [m for m, _ in _imports(tree)] == ["django.db", "celery", "..models", "channels.layers", "kombu"]


_BLOCKING_RUN = """
import importlib.abc, sys
BLOCKED = {blocked!r}
already = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
assert not already, f"imported before the engine: {{already}}"

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"the engine imported {{name}}")
        return None

sys.meta_path.insert(0, Block())
try:
    import django  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("the import blocker does not work")

sys.path.insert(0, {root!r})
import game.engine.api as engine
for module in {modules!r}:
    importlib.import_module("game.engine." + module)

# Play a little, so imports hidden inside functions run too.
rules = engine.make_rules("quizbowl", {{"questions": 1}})
teams = [{{"id": "a", "name": "A"}}, {{"id": "b", "name": "B"}}]
seats = [{{"id": "s", "name": "S", "team": "a", "kind": "human", "tier": None, "captain": True, "simulated": False}}]
qs = [{{"qid": "1", "kind": "tossup", "text": "One two (*) three.", "answer": "X"}}] * 2
events = engine.create_match(rules, teams, seats, qs, 0)
state = engine.fold(events)
for command, now in [("start", 0), ("tick", 2100), ("buzz", 2400), ("answer", 2700), ("rule", 2800)]:
    actor = {{"start": {{"role": "moderator"}}, "tick": {{"role": "system"}}, "rule": {{"role": "moderator"}}}}.get(
        command, {{"role": "player", "seat": "s", "team": "a"}})
    data = {{"answer": {{"text": "X"}}, "rule": {{"verdict": "accept", "answer": state.q.floor_seq if state.q else 0}}}}.get(command, {{}})
    for event in engine.decide(state, {{"type": command, "actor": actor, "data": data}}, now):
        state = engine.apply(state, event)
        for audience in engine.AUDIENCES:
            engine.project(event, audience, "a")
    engine.snapshot(state, "player", "a")
    engine.next_wakeup(state)
assert state.scores == {{"a": 15, "b": 0}}, state.scores
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
assert not loaded, loaded
print("pure")
"""


def test_the_engine_imports_and_plays_with_the_frameworks_blocked():
    code = _BLOCKING_RUN.format(blocked=BLOCKED, root=str(ROOT), modules=[p.stem for p in SOURCES])
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "pure", done.stderr or done.stdout
