"""Names that explain: every module's first line says its job, and no two modules share a name.

A newcomer finds a module by its name and learns its job from its first line. Two modules of one name
(two `replay.py`, two `hall.py`) make every search, traceback and conversation ask "which one?".
Django's conventional names (views, models, urls, forms, apps) are exempt, as are migrations and the
management commands, whose file names are the commands' names; bench/ holds scripts named for what
they measure, not modules.
"""
import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "bots", "events", "tournaments", "serving", "exhibition", "intake", "broadcast")
CONVENTIONAL = {"__init__.py", "views.py", "models.py", "urls.py", "forms.py", "apps.py"}


def project_modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_no_two_modules_share_a_name():
    by_name = defaultdict(list)
    for path in project_modules():
        if path.name not in CONVENTIONAL and "management" not in path.parts:
            by_name[path.name].append(str(path.relative_to(ROOT)))
    shared = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not shared, f"Give each of these a name that says its job: {shared}"


def test_every_module_opens_with_a_sentence_saying_its_job():
    silent = []
    for path in [*project_modules(), *sorted((ROOT / "bench").glob("*.py"))]:
        text = path.read_text()
        if not text.strip():
            continue  # an empty package marker says nothing and needs to say nothing
        body = ast.parse(text).body
        opens = body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str)
        first = body[0].value.value.strip().split("\n")[0] if opens else ""
        if not text.startswith('"""') or len(first.split()) < 4:
            silent.append(str(path.relative_to(ROOT)))
    assert not silent, f"Open each of these with a docstring whose first line says the module's job: {silent}"


def test_the_readme_is_a_newcomers_path_of_at_most_12_kib():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= 12 * 1024, f"README.md is {size:,} bytes: move details into docs/ and link them"
