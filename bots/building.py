"""Building a bot's artefacts from a data file into a folder of its own.

Shared by the build_bot command, which builds into EXHIBITION_BOT_DIR/<name>/build-<n> and records
the build, and the benchmark, which builds into a temporary folder and records nothing.
"""
from __future__ import annotations

from pathlib import Path

from django.utils import timezone

from bots.artefacts import META, build_into, write_json
from bots.registry import KINDS


def buildable(kind: str) -> bool:
    return hasattr(KINDS[kind], "build")


def build_artefacts(kind: str, data, config: dict, target: Path, progress=print, questions=None) -> Path:
    """Build kind from data (and training questions for its buzzer, if given) into target; return the folder."""
    target = Path(target)
    with build_into(target) as fresh:
        summary = KINDS[kind].build(data, fresh, config, progress, questions=questions)
        record = {"kind": kind, "data": str(data), "questions": str(questions) if questions else None}
        write_json(fresh / META, {**record, "built_at": timezone.now().isoformat(), **summary})
    return target
