"""The moderator's roster: every seat with its connection, every bot with its health, live,
to the moderator's sockets only (an ephemeral "roster" frame: connections are not match events).
Through the real ASGI stack and a running conductor on the in-memory layer; the Room's bookkeeping of
several web processes (one going quiet) is checked on its own."""
import asyncio

import pytest
from asgiref.sync import sync_to_async

from game.conductor.groups import CONDUCTOR_CHANNEL
from game.conductor.room import REPORT_TTL_MS, Room, bot_health

pytestmark = pytest.mark.django_db(transaction=True)


async def roster(socket, test=lambda seats, data: True) -> dict:
    """The next roster frame whose seats (seat -> entry) pass test; returns seat -> entry."""
    frame = await socket.until(lambda f: f["type"] == "roster"
                               and test({s["seat"]: s for s in f["data"]["seats"]}, f["data"]))
    assert "seq" not in frame, "a roster is not an event: it has no seq"
    return {s["seat"]: s for s in frame["data"]["seats"]}


async def test_the_moderator_sees_who_is_connected_as_it_changes(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    ann, bob = match.seat_keys["Ann"], match.seat_keys["Bob"]
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await mod.hello()
    seats = await roster(mod)
    assert seats[ann]["connected"] is False and seats[bob]["connected"] is False

    player = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    await player.hello()
    seats = await roster(mod, lambda s, d: s[ann]["connected"])
    assert seats[bob]["connected"] is False and isinstance(seats[ann]["since"], int)
    watcher = await connect(f"/ws/m/{match.code}/watch")
    await watcher.hello()

    await player.close()
    seats = await roster(mod, lambda s, d: not s[ann]["connected"])
    assert seats[ann]["since"] is not None

    # A moderator who connects later gets the roster as it stands, at once.
    late = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await late.hello()
    assert (await roster(late))[ann]["connected"] is False
    # Nobody else ever gets one.
    await asyncio.sleep(0.3)
    while not await watcher.io.receive_nothing(0.3):  # take what reached the screen by now
        await watcher.receive()
    assert not [f for f in watcher.frames + watcher.other if f["type"] == "roster"]


async def test_each_bots_health_tier_and_size_come_with_the_roster(conductor, live_match, connect, staff_cookie,
                                                                   channel_layer):
    from bots.models import Bot, BotBuild

    def sized_bot():
        bot = Bot.objects.create(name="sized", kind="qa_pairs", tier="500mib", measured_bytes=123_456_789)
        return BotBuild.objects.create(bot=bot, number=1, kind="qa_pairs", measured_bytes=123_456_789)

    build = await sync_to_async(sized_bot)()
    match = await sync_to_async(live_match)(overrides={"bot_reaction_ms": 0},
                                            bots=[("Robot", "500mib", {"bot": "sized", "build": build.pk})])
    robot = match.seat_keys["Robot"]
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await mod.hello()
    bot = (await roster(mod))[robot]["bot"]
    assert (bot["name"], bot["kind"], bot["tier"], bot["measured_bytes"], bot["limit_bytes"]) == \
        ("sized", "qa_pairs", "500mib", 123_456_789, 500 * 2**20)
    assert bot["health"] == "unknown" and bot["asked"] == 0

    await mod.command("start")
    await mod.command("reveal")
    query = await conductor.send_query.wait_for(1)
    assert (await roster(mod, lambda s, d: s[robot]["bot"]["asked"] == 1))[robot]["bot"]["health"] == "waiting"
    await channel_layer.send(CONDUCTOR_CHANNEL, {"type": "bot.act", "match": match.code, "seat": robot,
                                                 "query_id": query["query_id"], "error": None, "elapsed_ms": 5,
                                                 "act": {"guess": "Someone", "confidence": 0.2, "buzz": False}})
    bot = (await roster(mod, lambda s, d: s[robot]["bot"]["answered"] == 1))[robot]["bot"]
    assert bot["health"] == "ok" and isinstance(bot["last_ms"], int) and bot["last"] == "answered"

    await mod.command("reveal")
    failing = await conductor.send_query.wait_for(2)
    await channel_layer.send(CONDUCTOR_CHANNEL, {"type": "bot.act", "match": match.code, "seat": robot,
                                                 "query_id": failing["query_id"], "error": "The model file is missing.",
                                                 "act": None, "elapsed_ms": 5})
    bot = (await roster(mod, lambda s, d: s[robot]["bot"]["failed"] == 1))[robot]["bot"]
    assert (bot["health"], bot["reason"], bot["answered"]) == ("failing", "The model file is missing.", 1)


async def test_a_bot_asked_on_a_word_of_the_clock_reaches_the_roster(conductor, live_match, connect, staff_cookie,
                                                                        channel_layer):
    """A clock tick sends the roster only if something in it changed: a bot asked on a word is such a change."""
    match = await sync_to_async(live_match)(overrides={"bot_reaction_ms": 0, "reveal": "clock", "lead_in_seconds": 0,
                                                       "words_per_minute": 100}, bots=[("Robot", "500mib", {})])
    robot = match.seat_keys["Robot"]
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await mod.hello()
    await roster(mod)
    await mod.command("start")
    first = await conductor.send_query.wait_for(1)
    await roster(mod, lambda s, d: s[robot]["bot"]["asked"] == 1)
    await channel_layer.send(CONDUCTOR_CHANNEL, {"type": "bot.act", "match": match.code, "seat": robot,
                                                 "query_id": first["query_id"], "error": None, "elapsed_ms": 5,
                                                 "act": {"guess": "Someone", "confidence": 0.1, "buzz": False}})
    await conductor.send_query.wait_for(2)  # asked again on the next word (0.6 s later), by the clock alone
    bot = (await roster(mod, lambda s, d: s[robot]["bot"]["asked"] == 2))[robot]["bot"]
    assert (bot["answered"], bot["health"]) == (1, "ok")


def test_the_room_counts_its_changes_and_only_its_changes():
    room = Room()
    room.heard({"hub": "web-1", "n": 1, "seats": ["s1"], "watchers": 2}, now=1000)
    assert room.changes == 1
    room.heard({"hub": "web-1", "n": 1, "seats": ["s1", "s2"], "watchers": 9}, now=1500)  # an older report
    room.prune(now=2000)  # nobody silent yet
    assert room.changes == 1, "a report already known and a prune that forgets nobody change nothing"
    room.bot_asked("s9")
    room.bot_answered("s9", 12, now=2100)
    room.prune(now=1500 + REPORT_TTL_MS + 1)  # silent since its last report, at 1500
    assert room.changes == 4 and not room.connected()


def test_a_seat_is_connected_while_any_web_process_reports_it_and_a_silent_process_is_forgotten():
    class State:
        seats = {"s1": {"id": "s1", "kind": "human"}, "s2": {"id": "s2", "kind": "human"}}

    room = Room()
    room.heard({"hub": "a", "n": 1, "seats": ["s1"], "watchers": 3}, now=1000)
    room.heard({"hub": "b", "n": 1, "seats": ["s2"], "watchers": 2}, now=1000)
    data = room.roster(State, {})
    assert [s["connected"] for s in data["seats"]] == [True, True] and data["watchers"] == 5
    room.heard({"hub": "a", "n": 3, "seats": [], "watchers": 0}, now=2000)
    room.heard({"hub": "a", "n": 2, "seats": ["s1"], "watchers": 3}, now=2100)  # overtaken on the way: ignored
    assert room.roster(State, {})["seats"][0] == {"seat": "s1", "connected": False, "since": 2000}
    room.heard({"hub": "a", "n": 4, "seats": [], "watchers": 0}, now=2000 + REPORT_TTL_MS)
    room.prune(1000 + REPORT_TTL_MS + 1)  # process b has said nothing since: it is gone, s2 with it
    assert room.connected() == set() and room.since["s2"] == 1000 + REPORT_TTL_MS + 1
    assert room.changed(State, {}) is not None and room.changed(State, {}) is None


def test_a_bots_health_says_how_its_last_acts_went():
    room = Room()
    assert bot_health(room._bot("b")) == "unknown"
    room.bot_asked("b")
    assert bot_health(room.bots["b"]) == "waiting"
    room.bot_answered("b", 120, now=1)
    assert bot_health(room.bots["b"]) == "ok"
    room.bot_missed("b", "timed_out", "no answer in time", now=2)
    assert bot_health(room.bots["b"]) == "late"
    room.bot_missed("b", "timed_out", "no answer in time", now=3)
    room.bot_missed("b", "timed_out", "no answer in time", now=4)
    assert bot_health(room.bots["b"]) == "failing"
    room.bot_answered("b", 90, now=5)
    assert bot_health(room.bots["b"]) == "ok" and room.bots["b"]["timed_out"] == 3
