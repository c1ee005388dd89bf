"""A race through real websockets: each phone measures the server's clock with pings, the server measures
each phone's round trip from the pings that echo its pongs, and a press made earlier on a slower link
takes the floor though its buzz arrives second (game/live/socket_clock.py, game/engine/buzzrace.py)."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tests.conftest import LIVE_WORDS

pytestmark = pytest.mark.django_db(transaction=True)
SLOW_LINK_MS = 450  # how long the slow phone's echo takes: the round trip the server measures for it
GRACE_MS = 500  # the widest window, so a test machine under load does not push the race past it


@sync_to_async
def two_teams_match():
    """A quizbowl match of two human teams, one player each; words revealed by the moderator."""
    from game.models import Packet, Question
    from game.live.seat_tokens import make_seat_token
    from game.match_setup import SeatSpec, TeamSpec, create_match_record

    packet = Packet.objects.create(slug="race", title="Race packet")
    for i in range(3):
        Question.objects.create(packet=packet, position=i, kind="tossup", text=f"{LIVE_WORDS} Number {i}?",
                                answer=f"Answer {i}")
    match = create_match_record(title="Race", packet=packet, format_name="quizbowl",
                                overrides={"reveal": "moderator", "questions": 2, "tiebreakers": 0,
                                           "buzz_grace_ms": GRACE_MS},
                                teams=[TeamSpec("Red", [SeatSpec("Ann", captain=True)]),
                                       TeamSpec("Blue", [SeatSpec("Cy", captain=True)])])
    seats = {s.name: s for t in match.teams.all() for s in t.seats.all()}
    match.tokens = {name: make_seat_token(seat) for name, seat in seats.items()}
    match.seat_keys = {name: seat.key for name, seat in seats.items()}
    return match


async def server_time(socket, echo: int | None = None) -> int:
    """One ping (echoing a pong's server_time, if given); the pong's server_time."""
    ref = await socket.send("ping", {} if echo is None else {"echo": echo})
    pong = await socket.until(lambda f: f.get("ref") == ref and f["type"] == "pong")
    return pong["data"]["server_time"]


async def probe(socket, echo_after_ms: int) -> None:
    """What the page does (static/js/server-clock.js): a ping, then at once (here: after the phone's
    link delay) a ping echoing its pong, from which the server measures the round trip."""
    for _ in range(3):
        first = await server_time(socket)
        await asyncio.sleep(echo_after_ms / 1000)
        await server_time(socket, echo=first)


async def reading(connect, staff_cookie, words: int):
    match = await two_teams_match()
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await mod.hello()
    phones = {}
    for name in ("Ann", "Cy"):
        phones[name] = await connect(f"/ws/m/{match.code}/play", token=match.tokens[name])
        await phones[name].hello()
    await mod.command("start")
    for _ in range(words):
        await mod.command("reveal")
    for phone in phones.values():
        await phone.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] == words - 1)
    return match, mod, phones


async def test_a_press_made_earlier_on_a_slower_link_takes_the_floor_though_its_buzz_arrives_second(
        conductor, connect, staff_cookie):
    match, mod, phones = await reading(connect, staff_cookie, words=3)
    ann, cy = phones["Ann"], phones["Cy"]
    await probe(ann, 0)
    await probe(cy, SLOW_LINK_MS)
    cy_pressed = await server_time(cy)  # Cy presses now, on the third word; the buzz is still on its way
    await asyncio.sleep(0.03)
    ann_pressed = await server_time(ann)  # Ann presses 30 ms later on a fast link, and her buzz arrives first
    assert (await ann.command("buzz", {"seen": 3, "pressed": ann_pressed}))["type"] == "ack"
    ack = await cy.command("buzz", {"seen": 3, "pressed": cy_pressed})
    assert ack["type"] == "ack", ack
    buzzes = [await mod.event("buzz"), await mod.event("buzz")]
    assert [b["data"]["seat"] for b in buzzes] == [match.seat_keys["Ann"], match.seat_keys["Cy"]]
    won = buzzes[1]["data"]
    assert won["replaces"] == match.seat_keys["Ann"] and won["received"] > buzzes[0]["data"]["received"]
    assert won["pressed"] == cy_pressed and won["clamp"] is None and won["word"] == 3
    # Ann's own correction is bounded by her quick round trip: her press counts from at least arrival - rtt.
    assert won["margin"] == buzzes[0]["data"]["pressed"] - cy_pressed >= ann_pressed - cy_pressed >= 30
    assert won["rtt"] >= SLOW_LINK_MS, "the round trip the server measured itself"
    # Every phone is told of the race as the buzz: who took the floor from whom.
    assert (await ann.event("buzz"))["data"]["seat"] == match.seat_keys["Ann"]
    assert (await ann.event("buzz"))["data"]["replaces"] == match.seat_keys["Ann"]


async def stored_log(match) -> list[tuple[int, str]]:
    from game.models import MatchEvent

    return await sync_to_async(lambda: list(MatchEvent.objects.filter(match=match).order_by("seq")
                                            .values_list("seq", "type")))()


async def test_a_press_claimed_before_the_word_reached_the_phone_earns_nothing(conductor, connect, staff_cookie):
    match, mod, phones = await reading(connect, staff_cookie, words=3)
    ann, cy = phones["Ann"], phones["Cy"]
    await probe(cy, SLOW_LINK_MS)
    third = next(f for f in cy.frames if f["type"] == "word_revealed" and f["data"]["index"] == 2)
    assert (await ann.command("buzz", {"seen": 3}))["type"] == "ack"
    refused = await cy.command("buzz", {"seen": 3, "pressed": third["t"] - 1})  # before the word went out
    assert refused["type"] == "error" and refused["data"]["code"] == "beaten"
    record = await mod.event("buzz_refused")
    assert record["data"]["clamp"] == "before_word" and record["data"]["pressed"] == record["data"]["received"]
    stored = await stored_log(match)
    assert (record["seq"], "buzz_refused") in stored, "the moderator's record is the stored one"
    assert [seq for seq, _ in stored] == list(range(1, len(stored) + 1)), "and the log has no gap"


async def test_a_phone_whose_round_trip_the_server_has_not_measured_is_ordered_by_arrival(conductor, connect, staff_cookie):
    match, mod, phones = await reading(connect, staff_cookie, words=2)
    ann, cy = phones["Ann"], phones["Cy"]
    cy_pressed = await server_time(cy)  # a ping, but no echo: the server has no round trip for Cy
    await asyncio.sleep(0.03)
    assert (await ann.command("buzz", {"seen": 2}))["type"] == "ack"
    refused = await cy.command("buzz", {"seen": 2, "pressed": cy_pressed})
    assert refused["type"] == "error" and refused["data"]["code"] == "beaten"
    record = await mod.event("buzz_refused")
    assert record["data"]["clamp"] == "no_clock" and record["data"]["claimed"] == cy_pressed
