"""Buzzing for an AI teammate through the real sockets and a running conductor (FakeBots for the bot workers):
a player may buzz for a bot only on their own team and only in semi mode; the bot is then asked for its
answer at once through the bot path, and its answer is ruled for the team; a bot that hangs is handled as any
bot's silence is (bot_missed, and the answer clock runs out)."""
import pytest
from asgiref.sync import sync_to_async

from game.conductor.groups import CONDUCTOR_CHANNEL
from game.models import MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

FAST = {"bot_reaction_ms": 0, "answer_seconds": 1, "bot_act_timeout_ms": 200}
SEMI = {"buzz_mode": "semi"}


async def started(connect, live_match, cookie, **how):
    match = await sync_to_async(live_match)(overrides=FAST, **how)
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=cookie)
    await mod.hello()
    ann = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    await ann.hello()
    await mod.command("start")
    for _ in range(3):
        await mod.command("reveal")
    return match, mod, ann


async def bot_act(layer, query, guess):
    await layer.send(CONDUCTOR_CHANNEL, {"type": "bot.act", "match": query["match"], "seat": query["seat"],
                                         "query_id": query["query_id"], "error": None, "elapsed_ms": 5,
                                         "act": {"guess": guess, "confidence": 0.4, "buzz": False, "alternatives": []}})


@sync_to_async
def stored(match, kind: str) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match, type=kind).order_by("seq").values_list("data", flat=True))


async def test_a_player_buzzes_for_the_semi_bot_on_their_team_and_its_answer_is_ruled_for_the_team(
        conductor, live_match, connect, staff_cookie, channel_layer):
    match, mod, ann = await started(connect, live_match, staff_cookie, mates=[("Robo", "500mib", {"bot": "robo"}, SEMI)])
    robo = match.seat_keys["Robo"]
    bots = conductor.send_query
    asked = len(bots.queries)
    ack = await ann.command("buzz_for", {"bot": robo, "seen": 3})
    assert ack["type"] == "ack", ack
    buzz = await ann.event("buzz")
    assert (buzz["data"]["seat"], buzz["data"]["by"], buzz["data"]["team"]) == (robo, match.seat_keys["Ann"], "t0")
    query = await bots.wait_for(asked + 1)  # asked at once: its answer is due now
    assert query["seat"] == robo and query["query"]["word_index"] == 3
    await bot_act(channel_layer, query, "Answer 0")
    answer = await ann.event("answer")
    assert (answer["data"]["seat"], answer["data"]["text"]) == (robo, "Answer 0")
    floor = (await mod.until(lambda f: f.get("type") == "answer" and "seq" in f))["seq"]
    assert (await mod.command("rule", {"verdict": "accept", "answer": floor}))["type"] == "ack"
    ruling = await ann.event("ruling")
    assert (ruling["data"]["team"], ruling["data"]["seat"], ruling["data"]["points"] > 0) == ("t0", robo, True)


@pytest.mark.parametrize("where,mode,code", [("computer", SEMI, "forbidden"),  # the other team's semi bot
                                             ("mate", {"buzz_mode": "muted"}, "not_semi"),
                                             ("mate", {"buzz_mode": "autonomous"}, "not_semi")])
async def test_a_player_may_buzz_only_for_a_semi_bot_of_their_own_team(
        conductor, live_match, connect, staff_cookie, where, mode, code):
    seat = [("Robo", "500mib", {"bot": "robo"}, mode)]
    match, mod, ann = await started(connect, live_match, staff_cookie,
                                    **({"mates": seat} if where == "mate" else {"bots": seat}))
    refused = await ann.command("buzz_for", {"bot": match.seat_keys["Robo"]})
    assert refused["type"] == "error" and refused["data"]["code"] == code, refused
    assert await stored(match, "buzz") == []


async def test_a_semi_bot_that_hangs_is_reported_and_the_answer_clock_rules_its_team_out(
        conductor, live_match, connect, staff_cookie):
    match, mod, ann = await started(connect, live_match, staff_cookie, mates=[("Robo", "500mib", {"bot": "robo"}, SEMI)])
    assert (await ann.command("buzz_for", {"bot": match.seat_keys["Robo"]}))["type"] == "ack"
    missed = await mod.until(lambda f: f.get("type") == "bot_missed", limit=400)
    assert missed["data"]["seat"] == match.seat_keys["Robo"] and missed["data"]["status"] == "timed_out"
    ruling = await mod.until(lambda f: f.get("type") == "ruling", limit=400)
    assert (ruling["data"]["team"], ruling["data"]["by"], ruling["data"]["verdict"]) == ("t0", "clock", "reject")
