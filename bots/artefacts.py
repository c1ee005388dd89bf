"""A build's folder of artefacts: where it lives, how a kind builds it from data without a
half-written state, and how its files are read back.

Each build of a bot has its own folder, EXHIBITION_BOT_DIR/<name>/build-<n>, that no later build
touches, so a seat pinned to build n plays exactly that build. A build writes into a fresh sibling
folder and renames it into place at the end, so nobody ever loads a half-written build. The build_bot
command builds into such a folder and records the build (bots.builds); the benchmark builds into a
temporary folder and records nothing.
"""
from __future__ import annotations

import json
import shutil
import uuid
from contextlib import contextmanager, suppress
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from bots.errors import BotError

META = "bot.json"


def bot_dir(name: str) -> Path:
    return Path(settings.EXHIBITION_BOT_DIR) / name


def build_dir(name: str, number: int) -> Path:
    return bot_dir(name) / f"build-{number}"


def latest_build_dir(name: str) -> Path:
    """The newest build folder of bot name (or its own folder, as built before builds were kept apart)."""
    folder = bot_dir(name)
    numbered = [(int(p.name[6:]), p) for p in folder.glob("build-*") if p.name[6:].isdigit() and (p / META).is_file()]
    return max(numbered)[1] if numbered else folder


@contextmanager
def build_into(target: Path):
    """Yield an empty folder; on success it becomes target (replacing any older build).

    On failure nothing is left: not the folder, nor the bot's own folder if this build made it.
    """
    target = Path(target)
    made = not target.parent.exists()
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = target.with_name(f".{target.name}.building-{uuid.uuid4().hex[:8]}")
    fresh.mkdir()
    try:
        yield fresh
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        if made:
            with suppress(OSError):  # another build of the same bot may have begun meanwhile
                target.parent.rmdir()
        raise
    old = target.with_name(f".{target.name}.old-{uuid.uuid4().hex[:8]}")
    if target.exists():
        target.rename(old)
    fresh.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def build_artefacts(bot_class, data, config: dict, target: Path, progress=print, questions=None) -> Path:
    """Build a bot of bot_class (a kind's class, bots.kinds.KINDS[kind]) from data (and training
    questions for its buzzer, if given) into target; return the folder."""
    target = Path(target)
    with build_into(target) as fresh:
        summary = bot_class.build(data, fresh, config, progress, questions=questions)
        record = {"kind": bot_class.kind, "data": str(data), "questions": str(questions) if questions else None}
        write_json(fresh / META, {**record, "built_at": timezone.now().isoformat(), **summary})
    return target


def write_json(path: Path, data) -> None:
    Path(path).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def read_json(path: Path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def read_meta(directory: Path | None, kind: str) -> dict:
    """The build record of a bot's artefacts, checked to be of the expected kind."""
    path = Path(directory or "") / META
    if directory is None or not path.is_file():
        raise BotError(
            f"The {kind} bot has no artefacts at {directory}; build it first with "
            f"`python manage.py build_bot {kind} --name NAME --data PATH`."
        )
    meta = read_json(path)
    if meta.get("kind") != kind:
        raise BotError(f"The artefacts at {directory} were built for a {meta.get('kind')} bot, not {kind}.")
    return meta
