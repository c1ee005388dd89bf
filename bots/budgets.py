"""Measuring a bot against its tier's budgets (bots.tiers): on disk, and in memory.

EfficientQA's tracks limited the size of the whole system on disk: data, code and libraries. We
enforce that by adding up the apparent sizes of every file under the bot's artefact directory
(following symbolic links, counting each file once) rather than trusting a declared number, plus the
code and installed packages the bot imports (bots.footprint). The same walk gives a
fingerprint of what it saw (each file's path, size and modification time), cheap enough to repeat
while a bot plays, so a change to the artefacts is noticed and measured again; content_digest
hashes the files themselves, once per build and again only when the fingerprint moves.

Each tier also has a memory budget (memory_budget: the settings, else bots.tiers.MEMORY_BUDGETS): what
the bots of a worker process may add to it, a hard limit in force during every act (bots.memory), and
checked once more after a bot loads (bots.registry). The compose file's memory limits follow from it.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from bots.tiers import MEMORY_BUDGETS, TIER_LIMITS, human_bytes, parse_bytes


class TierExceeded(Exception):
    """A bot is too large (or cannot be measured) for the tier it was asked to play in."""


class MemoryOverBudget(TierExceeded):
    """Loading a bot added more resident memory than its tier allows."""


@dataclass(frozen=True)
class Measurement:
    bytes: int
    fingerprint: str  # sha256 of every counted file's relative path, size and modification time
    files: tuple[str, ...]  # the counted files, relative to the measured path, in walk order


def _counted_files(path: Path):
    """(relative name, full path, stat) of each file at or under path, each file counted once."""
    if path.is_file():
        yield path.name, path, path.stat()
        return
    seen: set[tuple[int, int]] = set()
    for root, dirs, files in os.walk(path, followlinks=True):
        # A link back up the tree would make the walk endless: visit each directory once.
        key = os.stat(root)
        if (key.st_dev, key.st_ino) in seen:
            dirs[:] = []
            continue
        seen.add((key.st_dev, key.st_ino))
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            try:
                st = os.stat(full)
            except FileNotFoundError:  # a dangling link holds nothing
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                yield os.path.relpath(full, path), Path(full), st


def inspect_artefacts(path) -> Measurement:
    """Size and fingerprint of the files at or under path (0 bytes if it does not exist)."""
    path = Path(path)
    digest = hashlib.sha256()
    total, names = 0, []
    if path.exists():
        for name, _, st in _counted_files(path):
            total += st.st_size
            names.append(name)
            digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return Measurement(total, digest.hexdigest(), tuple(names))


def measure_artefacts(path) -> int:
    """Total apparent size in bytes of the files at or under path (0 if it does not exist)."""
    return inspect_artefacts(path).bytes


def content_digest(path, extra: str = "") -> str:
    """sha256 over extra and every counted file's relative path and contents: a build's identity."""
    path = Path(path) if path else None
    digest = hashlib.sha256(extra.encode())
    if path is not None and path.exists():
        for name, full, _ in _counted_files(path):
            digest.update(f"\0{name}\0".encode())
            with open(full, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()


def memory_budget(tier: str) -> int | None:
    """The resident memory a loaded bot may add in tier (None: no limit).

    From settings.EXHIBITION_BOT_MEMORY_BUDGETS, which the variables EXHIBITION_BOT_MEMORY_500MIB and
    EXHIBITION_BOT_MEMORY_6GIB set (e.g. EXHIBITION_BOT_MEMORY_500MIB=1GiB; serving/environment.py).
    """
    from django.conf import settings

    return settings.EXHIBITION_BOT_MEMORY_BUDGETS.get(tier)


def check_size(name: str, tier: str, measured, where, measurable: bool = True) -> int:
    """The bytes measured if a bot of that size may play in tier; otherwise TierExceeded naming the
    figures. measured is the artefacts' bytes, or a bots.footprint.Size (artefacts, code and packages)."""
    if tier not in TIER_LIMITS:
        raise TierExceeded(f"There is no tier called {tier!r}; choose one of {', '.join(TIER_LIMITS)}.")
    size = measured if hasattr(measured, "total") else None
    total = size.total if size is not None else measured
    limit = TIER_LIMITS[tier]
    if limit is None:
        return total
    if not measurable:
        raise TierExceeded(
            f"Bot {name!r} runs on a remote server, so its size cannot be measured against the "
            f"{human_bytes(limit)} limit ({limit:,} bytes); seat it in the unlimited tier."
        )
    if size is not None and size.unmeasured:
        raise TierExceeded(f"Bot {name!r} cannot be measured against the {tier} tier's {human_bytes(limit)} limit: "
                           f"{size.unmeasured} Fix its code, or seat it in the unlimited tier.")
    if total > limit and size is not None and size.code is not None:
        raise TierExceeded(
            f"Bot {name!r} cannot play in the {tier} tier: it measured {human_bytes(total)} ({total:,} bytes), "
            f"{size.parts(where)}, over the {human_bytes(limit)} limit ({limit:,} bytes). Rebuild it smaller, "
            f"import less, or seat it in a larger tier."
        )
    if total > limit:
        raise TierExceeded(
            f"Bot {name!r} cannot play in the {tier} tier: its artefacts in {where} "
            f"measured {human_bytes(total)} ({total:,} bytes), over the {human_bytes(limit)} limit "
            f"({limit:,} bytes). Rebuild it smaller or seat it in a larger tier."
        )
    return total


def check_memory(name: str, tier: str, added: int) -> int:
    """added if loading the bot may add that much resident memory in tier; otherwise MemoryOverBudget."""
    budget = memory_budget(tier)
    if budget is not None and added > budget:
        raise MemoryOverBudget(
            f"Bot {name!r} cannot play in the {tier} tier: loading it added {human_bytes(added)} "
            f"({added:,} bytes) of resident memory to the worker, over the tier's {human_bytes(budget)} budget "
            f"({budget:,} bytes). Rebuild it smaller or seat it in a larger tier."
        )
    return added
