"""From a bot spec to a ready bot, loaded once per process, measured against the tier it plays in.

A spec is {"bot": name, "build": id} (a seat's pinned bots.models.BotBuild), {"bot": name} (the
bot's current build, or the Bot row itself for a bot registered before builds were kept), or an
inline {"kind": ..., **settings} with optional "name" and "artefact_dir" (defaulting to the newest
build folder under EXHIBITION_BOT_DIR/<name>).

Loading reads a bot's artefacts, which can take seconds, so a bot is kept for the life of the
process, and so are the database rows behind it: a build never changes, so a worker reads its row
once; a bare name is looked up again after NAME_TTL_S, to follow a rebuild. Every RECHECK_S the
artefact folder is walked again (stat calls only): a changed fingerprint means changed files,
which are measured and loaded afresh.

With a tier, load_bot enforces it: the measured size must fit the tier before the bot is loaded,
and the resident memory its loading added must fit the tier's memory budget, or it is refused
(TierExceeded / MemoryOverBudget) with the measured figure, and stays refused until its files change.

Each loaded bot also keeps an account of the process's memory it holds (what its load and each act
added and kept, measured around them): when the process hits its tier's limit (bots.memory),
bots.acting stops the bot holding the most, and stop() drops it so its memory goes back.

The kinds a spec may name are bots.kinds': the built-in ones and the operators' own classes named
in EXHIBITION_BOT_KINDS.
"""
from __future__ import annotations

import gc
import json
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
from django.conf import settings as django_settings

from bots.artefacts import latest_build_dir
from bots.base_bot import BaseBot
from bots.budgets import Measurement, MemoryOverBudget, check_memory, check_size, inspect_artefacts
from bots.builds import build_for_spec
from bots.errors import BotError
from bots.kinds import KINDS, REMOTE_KINDS
from bots.memory import data_size
from bots.models import Bot

NAME_TTL_S = 5.0


def recheck_seconds() -> float:
    return django_settings.EXHIBITION_BOT_RECHECK_S


@dataclass(frozen=True)
class Resolved:
    """Everything needed to load a spec's bot, read from the database at most once."""

    kind: str
    name: str
    settings: dict
    artefacts: Path | None
    identity: str  # the same for every query to this bot
    version: str  # changes when what would be loaded changes

    @property
    def measurable(self) -> bool:
        return self.kind not in REMOTE_KINDS


@dataclass
class Loaded:
    resolved: Resolved
    seen: Measurement | None = None  # the artefacts at the last walk
    walked_at: float = 0.0
    bot: BaseBot | None = None
    memory_added: int = 0  # resident bytes the load added to this process
    refused: MemoryOverBudget | None = None  # a load over budget, kept until the files change
    held: int = 0  # bytes (bots.memory.data_size) its load and acts added to this process and kept


_builds: dict = {}  # build id -> Resolved (builds never change)
_names: dict = {}  # name -> (expires at, Resolved)
_loaded: dict[str, Loaded] = {}  # identity -> what is loaded
_stopped: dict[str, str] = {}  # identity -> why it was stopped, for its next query
_lock = threading.Lock()


def _from_row(kind, name, config, artefact_dir, identity, version) -> Resolved:
    return Resolved(kind, name, dict(config or {}), Path(artefact_dir) if artefact_dir else None, identity, version)


def _resolve_named(spec: dict) -> Resolved:
    build = build_for_spec(spec)
    if build is not None:
        return _from_row(build.kind, build.bot.name, build.config, build.artefact_dir, f"build:{build.pk}",
                         f"build:{build.pk}")
    row = Bot.objects.get(name=spec["bot"])  # build_for_spec has checked that it exists
    version = json.dumps([row.kind, row.config, row.artefact_dir, str(row.built_at)], sort_keys=True)
    return _from_row(row.kind, row.name, row.config, row.artefact_dir, f"bot:{row.name}", version)


def resolve(spec: dict) -> Resolved:
    if not isinstance(spec, dict):
        raise BotError(f"A bot spec must be an object like {{\"bot\": name}}, got {spec!r}.")
    if "bot" in spec:
        build_id = spec.get("build")
        if build_id is not None:
            held = _builds.get(build_id)
            if held is None or held.name != spec["bot"]:
                held = _builds[build_id] = _resolve_named(spec)
            return held
        now = time.monotonic()
        cached = _names.get(spec["bot"])
        if cached is None or cached[0] < now:
            cached = _names[spec["bot"]] = (now + NAME_TTL_S, _resolve_named(spec))
        return cached[1]
    settings = {k: v for k, v in spec.items() if k not in ("kind", "name", "artefact_dir")}
    kind = spec.get("kind")
    name = spec.get("name") or str(kind)
    if spec.get("artefact_dir"):
        artefacts = Path(spec["artefact_dir"])
    else:
        artefacts = latest_build_dir(name) if kind in KINDS and KINDS[kind].needs_artefacts else None
    identity = json.dumps(spec, sort_keys=True, default=str)
    return Resolved(str(kind), name, settings, artefacts, identity, f"{identity}|{artefacts}")


def _walk(entry: Loaded, now: float) -> None:
    """Walk the artefacts again when they were last walked RECHECK_S ago; drop a bot whose files changed."""
    if entry.resolved.artefacts is None:
        entry.walked_at = now
        return
    seen = inspect_artefacts(entry.resolved.artefacts)
    if entry.seen is not None and seen.fingerprint != entry.seen.fingerprint:
        entry.bot, entry.refused, entry.memory_added = None, None, 0
    entry.seen, entry.walked_at = seen, now


def _rss() -> int:
    return psutil.Process().memory_info().rss


def _load(entry: Loaded, tier: str | None) -> None:
    resolved = entry.resolved
    before = _rss()
    with holding(entry):
        bot = KINDS[resolved.kind](resolved.settings, resolved.artefacts, resolved.name)
    entry.memory_added = max(0, _rss() - before)
    if tier is not None:
        try:
            check_memory(resolved.name, tier, entry.memory_added)
        except MemoryOverBudget as refusal:
            entry.refused = refusal  # the bot is dropped; its memory goes back as Python frees it
            raise
    entry.bot = bot


def _admit(entry: Loaded, tier: str | None) -> None:
    """Check the measured size (and, once loaded, memory) against tier; load the bot if need be."""
    resolved = entry.resolved
    if tier is not None:
        size = entry.seen.bytes if entry.seen else 0
        check_size(resolved.name, tier, size, resolved.artefacts, resolved.measurable)
        if entry.bot is not None or entry.refused is not None:
            check_memory(resolved.name, tier, entry.memory_added)
    if entry.bot is None:
        _load(entry, tier)


def loaded_entry(spec: dict, tier: str | None = None) -> Loaded:
    """The spec's bot, loaded and checked against tier (when given), with what was measured."""
    resolved = resolve(spec)
    if resolved.kind not in KINDS:
        raise BotError(f"Unknown bot kind {resolved.kind!r}; known kinds are {', '.join(KINDS)}.")
    now = time.monotonic()
    entry = _loaded.get(resolved.identity)
    if entry is not None and entry.bot is not None and entry.resolved.version == resolved.version \
            and now - entry.walked_at < recheck_seconds():
        _admit(entry, tier)  # a worker's every act: comparisons only, no lock, database or walk
        return entry
    with _lock:
        entry = _loaded.get(resolved.identity)
        if entry is None or entry.resolved.version != resolved.version:
            entry = _loaded[resolved.identity] = Loaded(resolved)
        if entry.seen is None or now - entry.walked_at >= recheck_seconds():
            _walk(entry, now)
        _admit(entry, tier)
        return entry


def load_bot(spec: dict, private: dict | None = None, tier: str | None = None) -> BaseBot:
    """The bot for spec, loaded once per process (checked against tier if given), bound to private data."""
    bot = loaded_entry(spec, tier).bot
    return bot.with_private(private) if private else bot


@contextmanager
def holding(entry: Loaded):
    """Add what the enclosed load or act kept of this process's memory to the bot's account, even when
    it fails: the ledger bots.acting reads when the process hits its limit."""
    before = data_size()
    try:
        yield
    finally:
        entry.held = max(0, entry.held + data_size() - before)


def largest_holder() -> Loaded | None:
    """The loaded bot that holds the most of this process's memory."""
    return max(_loaded.values(), key=lambda entry: entry.held, default=None)


def held_by(identity: str) -> int:
    entry = _loaded.get(identity)
    return entry.held if entry else 0


def stop(identity: str, reason: str | None = None) -> None:
    """Drop a loaded bot so its memory goes back to the process; with a reason, its next query is
    answered with it (take_stopped) instead of loading it again."""
    with _lock:
        entry = _loaded.pop(identity, None)
        if entry is not None:
            entry.bot = None  # whoever still holds the entry no longer holds the bot
        if reason:
            _stopped[identity] = reason
    gc.collect()


def take_stopped(identity: str) -> str | None:
    """Why the bot was stopped while another bot acted, once: after that a query loads it afresh."""
    return _stopped.pop(identity, None) if _stopped else None


def forget_loaded() -> None:
    """Drop every loaded bot and cached row (tests, and after a rebuild in the same process)."""
    with _lock:
        _loaded.clear()
        _stopped.clear()
        _builds.clear()
        _names.clear()
