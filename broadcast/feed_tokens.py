"""Feed tokens: made, read and revoked here, nowhere else.

A token is 32 random bytes in URL-safe base64 (43 characters); the database keeps its SHA-256 digest,
so a copy of the database hands out no feed. A token reads one match's feed until the host revokes it;
revoking tells every web process holding one of its feeds (the match's group, game/live/fanout.py
FEED_REVOKED), and each feed also asks again at every heartbeat, so a message lost while Redis
restarts still closes it within one.
"""
from __future__ import annotations

import hashlib
import re
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from game.conductor.groups import match_group
from game.live.fanout import FEED_REVOKED
from game.models import Match

from broadcast.models import FeedToken

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{43}$")
TOKENS_PER_MATCH = 20  # live tokens a match may have at once: a host hands one to each machine, not hundreds
TOO_MANY = f"This match already has {TOKENS_PER_MATCH} live feed tokens; revoke one you no longer use first."


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def create_token(match: Match, label: str) -> tuple[FeedToken, str]:
    """A new live token for `match`: the record, and the token itself (shown to the host this once).
    Raises ValueError with a sentence when the match has too many live tokens."""
    if match.feed_tokens.filter(revoked_at__isnull=True).count() >= TOKENS_PER_MATCH:
        raise ValueError(TOO_MANY)
    token = secrets.token_urlsafe(32)
    return FeedToken.objects.create(match=match, label=label, digest=digest(token)), token


def live_token(code: str, token: str) -> FeedToken | None:
    """The live token of match `code` that `token` is, or None (wrong shape, unknown, another match's, revoked)."""
    if not TOKEN_SHAPE.match(token):
        return None
    return (FeedToken.objects.filter(digest=digest(token), match__code=code, revoked_at__isnull=True)
            .only("id", "match_id").first())


def still_live(token_id: int) -> bool:
    return FeedToken.objects.filter(pk=token_id, revoked_at__isnull=True).exists()


def revoke_token(record: FeedToken) -> None:
    """Revoke it (once) and close its open feeds in every web process."""
    if record.revoked_at is None:
        record.revoked_at = timezone.now()
        record.save(update_fields=["revoked_at"])
    code = record.match.code
    async_to_sync(get_channel_layer().group_send)(match_group(code),
                                                  {"type": FEED_REVOKED, "match": code, "token": record.pk})
