"""Registering a remote bot: from the host page and from `build_bot remote_qanta|remote_json` alike.

Before a remote bot is recorded (and so before it can be seated) the running bot is asked, with
httpx, whether it is there, ready and speaking the protocol it was registered with: the QANTA status
endpoint for the QANTA protocol, a one-word test query for ours (which has no status endpoint).
Every failure is a sentence that says what to fix. A remote bot's size cannot be measured, so it
plays in the unlimited tier only.
"""
from __future__ import annotations

import re

from bots.builds import record_build
from bots.errors import BotError
from bots.models import Bot, BotBuild
from bots.protocol import Query
from bots.remote import QANTA_PATH, JsonRemoteBot, QantaRemoteBot

PROTOCOLS = {QantaRemoteBot.kind: "QANTA quizbowl server", JsonRemoteBot.kind: "Exhibition JSON"}
REMOTE_TIER = "unlimited"
CHECK_TIMEOUT_MS = 3000
NAME = re.compile(r"^[A-Za-z0-9][\w.-]{0,59}$")
PROBE = Query(text="Exhibition", word_index=1, char_index=10, phase=1, mode="buzz", tier=REMOTE_TIER)


class RegistrationRefused(Exception):
    """The bot cannot be registered; the message says why and what to do."""


def check_name(name: str) -> None:
    if not NAME.match(name or ""):
        raise RegistrationRefused(f"{name!r} is not a usable bot name: use letters, digits, '.', '_' or '-' "
                                  "(up to 60, starting with a letter or digit).")


def check_remote(kind: str, url: str, timeout_ms: int = CHECK_TIMEOUT_MS) -> str:
    """Ask the bot at url whether it is there, ready and speaking `kind`'s protocol.

    Returns what was found, as a sentence; raises RegistrationRefused with what to fix.
    """
    if kind not in PROTOCOLS:
        raise RegistrationRefused(f"{kind!r} is not a remote protocol; choose one of {', '.join(PROTOCOLS)}.")
    config = {"url": url, "timeout_ms": timeout_ms}
    try:
        if kind == QantaRemoteBot.kind:
            status = QantaRemoteBot(config).status()
        else:
            act = JsonRemoteBot(config).act(PROBE)
    except BotError as error:
        if str(error).startswith("Could not reach") or "did not answer within" in str(error):  # nobody answered
            raise RegistrationRefused(str(error)) from None
        other = "our JSON protocol" if kind == QantaRemoteBot.kind else "the QANTA protocol"
        raise RegistrationRefused(f"{error} Something answers there, but not in the protocol chosen: check the URL, "
                                  f"or choose {other} if the bot speaks that.") from None
    if kind == QantaRemoteBot.kind:
        if not status["ready"]:
            raise RegistrationRefused(f"The bot at {url} answers but says it is not ready (GET {url.rstrip('/')}"
                                      f"{QANTA_PATH}/status: ready false); register it once it has loaded.")
        return f"ready; batches of {status['batch_size']}" if status["batch"] else "ready"
    return f"answered a test query (guess {act.guess!r}, confidence {act.confidence:g})"


def register_remote(name: str, kind: str, url: str, settings: dict | None = None, tier: str | None = None
                    ) -> tuple[BotBuild, str]:
    """Check the bot, then record it as a new build of `name` in the unlimited tier.

    Returns the build and what the check found. A name that belongs to a bot of another kind is
    refused rather than overwritten; a remote bot's name registered again gets a new build.
    """
    check_name(name)
    if tier not in (None, REMOTE_TIER):
        raise RegistrationRefused(f"A remote bot plays only in the {REMOTE_TIER} tier: its size on disk cannot be "
                                  "measured, so it cannot be held to a smaller tier's limit.")
    existing = Bot.objects.filter(name=name).first()
    if existing is not None and existing.kind not in Bot.REMOTE_KINDS:
        raise RegistrationRefused(f"There is already a bot called {name!r} ({existing.get_kind_display()}); "
                                  "pick another name.")
    url = (url or "").strip()
    if not url.startswith(("http://", "https://")):
        raise RegistrationRefused(f"A remote bot's URL starts with http:// or https://, not {url!r}.")
    found = check_remote(kind, url)
    return record_build(name, kind, REMOTE_TIER, {**(settings or {}), "url": url}), found
