"""Reconnection: a player who drops and comes back with last_seq sees what a teammate sees, once."""
import pytest
from asgiref.sync import sync_to_async

from game.models import MatchEvent
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db(transaction=True)


async def join(connect, match, name, cookie=None):
    if cookie:
        socket = await connect(f"/ws/m/{match.code}/moderate", cookie=cookie)
    else:
        socket = await connect(f"/ws/m/{match.code}/play", token=match.tokens[name])
    await socket.hello()
    await socket.until(lambda f: f["type"] == "snapshot")
    return socket


@sync_to_async
def stored_types(match) -> list[str]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def seqs(frames) -> list[int]:
    return [f["seq"] for f in frames]


async def test_a_buzz_sent_just_before_a_drop_arrives_exactly_once(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await join(connect, match, None, cookie=staff_cookie)
    ann = await join(connect, match, "Ann")
    bob = await join(connect, match, "Bob")
    await mod.command("start")
    for _ in range(3):
        await mod.command("reveal")
    await ann.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] == 2)
    applied_before_drop = list(ann.frames)
    last_seq = ann.last_seq

    await ann.send("buzz", {"seen": 3})  # and the socket drops before any reply is read
    await ann.close()

    back = await connect(f"/ws/m/{match.code}/play", token=match.tokens['Ann'])
    back.frames, back.last_seq = applied_before_drop, last_seq
    await back.hello()
    buzz = await back.event("buzz")
    assert buzz["data"]["seat"] == match.seat_keys["Ann"]
    answered = await back.command("answer", {"text": "Answer 0"})
    assert answered["type"] == "ack"
    await mod.command("rule", {"verdict": "reject", "answer": answered["data"]["seqs"][0]})
    await back.event("ruling")
    await bob.until(lambda f: f.get("type") == "ruling")

    assert seqs(back.frames) == list(range(2, back.last_seq + 1))  # seq 1 came in the first snapshot
    assert back.frames == bob.frames  # the same projected frames, in the same order, once each
    assert (await stored_types(match)).count("buzz") == 1
    assert not [f for f in back.other if f["type"] == "snapshot"]  # caught up by events, not a snapshot

    await back.send("resync")
    await bob.send("resync")
    mine = (await back.until(lambda f: f["type"] == "snapshot"))["data"]
    theirs = (await bob.until(lambda f: f["type"] == "snapshot"))["data"]
    assert mine == theirs and mine["seq"] == back.last_seq


async def test_a_resync_with_the_last_seq_brings_each_missed_frame_and_one_far_behind_a_snapshot(
        conductor, live_match, connect, staff_cookie):
    """The browser asks for what follows its last seq when a frame is missing: each missed event comes
    as its own frame, as it first came (its feed line, what the page says aloud), not folded into a
    snapshot; a resync with no seq, or a seq the log has not reached, still gets a snapshot."""
    match = await sync_to_async(live_match)()
    mod = await join(connect, match, None, cookie=staff_cookie)
    ann = await join(connect, match, "Ann")
    await mod.command("start")
    for _ in range(3):
        await mod.command("reveal")
    await ann.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] == 2)
    missed = [f for f in ann.frames if f["seq"] > ann.frames[0]["seq"]]

    await ann.send("resync", {"last_seq": ann.frames[0]["seq"]})
    again = [await ann.io.receive_json_from(timeout=ann.timeout) for _ in missed]
    assert again == missed, "the frames after the seq given, each as it first came"

    await ann.send("resync", {"last_seq": ann.last_seq + 50})  # ahead of the log: only a snapshot is sure
    ahead = await ann.io.receive_json_from(timeout=ann.timeout)
    assert ahead["type"] == "snapshot" and ahead["data"]["seq"] == ann.last_seq
    await ann.send("resync")
    whole = await ann.io.receive_json_from(timeout=ann.timeout)
    assert whole["type"] == "snapshot" and whole["data"]["seq"] == ann.last_seq


async def test_a_player_who_saw_their_buzz_does_not_get_it_again(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await join(connect, match, None, cookie=staff_cookie)
    ann = await join(connect, match, "Ann")
    await mod.command("start")
    await mod.command("reveal")
    ack = await ann.command("buzz", {"seen": 1})
    await ann.event("buzz")
    assert ann.last_seq == ack["data"]["seqs"][-1]
    await ann.close()

    await mod.command("rule", {"verdict": "reject", "answer": ack["data"]["seqs"][-1]})  # while Ann is away
    back = await connect(f"/ws/m/{match.code}/play", token=match.tokens['Ann'])
    back.last_seq = ann.last_seq
    await back.hello()
    ruling = await back.event("ruling")
    assert ruling["seq"] == ann.last_seq + 1
    assert seqs(back.frames) == [ruling["seq"]]  # nothing at or before the buzz came back


async def test_a_client_far_behind_gets_a_snapshot(conductor, live_match, connect):
    match = await sync_to_async(live_match)()

    @sync_to_async
    def adjust_many(count):
        runner = MatchRunner(match)
        for i in range(count):
            runner.handle({"type": "adjust", "actor": {"role": "moderator"},
                           "data": {"team": "t0", "points": 1, "reason": f"test {i}"}})

    await adjust_many(302)
    watch = await connect(f"/ws/m/{match.code}/watch")
    await watch.hello(last_seq=1)
    snap = await watch.until(lambda f: f["type"] == "snapshot")
    assert snap["data"]["seq"] == 303 and snap["data"]["scores"]["t0"] == 302

    near = await connect(f"/ws/m/{match.code}/watch")
    await near.hello(last_seq=3)
    frames = [await near.receive() for _ in range(300)]
    assert seqs(frames) == list(range(4, 304))


async def test_a_screen_whose_hello_cannot_join_the_match_is_closed_to_reconnect_not_left_blank(
        conductor, live_match, connect, channel_layer, monkeypatch):
    """Redis restarting just as a hall screen connects: its hello cannot join the match's group. The socket
    is closed with 4503 (try again later), so the page reconnects, rather than left open with no snapshot,
    showing nothing in front of the room; once Redis answers, the reconnect gets the match."""
    from game.live.consumers import CLOSE_TRY_AGAIN, JOIN_FAILED
    from tests.live.test_consumers_seats import closed

    match = await sync_to_async(live_match)()
    group_add = channel_layer.group_add

    async def away(group, channel):
        raise ConnectionRefusedError("Connect call failed ('127.0.0.1', 6379)")

    monkeypatch.setattr(channel_layer, "group_add", away)
    screen = await connect(f"/ws/m/{match.code}/watch")
    await screen.io.send_json_to({"type": "hello", "data": {"last_seq": 0}})
    assert await closed(screen) == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN, "reason": JOIN_FAILED}
    monkeypatch.setattr(channel_layer, "group_add", group_add)
    again = await connect(f"/ws/m/{match.code}/watch")
    await again.hello()
    snapshot = await again.until(lambda f: f["type"] == "snapshot")
    assert snapshot["data"]["status"] == "setup" and again.other[0]["data"]["match"]["code"] == match.code
