"""`python manage.py build_bot KIND --name N --data PATH`: build a bot's artefacts and register it.

Built-in kinds read the data file, write their index (and buzzer) under
EXHIBITION_BOT_DIR/<name>/build-<n>/, and report the size measured against the bot's tier: the
artefacts, plus the code and installed packages its kind imports (bots.footprint). Kinds
with nothing to build are registered with their settings; a remote bot only once it has answered
(bots/remote_registration.py, the same check the host page makes). Either way the result
is a new build of the bot (bots.models.BotBuild): seats made from now on pin it, older seats keep
the build they pinned.
"""
import json
import time

from django.core.management.base import BaseCommand, CommandError

from intake.problems import ImportProblem

from bots.artefacts import build_artefacts, build_dir
from bots.budgets import TierExceeded, check_size
from bots.tiers import TIER_LIMITS, human_bytes
from bots.builds import next_build_number, record_build
from bots.datasets import DataError
from bots.errors import BotError
from bots.kinds import KINDS, REMOTE_KINDS, size_of
from bots.models import Bot
from bots.remote_registration import RegistrationRefused, check_name, register_remote


class Command(BaseCommand):
    help = "Build a bot's artefacts from a data file (or register a bot that needs none)."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=sorted(KINDS))
        parser.add_argument("--name", required=True, help="Unique name; also the artefact folder's name.")
        parser.add_argument("--data", help="Data file to build from: JSONL pairs or passages (import_knowledge "
                                               "writes these from Wikipedia), QANTA JSON, buzz CSV.")
        parser.add_argument("--questions", help="Training questions (QANTA JSON or JSONL pairs) for the buzzer of a bot "
                                                "built from passages; never the questions it will be tested on.")
        parser.add_argument("--tier", choices=list(TIER_LIMITS), help="Tier it plays in (default: the kind's).")
        parser.add_argument("--threshold", type=float, help="Confidence at or above which it buzzes.")
        parser.add_argument("--url", help="Server URL of a remote bot.")
        parser.add_argument("--config", default="{}", help="Further settings as a JSON object.")

    def handle(self, *args, kind, name, data, questions, tier, threshold, url, config, **options):
        try:
            check_name(name)
        except RegistrationRefused as error:
            raise CommandError(str(error)) from None
        try:
            settings = json.loads(config)
        except json.JSONDecodeError as error:
            raise CommandError(f"--config is not JSON: {error}") from None
        if not isinstance(settings, dict):
            raise CommandError("--config must be a JSON object.")
        settings.update({k: v for k, v in (("threshold", threshold), ("url", url)) if v is not None})
        if kind in REMOTE_KINDS:
            try:
                build, found = register_remote(name, kind, settings.pop("url", ""), settings, tier)
            except RegistrationRefused as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"remote bot {name!r} ({kind}) at {build.config['url']} registered as build "
                              f"{build.number} in the {build.bot.tier} tier: {found}")
            return
        bot_class = KINDS[kind]
        tier = tier or bot_class.default_tier
        started = time.monotonic()

        def progress(message: str) -> None:
            self.stdout.write(f"[{time.monotonic() - started:6.1f}s] {message}")
            self.stdout.flush()

        artefact_dir = ""
        number = next_build_number(Bot.objects.filter(name=name).first())
        if hasattr(bot_class, "build"):
            if not data:
                raise CommandError(f"A {kind} bot is built from data: pass --data PATH.")
            try:
                artefact_dir = str(build_artefacts(bot_class, data, settings, build_dir(name, number), progress, questions))
            except (DataError, ImportProblem, BotError) as error:  # ImportProblem: over an input limit
                raise CommandError(f"{error} Nothing was built.") from None
        build = record_build(name, kind, tier, settings, artefact_dir, number)
        size = size_of(kind, build.measured_bytes)
        try:
            check_size(name, tier, size, artefact_dir or "(none)", build.measurable)
            verdict = f"fits the {tier} tier"
        except TierExceeded as error:
            verdict = f"WARNING, it cannot take a seat: {error}"
        measured = f"{human_bytes(size.total)} ({size.total:,} bytes)"
        if size.unmeasured:
            measured += f" without its code ({size.unmeasured})"
        progress(f"bot {name!r} ({kind}) build {number} registered; it measures {measured}: "
                 f"{size.parts(artefact_dir or '(none)')}; digest {build.digest[:12]}; {verdict}")
