"""The play-out delay (game/live/playout.py): a web process writes each match's frames at their stamp
plus the delay, in the order they came, so every screen sees the words on the clock's beat; nothing is
held longer than the delay after it arrives, and a bot's query waits as long as the screens do.

The clock is the test's own, and the test runs what the timer would run when it fires, so the tests
check order and moments, not time.
"""
import asyncio

from game.live.playout import Playout

DELAY = 25


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
    playout = Playout(DELAY, clock)
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
    playout = Playout(DELAY, clock)
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


async def test_frames_of_one_match_keep_their_order_and_another_match_does_not_wait_for_them():
    clock, written = Clock(), []
    playout = Playout(DELAY, clock)
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
    playout = Playout(DELAY, clock)
    playout.hold("M1", 10_000 + 3_600_000, lambda: written.append(1))  # the conductor's clock an hour ahead
    clock.now = 10_025
    fire(playout, "M1")
    assert written == [1]


async def test_what_has_no_stamp_waits_only_for_what_is_held_before_it():
    clock, written = Clock(), []
    playout = Playout(DELAY, clock)
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
    playout = Playout(0, clock)
    playout.hold("M1", 10_000 + 500, lambda: written.append(1))
    playout.hold("M1", 10_000, lambda: written.append(2))
    assert written == [1, 2] and not playout.holds("M1")


async def test_a_write_that_fails_loses_nothing_after_it():
    clock, written = Clock(), []
    playout = Playout(DELAY, clock)

    def broken():
        raise RuntimeError("a socket broke")

    playout.hold("M1", 10_000, broken)
    playout.hold("M1", 10_000, lambda: written.append(2))
    clock.now = 10_025
    fire(playout, "M1")
    assert written == [2] and not playout.holds("M1")


async def test_the_timer_writes_held_frames_by_itself():
    written = []
    playout = Playout(DELAY)  # the wall clock and the loop's timer
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
