"""One writer per match, enforced: the lease a conductor holds on each match it serves.

A conductor may append to a match's event log only while it holds the match's lease. It renews
its leases every RENEW_S; every append checks and extends the lease in the same transaction as the
events (runner.MatchRunner.commit), so a conductor that lost a match to another cannot write another
event to it. A live match whose lease has run out (its conductor died, or never existed) is taken
over by whichever conductor sees it first. Times are ms since the epoch from the conductors' own
clocks, so conductors on several machines need clocks in step (NTP) to well within LEASE_MS.

Several conductors share the live matches. Each says it is alive (ConductorPresence) each time it
renews its leases. A match nobody holds yet goes to the live conductor holding the fewest unfinished
matches (place): the one that heard of it first forwards it there. The live matches of a conductor
that died are shared out the same way: every conductor computes the same assignment from the same
rows (share_of_unserved) and takes its own part; anything left unserved for a second round is taken
by whoever sees it, so a match is never stranded on a conductor that only looks alive.

These functions run on a conductor's database thread.
"""
from __future__ import annotations

from dataclasses import dataclass

import contextlib
import functools
import os
import socket

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import Count, Q

from game.models import ConductorPresence, Match, MatchLease

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


def acquire(code: str, owner: str, channel: str, now: int, place: bool = False) -> Lease | None:
    """Take the lease of match `code` if it is free, expired or already ours; None if no such match.

    With `place`, a match nobody holds is taken only if no live conductor holds fewer matches than
    we do; otherwise the lease returned names the least loaded one (not taken: the caller forwards)."""
    match = Match.objects.filter(code=code).values("id", "status").first()
    if match is None:
        return None
    if place:
        current = MatchLease.objects.filter(match_id=match["id"], expires_ms__gte=now).values("owner").first()
        if current is None:
            chosen = least_loaded(owner, now)
            if chosen is not None and chosen[0] != owner:
                return Lease(code, match["id"], match["status"], False, chosen[1], False)
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


def hold(match_id: int, owner: str, now: int, cursor=None) -> None:
    """Extend our lease inside the caller's transaction, or raise LeaseLost if it is not ours any more."""
    if not _extend(owner, [match_id], now, cursor):
        raise LeaseLost(f"This conductor no longer holds the lease of match {match_id}.")


def renew(owner: str, match_ids: list[int], now: int, cursor=None) -> set[int]:
    """Extend all our leases at once; return the ids of the matches we still hold."""
    wanted = set(match_ids)
    if not wanted:
        return set()
    if _extend(owner, sorted(wanted), now, cursor) == len(wanted):
        return wanted  # one lease per match: every one was ours (the usual case, one statement)
    return set(MatchLease.objects.filter(owner=owner, match_id__in=wanted).values_list("match_id", flat=True))


def _extend(owner: str, match_ids: list[int], now: int, cursor=None) -> int:
    """UPDATE our leases of match_ids to run LEASE_MS from now; how many there were. Written out
    rather than through the ORM: it runs with every write of every match (on the caller's cursor,
    if it passes one)."""
    with given_or_new_cursor(cursor) as out:
        out.execute(_extend_sql(connections[DEFAULT_DB_ALIAS].vendor, len(match_ids)), [now + LEASE_MS, owner, *match_ids])
        return out.rowcount


def given_or_new_cursor(cursor=None):
    """The caller's cursor (left open for it: several statements of one transaction share it), or a
    new one of the default database, closed after use."""
    return contextlib.nullcontext(cursor) if cursor is not None else connections[DEFAULT_DB_ALIAS].cursor()


@functools.lru_cache(maxsize=256)
def _extend_sql(vendor: str, count: int) -> str:
    opts = MatchLease._meta
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    return (f"UPDATE {quote(opts.db_table)} SET {quote(opts.get_field('expires_ms').column)} = %s "
            f"WHERE {quote(opts.get_field('owner').column)} = %s "
            f"AND {quote(opts.get_field('match').column)} IN ({', '.join(['%s'] * count)})")


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


# -- sharing the matches between conductors ------------------------------------------------------

def announce(owner: str, channel: str, now: int, layer_ok: bool = True) -> None:
    """Say this conductor is alive, how many matches it holds, and whether it reaches the layer."""
    held = MatchLease.objects.filter(owner=owner, expires_ms__gte=now).exclude(match__status=Match.Status.FINISHED)
    ConductorPresence.objects.update_or_create(owner=owner, defaults={
        "channel": channel, "host": f"{socket.gethostname()} pid {os.getpid()}", "matches": held.count(),
        "layer_ok": layer_ok, "seen_ms": now})


def retire(owner: str) -> None:
    """A clean stop: this conductor takes no more matches."""
    ConductorPresence.objects.filter(owner=owner).delete()


def live_conductors(now: int) -> dict[str, str]:
    """owner -> channel of every conductor that said it was alive within a lease's length."""
    ConductorPresence.objects.filter(seen_ms__lt=now - 10 * LEASE_MS).delete()  # long gone: forget them
    return dict(ConductorPresence.objects.filter(seen_ms__gte=now - LEASE_MS).values_list("owner", "channel"))


def loads(now: int, owners) -> dict[str, int]:
    """owner -> unfinished matches it holds now, for each of `owners` (0 for one holding none)."""
    rows = (MatchLease.objects.filter(owner__in=list(owners), expires_ms__gte=now)
            .exclude(match__status=Match.Status.FINISHED).values("owner").annotate(n=Count("match")))
    out = dict.fromkeys(owners, 0)
    out.update({row["owner"]: row["n"] for row in rows})
    return out


def least_loaded(owner: str, now: int) -> tuple[str, str] | None:
    """(owner, channel) of the live conductor holding the fewest matches; we win a tie."""
    alive = live_conductors(now)
    if not alive:
        return None
    counts = loads(now, alive)
    best = min(alive, key=lambda o: (counts[o], o != owner, o))
    return best, alive[best]


def share_of_unserved(owner: str, now: int) -> tuple[list[str], list[str]]:
    """(our share, all) of the live matches nobody holds: each in turn to the least loaded live
    conductor (ties by id), the same answer on every conductor that reads the same rows."""
    unserved = unserved_live_codes(now)
    if not unserved:
        return [], []
    alive = live_conductors(now)
    if owner not in alive:
        return list(unserved), unserved
    counts = loads(now, alive)
    mine = []
    for code in unserved:
        chosen = min(alive, key=lambda o: (counts[o], o))
        counts[chosen] += 1
        if chosen == owner:
            mine.append(code)
    return mine, unserved
