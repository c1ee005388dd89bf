"""A bot stopped for the rest of the match (its worker hit its tier's memory limit, or its process died
under it): it may act no more, the match goes on without it, the moderator reads why and the hall only
that it stopped, and its card says so on every later question."""
import pytest

from game.engine.api import Rejected, project, snapshot

from .support import MOD, SYS, Match

REASON = "Bot 'Tiny' went over its tier's memory limit while it played: (figures). It is stopped for the rest of the match."


def stopped_in_phase_one() -> Match:
    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0})
    m.start(0)
    m.reveal_until(3)
    m.send("bot_guess", "b500", {"guess": "Quvexo", "confidence": 0.2, "buzz": False})
    m.send("bot_stopped", SYS, {"seat": "b500", "reason": REASON}, at=m.now + 10)
    return m


def test_a_stopped_bot_acts_no_more_and_the_others_play_on():
    m = stopped_in_phase_one()
    assert m.state.seats["b500"]["stopped"] == {"number": 1, "reason": REASON}
    for kind, data in (("bot_guess", {"guess": "x", "confidence": 0.9, "buzz": True}), ("buzz", {})):
        with pytest.raises(Rejected) as refused:
            m.send(kind, "b500", data)
        assert refused.value.code == "bot_stopped" and "stopped for the rest of the match" in str(refused.value)
    m.buzz("h0", at=m.now + 100)  # a person still plays this question
    assert m.state.q.possession["seat"] == "h0"
    m.answer("h0", "no idea")
    m.rule("reject", at=m.now + 200)
    while m.state.q.mode != "team":
        m.tick(m.now + 1000)
    m.send("bot_guess", "b6", {"guess": "Quvexo Pilandre", "confidence": 0.9, "buzz": False})  # the 6 GiB bot plays
    assert m.state.q.bot_guesses["b6"]["guess"] == "Quvexo Pilandre"


def test_stopping_twice_or_a_seat_that_is_no_bot_is_refused():
    m = stopped_in_phase_one()
    with pytest.raises(Rejected) as twice:
        m.send("bot_stopped", SYS, {"seat": "b500", "reason": "again"})
    assert twice.value.code == "stale"
    for seat in ("h0", "nobody"):
        with pytest.raises(Rejected):
            m.send("bot_stopped", SYS, {"seat": seat, "reason": "x"})
    with pytest.raises(Rejected):
        m.send("bot_stopped", MOD, {"seat": "b6", "reason": "a moderator cannot"})


def test_the_moderator_reads_why_and_the_hall_only_that_it_stopped():
    m = stopped_in_phase_one()
    event = next(e for e in m.events if e["type"] == "bot_stopped")
    assert project(event, "moderator")["data"] == {"seat": "b500", "number": 1, "reason": REASON}
    for audience, team in (("spectator", None), ("player", "t0"), ("player", "t1")):
        assert project(event, audience, team)["data"] == {"seat": "b500", "number": 1}
        seats = {s["id"]: s for s in snapshot(m.state, audience, team)["seats"]}
        assert seats["b500"]["stopped"] == {"number": 1}
    assert project(event, "bot")["type"] == "hidden"
    seats = {s["id"]: s for s in snapshot(m.state, "moderator")["seats"]}
    assert seats["b500"]["stopped"]["reason"] == REASON


def test_its_card_says_stopped_on_every_later_question():
    m = stopped_in_phase_one()
    m.play_to_close()
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.q.number == 2
    for audience in ("moderator", "spectator"):
        cards = snapshot(m.state, audience)["question"]["bot_cards"]
        assert cards["b500"]["state"] == "stopped"
        assert cards["b6"]["state"] != "stopped"


def test_the_start_carries_each_bot_seats_size_and_nothing_else():
    """The store measures every bot seat at the start (game.seat_checks) and the start carries it to the
    cards; only bot seats, and only the parts' byte counts, reach the log."""
    m = Match("efficientqa", {"questions": 1, "tiebreakers": 0})
    sizes = {"b500": {"bytes": 300, "artefacts": 100, "code": 50, "packages": 150, "path": "/data/bots/x"},
             "b6": {"bytes": "lots"}, "h0": {"bytes": 5}, "nobody": {"bytes": 5}, "bunl": {"bytes": 7, "code": -1}}
    m.send("start", MOD, {"bot_sizes": sizes}, at=0)
    started = next(e for e in m.events if e["type"] == "match_started")
    assert started["data"]["bot_sizes"] == {"b500": {"bytes": 300, "artefacts": 100, "code": 50, "packages": 150},
                                            "bunl": {"bytes": 7}}
    for audience in ("moderator", "spectator", "bot"):
        seats = {s["id"]: s for s in snapshot(m.state, audience)["seats"]}
        assert seats["b500"]["size"]["bytes"] == 300 and "size" not in seats["b6"] and "size" not in seats["h0"]
