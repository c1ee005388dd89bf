"""Frames a client should never send, sent to a real Daphne (serving/websocket_limits.py).

A message over the bound (64 KiB) and a text frame that is not UTF-8 end that socket with a close
frame whose code says why (1009, 1007), never a dropped connection (1006): before, Daphne's
autobahn dropped the TCP connection on a 2 MB message. Nothing else notices: the match's other
sockets stay open and the match goes on. A message between 4096 bytes and the bound gets the
`too_big` error and its socket stays open.
"""
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from serving.websocket_limits import MAX_MESSAGE_BYTES
from tests.servers import ROOT, Processes, free_port, wait_for_port

pytestmark = [pytest.mark.integration]

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.match_setup import SeatSpec, TeamSpec, create_match_record
packet = Packet.objects.create(slug="frames", title="Frames")
Question.objects.create(packet=packet, position=0, kind="tossup", text="One two three four five?", answer="Five")
codes = [create_match_record(title=f"Frames {n}", packet=packet, format_name="quizbowl",
                             overrides={"reveal": "moderator", "questions": 1, "tiebreakers": 0},
                             teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]),
                                    TeamSpec("Others", [SeatSpec("Zed")])]).code for n in range(MATCHES)]
client = Client()
client.force_login(get_user_model().objects.create_user("mod", password="x", is_staff=True))
print(json.dumps({"codes": codes, "session": client.cookies["sessionid"].value}))
"""


@pytest.fixture(scope="module")
def daphne(tmp_path_factory):
    """Daphne as compose starts it, embedded (no Redis), with a match for each kind of bad message."""
    folder = tmp_path_factory.mktemp("daphne-frames")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", DEBUG="1", DJANGO_SETTINGS_MODULE="exhibition.settings",
               LOG_LEVEL="WARNING")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True)
    made = subprocess.run([*manage, "shell", "-c", f"MATCHES = {len(BAD)}\n{SETUP}"], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    info = json.loads(made.stdout.strip().splitlines()[-1])
    procs = Processes(env, folder)
    port = free_port()
    procs.start("daphne", str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                "exhibition.asgi:application")
    asyncio.run(wait_for_port(port))
    try:
        yield dict(info, port=port)
    finally:
        procs.stop_all()


async def opened(server: dict, code: str, audience: str = "watch"):
    """A socket that has said hello and had its welcome and snapshot."""
    from websockets.asyncio.client import connect

    cookie = {"Cookie": f"sessionid={server['session']}"} if audience == "moderate" else None
    ws = await connect(f"ws://127.0.0.1:{server['port']}/ws/m/{code}/{audience}",
                       origin=f"http://127.0.0.1:{server['port']}", additional_headers=cookie, max_size=None)
    await ws.send(json.dumps({"type": "hello", "data": {"last_seq": 0}}))
    kinds = [json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] for _ in range(2)]
    assert kinds == ["welcome", "snapshot"]
    return ws


async def until(ws, test) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if test(frame):
            return frame


async def answer(ws, frame: dict) -> dict:
    """Send a frame and return the reply carrying its ref."""
    await ws.send(json.dumps(frame))
    return await until(ws, lambda reply: reply.get("ref") == frame["ref"])


async def send_text_bytes(ws, payload: bytes):
    """A text frame with these bytes, UTF-8 or not (the client library would refuse to make one)."""
    async with ws.send_context():
        ws.protocol.send_text(payload)


BAD = {
    "2 MB": lambda ws: ws.send("x" * 2_000_000),
    "10 MB": lambda ws: ws.send("x" * 10_000_000),
    "80 KiB in ten fragments": lambda ws: ws.send(["y" * 8192] * 10),
    "invalid UTF-8": lambda ws: send_text_bytes(ws, b'{"type": "ping", "ref": "\xff\xfe"}'),
}


@pytest.mark.parametrize("what, close_code", [("2 MB", 1009), ("10 MB", 1009), ("80 KiB in ten fragments", 1009),
                                              ("invalid UTF-8", 1007)])
async def test_a_message_over_the_bound_or_not_utf8_is_closed_with_a_code_that_says_why(daphne, what, close_code):
    import websockets

    match = daphne["codes"][list(BAD).index(what)]
    moderator = await opened(daphne, match, "moderate")
    neighbour = await opened(daphne, match)
    sender = await opened(daphne, match)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(BAD[what](sender), 60)  # the close may come while it is still sending
        while True:
            await asyncio.wait_for(sender.recv(), 20)
    assert closed.value.rcvd is not None, "a close frame came, not a dropped connection (1006)"
    assert closed.value.rcvd.code == close_code and closed.value.rcvd.reason

    # Nobody else notices: the other sockets answer, and the match starts and reaches them.
    assert (await answer(neighbour, {"type": "ping", "ref": "still-here"}))["type"] == "pong"
    assert (await answer(moderator, {"type": "start", "ref": "go", "id": "start-after-bad-frame"}))["type"] == "ack"
    assert (await until(neighbour, lambda f: f.get("type") == "match_started"))["seq"] == 2
    again = await opened(daphne, match)  # and the client that sent it comes back, as after any close
    for ws in (again, moderator, neighbour):
        await ws.close()


async def test_a_message_between_4096_bytes_and_the_bound_gets_too_big_and_the_socket_stays_open(daphne):
    ws = await opened(daphne, daphne["codes"][0])
    for size in (5000, MAX_MESSAGE_BYTES - 100):
        frame = {"type": "ping", "ref": f"big-{size}", "data": {"pad": "x" * size}}
        await ws.send(json.dumps(frame))
        refused = json.loads(await asyncio.wait_for(ws.recv(), 20))
        assert refused["type"] == "error" and refused["data"]["code"] == "too_big"
    pong = await answer(ws, {"type": "ping", "ref": "after"})
    assert pong["type"] == "pong"
    await ws.close()
