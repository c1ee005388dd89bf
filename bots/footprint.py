"""A bot's size as EfficientQA counted it: its artefacts, plus the code and installed packages it imports.

EfficientQA's tracks limited the submitted docker image: code, libraries and data together. Here a
bot's code is what importing its class brings into a fresh interpreter (this project's settings, the
app registry loaded only if the class needs it): the project's own modules count file by file, and
a module from an installed distribution counts that whole distribution once (every file its RECORD
lists, as installed on disk), since the bot may import any of it. The standard library and the
interpreter are not counted: every bot shares them, as it shares the machine. Neither are imports a
bot makes only inside its methods (import at module level what acting needs), nor data files its
code reads that are not among its artefacts.

The probe (`python -m bots.footprint MODULE`) runs in a subprocess once per bot kind per process
(a second or two: it imports what the bot imports); bots.kinds.size_of adds it to a bot's artefacts.
A conductor measures every kind as it starts (bots.kinds.measure_every_kind), so no match's start waits
for it.
This module imports no installed package itself, so the probe leaves none of them out. Where a bot
runs from an image of its own, that image's size is the figure to use instead.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module, metadata
from pathlib import Path

from bots.tiers import human_bytes

PROJECT = Path(__file__).resolve().parent.parent
PROBE_TIMEOUT_S = 120
SHOWN_PACKAGES = 4  # the largest packages named in a sentence; the rest are summed


class FootprintError(Exception):
    """The code a bot imports could not be measured (the sentence says why)."""


@dataclass(frozen=True)
class CodeSize:
    """The code a bot imports: the project's own files, and each installed distribution's files."""

    project: int = 0
    packages: dict = field(default_factory=dict)  # distribution name -> bytes on disk

    @property
    def package_bytes(self) -> int:
        return sum(self.packages.values())

    @property
    def total(self) -> int:
        return self.project + self.package_bytes

    def to_json(self) -> dict:
        return {"project": self.project, "packages": dict(self.packages)}

    @classmethod
    def from_json(cls, data: dict) -> CodeSize:
        return cls(int(data["project"]), {str(k): int(v) for k, v in data["packages"].items()})

    def packages_text(self) -> str:
        """'scipy 98.2 MiB, numpy 40.1 MiB, ... and 12 more (3.4 MiB)'."""
        ranked = sorted(self.packages.items(), key=lambda kv: (-kv[1], kv[0]))
        named = ", ".join(f"{name} {human_bytes(size)}" for name, size in ranked[:SHOWN_PACKAGES])
        rest = ranked[SHOWN_PACKAGES:]
        if rest:
            named += f" and {len(rest)} more ({human_bytes(sum(size for _, size in rest))})"
        return named or "none"


@dataclass(frozen=True)
class Size:
    """Everything a bot's tier counts: artefacts, project code and packages (code None: not measured,
    for a remote bot or an unknown kind; unmeasured says why its code could not be)."""

    artefacts: int
    code: CodeSize | None = None
    unmeasured: str | None = None

    @property
    def total(self) -> int:
        return self.artefacts + (self.code.total if self.code else 0)

    def parts(self, where) -> str:
        """The measured parts, for a sentence: artefacts (and where), project code, packages."""
        artefacts = f"its artefacts {human_bytes(self.artefacts)} ({self.artefacts:,} bytes) in {where or '(none)'}"
        if self.code is None:
            return artefacts
        return (f"{artefacts}, this project's code it imports "
                f"{human_bytes(self.code.project)}, and the installed packages it imports "
                f"{human_bytes(self.code.package_bytes)} ({self.code.packages_text()})")

    def card(self) -> dict:
        """What a bot's card shows: the parts in bytes (no paths: the hall sees it too)."""
        out = {"bytes": self.total, "artefacts": self.artefacts}
        if self.code is not None:
            out.update(code=self.code.project, packages=self.code.package_bytes)
        return out


# -- measuring the modules of this process ---------------------------------------------------------

def _site_dirs() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    return tuple({Path(paths[key]).resolve() for key in ("purelib", "platlib")})


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@lru_cache(maxsize=None)
def distribution_size(name: str) -> int:
    """Bytes on disk of every file the distribution's RECORD lists (each file counted once)."""
    dist = metadata.distribution(name)
    seen, total = set(), 0
    for item in dist.files or ():
        try:
            st = os.stat(dist.locate_file(item))
        except OSError:
            continue
        if (st.st_dev, st.st_ino) not in seen:
            seen.add((st.st_dev, st.st_ino))
            total += st.st_size
    return total


@lru_cache(maxsize=1)
def _owners() -> dict:
    return {top: list(dict.fromkeys(names)) for top, names in metadata.packages_distributions().items()}


@lru_cache(maxsize=None)
def _records(name: str) -> frozenset:
    return frozenset(item.as_posix() for item in metadata.distribution(name).files or ())


def _owner(top: str, relative: str) -> str | None:
    """The installed distribution that holds a module's file (relative to its site folder), or None."""
    candidates = _owners().get(top, [])
    if len(candidates) == 1:
        return candidates[0]
    return next((name for name in candidates if relative in _records(name)), None)  # a namespace package


def measure_modules(modules) -> CodeSize:
    """The code size of the given modules (sys.modules' values): project files, installed distributions."""
    sites, files, packages = _site_dirs(), set(), {}
    for module in list(modules):
        where = getattr(module, "__file__", None)
        if not where:
            continue  # built into the interpreter, or a namespace package (its files are its modules')
        path = Path(where).resolve()
        site = next((folder for folder in sites if _inside(path, folder)), None)
        if site is not None:
            owner = _owner(module.__name__.split(".")[0], path.relative_to(site).as_posix())
            if owner is None:
                files.add(path)  # a module no installed distribution claims: its own file
            elif owner not in packages:
                packages[owner] = distribution_size(owner)
        elif _inside(path, PROJECT):
            files.add(path)
    return CodeSize(sum(path.stat().st_size for path in files if path.exists()), packages)


# -- a bot kind's code, measured once per process -----------------------------------------------------

_measured: dict[str, CodeSize] = {}
_module_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def kind_code(cls) -> CodeSize:
    """What importing the bot class's module brings with it, measured in a fresh interpreter. Two kinds
    are measured at the same time; one kind is measured once, whoever else asks waits for it."""
    module = cls.__module__
    with _locks_lock:
        lock = _module_locks.setdefault(module, threading.Lock())
    with lock:
        if module not in _measured:
            _measured[module] = _probe(module)
        return _measured[module]


def _probe(module: str) -> CodeSize:
    # The child inherits this process's environment (its settings read it again through
    # serving/environment.py); `-m` from the project's folder puts the project on its path.
    try:
        done = subprocess.run([sys.executable, "-m", "bots.footprint", module], cwd=PROJECT,
                              capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise FootprintError(f"The code of {module} could not be measured ({error}).") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise FootprintError(f"The code of {module} could not be measured: importing it failed ({last}).")
    return CodeSize.from_json(json.loads(done.stdout.strip().splitlines()[-1]))


def main(module: str) -> None:
    """Print the code size of what importing module brings into this interpreter, as JSON."""
    started_with = {name for name, m in list(sys.modules.items())  # the interpreter's own start (site, .pth hooks)
                    if not _inside(Path(getattr(m, "__file__", None) or "/").resolve(), PROJECT)}
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")
    from django.core.exceptions import AppRegistryNotReady

    try:
        import_module(module)
    except AppRegistryNotReady:  # it uses the models: the app registry comes with it
        import django

        django.setup()
        import_module(module)
    came = [m for name, m in list(sys.modules.items()) if name not in started_with and name != "bots.footprint"]
    print(json.dumps(measure_modules(came).to_json()))


if __name__ == "__main__":
    main(sys.argv[1])
