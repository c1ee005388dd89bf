"""The play-out delay (game/live/playout.py): a web process writes each match's frames at their stamp
plus the delay, in the order they came, so every screen sees the words on the clock's beat; nothing is
held longer than the delay after it arrives, and a bot's query waits as long as the screens do.

Each match's delay has a phase of its own (EXHIBITION_PLAYOUT_SPREAD_MS), the same in every
process, so the matches whose words fall due at one instant of the clock's grid are not all written
in one stretch.

The clock is the test's own, and the test runs what the timer would run when it fires, so the tests
check order and moments, not time.
"""
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from django.test import override_settings

from game.conductor.groups import playout_ms
from game.live.playout import Playout

DELAY = 25
ROOT = Path(__file__).resolve().parents[2]


def every_match(ms: int):
    """The delay of every match, whatever its code."""
    return lambda code: ms


class Clock:
    def __init__(self, now: float = 10_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def fire(playout: Playout, code: str) -> None:
    """What the match's timer runs when it comes due."""
    playout._release(code)


async def test_a_word_is_written_at_its_stamp_plus_the_delay_not_when_it_arrives():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)
    playout.hold("M1", 10_000, lambda: written.append(1))  # stored and sent at once: held
    assert written == [] and playout.holds("M1")
    clock.now = 10_024
    fire(playout, "M1")  # a timer that fires a moment early writes nothing yet
    assert written == []
    clock.now = 10_025
    fire(playout, "M1")
    assert written == [1] and not playout.holds("M1")


async def test_a_word_that_came_late_is_written_at_once_and_the_gap_between_two_words_is_their_stamps_gap():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)
    playout.hold("M1", 9_960, lambda: written.append((1, clock.now)))  # 40 ms late: past its moment, written now
    assert written == [(1, 10_000)]
    clock.now = 10_005
    playout.hold("M1", 10_000, lambda: written.append((2, clock.now)))  # 5 ms late: held 20 ms more
    assert len(written) == 1
    clock.now = 10_025
    fire(playout, "M1")
    clock.now = 10_052
    playout.hold("M1", 10_050, lambda: written.append((3, clock.now)))
    clock.now = 10_075
    fire(playout, "M1")
    assert [at for _, at in written[1:]] == [10_025, 10_075], "50 ms apart as stamped, whatever each one's lateness"


async def test_matches_due_at_one_instant_are_written_each_at_its_own_phase_on_the_beat_of_its_stamps():
    clock, written = Clock(), []
    playout = Playout({"M1": DELAY, "M2": DELAY + 20}.get, clock)
    for code in ("M1", "M2"):  # both words due at the same instant of the grid, both sent at once
        playout.hold(code, 10_000, lambda code=code: written.append((code, clock.now)))
    clock.now = 10_025
    fire(playout, "M1")
    fire(playout, "M2")  # a timer that fires early writes nothing yet
    assert written == [("M1", 10_025)]
    clock.now = 10_045
    fire(playout, "M2")
    clock.now = 10_210
    for code in ("M1", "M2"):  # the next words, 200 ms later, came 10 ms late
        playout.hold(code, 10_200, lambda code=code: written.append((code, clock.now)))
    clock.now = 10_225
    fire(playout, "M1")
    clock.now = 10_245
    fire(playout, "M2")
    assert written == [("M1", 10_025), ("M2", 10_045), ("M1", 10_225), ("M2", 10_245)], \
        "each match 200 ms between its words, as stamped, each at its own phase"


def test_each_matchs_phase_is_within_the_spread_differs_between_matches_and_is_the_same_in_every_process():
    codes = [f"K{n:03d}" for n in range(200)]
    with override_settings(EXHIBITION_PLAYOUT_MS=DELAY, EXHIBITION_PLAYOUT_SPREAD_MS=50):
        here = [playout_ms(code) for code in codes]
    assert all(DELAY <= ms < DELAY + 50 for ms in here)
    assert len(set(here)) >= 30, "the matches of one instant are spread over the interval, not bunched"
    program = ("import json, sys, django; django.setup(); from game.conductor.groups import playout_ms; "
               "print(json.dumps([playout_ms(c) for c in json.loads(sys.argv[1])]))")
    env = dict(os.environ, PYTHONHASHSEED="12345", DJANGO_SETTINGS_MODULE="exhibition.settings",
               EXHIBITION_PLAYOUT_MS=str(DELAY), EXHIBITION_PLAYOUT_SPREAD_MS="50")
    other = subprocess.run([sys.executable, "-c", program, json.dumps(codes)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(other.stdout.strip().splitlines()[-1]) == here, \
        "a web process and the conductor (which times the bots' queries) agree on every match's delay"
    with override_settings(EXHIBITION_PLAYOUT_MS=0, EXHIBITION_PLAYOUT_SPREAD_MS=50):
        assert {playout_ms(code) for code in codes} == {0}, "no delay: everything at once, with no phase"
    with override_settings(EXHIBITION_PLAYOUT_MS=DELAY, EXHIBITION_PLAYOUT_SPREAD_MS=0):
        assert {playout_ms(code) for code in codes} == {DELAY}


async def test_frames_of_one_match_keep_their_order_and_another_match_does_not_wait_for_them():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)
    playout.hold("M1", 10_000, lambda: written.append("M1 word"))
    playout.hold("M1", 9_000, lambda: written.append("M1 late event"))  # its moment passed, but it comes after
    playout.hold("M2", 9_000, lambda: written.append("M2 late event"))  # nothing of M2 is held: at once
    assert written == ["M2 late event"]
    clock.now = 10_025
    fire(playout, "M1")
    assert written == ["M2 late event", "M1 word", "M1 late event"]
    assert not playout.holds("M1")


async def test_nothing_is_held_longer_than_the_delay_after_it_arrives_even_stamped_ahead_of_this_clock():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)
    playout.hold("M1", 10_000 + 3_600_000, lambda: written.append(1))  # the conductor's clock an hour ahead
    clock.now = 10_025
    fire(playout, "M1")
    assert written == [1]


async def test_what_has_no_stamp_waits_only_for_what_is_held_before_it():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)
    playout.hold("M1", None, lambda: written.append("alone"))
    assert written == ["alone"], "nothing held: at once"
    playout.hold("M1", 10_000, lambda: written.append("seat_left event"))
    playout.hold("M1", None, lambda: written.append("close the seat's sockets"))
    assert written == ["alone"]
    clock.now = 10_025
    fire(playout, "M1")
    assert written == ["alone", "seat_left event", "close the seat's sockets"]


async def test_with_no_delay_every_frame_is_written_as_it_comes():
    clock, written = Clock(), []
    playout = Playout(every_match(0), clock)
    playout.hold("M1", 10_000 + 500, lambda: written.append(1))
    playout.hold("M1", 10_000, lambda: written.append(2))
    assert written == [1, 2] and not playout.holds("M1")


async def test_a_write_that_fails_loses_nothing_after_it():
    clock, written = Clock(), []
    playout = Playout(every_match(DELAY), clock)

    def broken():
        raise RuntimeError("a socket broke")

    playout.hold("M1", 10_000, broken)
    playout.hold("M1", 10_000, lambda: written.append(2))
    clock.now = 10_025
    fire(playout, "M1")
    assert written == [2] and not playout.holds("M1")


async def test_the_timer_writes_held_frames_by_itself():
    written = []
    playout = Playout(every_match(DELAY))  # the wall clock and the loop's timer
    import time

    playout.hold("M1", int(time.time() * 1000), lambda: written.append(1))
    assert written == []
    for _ in range(100):
        await asyncio.sleep(0.01)
        if written:
            break
    assert written == [1] and not playout.holds("M1")


async def test_a_bots_query_leaves_when_the_screens_show_its_words():
    """The query about a word waits the play-out delay, as the word's frame does, so no bot reads a word
    before the players see it."""
    from types import SimpleNamespace

    from game.conductor.bots import BotDriver

    loop = asyncio.get_running_loop()
    sent = []
    conductor = SimpleNamespace(send_query=lambda payload, tier, loop=None: sent.append((payload["query_id"], loop.time())))
    driver = BotDriver.__new__(BotDriver)
    driver.host = SimpleNamespace(code="BOTS1", conductor=conductor, put=lambda message: None)
    driver.out = {"seat": {"id": "q1"}}
    asked = loop.time()
    await driver._send({"query_id": "q1"}, "unlimited", "seat", "q1", 40)
    assert sent and sent[0][0] == "q1" and sent[0][1] - asked >= 0.04, "sent no sooner than the delay after it was asked"

    driver.out = {"seat": {"id": "q3"}}  # q2 was abandoned (the match moved on) while it waited
    await driver._send({"query_id": "q2"}, "unlimited", "seat", "q2", 40)
    await driver._send({"query_id": "q3"}, "unlimited", "seat", "q3", 0)
    assert [q for q, _ in sent] == ["q1", "q3"], "a query the match moved past while it waited is not sent"
