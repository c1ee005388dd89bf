"""Seats: a team is human or computer; a person never joins the computer's team nor acts for a bot's
seat, a bot never acts for a person's, and names are unique within a match. A person's seat
is given up when its player leaves or the moderator removes it: it acts no more, its name is free, and
its captaincy passes on."""
from __future__ import annotations

import pytest

from game.engine.api import project, snapshot

from .support import MOD, SYS, Match, seat


@pytest.fixture
def m() -> Match:
    match = Match("efficientqa", {"questions": 1})
    match.start(0)
    match.reveal_until(2)
    return match


def test_teams_are_human_or_computer_as_the_roster_says_or_by_their_seats(m):
    assert (m.state.team_kind("t0"), m.state.team_kind("t1")) == ("human", "computer")  # t1 has the bots
    m.state.teams[0]["kind"] = "computer"
    assert m.state.team_kind("t0") == "computer"


@pytest.mark.parametrize("actor", [
    {"role": "player", "seat": "b500", "team": "t1"},  # a person claiming the bot's seat
    {"role": "bot", "seat": "h0", "team": "t0"},  # a bot claiming a person's
])
def test_nobody_acts_for_a_seat_of_the_other_kind(m, actor):
    assert m.refuse("buzz", actor).code == "forbidden"
    assert m.refuse("bot_guess", actor, {"guess": "x", "confidence": 0.9}).code == "forbidden"


def test_a_person_cannot_join_the_computers_team_and_names_are_unique(m):
    refused = m.refuse("join", SYS, {"seat": seat("h9", "t1", "Mallory")})
    assert refused.code == "computer_team" and "human teams" in str(refused)
    taken = m.refuse("join", SYS, {"seat": seat("h9", "t0", "  ann ")})
    assert taken.code == "name_taken"
    assert m.send("join", SYS, {"seat": seat("h9", "t0", "Dee")})[0]["type"] == "seat_joined"
    assert m.state.seats["h9"]["team"] == "t0"


def test_the_moderator_is_not_a_seat(m):
    assert m.refuse("buzz", MOD).code == "forbidden"


# -- giving a seat up: the moderator removes it (kick), or its player leaves ----------------------

def test_only_the_moderator_removes_a_seat(m):
    for actor in ("h0", "b500", SYS, {"role": "spectator"}):
        assert m.refuse("kick", actor, {"seat": "h1"}).code == "forbidden"
    left = m.send("kick", MOD, {"seat": "h1"})
    assert [(e["type"], e["data"]) for e in left] == [
        ("seat_left", {"seat": "h1", "team": "t0", "by": "moderator", "captain": None})]
    assert m.state.seats["h1"]["left"] == "moderator"


def test_a_player_leaves_only_their_own_seat(m):
    left = m.send("leave", "h1", {"seat": "h0"})  # what the frame names is ignored: the seat is the socket's
    assert [e["data"]["seat"] for e in left] == ["h1"] and left[0]["data"]["by"] == "player"
    assert not m.state.seats["h0"].get("left")
    assert m.refuse("leave", MOD).code == "forbidden"
    assert m.refuse("leave", "b500").code == "forbidden"  # a bot's seat is the host's to set up, not the bot's to leave


def test_removing_is_refused_for_bots_unknown_seats_and_seats_already_gone(m):
    assert m.refuse("kick", MOD, {"seat": "b500"}).code == "bot_seat"
    assert m.refuse("kick", MOD, {"seat": "nobody"}).code == "bad_seat"
    m.send("leave", "h1")
    gone = m.refuse("kick", MOD, {"seat": "h1"})  # a second press on the console
    assert gone.code == "stale" and "Ben has already left" in str(gone)


@pytest.mark.parametrize("by, sender, data", [("player", "h1", None), ("moderator", MOD, {"seat": "h1"})])
def test_a_seat_given_up_acts_no_more_and_is_told_what_to_do(m, by, sender, data):
    m.send("kick" if by == "moderator" else "leave", sender, data)
    refused = m.refuse("buzz", "h1")
    assert refused.code == "seat_left" and "join again from the join page" in str(refused)
    if by == "player":
        assert str(refused) == "You left this match; join again from the join page to play."
    assert m.refuse("leave", "h1").code == "seat_left"
    assert m.send("buzz", "h0")[0]["type"] == "buzz"  # the rest of the team plays on


def test_the_name_of_a_seat_given_up_is_free_again(m):
    m.send("leave", "h1")
    joined = m.send("join", SYS, {"seat": seat("h9", "t0", "ben")})
    assert joined[0]["data"]["seat"]["name"] == "ben"
    assert m.refuse("join", SYS, {"seat": seat("h8", "t0", "Ann")}).code == "name_taken"  # Ann is still here


def test_the_captaincy_passes_to_the_next_person_still_on_the_team():
    roster = [seat("h0", "t0", "Ann", captain=True), seat("h1", "t0", "Ben"), seat("h2", "t0", "Cy"),
              seat("h3", "t1", "Cho", captain=True), seat("b500", "t1", "Tiny", kind="bot", tier="500mib"),
              seat("b6", "t1", "Mid", kind="bot", tier="6gib"), seat("bunl", "t1", "Big", kind="bot", tier="unlimited")]
    m = Match("efficientqa", {"questions": 1}, seats=roster)
    m.start(0)
    m.send("leave", "h1")  # not the captain: nothing moves
    left = m.send("kick", MOD, {"seat": "h0"})
    assert left[0]["data"]["captain"] == "h2"
    assert [s["id"] for s in m.state.seats.values() if s.get("captain")] == ["h2", "h3"]
    while m.q.mode != "team":  # phase 1 runs out unanswered
        m.tick(m.now + 1000)
    assert m.refuse("submit", "h0", {"text": "too late"}).code == "seat_left"
    assert m.send("submit", "h2", {"text": "a guess"})[0]["type"] == "submission"


def test_the_last_person_of_a_team_leaving_leaves_it_without_a_captain(m):
    m.send("leave", "h1")
    assert m.send("leave", "h0")[0]["data"]["captain"] is None
    assert not any(s.get("captain") for s in m.state.seats.values() if s["team"] == "t0")


def test_nobody_leaves_a_finished_match():
    m = Match("quizbowl", {"questions": 1, "tiebreakers": 0})
    m.start(0)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 1000)
    assert m.state.status == "finished"
    assert m.refuse("leave", "h1").code == "finished"
    assert m.refuse("kick", MOD, {"seat": "h1"}).code == "finished"


def test_every_audience_learns_that_a_seat_left(m):
    event = dict(m.send("kick", MOD, {"seat": "h0"})[0], seq=99)
    for audience, team in (("moderator", None), ("spectator", None), ("player", "t0"), ("player", "t1"), ("bot", None)):
        assert project(event, audience, team)["data"] == event["data"]
    for audience in ("moderator", "spectator", "player"):
        seats = {s["id"]: s for s in snapshot(m.state, audience, "t0")["seats"]}
        assert seats["h0"]["left"] == "moderator" and seats["h1"]["captain"] is True
