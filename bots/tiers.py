"""The bot tiers as data: each tier's size limit and memory budget, and how their bytes are written.

Plain Python with no imports of the project's own, at the bottom of the layers: the engine's rules
(a phase's bot_tier), the host's forms, the Celery queues and the compose file's limits all read the
tiers here without importing the code that measures bots (bots.budgets, bots.footprint).
"""
from __future__ import annotations

MIB = 1024**2
GIB = 1024**3

# Tier name -> byte limit (None: no limit).
TIER_LIMITS = {
    "500mib": 500 * MIB,
    "6gib": 6 * GIB,
    "unlimited": None,
}


# Tier name -> resident memory a loaded bot may add to a worker process (None: no limit). Loading
# an index costs more than its files (term dictionaries become Python objects), hence 2x for the
# small tier; docker-compose.yml gives each tier's worker concurrency x budget + headroom.
MEMORY_BUDGETS = {
    "500mib": 1 * GIB,
    "6gib": 8 * GIB,
    "unlimited": None,
}


# What a worker process holds before any bot (Python, Django, NumPy, SciPy, scikit-learn), with room
# to spare: bench/bots.py --celery prints the measured figure beside it.
WORKER_PROCESS_HEADROOM = 512 * MIB


def human_bytes(n: int) -> str:
    """1.5 GiB, 612.4 MiB, 12 KiB, 900 bytes: one decimal, none when it is zero."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"


def parse_bytes(text: str) -> int:
    """'1073741824', '512MiB', '1.5 GiB' -> bytes."""
    cleaned = text.strip().replace(" ", "")
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if cleaned.endswith(unit):
            return int(float(cleaned[: -len(unit)]) * size)
    return int(cleaned)
