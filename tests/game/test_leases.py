"""How conductors share the matches (game/leases.py): a new match goes to the live
conductor holding the fewest, and the matches of a dead one are shared out by the same rule, the
same way on every conductor. The real processes doing it are in tests/test_scale_out.py."""
import pytest

from game import leases
from game.models import ConductorPresence, Match, MatchLease

pytestmark = pytest.mark.django_db(transaction=True)
NOW = 1_000_000_000


def matches(live_match, n: int, status=Match.Status.LIVE) -> list:
    made = [live_match(title=f"M{i}") for i in range(n)]
    Match.objects.filter(pk__in=[m.pk for m in made]).update(status=status)
    return made


def conductor(owner: str, held: list, seen: int = NOW, expires: int = NOW + leases.LEASE_MS):
    ConductorPresence.objects.create(owner=owner, channel=f"chan-{owner}", host="h", seen_ms=seen)
    for match in held:
        MatchLease.objects.create(match=match, owner=owner, channel=f"chan-{owner}", expires_ms=expires)


def test_a_new_match_goes_to_the_live_conductor_holding_fewest(live_match):
    held = matches(live_match, 3)
    new = matches(live_match, 1, Match.Status.SETUP)[0]
    conductor("a", held[:2])
    conductor("b", held[2:])
    conductor("c", [])
    conductor("dead", [], seen=NOW - 2 * leases.LEASE_MS)  # silent too long: not a candidate
    placed = leases.acquire(new.code, "a", "chan-a", NOW, place=True)
    assert not placed.mine and placed.channel == "chan-c", "a forwards it to c, which holds none"
    assert not MatchLease.objects.filter(match=new).exists(), "nobody took it yet"
    taken = leases.acquire(new.code, "c", "chan-c", NOW, place=False)  # the forwarded command reaches c
    assert taken.mine and MatchLease.objects.get(match=new).owner == "c"


def test_a_tie_keeps_the_match_where_it_arrived_and_finished_matches_do_not_count(live_match):
    done = matches(live_match, 2, Match.Status.FINISHED)
    new = matches(live_match, 1, Match.Status.SETUP)[0]
    conductor("a", done)  # two finished matches weigh nothing
    conductor("b", [])
    placed = leases.acquire(new.code, "a", "chan-a", NOW, place=True)
    assert placed.mine


def test_every_conductor_computes_the_same_sharing_of_a_dead_ones_matches(live_match):
    alive = matches(live_match, 3)
    orphans = matches(live_match, 4)
    conductor("a", alive[:2])
    conductor("b", [])
    conductor("c", alive[2:])
    conductor("gone", orphans, seen=NOW - 2 * leases.LEASE_MS, expires=NOW - 1)  # its leases ran out
    shares = {owner: leases.share_of_unserved(owner, NOW) for owner in ("a", "b", "c")}
    everyone = [set(mine) for mine, _ in shares.values()]
    assert set().union(*everyone) == {m.code for m in orphans}, "every orphan is someone's"
    assert sum(len(s) for s in everyone) == len(orphans), "and only one conductor's"
    sizes = {owner: len(mine) + len([m for m in alive if MatchLease.objects.get(match=m).owner == owner])
             for owner, (mine, _) in shares.items()}
    assert max(sizes.values()) - min(sizes.values()) <= 1, f"the loads end even: {sizes}"


def test_a_conductor_not_yet_announced_takes_whatever_nobody_holds(live_match):
    orphans = matches(live_match, 2)
    mine, unserved = leases.share_of_unserved("newcomer", NOW)
    assert sorted(mine) == sorted(unserved) == sorted(m.code for m in orphans)
