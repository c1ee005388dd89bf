"""Everything the README and docs/ name exists: files, modules and their attributes, settings and
environment variables, management commands. A rename that forgets the docs fails here, and so does a
docstring in the project that points at a module that is not there."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = ("game", "bots", "exhibition", "intake")
FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w.-]+\.(?:py|js|mjs|html|css|md|yml|yaml|txt|conf|json|toml|ini|csv))\b")
TOP_FILES = re.compile(r"`((?:Makefile|Dockerfile|docker-compose\.yml|requirements\.txt|manage\.py|pytest\.ini|\.ci/run))`")
DOTTED = re.compile(r"`((?:%s)(?:\.\w+)+)" % "|".join(PACKAGES))
CAPS = re.compile(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)")
COMMAND = re.compile(r"manage\.py ([a-z_]+)")
CODE_SUFFIXES = {".py", ".js", ".mjs", ".yml", ".yaml", ".html", ".ini", ".toml", ".conf", ".txt"}


def _doc_text() -> dict[Path, str]:
    return {path: path.read_text() for path in DOCS if path.exists()}


def _code_text() -> str:
    skip = {".venv", "node_modules", "staticfiles", "var", ".git", ".hypothesis", ".pytest_cache"}
    texts = []
    for path in ROOT.rglob("*"):
        if any(part in skip for part in path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in CODE_SUFFIXES or path.name in ("Makefile", "Dockerfile", "run"):
            texts.append(path.read_text(errors="replace"))
    return "\n".join(texts)


def _not_modules() -> set[str]:
    """Dotted names that are not Python: the bot tiers' Celery queues and tasks, system check ids."""
    import bots.tasks  # noqa: F401  (registers the tasks)
    from bots.dispatch import queue_for
    from exhibition.celery import app
    from game.engine.formats import TIERS

    return {queue_for(tier) for tier in TIERS} | {name for name in app.tasks if name.startswith(PACKAGES)}


def _resolves(dotted: str) -> bool:
    """Whether a.b.c is a module, or an attribute (or nested attribute) of one (or a queue, task or check id)."""
    if dotted in _not_modules() or re.fullmatch(r"\w+\.[EW]\d{3}", dotted):
        return True
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_file_the_docs_name_exists():
    missing = []
    for path, text in _doc_text().items():
        for name in set(FILE.findall(text)) | set(TOP_FILES.findall(text)):
            if name.startswith(("../", "http")) or "shared/data" in name:
                continue
            if not (ROOT / name).exists():
                missing.append(f"{path.name}: {name}")
    assert not missing, "the docs name files that are not there:\n" + "\n".join(sorted(missing))


def test_every_module_and_name_the_docs_cite_is_importable():
    missing = sorted({f"{path.name}: {name}" for path, text in _doc_text().items()
                      for name in DOTTED.findall(text) if not _resolves(name.rstrip("."))})
    assert not missing, "the docs cite modules or names that are not there:\n" + "\n".join(missing)


def test_every_setting_and_variable_the_docs_name_is_read_somewhere():
    code = _code_text()
    missing = sorted({f"{path.name}: {name}" for path, text in _doc_text().items()
                      for name in CAPS.findall(text) if name.rstrip("_*") not in code})
    assert not missing, "the docs name settings nothing reads:\n" + "\n".join(missing)


def test_every_management_command_the_docs_name_exists():
    from django.core.management import get_commands

    known = set(get_commands())
    missing = sorted({f"{path.name}: manage.py {name}" for path, text in _doc_text().items()
                      for name in COMMAND.findall(text) if name not in known})
    assert not missing, "the docs name commands that are not there:\n" + "\n".join(missing)


@pytest.mark.parametrize("package", PACKAGES)
def test_docstrings_and_comments_cite_only_modules_that_exist(package):
    # Not in a string literal ("exhibition.seat", a salt), a path (bench/bots.py) or a hyphenated name.
    cited = re.compile(r"(?<![\w./\"'])((?:%s)\.[a-z_]\w*(?:\.[A-Za-z_]\w*)*)(?![\w\"'-])" % "|".join(PACKAGES))
    missing = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for name in set(cited.findall(path.read_text())):
            if not name.endswith((".py", ".js")) and not _resolves(name.rstrip(".")):
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "these cite modules or names that are not there:\n" + "\n".join(sorted(missing))
