"""Nothing slow inside a write: a search that stalls and a start whose bots take long to measure hold up
neither the other matches of the conductor nor their own match's other messages (game/conductor/beside.py).

One conductor holds four matches. While one match's search stalls for 5 s and another's start waits 5 s
for its bots to be measured, a third reads its words at the same pace as a match read alone a moment
before (its largest gap between two words within 3x of that match's: generous, so that a loaded machine
does not fail it, and far below the 5 s a stall in the write path costs); the stalled search's moderator
is told in a sentence that the search timed out, the measured start is run with the sizes measured, and
a second start meanwhile is answered that the match is starting. In a phase that shows snippets the
bots wait for the search, so they are shown what the people see; snippets the database failed to store are
stored once it answers again.
"""
import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from game import runner as runner_module
from game.conductor import host as host_module
from game.conductor.groups import MODERATOR
from game.models import MatchEvent
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}
STALL_S = 5.0
CLOCK = {"reveal": "clock", "lead_in_seconds": 0, "words_per_minute": 300}
SEARCHED = {"phases": [{"mode": "team", "points": 1, "discussion_seconds": 30, "snippets": True}]}
WORDS_HEARD = 10


async def word_times(listener) -> list[float]:
    """When each of the first WORDS_HEARD words reached the match's moderator (ms)."""
    times = []
    while len(times) < WORDS_HEARD:
        await listener.next("word_revealed")
        times.append(time.monotonic() * 1000)
    return times


def largest_gap(times: list[float]) -> float:
    return max(b - a for a, b in zip(times, times[1:]))


@sync_to_async
def match_started(match) -> dict:
    return MatchEvent.objects.get(match=match, type="match_started").data


async def test_a_stalled_search_and_a_slow_measuring_hold_up_no_other_match_and_say_what_happened(
        conductor, conduct, live_match, listen, monkeypatch):
    alone, beside_stalls = [await sync_to_async(live_match)(overrides=CLOCK, title=f"Paced {n}") for n in (1, 2)]
    searched = await sync_to_async(live_match)(overrides=SEARCHED, title="Searched")
    measured = await sync_to_async(live_match)(title="Measured", bots=[("Robot", "500mib", {"bot": "r"})])
    robot = measured.seat_keys["Robot"]
    measuring_began = asyncio.Event()

    def stalled_search(question_text, k):
        time.sleep(STALL_S)  # a search service that does not answer
        return [{"title": "Too late", "text": "Nobody waits for this.", "marked": "Nobody waits for this."}]

    real_measure = runner_module.measure_bots

    def slow_measuring(match):
        if match.pk != measured.pk:
            return real_measure(match)
        conductor_loop.call_soon_threadsafe(measuring_began.set)
        time.sleep(STALL_S)  # a bot folder that takes this long to walk and measure
        return {robot: {"bytes": 123_456, "artefacts": 100_000}}

    conductor_loop = asyncio.get_running_loop()
    monkeypatch.setattr(runner_module, "top_snippets", stalled_search)
    monkeypatch.setattr(runner_module, "measure_bots", slow_measuring)

    # The pace of a match read with nothing else going on.
    heard_alone = await listen(alone.code, MODERATOR)
    assert (await conduct(alone.code, "start", MOD))["ok"]
    unstalled = largest_gap(await word_times(heard_alone))

    # Now the same, while a search stalls and a start waits for its bots.
    heard_paced, heard_searched = await listen(beside_stalls.code, MODERATOR), await listen(searched.code, MODERATOR)
    start_measured = asyncio.ensure_future(conduct(measured.code, "start", MOD, command_id="start-measured"))
    await asyncio.wait_for(measuring_began.wait(), 10)
    assert (await conduct(searched.code, "start", MOD))["ok"], "its start is answered: its search is beside"
    assert (await conduct(beside_stalls.code, "start", MOD))["ok"]
    words = asyncio.ensure_future(word_times(heard_paced))

    again = await conduct(measured.code, "start", MOD, command_id="start-again")
    assert not again["ok"] and again["error"]["code"] == "busy", again
    assert again["error"]["message"].startswith("The match is starting: its bots are being measured")
    retried = await conduct(measured.code, "start", MOD, command_id="start-measured")  # the browser's own retry
    assert retried["error"]["code"] == "busy"
    seat = {"id": "s990", "name": "Cy", "team": "t0", "kind": "human"}
    joined = await conduct(measured.code, "join", {"role": "system"}, {"seat": seat})
    assert joined["ok"] and not start_measured.done(), "the match's other messages went on while it measured"

    shown = await heard_searched.next("snippets_shown")
    assert shown["data"]["snippets"] == []
    assert shown["data"]["error"] == "The search did not answer within 2 s; the phase goes on without snippets."

    stalled = largest_gap(await words)
    assert stalled <= 3 * unstalled, f"words came {stalled:.0f} ms apart beside the stalls, {unstalled:.0f} ms alone"

    started = await asyncio.wait_for(start_measured, 20)
    assert started["ok"], started
    assert (await match_started(measured))["bot_sizes"] == {robot: {"bytes": 123_456, "artefacts": 100_000}}
    assert (await conduct(measured.code, "start", MOD, command_id="start-measured")) == started, "a retry: the answer"
    assert (await conduct(measured.code, "start", MOD))["error"]["code"] == "already_started"


async def test_a_start_whose_bots_are_over_their_tier_is_refused_as_before(conductor, conduct, live_match, monkeypatch):
    from game.engine.api import Rejected

    match = await sync_to_async(live_match)(bots=[("Robot", "500mib", {"bot": "r"})])

    def over(match):
        raise Rejected("Seat 'Robot': 900 MiB is over the 500 MiB tier.", "bot_over_tier")

    monkeypatch.setattr(runner_module, "measure_bots", over)
    refused = await conduct(match.code, "start", MOD, command_id="start-1")
    assert refused["error"] == {"code": "bot_over_tier", "message": "Seat 'Robot': 900 MiB is over the 500 MiB tier."}
    assert await conduct(match.code, "start", MOD, command_id="start-1") == refused, "a retry gets the same answer"
    assert await sync_to_async(lambda: list(MatchEvent.objects.filter(match=match).values_list("type", flat=True)))() \
        == ["match_created"]


async def test_in_a_phase_with_snippets_the_bots_are_asked_once_the_search_is_back_and_shown_what_people_see(
        conductor, conduct, live_match, listen, monkeypatch):
    rules = {"phases": [{"mode": "team", "points": 1, "discussion_seconds": 30, "snippets": True, "bot_tier": "unlimited"}]}
    match = await sync_to_async(live_match)(overrides=rules, bots=[("Robot", "unlimited", {"bot": "r"})])
    found = [{"title": "Mars", "text": "The red planet.", "marked": "The <mark>red</mark> planet."}]

    def search(question_text, k):
        time.sleep(0.3)
        return found

    monkeypatch.setattr(runner_module, "measure_bots", lambda match: {})
    monkeypatch.setattr(runner_module, "top_snippets", search)
    moderator = await listen(match.code, MODERATOR)
    assert (await conduct(match.code, "start", MOD))["ok"]
    await moderator.next("snippets_shown")
    query = await conductor.send_query.wait_for(1)
    assert query["query"]["snippets"] == [{"title": "Mars", "text": "The red planet."}], "asked after the search"
    assert len(conductor.send_query.queries) == 1


async def test_snippets_the_database_failed_to_store_are_stored_once_it_answers_again(
        conductor, conduct, live_match, listen, monkeypatch):
    monkeypatch.setattr(host_module, "STORAGE_RETRY_MS", 50)
    match = await sync_to_async(live_match)(overrides=SEARCHED)
    found = [{"title": "Mars", "text": "The red planet.", "marked": "The red planet."}]
    monkeypatch.setattr(runner_module, "measure_bots", lambda match: {})
    monkeypatch.setattr(runner_module, "top_snippets", lambda question_text, k: found)
    real, failed = MatchRunner.handle, []

    def snippets_fail_once(self, command, *args, **kwargs):
        if command.get("type") == "snippets" and not failed:
            failed.append(command)
            raise OperationalError("the database went away")
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(MatchRunner, "handle", snippets_fail_once)
    moderator = await listen(match.code, MODERATOR)
    assert (await conduct(match.code, "start", MOD))["ok"]
    assert (await moderator.next("paused"))["data"]["reason"]  # the fault paused the match where it stood
    shown = await moderator.next("snippets_shown")  # and the search's result was not lost with it
    assert failed and [s["title"] for s in shown["data"]["snippets"]] == ["Mars"]
