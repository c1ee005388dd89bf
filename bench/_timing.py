"""What the bench scripts that time work inside one process share: the timing, its summary, a throwaway database.

Imported after the script has put the project's folder on sys.path (each script does, as it runs by path)."""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path


def timed(fn, repeat: int) -> list[float]:
    """fn() run `repeat` times: each run's wall time in ms."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values):8.2f} ms  p95 {p95:8.2f} ms"


def setup_django(db: Path) -> None:
    """Django on a new SQLite database at `db` (migrated), the in-memory channel layer, bench settings."""
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    import bench.environment  # noqa: F401  (a key and settings for a run that is not a server)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
