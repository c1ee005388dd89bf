"""One writer per match, enforced: the lease a conductor holds on each match it serves.

A conductor may append to a match's event log only while it holds the match's lease. It renews
its leases every RENEW_S; every append checks and extends the lease in the same transaction as the
events (store.MatchRunner.commit), so a conductor that lost a match to another cannot write another
event to it. A live match whose lease has run out (its conductor died, or never existed) is taken
over by whichever conductor sees it first. Times are ms since the epoch from the conductors' own
clocks, so conductors on several machines need clocks in step (NTP) to well within LEASE_MS.

These functions run on a conductor's database thread.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q

from game.models import Match, MatchLease

LEASE_MS = 6000  # a lease not renewed for this long is free for another conductor to take
RENEW_S = 2.0  # how often a conductor renews its leases and looks for matches nobody serves


class LeaseLost(Exception):
    """This conductor no longer holds the lease of the match it tried to write."""


@dataclass(frozen=True)
class Lease:
    code: str
    match_id: int
    status: str
    mine: bool  # this conductor holds it now
    channel: str  # the holder's own channel
    taken_over: bool  # a live match that another conductor (or nobody) held before: nobody ran its clock


def acquire(code: str, owner: str, channel: str, now: int) -> Lease | None:
    """Take the lease of match `code` if it is free, expired or already ours; None if no such match."""
    match = Match.objects.filter(code=code).values("id", "status").first()
    if match is None:
        return None
    until = now + LEASE_MS
    with transaction.atomic():
        before = MatchLease.objects.filter(match_id=match["id"]).values("owner").first()
        took = MatchLease.objects.filter(Q(owner=owner) | Q(expires_ms__lt=now), match_id=match["id"]).update(
            owner=owner, channel=channel, expires_ms=until)
    if not took and before is None:
        try:
            with transaction.atomic():
                MatchLease.objects.create(match_id=match["id"], owner=owner, channel=channel, expires_ms=until)
            took = 1
        except IntegrityError:  # another conductor created it first
            pass
    if took:
        live = match["status"] == Match.Status.LIVE
        taken_over = live and (before is None or before["owner"] != owner)
        return Lease(code, match["id"], match["status"], True, channel, taken_over)
    holder = MatchLease.objects.filter(match_id=match["id"]).values("channel").first()
    return Lease(code, match["id"], match["status"], False, holder["channel"] if holder else "", False)


def hold(match_id: int, owner: str, now: int) -> None:
    """Extend our lease inside the caller's transaction, or raise LeaseLost if it is not ours any more."""
    if not MatchLease.objects.filter(match_id=match_id, owner=owner).update(expires_ms=now + LEASE_MS):
        raise LeaseLost(f"This conductor no longer holds the lease of match {match_id}.")


def renew(owner: str, match_ids: list[int], now: int) -> set[int]:
    """Extend all our leases at once; return the ids of the matches we still hold."""
    if not match_ids:
        return set()
    held = MatchLease.objects.filter(owner=owner, match_id__in=match_ids)
    held.update(expires_ms=now + LEASE_MS)
    return set(held.values_list("match_id", flat=True))


def unserved_live_codes(now: int) -> list[str]:
    """Live matches whose lease has run out or that never had one: nobody is running their clock."""
    return list(Match.objects.filter(status=Match.Status.LIVE).exclude(lease__expires_ms__gte=now)
                .order_by("id").values_list("code", flat=True))


def release(owner: str, match_ids: list[int] | None = None) -> None:
    """Give leases back on a clean stop, so another conductor takes the matches at once."""
    leases = MatchLease.objects.filter(owner=owner)
    if match_ids is not None:
        leases = leases.filter(match_id__in=match_ids)
    leases.delete()
