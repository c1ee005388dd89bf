"""Budgets per seat, per moderator and per match (game/command_budgets.py), in the web process and in the
conductor: however many sockets carry a seat's commands, they spend one budget, and refusals are
answered, never stored."""

import pytest
from asgiref.sync import sync_to_async

from game import command_budgets as budgets
from game.command_budgets import Budgets
from game.models import CommandReceipt, MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

TEAM_PHASE = {"phases": [{"mode": "team", "points": 2, "discussion_seconds": 60}]}  # where a team chats


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def spend(b: Budgets, code: str, who: str, kind: str, times: int) -> int:
    return sum(1 for _ in range(times) if b.refusal(code, who, kind) is None)


def test_a_seats_commands_share_one_budget_and_it_refills():
    clock = Clock()
    b = Budgets(clock)
    burst, rate = budgets.SEAT
    assert spend(b, "M1", "s1", "buzz", 100) == burst
    assert b.refusal("M1", "s1", "pass") == budgets.SEAT_TOO_FAST
    clock.now += 1
    assert spend(b, "M1", "s1", "buzz", 100) == rate, "a second later, a second's worth"
    assert spend(b, "M1", "s2", "buzz", 5) == 5, "another seat has its own"
    assert spend(b, "M2", "s1", "buzz", 5) == 5, "and the same seat id in another match too"


def test_chat_has_a_smaller_budget_of_its_own():
    b = Budgets(Clock())
    assert spend(b, "M1", "s1", "chat", 50) == budgets.CHAT[0]
    assert b.refusal("M1", "s1", "chat") == budgets.CHAT_TOO_FAST
    assert b.refusal("M1", "s1", "buzz") is None, "chatting does not stop a seat from buzzing"


def test_a_match_caps_its_players_together_and_leaves_the_moderator_alone():
    b = Budgets(Clock())
    seats = [f"s{n}" for n in range(40)]
    taken = sum(spend(b, "M1", seat, "buzz", 100) for seat in seats)
    assert taken == budgets.MATCH[0], "forty seats flooding get the match's burst, not forty seats' worth"
    assert b.refusal("M1", "s99", "buzz") == budgets.MATCH_TOO_FAST
    assert spend(b, "M1", "moderator", "reveal", 10) == 10, "the moderator reads on"
    assert spend(b, "M2", "s1", "buzz", 3) == 3, "another match is untouched"


def test_forgetting_full_buckets_keeps_memory_bounded(monkeypatch):
    monkeypatch.setattr(budgets, "KEEP_BUCKETS", 100)
    clock = Clock()
    b = Budgets(clock)
    for n in range(1000):
        b.refusal(f"M{n}", "moderator", "reveal")
        clock.now += 10  # each one idle long enough to refill
    assert len(b._buckets) <= 101


def test_a_server_keeps_the_buckets_of_who_acted_lately_not_of_everyone_it_ever_heard():
    """An hour of matches, one after another (each its moderator and three seats, acting, then gone): the
    budgets hold about the matches of the last moments, as many as before, not thousands of idle buckets."""
    clock = Clock()
    b = Budgets(clock)
    for n in range(3000):
        for who in ("moderator", "s1", "s2", "s3"):
            b.refusal(f"M{n}", who, "buzz")
        clock.now += 1.2  # a new match every 1.2 s; a bucket refills within seconds
    assert len(b._buckets) <= budgets.FORGET_EVERY + 50
    assert b.refusal("M2999", "s1", "buzz") is None, "the latest match's seats still spend their own buckets"


async def test_a_seat_reconnecting_again_and_again_spends_one_budget_and_no_refusal_is_stored(
        conductor, conduct, live_match, connect):
    """A flooder opening socket after socket on one seat (each takes the seat over from the last)
    gets the seat's budget once, not a fresh one per socket."""
    from tests.live.test_consumers import play

    match = await sync_to_async(live_match)(overrides=TEAM_PHASE)
    assert (await conduct(match.code, "start", {"role": "moderator"}))["ok"]
    answers = []
    for round_ in range(5):  # within the budget of sockets opening (the next test)
        socket = await play(connect, match, "Bob")
        answers += [await socket.command("chat", {"text": f"flood {round_}.{n}"}) for n in range(6)]
    ok = [a for a in answers if a["type"] == "ack"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(ok) <= budgets.CHAT[0] + 1, "five sockets in turn share the seat's chat budget"
    assert refused and {a["data"]["code"] for a in refused} == {"slow_down"}
    assert await sync_to_async(CommandReceipt.objects.filter(match=match, ok=False).count)() == 0
    chats = await sync_to_async(MatchEvent.objects.filter(match=match, type="chat").count)()
    assert chats == len(ok)


async def test_a_seat_whose_sockets_open_in_a_loop_is_told_to_wait_before_any_work(conductor, live_match, connect):
    from tests.live.test_consumers_seats import closed

    match = await sync_to_async(live_match)()
    burst = int(budgets.SOCKET_OPENS[0])
    for _ in range(burst):
        await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    refused = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Bob"])
    assert (await closed(refused))["code"] == 4429, "too many opens for the seat: try again later"
    other = await connect(f"/ws/m/{match.code}/play", token=match.tokens["Ann"])
    await other.hello()
    assert other.other[0]["type"] == "welcome", "another seat opens as usual"


async def test_the_conductor_holds_a_seat_to_its_budget_whichever_web_process_sent(conductor, conduct, live_match):
    match = await sync_to_async(live_match)(overrides=TEAM_PHASE)
    bob = {"role": "player", "seat": match.seat_keys["Bob"], "team": "t0"}
    assert (await conduct(match.code, "start", {"role": "moderator"}))["ok"]
    replies = [await conduct(match.code, "chat", bob, {"text": f"hello {n}"}) for n in range(12)]
    codes = [r["error"]["code"] if not r["ok"] else "ok" for r in replies]
    assert codes.count("ok") <= budgets.CHAT[0] + 1 and codes[-1] == "slow_down"
    assert conductor.refused >= 12 - codes.count("ok")
