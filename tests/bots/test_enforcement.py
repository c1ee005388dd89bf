"""Tiers enforced while bots play: what the worker refuses, what a match start refuses, and what a
bot may be told. Each refusal names the measured figure, since it reaches the moderator."""
import asyncio
import io
import os
import re

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command

from bots import kinds, registry
from bots.acting import answer
from bots.base_bot import BaseBot
from bots.models import Bot
from bots.protocol import Act
from game.conductor.loading import bot_seats
from game.engine.api import fold, snapshot
from game.models import Match
from game.event_log import load_events
from game.runner import MatchRunner

MOD = {"role": "moderator"}
MIB = 1024**2


def payload(bot, tier="500mib", **extra):
    return {"reply_to": "nobody", "match": "M1", "seat": "s1", "query_id": "q1", "bot": bot,
            "query": {"text": "who wrote the novel pride and prejudice", "word_index": 7, "final": True,
                      "tier": tier}, **extra}


def build(kind, name, data, *extra):
    call_command("build_bot", kind, "--name", name, "--data", data, *extra, stdout=io.StringIO())
    return Bot.objects.get(name=name)


def grow(folder, size):
    with open(folder / "grown.bin", "wb") as handle:
        os.truncate(handle.fileno(), size)  # sparse: costs no disk space, counts at its full size


class HungryBot(BaseBot):
    """Fits on disk but takes 64 MiB of memory once loaded."""

    kind = "hungry"

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.ballast = b"x" * (64 * MIB)

    def act(self, query):
        return Act(guess="full", confidence=1.0, buzz=True)


@pytest.fixture
def hungry(monkeypatch, bot_root):
    monkeypatch.setitem(kinds.KINDS, "hungry", HungryBot)
    return {"kind": "hungry", "name": "hungry"}


# -- the worker -----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_worker_refuses_a_query_for_another_tier(bot_root):
    reply = answer(payload({"kind": "simulated"}, tier="unlimited", private={"answer": "x"}), queue_tier="500mib")
    assert reply["act"] is None
    assert reply["error"] == ("This bot worker serves the 500mib tier and refused a query for the unlimited tier; "
                              "the query must go to the bots.unlimited queue.")


@pytest.mark.django_db
def test_the_500mib_queue_refuses_a_remote_bot_even_when_the_query_says_500mib():
    remote = Bot.objects.create(name="far", kind="remote_qanta", tier="unlimited", config={"url": "http://127.0.0.1:9"})
    reply = answer(payload(remote.spec), queue_tier="500mib")
    assert "runs on a remote server, so its size cannot be measured against the 500 MiB limit" in reply["error"]


@pytest.mark.django_db
def test_a_bot_whose_build_grows_while_loaded_is_refused_with_its_size(bot_root, pairs_file, settings):
    settings.EXHIBITION_BOT_RECHECK_S = 0  # walk the folder on every act (the default is once a second)
    bot = build("qa_pairs", "pairs", pairs_file)
    first = answer(payload(bot.spec), queue_tier="500mib")
    assert first["error"] is None and first["act"]["guess"] == "Jane Austen"
    grow(bot_root / "pairs" / "build-1", 605 * MIB)
    reply = answer(payload(bot.spec), queue_tier="500mib")
    assert reply["act"] is None
    assert re.search(r"measured 605 MiB \(634,\d{3},\d{3} bytes\), over the 500 MiB limit \(524,288,000 bytes\)",
                     reply["error"])
    assert answer(payload(bot.spec, tier="6gib"), queue_tier="6gib")["act"]["guess"] == "Jane Austen"
    (bot_root / "pairs" / "build-1" / "grown.bin").unlink()
    assert answer(payload(bot.spec), queue_tier="500mib")["error"] is None


def test_memory_over_the_tier_budget_is_refused_with_the_figure(hungry, settings):
    settings.EXHIBITION_BOT_MEMORY_BUDGETS = {"500mib": 16 * MIB, "6gib": 256 * MIB}
    reply = answer(payload(hungry), queue_tier="500mib")
    assert reply["act"] is None
    error = reply["error"]
    assert error.startswith("Bot 'hungry' cannot play in the 500mib tier: loading it added ")
    assert "of resident memory to the worker, over the tier's 16 MiB budget (16,777,216 bytes)" in error
    added = registry.loaded_entry.__globals__["_loaded"][registry.resolve(hungry).identity].memory_added
    assert added >= 60 * MIB and f"({added:,} bytes)" in error
    assert answer(payload(hungry), queue_tier="500mib")["error"] == error  # refused again, not loaded again
    assert answer(payload(hungry, tier="6gib"), queue_tier="6gib")["act"]["guess"] == "full"


# -- the match start ------------------------------------------------------------------------------

async def test_a_grown_bot_is_refused_at_match_start_with_its_size(conductor, conduct, live_match, bot_root,
                                                                   pairs_file):
    bot = await sync_to_async(build)("qa_pairs", "pairs", pairs_file)
    spec = await sync_to_async(lambda: bot.spec)()
    match = await sync_to_async(live_match)(bots=[("Pairs", "500mib", spec)])
    grow(bot_root / "pairs" / "build-1", 605 * MIB)  # seated at a few KiB, then the folder grew

    reply = await conduct(match.code, "start", MOD)
    assert reply["ok"] is False and reply["error"]["code"] == "bot_over_tier"
    message = reply["error"]["message"]
    assert message.startswith("Seat 'Pairs': Bot 'pairs' cannot play in the 500mib tier: it measured ")
    assert re.search(r"its artefacts 605 MiB \(634,\d{3},\d{3} bytes\) in \S+build-1, this project's code it imports "
                     r"[\d.]+ KiB, and the installed packages it imports [\d.]+ MiB \(scipy .*\), over the 500 MiB limit "
                     r"\(524,288,000 bytes\)", message)
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).status == Match.Status.SETUP
    stored = await sync_to_async(lambda: bot.current_build.measured_bytes)()
    assert stored > 605 * MIB  # the new size is on the build's record

    (bot_root / "pairs" / "build-1" / "grown.bin").unlink()
    assert (await conduct(match.code, "start", MOD))["ok"] is True


async def test_the_start_puts_what_each_bot_measured_on_its_card(conductor, conduct, live_match, bot_root, pairs_file):
    bot = await sync_to_async(build)("qa_pairs", "pairs", pairs_file)
    spec = await sync_to_async(lambda: bot.spec)()
    match = await sync_to_async(live_match)(bots=[("Pairs", "500mib", spec)])
    assert (await conduct(match.code, "start", MOD, {"bot_sizes": {"x": {"bytes": 1}}}))["ok"] is True
    events = await sync_to_async(load_events)(match)
    started = next(e for e in events if e["type"] == "match_started")
    seat = next(s["id"] for s in fold(events).seats.values() if s["name"] == "Pairs")
    measured = await sync_to_async(lambda: kinds.size_of("qa_pairs", bot.current_build.measured_bytes))()
    assert started["data"]["bot_sizes"] == {seat: measured.card()}  # what the store measured, not what was sent
    card = measured.card()
    assert card == {"bytes": measured.total, "artefacts": measured.artefacts, "code": measured.code.project,
                    "packages": measured.code.package_bytes} and card["packages"] > card["artefacts"] > 0
    for audience in ("moderator", "spectator"):
        seats = {s["id"]: s for s in snapshot(fold(events), audience)["seats"]}
        assert seats[seat]["size"] == card


@pytest.mark.django_db
def test_a_rebuilt_bot_does_not_change_what_a_seat_plays(bot_root, pairs_file, passages_file, live_match):
    pinned = build("qa_pairs", "pairs", pairs_file).spec
    match = live_match(bots=[("Pairs", "500mib", pinned)])
    rebuilt = build("qa_pairs", "pairs", pairs_file, "--threshold", "0.99").spec
    (seat,) = bot_seats(MatchRunner(match)).values()
    assert seat["config"] == pinned and pinned["build"] != rebuilt["build"]
    assert registry.load_bot(seat["config"]).threshold == 0.6  # build 1's settings, not build 2's


@pytest.mark.django_db
def test_a_seat_config_cannot_make_a_remote_bot_trusted(live_match):
    Bot.objects.create(name="far", kind="remote_qanta", tier="unlimited", config={"url": "http://127.0.0.1:9"})
    Bot.objects.create(name="practice", kind="simulated", tier="500mib")
    match = live_match(bots=[
        ("Json", "unlimited", {"kind": "remote_json", "url": "http://127.0.0.1:9", "simulated": True}),
        ("Qanta", "unlimited", {"bot": "far", "simulated": True, "kind": "simulated"}),
        ("Practice", "500mib", {"bot": "practice"}),
        ("Inline", "500mib", {"kind": "simulated", "accuracy": 0.5}),
    ])
    seats = {s.name: bot_seats(MatchRunner(match))[s.key] for s in match.teams.get(position=1).seats.all()}
    assert seats["Json"]["private"] == () and not seats["Json"]["trusted"]
    assert seats["Qanta"]["private"] == ("question_idx",) and not seats["Qanta"]["trusted"]
    assert seats["Practice"]["trusted"] and seats["Inline"]["trusted"]


async def test_bots_are_told_only_what_their_kind_may_know(conductor, conduct, live_match):
    await sync_to_async(Bot.objects.create)(name="far", kind="remote_qanta", tier="500mib",
                                            config={"url": "http://127.0.0.1:9"})
    match = await sync_to_async(live_match)(bots=[
        ("Qanta", "unlimited", {"bot": "far", "simulated": True}),
        ("Json", "unlimited", {"kind": "remote_json", "url": "http://127.0.0.1:9", "simulated": True}),
    ], overrides={"phases": [{"mode": "team", "points": 2, "discussion_seconds": 60, "bot_tier": "unlimited"}]})
    await conduct(match.code, "start", MOD)
    await conductor.send_query.wait_for(2)
    by_seat = {q["seat"]: q for q in conductor.send_query.queries}
    qanta, json_bot = by_seat[match.seat_keys["Qanta"]], by_seat[match.seat_keys["Json"]]
    assert qanta["private"] == {"question_idx": 0}  # the match's first question, 0-based as QANTA counts
    assert "private" not in json_bot and "Answer 0" not in str(json_bot) and "Answer 0" not in str(qanta)


# -- what a worker does per act -------------------------------------------------------------------

@pytest.mark.django_db
def test_a_worker_reads_a_builds_row_once_and_starts_no_thread_per_act(bot_root, pairs_file,
                                                                      django_assert_num_queries):
    import threading

    spec = build("qa_pairs", "pairs", pairs_file).spec
    assert answer(payload(spec), queue_tier="500mib")["error"] is None  # the first act reads the row
    threads = threading.active_count()
    with django_assert_num_queries(0):
        replies = [answer(payload(spec), queue_tier="500mib") for _ in range(20)]
    assert all(r["act"]["guess"] == "Jane Austen" for r in replies)
    assert threading.active_count() == threads  # the time limit is an interval timer on this thread


def test_a_hanging_act_on_the_main_thread_is_stopped_on_time():
    spec = {"kind": "simulated", "name": "slow", "delay_ms": 5000}
    reply = answer(payload(spec, private={"answer": "x"}, time_limit_ms=200), queue_tier="500mib")
    assert reply["error"] == "The bot did not act within its time limit of 200 ms." and reply["worker_ms"] < 1000


async def test_a_conductor_measures_every_kinds_code_before_it_is_ready_so_no_start_waits_for_it(
        channel_layer, transactional_db, conduct, live_match, bot_root, pairs_file, monkeypatch):
    """The first starts after a conductor comes up (six matches at once in a hall) would each wait for a
    subprocess per bot kind; the conductor measures every kind as it starts, and says it is ready after."""
    from bots import footprint
    from game.conductor.core import Conductor
    from tests.conftest import FakeBots

    monkeypatch.setattr(footprint, "_measured", {})  # this process has measured nothing yet
    bot = await sync_to_async(build)("qa_pairs", "pairs", pairs_file)
    spec = await sync_to_async(lambda: bot.spec)()
    match = await sync_to_async(live_match)(bots=[("Pairs", "500mib", spec)])
    ready = asyncio.Event()
    running = Conductor(layer=channel_layer, send_query=FakeBots())
    task = asyncio.get_running_loop().create_task(running.run(ready.set))
    try:
        await asyncio.wait_for(ready.wait(), 120)
        measured = {cls.__module__ for kind, cls in kinds.KINDS.items() if kind not in kinds.REMOTE_KINDS}
        assert measured <= set(footprint._measured)

        def no_probe(module):
            raise footprint.FootprintError(f"{module} was measured again, at the start")

        monkeypatch.setattr(footprint, "_probe", no_probe)
        reply = await conduct(match.code, "start", MOD)
        assert reply["ok"] is True, reply
        started = next(e for e in await sync_to_async(load_events)(match) if e["type"] == "match_started")
        assert [size["packages"] > 0 for size in started["data"]["bot_sizes"].values()] == [True]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
