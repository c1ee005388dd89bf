"""Bot seats through the conductor, with FakeBots standing in for bots.dispatch.send_query."""
import asyncio

import pytest
from asgiref.sync import sync_to_async

from game.conductor.groups import CONDUCTOR_CHANNEL, MODERATOR
from game.models import MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}
FAST = {"bot_reaction_ms": 0}


@sync_to_async
def stored_types(match) -> list[str]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


async def act(layer, query, guess="Answer 0", confidence=0.9, buzz=False, error=None, act_given=True):
    body = {"guess": guess, "confidence": confidence, "buzz": buzz, "alternatives": [[guess, confidence]]}
    await layer.send(CONDUCTOR_CHANNEL, {"type": "bot.act", "match": query["match"], "seat": query["seat"],
                                         "query_id": query["query_id"], "act": body if act_given else None,
                                         "error": error, "elapsed_ms": 12})


async def robot_asked(conductor, conduct, live_match, listen):
    """A quizbowl match with one bot, started, its first word read: (match, the moderator's frames, the
    bot's first query)."""
    match = await sync_to_async(live_match)(overrides=FAST, bots=[("Robot", "500mib", {"bot": "robot"})])
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    return match, mod, await conductor.send_query.wait_for(1)


async def test_a_buzz_mode_bot_sees_only_revealed_words_and_only_the_newest(conductor, conduct, live_match,
                                                                           channel_layer, listen):
    match, mod, first = await robot_asked(conductor, conduct, live_match, listen)
    bots = conductor.send_query
    assert first["query"] == {"text": "One", "word_index": 1, "char_index": 3, "sentence_index": 0, "phase": 1,
                              "mode": "buzz", "final": False, "snippets": [], "tier": "500mib"}
    assert first["bot"] == {"bot": "robot"} and first["reply_to"] == conductor.own_channel and "private" not in first
    assert first["time_limit_ms"] == 3000 and first["seat"] == match.seat_keys["Robot"]

    await conduct(match.code, "reveal", MOD)
    await conduct(match.code, "reveal", MOD)
    assert len(bots.queries) == 1  # one query out per seat; the words read meanwhile wait for the next
    await act(channel_layer, first, guess="Someone", confidence=0.2)
    guess = await mod.next("bot_guess")
    assert guess["data"]["guess"] == "Someone" and guess["data"]["buzz"] is False
    second = await bots.wait_for(2)
    assert second["query"]["text"] == "One two three" and second["query_id"] != first["query_id"]

    await act(channel_layer, second, buzz=True)
    buzz = await mod.next("buzz")
    answer = await mod.next("answer")
    assert buzz["data"]["seat"] == answer["data"]["seat"] == match.seat_keys["Robot"]
    assert answer["data"]["text"] == "Answer 0"
    suggestion = await mod.next("judge_suggested")
    assert suggestion["data"]["verdict"] == "accept" and suggestion["data"]["for"] == answer["seq"]
    await conduct(match.code, "rule", MOD, {"verdict": "accept", "answer": answer["seq"]})
    # The bot's guesses were held back from the hall while the humans could buzz; they go out at the close.
    assert (await stored_types(match))[-6:] == ["buzz", "answer", "judge_suggested", "ruling", "question_closed",
                                                "bot_guesses_released"]


async def test_a_bots_guess_sits_at_the_words_it_read_and_its_card_shows_its_buzz_where_the_console_does(
        conductor, conduct, live_match, channel_layer, listen):
    """The act comes back after more words were read: the guess is placed at the words the bot was shown
    (before, at the words read when it came back: the card said word 3 for a guess made on word 1), and
    the buzz it makes is on its card at the word the console shows for it (the buzz's own)."""
    match, mod, first = await robot_asked(conductor, conduct, live_match, listen)
    await conduct(match.code, "reveal", MOD)
    await conduct(match.code, "reveal", MOD)
    await act(channel_layer, first, guess="Someone", confidence=0.2)
    assert (await mod.next("bot_guess"))["data"]["word"] == first["query"]["word_index"] == 1
    second = await conductor.send_query.wait_for(2)
    await act(channel_layer, second, buzz=True)
    buzz = (await mod.next("buzz"))["data"]
    assert (buzz["word"], buzz["seen"]) == (3, second["query"]["word_index"])
    await mod.next("answer")
    host = conductor.hosts[match.code]
    from game.engine.api import snapshot

    for audience in ("moderator", "spectator"):
        view = snapshot(host.state, audience)["question"]
        card = view["bot_cards"][match.seat_keys["Robot"]]
        assert card["buzzed_at"] == view["possession"]["word"] == 3, audience


async def test_late_wrong_and_silent_bots_are_reported_and_play_goes_on(conductor, conduct, live_match,
                                                                       channel_layer, listen):
    match = await sync_to_async(live_match)(overrides={**FAST, "bot_act_timeout_ms": 100},
                                            bots=[("Robot", "500mib", {"bot": "robot"})])
    mod = await listen(match.code, MODERATOR)
    bots = conductor.send_query
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    silent = await bots.wait_for(1)
    missed = await mod.next("bot_missed")
    assert missed["data"] == {"seat": silent["seat"], "status": "timed_out",
                              "reason": "The bot gave no answer within 100 ms; play goes on without it."}
    await act(channel_layer, silent)  # too late: already reported, so nothing more is written

    await conduct(match.code, "reveal", MOD)
    failing = await bots.wait_for(2)
    await act(channel_layer, failing, error="The model file is missing.", act_given=False)
    failed = (await mod.next("bot_missed"))["data"]
    assert (failed["reason"], failed["status"]) == ("The model file is missing.", "failed")

    await conduct(match.code, "reveal", MOD)
    moved_on = await bots.wait_for(3)
    await conduct(match.code, "buzz", {"role": "player", "seat": match.seat_keys["Ann"], "team": "t0"}, {"seen": 3})
    answered = await conduct(match.code, "answer", {"role": "player", "seat": match.seat_keys["Ann"], "team": "t0"},
                             {"text": "Answer 0"})
    await conduct(match.code, "rule", MOD, {"verdict": "accept", "answer": answered["seqs"][-1]})
    await act(channel_layer, moved_on, buzz=True)
    stale = await mod.next("bot_missed")
    assert stale["data"]["reason"] == "The bot answered after the question had moved on."
    assert stale["data"]["status"] == "timed_out"
    types = await stored_types(match)
    assert types.count("bot_missed") == 3 and "bot_guess" not in types and types.count("buzz") == 1
    assert (await conduct(match.code, "next", MOD))["ok"]  # the match goes on


async def test_simulated_bots_are_told_the_answer_and_others_are_not(conductor, conduct, live_match):
    from bots.models import Bot

    await sync_to_async(Bot.objects.create)(name="practice", kind="simulated", tier="500mib")
    match = await sync_to_async(live_match)(bots=[("Sim", "500mib", {"bot": "practice"}),
                                                 ("Plain", "500mib", {"bot": "robot"})])
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    await conductor.send_query.wait_for(2)
    by_seat = {q["seat"]: q for q in conductor.send_query.queries}
    sim, plain = by_seat[match.seat_keys["Sim"]], by_seat[match.seat_keys["Plain"]]
    assert sim["private"] == {"question_id": "live-0:0", "answer": "Answer 0", "length_words": 17}
    assert "private" not in plain and "Answer" not in str(plain)


async def test_team_phase_asks_the_phase_tier_once_with_the_whole_text(conductor, conduct, live_match,
                                                                       channel_layer, listen):
    phases = [{"mode": "team", "points": 2, "discussion_seconds": 60, "bot_tier": "6gib"}]
    match = await sync_to_async(live_match)(format_name="efficientqa", overrides={"phases": phases},
                                            bots=[("Small", "500mib", {"bot": "s"}), ("Big", "6gib", {"bot": "b"})])
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "start", MOD)
    query = await conductor.send_query.wait_for(1)
    assert query["seat"] == match.seat_keys["Big"] and query["query"]["final"] is True
    assert query["query"]["mode"] == "team" and query["query"]["text"].endswith("Number 0?")
    await act(channel_layer, query, guess="Answer 0")
    submission = await mod.next("submission")
    assert submission["data"]["seat"] == match.seat_keys["Big"] and submission["data"]["text"] == "Answer 0"
    await asyncio.sleep(0.05)
    assert len(conductor.send_query.queries) == 1  # asked once per phase; the small bot never


async def test_buzz_phase_asks_only_the_bot_of_its_tier(conductor, conduct, live_match):
    match = await sync_to_async(live_match)(format_name="efficientqa",
                                            bots=[("Small", "500mib", {"bot": "s"}), ("Big", "6gib", {"bot": "b"})])
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD)
    await conduct(match.code, "reveal", MOD)
    await conductor.send_query.wait_for(1)
    assert {q["seat"] for q in conductor.send_query.queries} == {match.seat_keys["Small"]}
