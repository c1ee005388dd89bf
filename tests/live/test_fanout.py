"""The fan-out in a web process (game/live/fanout.py): every socket gets every frame once and in order,
through one subscription per process, and a socket that cannot keep up never holds the others back.

The slow-socket test drives the hub with real sockets (the consumers' own push and writer) whose
send to one client never completes, and checks ordering, not time: each frame reaches every other
socket while the slow one is still stuck on the first. The subscription test runs two real Daphne
processes on Redis with a conductor and counts what each socket received.
"""
import asyncio
import json
import sys
from pathlib import Path

import pytest

from game.conductor.groups import SPECTATOR, match_group
from game.live.consumers import SpectatorSocket
from game.live.fanout import CLOSE_TOO_SLOW, SLOW_SOCKET_FRAMES, TOO_SLOW, QueuedWriter, hub


def frame(seq: int) -> list:
    return [seq, json.dumps({"seq": seq, "t": seq, "type": "word_revealed", "data": {"index": seq}})]


def socket_with(send_text, code: str, limit: int = 5) -> SpectatorSocket:
    """A watcher's socket past its hello: it has seq 0 and writes through a queue to `send_text`, closed as
    too slow past `limit` frames waiting (few here, so the slow-socket tests need few frames)."""
    sock = SpectatorSocket()
    sock.scope, sock.code, sock.key, sock.socket_id = {}, code, SPECTATOR, f"s{id(sock)}"
    sock.last_sent, sock.holding = 0, None
    sock.closed_with = []

    async def base_send(message):
        sock.closed_with.append(message)

    sock.base_send = base_send
    sock.writer = QueuedWriter(send_text, sock._too_slow, limit=limit)
    return sock


async def settle():
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_slow_socket_does_not_hold_back_the_others_and_is_closed_with_a_reason(channel_layer):
    received = {n: [] for n in range(3)}
    stuck = asyncio.Event()  # never set: the slow client never takes its first frame

    def quick(n):
        async def send_text(text):
            received[n].append(json.loads(text)["seq"])
        return send_text

    async def never(text):
        await stuck.wait()

    fast = [socket_with(quick(n), "ROOM1") for n in range(3)]
    slow = socket_with(never, "ROOM1")
    here = hub()
    here.rooms[("ROOM1", SPECTATOR)] = {*fast, slow}
    for seq in range(1, 16):
        here.deliver("ROOM1", SPECTATOR, [frame(seq)])
        await settle()
        assert all(got == list(range(1, seq + 1)) for got in received.values()), \
            f"after frame {seq} every other socket has frames 1..{seq}, in order"
    assert slow not in here.rooms[("ROOM1", SPECTATOR)] and slow.writer is None, "the slow socket left, its queue dropped"
    closes = [m for m in slow.closed_with if m["type"] == "websocket.close"]
    assert closes == [{"type": "websocket.close", "code": CLOSE_TOO_SLOW, "reason": TOO_SLOW}]
    for sock in fast:
        sock.writer.close()


async def test_frames_a_socket_already_has_are_not_sent_again(channel_layer):
    got = []

    async def send_text(text):
        got.append(json.loads(text)["seq"])

    sock = socket_with(send_text, "ROOM2")
    sock.last_sent = 3  # frames up to 3 came by catch-up
    here = hub()
    here.rooms[("ROOM2", SPECTATOR)] = {sock}
    here.deliver("ROOM2", SPECTATOR, [frame(2), frame(3), frame(4)])
    here.deliver("ROOM2", SPECTATOR, [frame(4), frame(5)])
    await settle()
    assert got == [4, 5]
    sock.writer.close()


async def test_a_heartbeat_waits_behind_the_frames_held_for_the_play_out_delay(channel_layer, monkeypatch):
    """The beat names the last stored seq; written before the frames still held (playout.py), it
    would send the client to resync and the held frames, then covered by the snapshot, would be skipped."""
    from game.live import fanout
    from game.live.playout import Playout

    got = []

    async def send_text(text):
        got.append(json.loads(text))

    async def last_seqs(match_ids):
        return {7: 1}

    monkeypatch.setattr(fanout, "_last_seqs", last_seqs)
    sock = socket_with(send_text, "ROOM3")
    here = hub()
    here.playout = Playout(lambda code: 50)
    here.rooms[("ROOM3", SPECTATOR)] = {sock}
    here.match_ids["ROOM3"] = 7
    here.playout.hold("ROOM3", here.playout.clock(), lambda: here.deliver("ROOM3", SPECTATOR, [frame(1)]))
    await here._heartbeat()
    await settle()
    assert got == [], "nothing is written before the frame's play-out moment"
    await asyncio.sleep(0.1)
    await settle()
    assert [f["type"] for f in got] == ["word_revealed", "heartbeat"] and got[1]["data"]["seq"] == 1
    sock.writer.close()


# -- two real web processes on Redis ----------------------------------------------------------------

WATCHERS_PER_PROCESS = 15


async def watch_raw(port: int, code: str, frames: list):
    """A watcher that keeps every frame exactly as it came (no dropping of repeats)."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/m/{code}/watch", origin=f"http://127.0.0.1:{port}") as ws:
        await ws.send(json.dumps({"type": "hello", "data": {"last_seq": 0}}))
        async for text in ws:
            frames.append(json.loads(text))
            if frames[-1].get("type") == "match_ended":
                return


@pytest.mark.integration
@pytest.mark.slow
async def test_one_subscription_per_process_delivers_every_seq_once_to_every_socket(tmp_path):
    from tests.conftest import need_service
    from tests.conductor.test_integration_faults import QUIZBOWL, REDIS_URL, ack, setup_script, stored, win_question
    from tests.redis_dbs import fresh_redis
    from tests.servers import free_port, wait_for_port
    from tests.stack import Client, Stack

    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    stack = Stack(tmp_path, REDIS_URL)
    try:
        info = stack.setup(setup_script(QUIZBOWL))
        code = info["matches"][0]["code"]
        ports = [stack.port, free_port()]
        stack.start_daphne()
        stack.procs.start("daphne-2", str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p",
                          str(ports[1]), "exhibition.asgi:application")
        stack.start_conductor("conductor")
        for port in ports:
            await wait_for_port(port)
        seen = {port: [[] for _ in range(WATCHERS_PER_PROCESS)] for port in ports}
        watchers = [asyncio.create_task(watch_raw(port, code, frames)) for port in ports for frames in seen[port]]
        mod = Client(ports[0], f"/ws/m/{code}/moderate", cookie=f"sessionid={info['session']}")
        ann = Client(ports[1], f"/ws/m/{code}/play", seat_token=info['matches'][0]['tokens']['Ann'])
        for c in (mod, ann):
            await c.open()
            await c.wait(lambda c=c: c.last_seq >= 1)
        for frames in (f for port in ports for f in seen[port]):
            while not any(x.get("type") == "snapshot" for x in frames):
                await asyncio.sleep(0.05)

        import redis

        members = redis.Redis.from_url(REDIS_URL).zcard(f"asgi:group:{match_group(code)}")
        assert members == 2, f"{2 * WATCHERS_PER_PROCESS} watchers on two processes are two group members, not {members}"

        await ack(mod, "start")
        for _ in range(2):
            await win_question(mod, ann)
            await ack(mod, "next")
        await asyncio.wait_for(asyncio.gather(*watchers), 60)
        last = stored(stack, info["matches"][0]["id"])[-1][0]
        for port in ports:
            for frames in seen[port]:
                seqs = [f["seq"] for f in frames if "seq" in f]
                snapshot = next(f["data"]["seq"] for f in frames if f["type"] == "snapshot")
                assert seqs == list(range(snapshot + 1, last + 1)), "every seq after the snapshot, once, in order"
        await mod.close()
        await ann.close()
    finally:
        stack.stop()


async def test_a_big_room_written_in_slices_gets_every_delivery_in_order(channel_layer, monkeypatch):
    import game.live.fanout

    monkeypatch.setattr(game.live.fanout, "SLICE", 3)
    received = {n: [] for n in range(10)}

    def quick(n):
        async def send_text(text):
            received[n].append(json.loads(text)["seq"])
        return send_text

    socks = [socket_with(quick(n), "ROOM3") for n in range(10)]
    here = hub()
    here.rooms[("ROOM3", SPECTATOR)] = set(socks)
    for seq in range(1, 6):  # five deliveries arrive before the first has reached every socket
        here.deliver("ROOM3", SPECTATOR, [frame(seq)])
    assert len(here.pending[("ROOM3", SPECTATOR)]) == 5, "the room is written a slice per turn of the loop"
    await settle()
    assert all(got == [1, 2, 3, 4, 5] for got in received.values()), received
    assert not here.pending, "nothing left to write"
    for sock in socks:
        sock.writer.close()


# -- one message per match, every audience in it -------------------------------------------------------

def socket_of(cls, send_text, code: str, key: str, team: str | None = None):
    """A socket of any audience past its hello, writing through a queue to `send_text` with the servers' own
    bound: the play-out delay can hand it several writes' frames at once, which is not falling behind."""
    sock = socket_with(send_text, code, limit=SLOW_SOCKET_FRAMES)
    sock.__class__, sock.key, sock.team = cls, key, team
    return sock


async def test_one_message_per_match_gives_each_audience_its_own_frames_and_no_player_the_answer(
        conductor, conduct, live_match, channel_layer):
    from asgiref.sync import sync_to_async

    from game.conductor.groups import MODERATOR, team_key
    from game.live.consumers import ModeratorSocket, PlayerSocket
    from game.engine.api import project
    from game.event_log import load_events

    match = await sync_to_async(live_match)()
    sent = []
    real_send = channel_layer.group_send

    async def counting_send(group, message):
        if message["type"] == "hub.frames":  # not the moderator's roster, which is no event
            sent.append((group, sorted(message.get("audiences", {}))))
        await real_send(group, message)

    channel_layer.group_send = counting_send
    channel_layer.hand_over = None  # the conductor's frames go through group_send, to be counted
    audiences = {"moderator": (ModeratorSocket, MODERATOR, None), "t0": (PlayerSocket, team_key("t0"), "t0"),
                 "t1": (PlayerSocket, team_key("t1"), "t1"), "spectator": (SpectatorSocket, SPECTATOR, None)}
    got = {name: [] for name in audiences}
    here = hub()
    for name, (cls, key, team) in audiences.items():
        async def send_text(text, name=name):
            if '"type":"roster"' not in text:
                got[name].append(text)
        await here.join(socket_of(cls, send_text, match.code, key, team), match.code, match.id, key)

    ann, mod = {"role": "player", "seat": match.seat_keys["Ann"], "team": "t0"}, {"role": "moderator"}
    replies = [await conduct(match.code, "start", mod)]
    for _ in range(3):
        replies.append(await conduct(match.code, "reveal", mod))
    replies.append(await conduct(match.code, "buzz", ann, {"seen": 3}))
    replies.append(await conduct(match.code, "answer", ann, {"text": "Jane Austen"}))
    assert all(r["ok"] for r in replies), replies
    for _ in range(1000):  # the judge's suggestion comes a moment after the answer
        events = (await sync_to_async(load_events)(match))[1:]  # all but match_created, stored before anyone joined
        if events[-1]["type"] == "judge_suggested":
            break
        await asyncio.sleep(0.01)
    for _ in range(1000):  # written at their stamp plus the play-out delay; a loaded machine takes longer
        if all(len(texts) == len(events) for texts in got.values()):
            break
        await asyncio.sleep(0.01)

    # One message per write: the six commands, and the judge's suggestion, which comes back from beside the
    # answer's write as a write of its own (game/conductor/beside.py).
    assert all(group == f"m-{match.code}" for group, _ in sent) and len(sent) == 7, "one message per write"
    assert all(keys == sorted(k for _, k, _ in audiences.values()) for _, keys in sent), "every audience in it"
    expected = {"moderator": [project(e, "moderator") for e in events],
                "t0": [project(e, "player", "t0") for e in events], "t1": [project(e, "player", "t1") for e in events],
                "spectator": [project(e, "spectator") for e in events]}
    for name, texts in got.items():
        assert [json.loads(t) for t in texts] == expected[name], f"the {name} socket gets its own frame of each event"
    assert any(json.loads(t)["type"] == "judge_suggested" for t in got["moderator"])
    for name in ("t0", "t1", "spectator"):
        assert not any('"judge_suggested"' in t or "Answer 0" in t for t in got[name]), \
            f"the {name} socket never sees the moderator's frame or the answer line while the question is open"
    for sock in [s for room in list(here.rooms.values()) for s in room]:
        sock.writer.close()


# -- Redis: every match's frames of one tick in one round trip -----------------------------------------

async def test_group_send_many_reaches_every_member_of_each_group_once_and_in_order():
    from serving.redis_layer import ResilientRedisChannelLayer
    from tests.conftest import need_service
    from tests.conductor.test_integration_faults import REDIS_URL
    from tests.redis_dbs import fresh_redis

    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    layer = ResilientRedisChannelLayer(hosts=[REDIS_URL])
    hubs = ["hub.one", "hub.two"]
    local = await layer.new_channel()  # a process-local channel, as a test listener has
    await layer.group_add("m-A", hubs[0])
    await layer.group_add("m-A", hubs[1])
    await layer.group_add("m-B", hubs[1])
    await layer.group_add("m-B", local)
    messages = [(group, {"type": "hub.frames", "match": group, "n": n}) for n in range(30) for group in ("m-A", "m-B")]
    await layer.group_send_many(messages)
    await layer.group_send("m-A", {"type": "hub.frames", "match": "m-A", "n": 30})

    async def drain(channel, count):
        return [(m["match"], m["n"]) for m in [await asyncio.wait_for(layer.receive(channel), 10) for _ in range(count)]]

    assert await drain(hubs[0], 31) == [("m-A", n) for n in range(31)]
    assert await drain(hubs[1], 61) == [(g, n) for n in range(30) for g in ("m-A", "m-B")] + [("m-A", 30)]
    assert await drain(local, 30) == [("m-B", n) for n in range(30)]
    assert await layer.connection(0).zcard(layer.prefix + hubs[0]) == 0, "nothing more waiting"
    await layer.flush()
    await layer.close_pools()


async def test_send_many_gives_a_commands_answer_and_its_events_in_one_trip_in_order_and_reports_a_full_channel():
    """The conductor's answer to a command and the command's frames go to Redis together: the web
    process that asked reads the answer first, then the frames; an answer to a full channel is
    reported for that send alone, and the frames still go."""
    from serving.redis_layer import CHANNEL, GROUP, ResilientRedisChannelLayer
    from tests.conftest import need_service
    from tests.conductor.test_integration_faults import REDIS_URL
    from tests.redis_dbs import fresh_redis

    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    layer = ResilientRedisChannelLayer(hosts=[REDIS_URL], capacity=4)
    await layer.group_add("m-D", "hub.asker")
    await layer.group_add("m-D", "hub.other")
    for n in range(4):
        await layer.send("hub.full", {"type": "filler", "n": n})
    full = await layer.send_many([(CHANNEL, "hub.asker", {"type": "conductor.reply", "n": 0}),
                                  (GROUP, "m-D", {"type": "hub.frames", "n": 1}),
                                  (CHANNEL, "hub.full", {"type": "conductor.reply", "n": 2}),
                                  (GROUP, "m-D", {"type": "hub.frames", "n": 3})])
    assert full == [2]
    assert [(m["type"], m["n"]) for m in await layer.receive_many("hub.asker", 10)] == \
        [("conductor.reply", 0), ("hub.frames", 1), ("hub.frames", 3)]
    assert [m["n"] for m in await layer.receive_many("hub.other", 10)] == [1, 3]
    assert [m["n"] for m in await layer.receive_many("hub.full", 10)] == [0, 1, 2, 3], "the full channel kept what it had"
    await layer.flush()
    await layer.close_pools()


@pytest.mark.parametrize("redis_version", ["7", "6"])
async def test_receive_many_takes_what_waits_in_order_and_waits_when_nothing_does(redis_version, monkeypatch):
    """In one round trip on Redis 7 (BZMPOP); a Redis without it answers "unknown command", and the
    reader goes on with a script and a blocking pop of one."""
    from redis.asyncio import Redis
    from redis.exceptions import ResponseError

    from serving.redis_layer import ResilientRedisChannelLayer
    from tests.conftest import need_service
    from tests.conductor.test_integration_faults import REDIS_URL
    from tests.redis_dbs import fresh_redis

    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    if redis_version == "6":
        async def no_bzmpop(*args, **kwargs):
            raise ResponseError("unknown command 'BZMPOP', with args beginning with: ")

        monkeypatch.setattr(Redis, "bzmpop", no_bzmpop)
    layer = ResilientRedisChannelLayer(hosts=[REDIS_URL])
    await layer.group_add("m-C", "hub.three")
    await layer.group_send_many([("m-C", {"type": "hub.frames", "n": n}) for n in range(5)])
    await layer.send("hub.three", {"type": "conductor.reply", "n": 5})
    first = await layer.receive_many("hub.three", 4)
    rest = await layer.receive_many("hub.three", 4)
    assert [m["n"] for m in first] == [0, 1, 2, 3] and [m["n"] for m in rest] == [4, 5], "oldest first, each once"
    later = asyncio.ensure_future(layer.receive_many("hub.three", 4))
    await asyncio.sleep(0.2)
    assert not later.done(), "nothing waits: it waits"
    await layer.send("hub.three", {"type": "conductor.reply", "n": 6})
    assert [m["n"] for m in await asyncio.wait_for(later, 10)] == [6]
    assert layer._blocking_pop_of_many == (redis_version == "7")
    await layer.flush()
    await layer.close_pools()


async def test_send_in_one_round_trip_keeps_order_capacity_and_process_local_channels():
    from channels.exceptions import ChannelFull

    from serving.redis_layer import ResilientRedisChannelLayer
    from tests.conftest import need_service
    from tests.conductor.test_integration_faults import REDIS_URL
    from tests.redis_dbs import fresh_redis

    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    layer = ResilientRedisChannelLayer(hosts=[REDIS_URL], capacity=3)
    for n in range(3):
        await layer.send("conductor", {"type": "command", "n": n})
    with pytest.raises(ChannelFull):
        await layer.send("conductor", {"type": "command", "n": 3})
    assert [(await layer.receive("conductor"))["n"] for _ in range(3)] == [0, 1, 2]
    inbox = await layer.new_channel()
    await layer.send(inbox, {"type": "conductor.reply", "ref": "r"})
    assert await asyncio.wait_for(layer.receive(inbox), 10) == {"type": "conductor.reply", "ref": "r"}
    await layer.flush()
    await layer.close_pools()

class RestartingRedis:
    """The in-memory layer, with Redis's run id and a switch that fails every call as a Redis that
    is restarting does; restart() forgets the groups, as a Redis without persistence does."""

    def __init__(self, layer):
        self.layer, self.run_id, self.down = layer, "first-run", False

    def __getattr__(self, name):
        return getattr(self.layer, name)

    def connection(self, index):
        redis = self

        class Connection:
            async def info(self, section):
                if redis.down:
                    raise ConnectionError("Error 111 connecting to Redis")
                return {"run_id": redis.run_id}

        return Connection()

    async def receive(self, channel):
        if self.down:
            await asyncio.sleep(0.01)
            raise ConnectionError("Error 111 connecting to Redis")
        return await self.layer.receive(channel)

    async def restart(self, seen: bool):
        self.down, self.run_id = seen, "second-run"
        await self.layer.flush()


@pytest.mark.parametrize("seen", [True, False], ids=["calls-failed", "retries-hid-it"])
@pytest.mark.django_db(transaction=True)
async def test_after_redis_restarts_the_hub_joins_again_and_its_sockets_catch_up_at_once(channel_layer, monkeypatch,
                                                                                         seen):
    """Redis restarts before the hub's first look at it (the first seconds of a match), with calls
    failing meanwhile or with the client's retries hiding it: the hub must still join its groups
    again, and tell its sockets the last seq at once, not at the next heartbeat."""
    from game.live import fanout
    monkeypatch.setattr(fanout, "PROBE_S", 0.05)
    redis = RestartingRedis(channel_layer)
    here = fanout.Hub(redis)
    texts = []

    async def send_text(text):
        texts.append(json.loads(text))

    sock = socket_with(send_text, "ROOM9")
    await here.join(sock, "ROOM9", 1, SPECTATOR)
    try:
        await redis.restart(seen)
        await asyncio.sleep(0.3)  # receives and probes fail meanwhile, if it was seen
        redis.down = False
        for _ in range(100):
            if any(t["type"] == "heartbeat" for t in texts):
                break
            await asyncio.sleep(0.02)
        assert any(t["type"] == "heartbeat" for t in texts), "the socket was told the last seq at once"
        await redis.group_send(match_group("ROOM9"), {"type": "hub.frames", "match": "ROOM9",
                                                      "audiences": {SPECTATOR: [frame(1)]}})
        for _ in range(100):
            if any(t.get("seq") == 1 for t in texts):
                break
            await asyncio.sleep(0.02)
        assert [t["seq"] for t in texts if "seq" in t] == [1], "frames sent after the restart reach the socket"
    finally:
        for task in here._tasks:
            task.cancel()
        await asyncio.gather(*here._tasks, return_exceptions=True)
