"""The embedded default: the web application starts the conductor itself, and `conduct` needs Redis."""
import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command

from exhibition.asgi import websocket_application
from game.conductor import embedded

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def embedded_app(channel_layer):
    yield embedded.ConductorStarter(websocket_application)
    await asyncio.to_thread(embedded.stop)


async def test_the_first_socket_starts_one_conductor_in_the_process(embedded_app, live_match, staff_cookie):
    match = await sync_to_async(live_match)()
    assert embedded.embedded_enabled()  # no REDIS_URL in the test settings
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"cookie", staff_cookie.encode())]
    io = WebsocketCommunicator(embedded_app, f"/ws/m/{match.code}/moderate", headers=headers)
    assert (await io.connect(timeout=20))[0]
    first = embedded._running["conductor"]
    await io.send_json_to({"type": "hello", "data": {"last_seq": 1}})
    await io.send_json_to({"type": "start", "ref": "go", "id": "first-start"})
    frames = []
    while len(frames) < 5:  # the moderator's roster frames come too, in between: not what this is about
        frame = await io.receive_json_from(timeout=20)
        if frame["type"] != "roster":
            frames.append(frame)
    assert frames[0]["type"] == "welcome"
    assert [f["type"] for f in frames if "seq" in f] == ["match_started", "question_started", "phase_started"]
    assert [f["ref"] for f in frames if f["type"] == "ack"] == ["go"]  # the ack may come before or after them
    assert embedded._running["thread"].name == "conductor" and embedded._running["thread"] is not threading.current_thread()
    again = WebsocketCommunicator(embedded_app, f"/ws/m/{match.code}/watch", headers=headers)
    await again.connect(timeout=20)
    assert embedded._running["conductor"] is first  # started once, not per socket
    await again.disconnect()
    await io.disconnect()


def test_conduct_refuses_to_run_without_a_shared_channel_layer(settings):
    settings.REDIS_URL = ""
    with pytest.raises(CommandError, match="set REDIS_URL"):
        call_command("conduct")
