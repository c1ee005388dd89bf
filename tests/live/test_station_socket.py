"""A buzzer station's seats (game/live/station_seats.py): one browser session holds several players'
seat tokens, each seat plays on its own socket ws/m/<code>/station/<seat>, and the seat in the path only
picks which of the session's own seats: a seat the session does not hold, a token filed under another
seat's key, or anything in the query is refused. A buzz from a station socket is that seat's own."""
import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from game.live.station_seats import SESSION_STATION
from tests.live.test_consumers_seats import closed

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def station_cookie(code: str, seats: dict) -> str:
    """A station browser's session cookie holding these seats' tokens (seat key -> token) in match `code`."""
    client = Client()
    session = client.session
    session[SESSION_STATION] = {code: seats}
    session.save()
    return f"sessionid={session.session_key}"


async def test_one_station_session_plays_each_of_its_seats_on_that_seats_own_socket(conductor, live_match, connect,
                                                                                  staff_cookie):
    match = await sync_to_async(live_match)()
    keys, tokens = match.seat_keys, match.tokens
    cookie = await station_cookie(match.code, {keys["Ann"]: tokens["Ann"], keys["Bob"]: tokens["Bob"]})
    sockets = {}
    for name in ("Ann", "Bob"):
        sockets[name] = await connect(f"/ws/m/{match.code}/station/{keys[name]}", cookie=cookie)
        await sockets[name].hello()
        await sockets[name].until(lambda f: f["type"] == "snapshot")
        welcome = sockets[name].other[0]["data"]
        assert (welcome["audience"], welcome["seat"], welcome["team"]) == ("player", keys[name], "t0")
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await mod.hello()
    await mod.command("start")
    await mod.command("reveal")
    await sockets["Bob"].until(lambda f: f.get("type") == "word_revealed")
    assert (await sockets["Bob"].command("buzz", {"seen": 1}))["type"] == "ack"
    assert (await mod.event("buzz"))["data"]["seat"] == keys["Bob"]  # Bob's command, from Bob's seat


async def test_a_station_opens_only_the_seats_its_session_holds(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    keys, tokens = match.seat_keys, match.tokens
    only_ann = await station_cookie(match.code, {keys["Ann"]: tokens["Ann"]})
    assert (await closed(await connect(f"/ws/m/{match.code}/station/{keys['Bob']}", cookie=only_ann)))["code"] == 4403
    misfiled = await station_cookie(match.code, {keys["Bob"]: tokens["Ann"]})  # Ann's token under Bob's key
    assert (await closed(await connect(f"/ws/m/{match.code}/station/{keys['Bob']}", cookie=misfiled)))["code"] == 4403
    query = f"/ws/m/{match.code}/station/{keys['Ann']}?seat={tokens['Ann']}"
    assert (await closed(await connect(query, cookie=only_ann)))["code"] == 4403
    phone = await sync_to_async(lambda: Client().session)()
    phone["seats"] = {match.code: tokens["Ann"]}  # a phone's seat is not a station's
    await sync_to_async(phone.save)()
    socket = await connect(f"/ws/m/{match.code}/station/{keys['Ann']}", cookie=f"sessionid={phone.session_key}")
    assert (await closed(socket))["code"] == 4403
    other = await sync_to_async(live_match)(title="Other")
    elsewhere = await station_cookie(other.code, {other.seat_keys["Ann"]: other.tokens["Ann"]})
    socket = await connect(f"/ws/m/{match.code}/station/{other.seat_keys['Ann']}", cookie=elsewhere)
    assert (await closed(socket))["code"] == 4403
