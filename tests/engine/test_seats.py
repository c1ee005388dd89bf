"""Seats: a team is human or computer; a person never joins the computer's team nor acts for a bot's
seat, a bot never acts for a person's, and names are unique within a match (issue 9)."""
from __future__ import annotations

import pytest

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
