"""Shared test fixtures: the shared data folder and services that some tests need."""
import os
import uuid
from pathlib import Path

import pytest
from django.conf import settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def need_service(available: bool, reason: str):
    """Skip on a laptop without the service; fail under CI=true, where .ci/run must provide it."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = Path(settings.EXHIBITION_DATA_DIR)
    need_service(path.is_dir(), f"the shared question data is not at {path} (set EXHIBITION_DATA_DIR)")
    return path


# -- live matches over websockets (conductor, consumers and integration tests) ----------------------

LIVE_WORDS = "One two three four five six seven (*) eight nine ten, eleven twelve thirteen fourteen fifteen."


@pytest.fixture
def channel_layer():
    """A fresh in-memory channel layer for this test's event loop."""
    from channels.layers import channel_layers, get_channel_layer

    channel_layers.backends = {}
    yield get_channel_layer()
    channel_layers.backends = {}


@pytest.fixture
def live_match(transactional_db):
    """Factory: a stored match with two human seats on team t0 and, optionally, bot seats on t1.

    Words are revealed by the moderator by default (reveal="moderator"), so play never races a clock.
    """
    from game.models import Packet, Question
    from game.live.seat_tokens import make_seat_token
    from game.match_setup import SeatSpec, TeamSpec, create_match_record

    def make(format_name="quizbowl", overrides=None, bots=(), questions=6, title="Live test", mates=()):
        """bots: (name, tier, config) on the computer's team, or (name, tier, config, play) with a seat's settings;
        mates: the same for AI teammates on the human team (game/engine/seat_table.py)."""
        packet = Packet.objects.create(slug=f"live-{Packet.objects.count()}", title="Live packet")
        kind = "tossup" if format_name == "quizbowl" else "short"
        for i in range(questions):
            Question.objects.create(packet=packet, position=i, kind=kind, text=f"{LIVE_WORDS} Number {i}?",
                                    answer=f"Answer {i}")
        rules = {"reveal": "moderator", "questions": 2, "tiebreakers": 0, **(overrides or {})}
        bot = lambda name, tier, config, play=None: SeatSpec(name, kind="bot", tier=tier, config=config,  # noqa: E731
                                                             play=play or {})
        humans = TeamSpec("Humans", [SeatSpec("Ann", captain=True), SeatSpec("Bob"), *(bot(*m) for m in mates)],
                          kind="human")
        computer = TeamSpec("Computer", [bot(*b) for b in bots])
        match = create_match_record(title=title, packet=packet, format_name=format_name, overrides=rules,
                                    teams=[humans, computer])
        seats = {s.name: s for t in match.teams.all() for s in t.seats.all()}
        match.tokens = {name: make_seat_token(seat) for name, seat in seats.items()}
        match.seat_keys = {name: seat.key for name, seat in seats.items()}
        return match

    return make


@pytest.fixture
def staff_cookie(transactional_db):
    """A session cookie header of a logged-in staff user, as a browser would send it."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("moderator", password="x", is_staff=True)
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


class FakeBots:
    """Stands in for bots.dispatch.send_query: records each query; the test answers for the bot."""

    def __init__(self):
        self.queries: list[dict] = []

    def __call__(self, payload, tier, loop=None):
        self.queries.append(payload)

    async def wait_for(self, count: int) -> dict:
        import asyncio

        for _ in range(500):
            if len(self.queries) >= count:
                return self.queries[count - 1]
            await asyncio.sleep(0.01)
        raise AssertionError(f"the conductor sent {len(self.queries)} bot queries, not {count}")


@pytest.fixture
async def conductor(channel_layer, transactional_db):
    """A conductor serving the in-memory layer, with FakeBots in place of the bot workers."""
    import asyncio

    from game.conductor.core import Conductor

    running = Conductor(layer=channel_layer, send_query=FakeBots())
    task = asyncio.get_running_loop().create_task(running.run())
    yield running
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


class LiveSocket:
    """A test client of one websocket: sends frames with refs, keeps the event frames it applied."""

    def __init__(self, communicator, timeout: float = 20):
        self.io = communicator
        self.timeout = timeout
        self.frames: list[dict] = []  # event frames applied, in order (seq <= last seq dropped)
        self.other: list[dict] = []  # everything else (welcome, snapshot, ack, error, ...)
        self.last_seq = 0
        self.looked = 0  # frames before this index were already returned by event() or passed over
        self.refs = 0

    async def receive(self) -> dict:
        frame = await self.io.receive_json_from(timeout=self.timeout)
        if "seq" in frame:
            if frame["seq"] > self.last_seq:
                self.frames.append(frame)
                self.last_seq = frame["seq"]
        else:
            if frame["type"] == "snapshot":
                self.last_seq = frame["data"]["seq"]
            self.other.append(frame)
        return frame

    async def until(self, test, limit: int = 200) -> dict:
        """Receive until a frame passes test(frame); return it."""
        for _ in range(limit):
            frame = await self.receive()
            if test(frame):
                return frame
        raise AssertionError(f"no matching frame in {limit} frames")

    async def event(self, kind: str) -> dict:
        """The next event frame of `kind` this test has not looked at yet: it may have arrived while
        the test waited for an ack (frames and acks travel separately and may pass each other)."""
        for index in range(self.looked, len(self.frames)):
            if self.frames[index]["type"] == kind:
                self.looked = index + 1
                return self.frames[index]
        frame = await self.until(lambda f: f.get("type") == kind and "seq" in f)
        self.looked = len(self.frames)
        return frame

    async def send(self, kind: str, data: dict | None = None, **extra) -> str:
        """Send a frame with a fresh ref; a command also gets a fresh id unless one is given (a retry)."""
        self.refs += 1
        ref = f"r{self.refs}"
        frame = {"type": kind, "data": data or {}, "ref": ref}
        if kind not in ("hello", "resync", "ping"):
            frame["id"] = f"test-{uuid.uuid4().hex}"
        frame.update(extra)
        await self.io.send_json_to(frame)
        return ref

    async def command(self, kind: str, data: dict | None = None) -> dict:
        """Send a command and return its ack or error frame."""
        ref = await self.send(kind, data)
        return await self.until(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error", "pong"))

    async def hello(self, last_seq: int | None = None) -> dict:
        await self.io.send_json_to({"type": "hello", "data": {"last_seq": self.last_seq if last_seq is None else last_seq}})
        return await self.until(lambda f: f["type"] == "welcome")

    async def close(self):
        await self.io.disconnect()


@pytest.fixture
async def connect():
    """Factory: open a websocket to the real ASGI websocket stack (origin check, sessions, routes)."""
    from channels.testing import WebsocketCommunicator

    from exhibition.asgi import websocket_application

    opened = []

    async def open_socket(path: str, cookie: str | None = None, origin: str = "http://127.0.0.1",
                          token: str | None = None):
        headers = [(b"host", b"127.0.0.1"), (b"origin", origin.encode())]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        if token is not None:  # a seat token, as non-browser clients send it (game/live/seat_tokens.py)
            headers.append((b"x-seat-token", token.encode()))
        io = WebsocketCommunicator(websocket_application, path, headers=headers)
        connected, _ = await io.connect(timeout=20)
        socket = LiveSocket(io)
        socket.connected = connected
        opened.append(socket)
        return socket

    yield open_socket
    for socket in opened:
        await socket.io.disconnect()


class GroupListener:
    """A channel in a match's group, as a web process's hub is, reading one audience: the frames the
    conductor broadcast to that audience, decoded, in order."""

    def __init__(self, layer, channel: str, key: str):
        self.layer, self.channel, self.key = layer, channel, key
        self.frames: list[dict] = []
        self._waiting: list[dict] = []

    async def next(self, kind: str | None = None, limit: int = 200) -> dict:
        import asyncio
        import json

        for _ in range(limit):
            while not self._waiting:
                message = await asyncio.wait_for(self.layer.receive(self.channel), 20)
                if message["type"] == "hub.roster":  # the moderator's roster: not an event frame
                    continue
                assert message["type"] == "hub.frames"
                self._waiting.extend(json.loads(text) for _, text in message["audiences"][self.key])
            frame = self._waiting.pop(0)
            self.frames.append(frame)
            if kind is None or frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame in {limit} frames")


@pytest.fixture
def listen(channel_layer):
    """Factory: await listen(code, audience key) -> a GroupListener already in the match's group."""
    from game.conductor.groups import match_group

    async def join(code: str, key: str) -> GroupListener:
        channel = await channel_layer.new_channel()
        await channel_layer.group_add(match_group(code), channel)
        return GroupListener(channel_layer, channel, key)

    return join


@pytest.fixture
def conduct(channel_layer):
    """await conduct(code, type, actor, data=None, received=None, command_id=None) -> the conductor's reply."""
    import asyncio

    from game.conductor.groups import CONDUCTOR_CHANNEL

    async def send(code: str, kind: str, actor: dict, data: dict | None = None, received: int | None = None,
                   command_id: str | None = None):
        reply_to = await channel_layer.new_channel()
        command = {"type": kind, "data": data or {}, "actor": actor}
        if received is not None:
            command["received"] = received
        await channel_layer.send(CONDUCTOR_CHANNEL, {"type": "command", "match": code, "command": command,
                                                     "id": command_id, "reply_to": reply_to, "ref": kind})
        return await asyncio.wait_for(channel_layer.receive(reply_to), 20)

    return send
