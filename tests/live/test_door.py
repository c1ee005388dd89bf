"""The door of the match sockets (game/live/door.py): a seat's sockets that a budget refuses are turned
away before the session, the login or a consumer does any work, and a loop of them is paced by the
door. Through the real ASGI websocket stack, as tests/live/test_consumers_seats.py."""
import json
import uuid

import pytest
from asgiref.sync import sync_to_async

from game import command_budgets as budgets
from game.live import door
from game.live.consumers import PlayerSocket
from tests.live.test_consumers_seats import closed, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def consumers_started(monkeypatch):
    """How many player consumers got as far as their connect()."""
    started = []
    connect = PlayerSocket.connect

    async def counted(self):
        started.append(self)
        return await connect(self)

    monkeypatch.setattr(PlayerSocket, "connect", counted)
    return started


@pytest.fixture
def short_hold(monkeypatch):
    monkeypatch.setattr(door, "HOLD_S", 0.3)


async def test_a_forged_or_foreign_token_is_turned_away_at_the_door(conductor, live_match, connect, consumers_started):
    match, other = await sync_to_async(live_match)(), await sync_to_async(live_match)()
    forged = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"][:-2] + "xx")
    assert (await closed(forged))["code"] == 4403
    foreign = await connect(f"/ws/m/{match.code}/play", token=other.tokens["Ann"])
    assert (await closed(foreign))["code"] == 4403, "a token opens only its own match"
    assert consumers_started == [], "no consumer was made for them (no session read, no database)"
    good = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    await good.hello()
    assert good.other[0]["type"] == "welcome"


async def test_a_seat_that_opens_in_a_loop_is_held_then_told_to_wait_and_its_frames_go_unread(
        conductor, live_match, connect, consumers_started, short_hold):
    match = await sync_to_async(live_match)()
    burst = int(budgets.SOCKET_OPENS[0])
    for _ in range(burst):
        await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    assert len(consumers_started) == burst
    refused = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    assert refused.connected, "accepted, so the client sees the close code"
    await refused.io.send_to(text_data=json.dumps({"type": "hello", "data": {"last_seq": 0}}))
    message = await closed(refused)
    assert message["code"] == 4429, "too many opens for the seat: try again later"
    assert len(consumers_started) == burst, "the door answered it: no consumer, no welcome"
    other = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    await other.hello()
    assert other.other[0]["type"] == "welcome", "another seat of the match opens as usual"


async def test_a_held_socket_that_keeps_sending_is_closed_at_once(conductor, live_match, connect, monkeypatch):
    monkeypatch.setattr(door, "HOLD_S", 60.0)  # the frames, not the wait, end it
    match = await sync_to_async(live_match)()
    for _ in range(int(budgets.SOCKET_OPENS[0])):
        await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    refused = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    for n in range(door.HOLD_FRAMES_PER_S + 1):  # in well under a second
        await refused.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": f"p{n}"}))
    assert (await closed(refused))["code"] == 4429


async def test_a_browser_session_that_opens_in_a_loop_is_turned_away_before_its_session_is_read(
        conductor, live_match, connect, consumers_started, short_hold):
    match = await sync_to_async(live_match)()
    cookie = await session_cookie({match.code: match.tokens["Ann"]})
    burst = int(budgets.SOCKET_OPENS[0])
    for _ in range(burst):
        await connect(f"/ws/m/{match.code}/play", cookie=cookie)
    refused = await connect(f"/ws/m/{match.code}/play", cookie=cookie)
    assert (await closed(refused))["code"] == 4429
    assert len(consumers_started) == burst


async def test_a_seats_sockets_share_one_budget_of_frames_read(conductor, live_match, connect, monkeypatch):
    """Three sockets of one seat, each within its own bucket, together get the seat's frames and no more."""
    monkeypatch.setattr(budgets, "SEAT_FRAMES", (30.0, 0.001))
    match = await sync_to_async(live_match)()
    sockets = [await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"]) for _ in range(3)]
    for socket in sockets:
        for n in range(15):  # under a socket's own burst of 20
            await socket.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": f"p{n}"}))
    answers = [await socket.receive() for socket in sockets for _ in range(15)]
    pongs = [a for a in answers if a["type"] == "pong"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(pongs) == 30, "the seat's frames, however many sockets carry them"
    assert {a["data"]["code"] for a in refused} == {"slow_down"} and len(refused) == 15
    other = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    await other.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": "b"}))
    assert (await other.receive())["type"] == "pong", "another seat reads on"


# -- spectators: a budget per address ------------------------------------------------------------

async def watcher(code: str, address: str):
    """A spectator socket from `address` (as the server reads it: the socket's peer)."""
    from channels.testing import WebsocketCommunicator

    from exhibition.asgi import websocket_application
    from tests.conftest import LiveSocket

    io = WebsocketCommunicator(websocket_application, f"/ws/m/{code}/watch",
                               headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")])
    io.scope["client"] = (address, 40000)
    await io.connect(timeout=20)
    return LiveSocket(io)


async def test_one_address_opening_spectator_sockets_in_a_loop_is_turned_away_and_others_are_not(
        conductor, live_match, monkeypatch, short_hold):
    monkeypatch.setattr(budgets, "WATCH_OPENS_PER_ADDRESS", (3.0, 0.001))
    match = await sync_to_async(live_match)()
    opened = [await watcher(match.code, "192.0.2.7") for _ in range(3)]
    refused = await watcher(match.code, "192.0.2.7")
    assert (await closed(refused))["code"] == 4429
    for socket in (await watcher(match.code, "192.0.2.8"), await watcher(match.code, "127.0.0.1")):
        await socket.hello()
        assert socket.other[0]["type"] == "welcome", "another address, and the server's own machine, watch on"
    for socket in opened:
        await socket.io.disconnect()


async def test_one_address_shares_one_budget_of_frames_across_its_spectator_sockets(conductor, live_match,
                                                                                   monkeypatch):
    monkeypatch.setattr(budgets, "WATCH_FRAMES_PER_ADDRESS", (10.0, 0.001))
    match = await sync_to_async(live_match)()
    sockets = [await watcher(match.code, "192.0.2.9") for _ in range(3)]
    for socket in sockets:
        for n in range(5):
            await socket.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": f"p{n}"}))
    answers = [await socket.receive() for socket in sockets for _ in range(5)]
    assert [a["type"] for a in answers].count("pong") == 10
    assert {a["data"]["code"] for a in answers if a["type"] == "error"} == {"slow_down"}
    other = await watcher(match.code, "192.0.2.10")
    await other.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": "x"}))
    assert (await other.receive())["type"] == "pong"
    for socket in sockets + [other]:
        await socket.io.disconnect()


async def test_a_matchs_spectators_share_one_budget_of_resyncs(conductor, live_match, connect, monkeypatch):
    monkeypatch.setattr(budgets, "WATCH_CATCH_UPS", (2.0, 0.001))
    match = await sync_to_async(live_match)()
    screens = [await connect(f"/ws/m/{match.code}/watch") for _ in range(3)]
    for screen in screens:
        await screen.hello()
        await screen.until(lambda f: f["type"] == "snapshot")
    answers = []
    for screen in screens:
        await screen.send("resync")
        answers.append(await screen.until(lambda f: f["type"] in ("snapshot", "error")))
    assert [a["type"] for a in answers] == ["snapshot", "snapshot", "error"]
    assert answers[-1]["data"]["code"] == "slow_down"


async def test_a_socket_that_keeps_sending_past_its_budget_is_closed_and_meets_the_door(conductor, live_match,
                                                                                      connect):
    from game.live.consumers import REFUSED_BEFORE_CLOSE, TOO_FAST

    match = await sync_to_async(live_match)()
    flood = await connect(f"/ws/m/{match.code}/watch")
    burst = 20  # a socket's own bucket (game/live/consumers.py MatchSocket.rate)
    for n in range(burst + REFUSED_BEFORE_CLOSE):
        await flood.io.send_to(text_data=json.dumps({"type": "ping", "data": {}, "ref": f"p{n}"}))
    answers = []
    while True:
        message = await flood.io.receive_output(timeout=20)
        if message["type"] == "websocket.close":
            break
        answers.append(json.loads(message["text"]))
    assert message == {"type": "websocket.close", "code": 4429, "reason": TOO_FAST}
    assert [a["type"] for a in answers].count("pong") == burst
    assert len(answers) == burst + REFUSED_BEFORE_CLOSE - 1, "refused ones answered slow_down, until the close"


async def test_each_refusal_in_a_row_holds_the_next_socket_twice_as_long(conductor, live_match, connect, monkeypatch):
    """A loop that re-opens whenever it is refused waits longer each time; a socket let in starts it over."""
    held = []

    async def hold(receive, seconds):
        held.append(seconds)
        return True

    monkeypatch.setattr(door, "_hold", hold)
    match = await sync_to_async(live_match)()
    for _ in range(int(budgets.SOCKET_OPENS[0])):
        await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    for _ in range(6):
        assert (await closed(await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])))["code"] == 4429
    assert held == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


async def test_a_buzzer_station_paces_each_of_its_seats_on_its_own():
    """A station's one session opens a socket per seat it holds: a dozen at once all get in, and one
    seat's socket opening in a loop is paced like a phone's, without holding the others back."""
    code = f"ST{uuid.uuid4().hex[:8]}"  # a match no other test's budgets have counted

    def scope(seat):
        return {"type": "websocket", "path": f"/ws/m/{code}/station/s{seat}", "query_string": b"",
                "headers": [(b"cookie", b"sessionid=station-session")]}

    assert [door.refusal(scope(seat)) for seat in range(1, 13)] == [None] * 12
    burst = int(budgets.SOCKET_OPENS[0])
    assert [door.refusal(scope(1)) for _ in range(burst - 1)] == [None] * (burst - 1)
    assert door.refusal(scope(1))[0] == 4429
    assert door.refusal(scope(2)) is None
