"""The embedded default's channel layer: one process, several threads, each with its own event loop.

The web loop and the embedded conductor's loop (its own thread) talk through it, so it must hand a
message across threads to the right loop, lose nothing when a receiver is cancelled, and let two
readers share a channel (channels' own in-memory layer strands the second one).
"""
import asyncio
import threading

import pytest
from channels.exceptions import ChannelFull

from serving.local_layer import LocalChannelLayer


async def test_a_message_reaches_a_receiver_on_another_threads_loop():
    layer = LocalChannelLayer()
    got = []
    ready = threading.Event()

    def other_thread():
        async def main():
            ready.set()
            got.append(await layer.receive("conductor"))
        asyncio.run(main())

    thread = threading.Thread(target=other_thread)
    thread.start()
    ready.wait(5)
    await asyncio.sleep(0.05)
    await layer.send("conductor", {"type": "command", "n": 1})
    thread.join(5)
    assert got == [{"type": "command", "n": 1}]


async def test_two_readers_of_one_channel_both_get_messages():
    layer = LocalChannelLayer()
    first = asyncio.create_task(layer.receive("conductor"))
    second = asyncio.create_task(layer.receive("conductor"))
    await asyncio.sleep(0)
    for n in range(2):
        await layer.send("conductor", {"type": "x", "n": n})
    results = await asyncio.wait_for(asyncio.gather(first, second), 2)
    assert sorted(r["n"] for r in results) == [0, 1]


async def test_a_cancelled_receiver_loses_no_message_and_order_is_kept():
    layer = LocalChannelLayer()
    waiting = asyncio.create_task(layer.receive("c"))
    await asyncio.sleep(0)
    await layer.send("c", {"n": 1})  # handed to the waiter ...
    waiting.cancel()  # ... which is cancelled before it runs
    await asyncio.gather(waiting, return_exceptions=True)
    await layer.send("c", {"n": 2})
    assert [await layer.receive("c"), await layer.receive("c")] == [{"n": 1}, {"n": 2}]


async def test_groups_deliver_to_each_member_and_a_full_member_does_not_stop_the_others():
    layer = LocalChannelLayer(capacity=1)
    await layer.group_add("g", "a")
    await layer.group_add("g", "b")
    await layer.send("a", {"n": 0})  # a is now full
    await layer.group_send("g", {"n": 1})
    assert await layer.receive("b") == {"n": 1}
    assert await layer.receive("a") == {"n": 0}
    await layer.send("b", {"n": 2})
    with pytest.raises(ChannelFull):  # a direct send to a full channel says so
        await layer.send("b", {"n": 3})
    await layer.group_discard("g", "a")
    await layer.group_send("g", {"n": 4})
    assert layer._queues.get("a") is None


async def test_expired_messages_and_group_members_are_dropped():
    layer = LocalChannelLayer(expiry=0, group_expiry=0)
    await layer.send("c", {"old": True})
    await asyncio.sleep(0.01)
    late = asyncio.create_task(layer.receive("c"))
    await asyncio.sleep(0.01)
    assert not late.done(), "an expired message is not delivered"
    late.cancel()
    await layer.group_add("g", "member")
    await asyncio.sleep(0.01)
    await layer.group_send("g", {"n": 1})
    assert not layer._queues.get("member"), "a member past group_expiry gets nothing"


async def test_messages_are_copied_so_a_receiver_cannot_change_what_the_sender_holds():
    layer = LocalChannelLayer()
    message = {"frames": [[1, "x"]]}
    await layer.send("c", message)
    received = await layer.receive("c")
    received["frames"].append([2, "y"])
    assert message == {"frames": [[1, "x"]]}


async def test_group_members_each_get_their_own_copy_and_a_waiting_reader_on_this_loop_gets_it():
    layer = LocalChannelLayer()
    await layer.group_add("g", "one")
    await layer.group_add("g", "two")
    waiting = asyncio.ensure_future(layer.receive("one"))  # a reader already waiting, on this very loop
    await asyncio.sleep(0)
    message = {"type": "hub.frames", "audiences": {"spectator": [[1, "x"]]}}
    await layer.group_send("g", message)
    first = await asyncio.wait_for(waiting, 5)
    first["audiences"]["spectator"].append([2, "y"])
    second = await layer.receive("two")
    assert second == message == {"type": "hub.frames", "audiences": {"spectator": [[1, "x"]]}}


async def test_a_message_handed_over_reaches_every_member_and_no_member_changes_another_ones():
    """The conductor hands its frames over (it never touches them again): a lone web process gets
    them without a copy, and with two, what one changes the other never sees."""
    layer = LocalChannelLayer()
    await layer.group_add("alone", "one")
    message = {"type": "hub.frames", "audiences": {"spectator": [[1, "x"]]}}
    layer.hand_over("alone", message)
    assert await layer.receive("one") == message
    await layer.group_add("g", "one")
    await layer.group_add("g", "two")
    layer.hand_over("g", {"type": "hub.frames", "audiences": {"spectator": [[2, "y"]]}})
    first = await layer.receive("one")
    first["audiences"]["spectator"].append([3, "z"])
    assert await layer.receive("two") == {"type": "hub.frames", "audiences": {"spectator": [[2, "y"]]}}
