"""A seat's credential behaves like one: it never rides in a URL, it expires, the moderator can revoke
it, its player can give it up, and one device at a time plays it. Through the real ASGI stack and a
running conductor (in-memory layer), as tests/live/test_consumers.py."""
import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from game.live.fanout import hub
from game.models import MatchEvent, Seat
from game.live.seat_holders import claim_message

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def stored_types(match) -> list[str]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


@sync_to_async
def session_cookie(seats: dict) -> str:
    """A browser's session cookie whose session holds these seat tokens (match code -> token), as joining leaves it."""
    client = Client()
    session = client.session
    session["seats"] = seats
    session.save()
    return f"sessionid={session.session_key}"


async def closed(socket) -> dict:
    """Read a socket until the server closes it; the close message (code and reason)."""
    for _ in range(200):
        message = await socket.io.receive_output(timeout=20)
        if message["type"] == "websocket.close":
            return message
    raise AssertionError("the server never closed the socket")


async def player(connect, match, name, **how):
    socket = await connect(f"/ws/m/{match.code}/play", **({"token": match.tokens[name]} if not how else how))
    await socket.hello()
    await socket.until(lambda f: f["type"] == "snapshot")
    return socket


async def moderator(connect, match, cookie):
    socket = await connect(f"/ws/m/{match.code}/moderate", cookie=cookie)
    await socket.hello()
    await socket.until(lambda f: f["type"] == "snapshot")
    return socket


# -- where the token comes from -------------------------------------------------------------------

async def test_a_token_in_the_url_is_refused_even_a_good_one(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    socket = await connect(f"/ws/m/{match.code}/play?seat={match.tokens['Ann']}")
    assert await closed(socket) == {"type": "websocket.close", "code": 4403}
    both = await connect(f"/ws/m/{match.code}/play?seat=x", token=match.tokens["Ann"])  # the header does not excuse it
    assert (await closed(both))["code"] == 4403


async def test_the_header_or_the_browsers_session_opens_the_seat(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    by_header = await player(connect, match, "Ann")
    assert by_header.other[0]["data"]["seat"] == match.seat_keys["Ann"]
    cookie = await session_cookie({match.code: match.tokens["Bob"]})
    by_session = await player(connect, match, "Bob", cookie=cookie)
    welcome = by_session.other[0]["data"]
    assert (welcome["audience"], welcome["seat"], welcome["team"]) == ("player", match.seat_keys["Bob"], "t0")


async def test_a_session_without_this_matchs_seat_is_refused(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    other = await sync_to_async(live_match)(title="Other")
    cookie = await session_cookie({other.code: other.tokens["Ann"]})
    assert (await closed(await connect(f"/ws/m/{match.code}/play", cookie=cookie)))["code"] == 4403
    assert (await closed(await connect(f"/ws/m/{match.code}/play")))["code"] == 4403  # no session, no header


async def test_an_expired_token_is_refused(conductor, live_match, connect, settings):
    match = await sync_to_async(live_match)()
    settings.EXHIBITION_SEAT_TOKEN_HOURS = -1  # every token is older than that
    socket = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    assert (await closed(socket))["code"] == 4403


async def test_an_open_socket_is_closed_when_its_token_expires_and_told_why(conductor, live_match, connect, settings):
    from game.live.seat_tokens import EXPIRED, make_seat_token

    match = await sync_to_async(live_match)()
    settings.EXHIBITION_SEAT_TOKEN_HOURS = 3 / 3600  # three seconds
    ann_seat = await sync_to_async(Seat.objects.select_related("team__match").get)(team__match=match, name="Ann")
    token = await sync_to_async(make_seat_token)(ann_seat)
    ann = await player(connect, match, "Ann", token=token)
    assert ann.other[0]["type"] == "welcome", "a fresh token opens the seat"
    assert await closed(ann) == {"type": "websocket.close", "code": 4412, "reason": EXPIRED}
    again = await connect(f"/ws/m/{match.code}/play", token=token)
    assert (await closed(again))["code"] == 4403, "and the same token opens nothing any more"


# -- given up: removed by the moderator, or left -------------------------------------------------

async def test_the_moderator_removes_a_seat_and_its_token_stops_working(conductor, conduct, live_match, connect,
                                                                       staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderator(connect, match, staff_cookie)
    bob = await player(connect, match, "Bob")
    ann = await player(connect, match, "Ann")

    ack = await mod.command("kick", {"seat": match.seat_keys["Bob"]})
    assert ack["type"] == "ack"
    assert await closed(bob) == {"type": "websocket.close", "code": 4410,
                                 "reason": "The moderator removed you from this seat."}
    left = await ann.event("seat_left")  # every screen hears it
    assert left["data"] == {"seat": match.seat_keys["Bob"], "team": "t0", "by": "moderator", "captain": None}
    assert (await stored_types(match))[-1] == "seat_left"

    again = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    assert (await closed(again))["code"] == 4403
    await mod.command("start")
    refused = await conduct(match.code, "buzz", {"role": "player", "seat": match.seat_keys["Bob"], "team": "t0"})
    assert refused["error"]["code"] == "seat_left"  # a command already on its way is refused too
    twice = await mod.command("kick", {"seat": match.seat_keys["Bob"]})
    assert twice["data"]["code"] == "stale"
    assert (await ann.command("ping"))["type"] == "pong"  # the rest of the team plays on


async def test_a_moderator_command_names_the_seat_it_removes(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderator(connect, match, staff_cookie)
    assert (await mod.command("kick"))["data"]["code"] == "bad_shape"
    ann = await player(connect, match, "Ann")
    assert (await ann.command("kick", {"seat": match.seat_keys["Bob"]}))["data"]["code"] == "forbidden"


async def test_a_player_leaves_the_captaincy_passes_and_the_name_is_free_again(conductor, live_match, connect,
                                                                              staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderator(connect, match, staff_cookie)
    ann = await player(connect, match, "Ann")  # the captain
    bob = await player(connect, match, "Bob")

    assert (await ann.command("leave", {"seat": match.seat_keys["Bob"]}))["type"] == "ack"  # only ever their own
    assert await closed(ann) == {"type": "websocket.close", "code": 4411, "reason": "You left this match."}
    left = await bob.event("seat_left")
    assert left["data"] == {"seat": match.seat_keys["Ann"], "team": "t0", "by": "player",
                            "captain": match.seat_keys["Bob"]}
    seats = await sync_to_async(lambda: {s.name: s for s in Seat.objects.filter(team__match=match)})()
    assert seats["Ann"].left is not None and not seats["Ann"].captain and seats["Bob"].captain
    assert (await closed(await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])))["code"] == 4403

    @sync_to_async
    def join_again():
        cache.clear()
        browser = Client()
        team = match.teams.get(position=0)
        return browser.post(f"/m/{match.code}/join", {"name": "Ann", "team": team.pk}), browser

    joined, browser = await join_again()  # answered once the conductor stored the join
    assert joined["Location"] == f"/m/{match.code}/play"
    seat = (await mod.event("seat_joined"))["data"]["seat"]
    assert seat["name"] == "Ann" and seat["id"] != match.seat_keys["Ann"] and not seat["captain"]
    newcomer = await player(connect, match, "Ann", cookie=f"sessionid={browser.cookies['sessionid'].value}")
    assert newcomer.other[0]["data"]["seat"] == seat["id"]


# -- one live device per seat --------------------------------------------------------------------

async def test_a_second_device_takes_the_seat_over(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderator(connect, match, staff_cookie)
    phone = await player(connect, match, "Ann")
    laptop = await player(connect, match, "Ann")
    assert await closed(phone) == {"type": "websocket.close", "code": 4409,
                                   "reason": "This seat is now playing on another device."}
    await mod.command("start")
    await mod.command("reveal")
    assert (await laptop.command("buzz", {"seen": 1}))["type"] == "ack"  # the newer device plays on


async def test_a_newer_claim_from_another_web_process_closes_the_seat_here(conductor, live_match, connect,
                                                                          channel_layer):
    from game.conductor.groups import match_group

    match = await sync_to_async(live_match)()
    ann = await player(connect, match, "Ann")
    here = hub().seats.holders[(match.code, match.seat_keys["Ann"])]
    other_process = await channel_layer.new_channel()
    await channel_layer.group_add(match_group(match.code), other_process)

    older = (here.claim[0] - 1, "zzzz")  # another process's claim made before ours: ours stands, and says so again
    await channel_layer.group_send(match_group(match.code), claim_message(match.code, match.seat_keys["Ann"], older))
    for _ in range(5):
        heard = await channel_layer.receive(other_process)
        if heard["type"] == "hub.seat_claim" and heard["claim"] == list(here.claim):
            break
    else:
        raise AssertionError("the process did not answer an older claim with its own")
    assert (await ann.command("ping"))["type"] == "pong"

    newer = (here.claim[0] + 1, "0000")
    await channel_layer.group_send(match_group(match.code), claim_message(match.code, match.seat_keys["Ann"], newer))
    assert (await closed(ann))["code"] == 4409
