"""Builds in the database: recording a new one, finding the one a seat pins, and verifying it again.

A build's folder is never reused by a later build, but nothing stops a person from copying files
into it. So whenever a build is checked (at seating, at match start: bots.admission) its folder is
walked again: a fingerprint that moved means the files changed, so the size and the content digest
are measured anew and stored, and the tier check runs on what is there now.
"""
from __future__ import annotations

import json
import logging

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from bots.budgets import content_digest, inspect_artefacts
from bots.errors import BotError
from bots.models import Bot, BotBuild
from bots.tiers import TIER_LIMITS

log = logging.getLogger(__name__)


def digest_of(kind: str, config: dict, artefact_dir) -> str:
    return content_digest(artefact_dir or None, extra=json.dumps([kind, config], sort_keys=True))


def next_build_number(bot: Bot | None) -> int:
    if bot is None or bot.pk is None:
        return 1
    return (bot.builds.aggregate(top=Max("number"))["top"] or 0) + 1


def record_build(name: str, kind: str, tier: str, config: dict, artefact_dir: str = "", number: int | None = None
                 ) -> BotBuild:
    """Register (or update) bot name and add a measured build of it; the build seats will pin."""
    seen = inspect_artefacts(artefact_dir) if artefact_dir else None
    with transaction.atomic():
        bot, _ = Bot.objects.update_or_create(name=name, defaults={
            "kind": kind, "tier": tier, "config": config, "artefact_dir": artefact_dir, "built_at": timezone.now(),
            "measured_bytes": seen.bytes if seen else 0,
        })
        return BotBuild.objects.create(
            bot=bot, number=number or next_build_number(bot), kind=kind, config=config, artefact_dir=artefact_dir,
            measured_bytes=seen.bytes if seen else 0, fingerprint=seen.fingerprint if seen else "",
            digest=digest_of(kind, config, artefact_dir), measured_at=timezone.now(),
        )


def build_for_spec(spec: dict) -> BotBuild | None:
    """The build a seat's spec pins (or, for a seat stored before pinning, the bot's current build).

    None for an inline spec ({"kind": ...}) and for a bot registered without any build. A pinned id
    that is not a build of the named bot is refused rather than guessed at.
    """
    if not isinstance(spec, dict) or "bot" not in spec:
        return None
    if spec.get("build") is not None:
        build = BotBuild.objects.select_related("bot").filter(pk=spec["build"]).first()
        if build is None:
            raise BotError(f"Build {spec['build']} of bot {spec['bot']!r} no longer exists; seat the bot again.")
        if build.bot.name != spec["bot"]:
            raise BotError(f"Build {spec['build']} belongs to bot {build.bot.name!r}, not {spec['bot']!r}.")
        return build
    bot = Bot.objects.filter(name=spec["bot"]).first()
    if bot is None:
        raise BotError(f"There is no bot called {spec['bot']!r}; build or register it first.")
    return bot.current_build


def seat_facts(spec: dict, tier: str | None) -> dict:
    """What the moderator's roster says of a seat's bot: its name and kind, the size measured at its
    build (None where nothing was measured: an inline spec, a remote bot) and its tier's limit (None:
    unlimited). Read from the database, never measured here; a spec that names no build is said so."""
    try:
        build = build_for_spec(spec)
    except BotError as error:
        return {"name": (spec or {}).get("bot"), "kind": None, "measured_bytes": None,
                "limit_bytes": TIER_LIMITS.get(tier or ""), "problem": str(error)}
    spec = spec if isinstance(spec, dict) else {}
    measurable = build is not None and build.kind not in Bot.REMOTE_KINDS
    return {"name": build.bot.name if build else spec.get("bot"), "kind": build.kind if build else spec.get("kind"),
            "measured_bytes": build.measured_bytes if measurable else None, "limit_bytes": TIER_LIMITS.get(tier or "")}


def verify(build: BotBuild) -> BotBuild:
    """Walk the build's folder again; if anything moved, measure and digest it again and store that."""
    if not build.artefact_dir:
        return build
    seen = inspect_artefacts(build.artefact_dir)
    if seen.fingerprint == build.fingerprint and seen.bytes == build.measured_bytes:
        return build
    digest = digest_of(build.kind, build.config, build.artefact_dir)
    if digest != build.digest:
        log.warning("%s: its artefacts changed since they were measured (%s bytes, now %s)",
                    build, build.measured_bytes, seen.bytes)
    build.measured_bytes, build.fingerprint, build.digest = seen.bytes, seen.fingerprint, digest
    build.measured_at = timezone.now()
    build.save(update_fields=["measured_bytes", "fingerprint", "digest", "measured_at"])
    return build
