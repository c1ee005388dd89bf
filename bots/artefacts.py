"""Where built bots keep their files, and how a build is written without a half-written state.

Each build of a bot has its own folder, EXHIBITION_BOT_DIR/<name>/build-<n>, that no later build
touches, so a seat pinned to build n plays exactly that build. A build writes into a fresh sibling
folder and renames it into place at the end, so nobody ever loads a half-written build.
"""
from __future__ import annotations

import json
import shutil
import uuid
from contextlib import contextmanager, suppress
from pathlib import Path

from django.conf import settings

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
