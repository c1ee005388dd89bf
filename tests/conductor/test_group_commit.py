"""Several matches' writes in one transaction (event_log.write_together, conductor/database.py): each
match keeps its own seq with no gap, a match whose lease was taken stores nothing, a write that
fails costs only itself, and a transaction that cannot commit stores nothing and says so to every
write in it."""
import asyncio
import threading

import pytest
from django.db import IntegrityError, OperationalError, connection, connections
from django.test.utils import CaptureQueriesContext

from game.conductor.database import DatabaseThread
from game.leases import LEASE_MS, LeaseLost
from game.engine.api import Rejected
from game.models import CommandReceipt, MatchEvent, MatchLease
from game.event_log import Receipt, WriteBatch, write_together
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db(transaction=True)

OWNER = "conductor-a"
NOW = 2_000_000_000_000
MOD = {"role": "moderator"}
START = {"type": "start", "actor": MOD}
REVEAL = {"type": "reveal", "actor": MOD}


def held_runners(live_match, n: int) -> list[MatchRunner]:
    runners = []
    for i in range(n):
        match = live_match(title=f"Batch {i}")
        MatchLease.objects.create(match=match, owner=OWNER, channel="chan-a", expires_ms=NOW + LEASE_MS)
        runners.append(MatchRunner(match, owner=OWNER, clock=lambda: NOW))
    return runners


def stored_seqs(runner: MatchRunner) -> list[int]:
    return list(MatchEvent.objects.filter(match=runner.match).order_by("seq").values_list("seq", flat=True))


def together(runners, command, at, receipts=None):
    receipts = receipts or [None] * len(runners)
    calls = [lambda r=r, rc=rc: r.handle(dict(command), at, rc) for r, rc in zip(runners, receipts)]
    return write_together(OWNER, [r.match.pk for r in runners], at, calls)


def test_several_matches_written_together_each_keep_their_seq_without_gaps(live_match):
    runners = held_runners(live_match, 3)
    outcomes = together(runners, START, NOW)
    assert all(ok for ok, _ in outcomes), outcomes
    for round_ in range(4):
        with CaptureQueriesContext(connection) as queries:
            outcomes = together(runners, REVEAL, NOW + 100 * (round_ + 1))
        assert all(ok for ok, _ in outcomes), outcomes
        inserts = [q for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "game_matchevent"')]
        assert len(inserts) == 1, "the three matches' events go in one statement"
    for runner, (_, events) in zip(runners, outcomes):
        seqs = stored_seqs(runner)
        assert seqs == list(range(1, len(seqs) + 1)), "no gap and no repeat"
        assert seqs[-1] == runner.state.seq == events[-1]["seq"], "the live state is what is stored"
    assert MatchLease.objects.filter(owner=OWNER, expires_ms=NOW + 400 + LEASE_MS).count() == 3, "leases extended"


def test_a_match_whose_lease_was_taken_between_ticks_stores_nothing_more(live_match):
    runners = held_runners(live_match, 3)
    together(runners, START, NOW)
    lost = runners[1]
    MatchLease.objects.filter(match=lost.match).update(owner="conductor-b")
    before = stored_seqs(lost)
    outcomes = together(runners, REVEAL, NOW + 100)
    assert isinstance(outcomes[1][1], LeaseLost) and not outcomes[1][0]
    assert outcomes[0][0] and outcomes[2][0], "the others are written"
    assert stored_seqs(lost) == before
    assert MatchLease.objects.get(match=lost.match).owner == "conductor-b", "and its lease is left alone"
    assert all(stored_seqs(r)[-1] == r.state.seq for r in (runners[0], runners[2]))


def test_a_repeated_command_id_fails_alone_and_a_refusal_is_answered_without_a_row(live_match):
    runners = held_runners(live_match, 3)
    together(runners, START, NOW, [Receipt("moderator", "start-1")] * 3)
    again = Receipt("moderator", "start-1")  # beyond what a conductor keeps in memory
    outcomes = together(runners, REVEAL, NOW + 100, [again, None, Receipt("moderator", "reveal-9")])
    assert isinstance(outcomes[0][1], IntegrityError)
    assert runners[0].state.seq == stored_seqs(runners[0])[-1], "the refused write's state is put back"
    assert outcomes[1][0] and outcomes[2][0]
    assert [e["type"] for e in outcomes[1][1]] == ["word_revealed"]
    assert CommandReceipt.objects.filter(match=runners[2].match, command_id="reveal-9").exists()
    refused = together(runners[1:2], {"type": "buzz", "actor": {"role": "player", "seat": "s999", "team": "t0"}},
                       NOW + 200, [Receipt("s999", "buzz-1")])
    assert isinstance(refused[0][1], Rejected)
    assert not CommandReceipt.objects.filter(command_id="buzz-1").exists(), "a flood of refusals costs no rows"


def test_a_transaction_that_cannot_commit_stores_nothing_and_fails_every_write(live_match, monkeypatch):
    runners = held_runners(live_match, 2)
    together(runners, START, NOW)
    before = [stored_seqs(r) for r in runners]

    def broken(self, failed):
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(WriteBatch, "insert", broken)
    outcomes = together(runners, REVEAL, NOW + 100, [Receipt("moderator", "reveal-1"), None])
    assert all(not ok and isinstance(value, OperationalError) for ok, value in outcomes)
    assert [stored_seqs(r) for r in runners] == before
    assert not CommandReceipt.objects.filter(command_id="reveal-1").exists(), "the receipt went with the events"


def test_a_write_whose_events_cannot_be_stored_fails_alone_and_the_others_are_stored(live_match):
    runners = held_runners(live_match, 3)
    together(runners, START, NOW)
    stale = runners[1]
    # Someone else wrote the seq this runner would write next (what a second loop for one match did):
    # the one INSERT of everyone's events fails, and each match's events are then stored by themselves.
    MatchEvent.objects.create(match=stale.match, seq=stale.state.seq + 1, t_ms=NOW, type="paused", data={})
    before = [stored_seqs(r) for r in runners]
    its_seq = stale.state.seq
    outcomes = together(runners, REVEAL, NOW + 100, [None, Receipt("moderator", "reveal-2"), Receipt("moderator", "reveal-3")])
    assert not outcomes[1][0] and isinstance(outcomes[1][1], IntegrityError)
    assert not CommandReceipt.objects.filter(command_id="reveal-2").exists(), "no receipt without its events"
    assert stale.state.seq == its_seq, "and the runner's state is put back"
    for index in (0, 2):
        ok, events = outcomes[index]
        assert ok and [e["type"] for e in events] == ["word_revealed"]
        assert stored_seqs(runners[index]) == before[index] + [events[0]["seq"]]
    assert stored_seqs(stale) == before[1], "nothing of the failed write is stored"
    assert CommandReceipt.objects.filter(command_id="reveal-3").exists()


async def test_writes_waiting_at_the_same_moment_share_a_transaction_and_each_gets_its_own_answer(live_match):
    from asgiref.sync import sync_to_async

    runners = await sync_to_async(held_runners)(live_match, 4)
    database = DatabaseThread(OWNER, lambda: NOW)
    busy, release = threading.Event(), threading.Event()

    def block():
        busy.set()
        release.wait(10)

    try:
        await asyncio.gather(*(database.write(r.match.pk, r.handle, dict(START), NOW, None) for r in runners))
        blocker = asyncio.ensure_future(database.run(block))
        await asyncio.get_running_loop().run_in_executor(None, busy.wait, 10)
        writes = [database.write(r.match.pk, r.handle, dict(REVEAL), NOW + 100, None) for r in runners[:3]]
        writes.append(database.write(runners[3].match.pk, runners[3].handle,
                                     {"type": "buzz", "actor": {"role": "player", "seat": "s999", "team": "t0"}},
                                     NOW + 100, None))
        batches = database.batches
        release.set()
        await blocker
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert database.batches == batches + 1, "the four writes queued behind the busy thread went together"
        assert all(r[0]["type"] == "word_revealed" for r in results[:3])
        assert isinstance(results[3], Rejected), "the refused one is told so, and only it"
        for runner in runners:
            seqs = await sync_to_async(stored_seqs)(runner)
            assert seqs == list(range(1, runner.state.seq + 1))
        await database.run(connections.close_all)
    finally:
        release.set()
        database.shutdown()


async def test_writes_asked_for_in_one_turn_of_the_loop_share_a_transaction_though_the_thread_was_idle(live_match):
    """The clock's grain wakes every due match in one turn of the loop: their writes go in one
    transaction even if the thread was idle and had time to start on the first before the others came."""
    import functools
    import time

    from asgiref.sync import sync_to_async

    runners = await sync_to_async(held_runners)(live_match, 3)
    database = DatabaseThread(OWNER, lambda: NOW)
    try:
        await asyncio.gather(*(database.write(r.match.pk, r.handle, dict(START), NOW, None) for r in runners))
        batches, writes = database.batches, database.writes
        futures = []
        for runner in runners:  # one turn of the loop; the sleep lets an awake thread take what is queued
            futures.append(database._submit(functools.partial(runner.handle, dict(REVEAL), NOW + 100, None),
                                            runner.match.pk))
            time.sleep(0.02)
        results = await asyncio.gather(*futures)
        assert (database.batches, database.writes) == (batches + 1, writes + 3), "one transaction for the three"
        assert [r[0]["type"] for r in results] == ["word_revealed"] * 3
        for runner in runners:
            assert await sync_to_async(stored_seqs)(runner) == list(range(1, runner.state.seq + 1))
        await database.run(connections.close_all)
    finally:
        database.shutdown()


def test_a_refusal_kept_on_the_record_is_stored_in_a_shared_transaction_with_no_gap(live_match):
    runners = held_runners(live_match, 2)
    together(runners, START, NOW)
    for runner in runners:
        for name in ("Ann", "Bob"):
            together([runner], {"type": "join", "actor": {"role": "system"},
                                "data": {"seat": runner.match.seat_keys[name]}}, NOW)
    together(runners, REVEAL, NOW + 100)
    seat = {name: {"role": "player", "seat": runners[0].match.seat_keys[name], "team": "t0"} for name in ("Ann", "Bob")}
    assert all(ok for ok, _ in together(runners[:1], {"type": "buzz", "actor": seat["Ann"]}, NOW + 200))
    late = together(runners, {"type": "buzz", "actor": seat["Bob"]}, NOW + 210, [Receipt(seat["Bob"]["seat"], "b-1"), None])
    assert isinstance(late[0][1], Rejected) and late[0][1].events, late
    assert [e["type"] for e in late[0][1].events] == ["buzz_refused"]
    stored = stored_seqs(runners[0])
    assert stored == list(range(1, runners[0].state.seq + 1)), "the refused buzz is on the record, with no gap"
    assert MatchEvent.objects.get(match=runners[0].match, seq=stored[-1]).type == "buzz_refused"


def test_commands_with_receipts_share_the_batch_statements(live_match):
    runners = held_runners(live_match, 3)
    together(runners, START, NOW)
    with CaptureQueriesContext(connection) as queries:
        outcomes = together(runners, REVEAL, NOW + 100, [Receipt("moderator", f"reveal-{i}") for i in range(3)])
    assert all(ok for ok, _ in outcomes), outcomes
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum(s.startswith('INSERT INTO "game_matchevent"') for s in sql) == 1, "one INSERT of every match's events"
    assert sum(s.startswith('INSERT INTO "game_commandreceipt"') for s in sql) == 1, "and one of their receipts"
    assert CommandReceipt.objects.filter(command_id__startswith="reveal-").count() == 3
    for runner in runners:
        assert stored_seqs(runner) == list(range(1, runner.state.seq + 1))
