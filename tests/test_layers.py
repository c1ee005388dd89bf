"""The layout's promise: no module imports from a layer above its own (README "Layout").

Layers, lowest first. A module may import from its own layer and the ones below; an import from above
is an arrow the wrong way and fails here with the module, the line and both layers named. Imports
inside functions count too: a late import is still a dependency.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (layer name, module prefixes). The most specific prefix decides a module's layer.
LAYERS = [
    ("rules and adapters", ["game.engine", "game.judging", "serving"]),
    ("files and records", ["game.importers", "game.models", "game.migrations", "game.budgets"]),
    ("bots", ["bots"]),
    ("the match's store", ["game.event_log", "game.match_setup", "game.runner", "game.leases", "game.seats_left",
                           "game.snippets", "game.question_order", "game.demo", "game.checks", "game.apps", "game.speech",
                           "game"]),
    ("playing", ["game.conductor", "game.simulation", "events"]),
    ("sockets and archive", ["game.live", "game.archive", "game.report", "events.exports"]),
    ("pages and commands", ["game.web", "game.report.views", "game.speech.views", "game.management", "bots.management", "events.views",
                            "events.forms", "events.urls", "events.management"]),
    ("the project", ["exhibition"]),
]
PACKAGES = ("game", "bots", "events", "serving", "exhibition")


def layer_of(module: str) -> int | None:
    best = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (rank, len(prefix))
    return None if best is None else best[0]


def modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield name.removesuffix(".__init__"), path


def imported(name: str, path: Path):
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            for alias in node.names:  # "from game.live import fanout" imports game.live.fanout
                yield (f"{target}.{alias.name}" if (ROOT / (target.replace(".", "/") + f"/{alias.name}.py")).exists()
                       else target), node.lineno


def test_every_module_has_a_layer():
    missing = [name for name, _ in modules() if layer_of(name) is None]
    assert not missing, f"Give these modules a layer in tests/test_layers.py: {missing}"


def test_no_module_imports_from_a_layer_above_its_own():
    wrong = []
    for name, path in modules():
        mine = layer_of(name)
        for target, line in imported(name, path):
            if not target.startswith(PACKAGES):
                continue
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({LAYERS[mine][0]}) imports {target} "
                             f"({LAYERS[theirs][0]})")
    assert not wrong, "Imports from a layer above:\n" + "\n".join(wrong)


@pytest.mark.parametrize("module", ["game.engine.rules", "game.live.fanout", "exhibition.asgi", "serving.hall"])
def test_the_table_places_the_modules_it_names(module):
    assert layer_of(module) is not None
