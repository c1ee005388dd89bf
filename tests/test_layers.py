"""The layout's promise: no module imports from a layer above its own, no import circles, and no import
hidden inside a function without a reason (README "Layout", DESIGN.md §7).

Layers, lowest first. A module may import from its own layer and the ones below; an import from above
is an arrow the wrong way and fails here with the module, the line and both layers named. Imports
inside functions count too: a late import is still a dependency.

Between game and bots the arrows go one way: the bots sit above the engine, the judge and the bounded
reading of files (intake/), and below everything else of game (the records, the match's store, the
conductor, the pages). Two modules make that explicit rather than an exception: bots.tiers is plain
data at the bottom, which the engine's rules read (a phase's bot_tier), and the engine hands a trusted
bot what it may know (game.engine.bot_turns) rather than the bot reaching down for it.

No circles: a cycle among the project's modules fails here, named module by module. And a function-
local import of a project module needs a comment on its line, or on the line above its run of imports,
saying why it is late (a heavy dependency loaded on first use, Django's app loading): hiding an import
in a function is how a circle used to close unseen.
"""
import ast
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (layer name, module prefixes). The most specific prefix decides a module's layer.
LAYERS = [
    ("rules and reading", ["game.engine", "game.judging", "serving", "intake", "bots.tiers"]),
    ("bots", ["bots"]),
    ("files and records", ["game.importers", "game.models", "game.migrations", "game.command_budgets", "broadcast"]),
    ("the match's store", ["game.event_log", "game.match_setup", "game.runner", "game.leases", "game.seats_left",
                           "game.snippets", "game.question_order", "game.demo", "game.checks", "game.apps", "game.speech",
                           "game"]),
    ("playing", ["game.conductor", "game.simulation", "events"]),
    ("sockets and archive", ["game.live", "game.archive", "game.report", "events.event_files", "tournaments",
                             "broadcast.feed_tokens", "broadcast.feed", "broadcast.feed_routes"]),
    ("pages and commands", ["game.web", "game.report.views", "game.speech.views", "game.management", "bots.management", "events.views",
                            "events.forms", "events.urls", "events.management", "tournaments.views", "tournaments.forms",
                            "tournaments.urls", "tournaments.management", "broadcast.views", "broadcast.urls"]),
    ("the project", ["exhibition"]),
]
PACKAGES = ("game", "bots", "events", "tournaments", "serving", "exhibition", "intake", "broadcast")


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


def _imports(name: str, path: Path, tree: ast.AST):
    """(target, import node) for every import in the module, resolved to dotted names."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            for alias in node.names:  # "from game.live import fanout" imports game.live.fanout
                yield (f"{target}.{alias.name}" if (ROOT / (target.replace(".", "/") + f"/{alias.name}.py")).exists()
                       else target), node


def imported(name: str, path: Path):
    for target, node in _imports(name, path, ast.parse(path.read_text(), str(path))):
        yield target, node.lineno


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


@pytest.mark.parametrize("module", ["game.engine.rules", "game.live.fanout", "exhibition.asgi", "serving.hall",
                                    "intake.limits"])
def test_the_table_places_the_modules_it_names(module):
    assert layer_of(module) is not None


def test_bots_import_nothing_of_game_but_the_engine():
    """One direction between game and bots: records, importers, the store and everything above them
    may use the bots; the bots use only the engine below them (through its public surface)."""
    wrong = sorted({f"{path.relative_to(ROOT)}:{line} imports {target}"
                    for name, path in modules() if name.startswith("bots.") and not name.startswith("bots.management")
                    for target, line in imported(name, path)
                    if target.startswith("game.") and target != "game.engine.api"})
    assert not wrong, "\n".join(wrong)


def test_the_rest_of_the_project_reaches_the_engine_only_through_its_public_surface():
    """game/engine/api.py is the engine's one surface: what it offers is that list, and the modules
    behind it may be rearranged without touching a page, the conductor or an export."""
    wrong = sorted({f"{path.relative_to(ROOT)}:{line} imports {target}"
                    for name, path in modules() if not name.startswith("game.engine")
                    for target, line in imported(name, path)
                    if target.startswith("game.engine") and target != "game.engine.api"})
    assert not wrong, "Import these from game.engine.api (add the name there if it is missing):\n" + "\n".join(wrong)


# -- circles ----------------------------------------------------------------------------------------

def _owner(target: str, known: set[str]) -> str | None:
    """The project module a dotted import names (an attribute's module for "from a.b import name")."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports, at the top or inside functions (migrations aside:
    Django writes them, and they only import what they need from the models)."""
    found = {name: path for name, path in modules() if ".migrations" not in name}
    graph = {}
    for name, path in found.items():
        targets = (_owner(target, set(found)) for target, _ in imported(name, path) if target.startswith(PACKAGES))
        graph[name] = {target for target in targets if target and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import each other round (a strongly connected component of more than
    one module), sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(start):  # Tarjan's algorithm without recursion: a deep chain of imports must not overflow
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(sorted(group) for group in groups)


def circle(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """The shortest way from the group's first module back to itself through the group: a -> b -> a."""
    start = group[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph.get(node, ()) & set(group)):
            if child == start:
                return paths[node] + [start]
            if child not in paths:
                paths[child] = paths[node] + [child]
                queue.append(child)
    raise AssertionError(f"{group} is not a circle")


def test_no_module_imports_itself_round_a_circle():
    graph = import_graph()
    found = [f"{' -> '.join(circle(group, graph))}" + (f" (and round through all {len(group)} of {', '.join(group)})"
                                                        if len(group) > 2 else "")
             for group in cycles(graph)]
    assert not found, "Import circles (move the code that closes each one to where it belongs):\n" + "\n".join(found)


def test_the_circle_finder_names_each_circle():
    graph = {"a": {"b"}, "b": {"c", "d", "x"}, "c": {"a"}, "d": set(), "e": {"f"}, "f": {"e"}, "g": {"a"},
             "x": {"b"}}
    assert cycles(graph) == [["a", "b", "c", "x"], ["e", "f"]]
    assert circle(["a", "b", "c", "x"], graph) == ["a", "b", "c", "a"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


# -- late imports -----------------------------------------------------------------------------------

_DIRECTIVES = re.compile(r"noqa(:\s*[A-Z]+\d+(,\s*[A-Z]+\d+)*)?|type:\s*ignore(\[[\w-]+\])?")
_IMPORT_LINE = re.compile(r"\s*(import|from)\s+[\w.]+")


def _says_why(comment: str) -> bool:
    """A comment with a reason in it: more than a linter's directive."""
    return len(_DIRECTIVES.sub("", comment).replace("#", " ").split()) >= 3


def _reason_for(lines: list[str], node: ast.stmt) -> bool:
    """Whether the import has a comment on its own lines, or on the comment line just above the run of
    imports (and blank lines) it belongs to."""
    own = lines[node.lineno - 1: node.end_lineno]
    if any("#" in line and _says_why(line[line.index("#"):]) for line in own):
        return True
    above = node.lineno - 2
    while above >= 0 and (not lines[above].strip() or _IMPORT_LINE.match(lines[above])):
        above -= 1
    return above >= 0 and lines[above].strip().startswith("#") and _says_why(lines[above])


def late_imports_without_a_reason(name: str, path: Path, source: str) -> list[str]:
    tree = ast.parse(source, str(path))
    lines = source.splitlines()
    late = {id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(function) if isinstance(node, (ast.Import, ast.ImportFrom))}
    return sorted({f"{path.relative_to(ROOT)}:{node.lineno} imports {target}"
                   for target, node in _imports(name, path, tree)
                   if id(node) in late and target.startswith(PACKAGES) and not _reason_for(lines, node)})


def test_an_import_inside_a_function_says_why_it_is_late():
    wrong = [problem for name, path in modules() for problem in late_imports_without_a_reason(name, path,
                                                                                               path.read_text())]
    assert not wrong, ("Import these at the top of the module, or say on the import's line (or the comment "
                       "line above it) why it must wait:\n" + "\n".join(wrong))


def test_the_late_import_check_tells_a_reason_from_none():
    source = textwrap.dedent("""
        from bots import errors

        def quiet():
            from bots.registry import resolve

        def noqa_only():
            from bots.kinds import KINDS  # noqa: F401

        def said_above():
            # The kinds bring scikit-learn: imported when a bot is measured.
            import json

            from bots.kinds import size_of
            from bots.registry import resolve

        def said_on_the_line():
            from game import checks  # noqa: F401  (registers the checks once the apps are ready)

        def not_ours():
            import numpy
    """)
    found = late_imports_without_a_reason("game.example", ROOT / "game" / "example.py", source)
    assert found == ["game/example.py:5 imports bots.registry", "game/example.py:8 imports bots.kinds"]
