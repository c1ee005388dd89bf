"""A human team seats at most `team_seats` players at once (an event's team size cap): the next join
is refused with a sentence, a seat given up frees its place, and a match without the rule has no cap."""
from game.engine.api import Rejected

import pytest

from .support import SYS, Match, question, seat


def joined(m: Match, id: str, team: str = "t0"):
    return m.send("join", SYS, {"seat": seat(id, team, f"Player {id}")})


def capped(cap) -> Match:
    overrides = {} if cap is None else {"team_seats": cap}
    return Match("quizbowl", overrides, seats=[seat("bot", "t1", "Qbot", kind="bot", tier="500mib")],
                 questions=[question("Bakadu bekedu bikidu.")])


def test_a_full_team_refuses_the_next_player_and_a_seat_given_up_frees_a_place():
    m = capped(2)
    joined(m, "a")
    joined(m, "b")
    refusal = m.refuse("join", SYS, {"seat": seat("c", "t0", "Player c")})
    assert refusal.code == "team_full" and "has its 2 players already" in str(refusal)
    m.send("leave", {"role": "player", "seat": "a", "team": "t0"})
    assert [e["type"] for e in joined(m, "c")] == ["seat_joined"]


def test_without_the_rule_a_team_has_no_cap():
    m = capped(None)
    for id in "abcdefghij":
        joined(m, id)
    assert sum(1 for s in m.state.seats.values() if s["team"] == "t0") == 10


def test_bots_are_not_counted_against_the_cap():
    m = capped(1)
    joined(m, "a")
    with pytest.raises(Rejected):
        joined(m, "b")
    assert m.state.seats["bot"]["kind"] == "bot"
