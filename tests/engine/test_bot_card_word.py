"""A bot's card and the console tell the same story: a bot's buzz shows on its card (the
hall's too, while its guess is still held back), at the same word the console shows, and a guess is
placed at the words the bot had read when it made it. One convention throughout: a word position is
the number of words revealed (1-based, as the console says "buzzed at word 3")."""
from __future__ import annotations

from game.engine.api import snapshot

from .support import Match


def quizbowl() -> Match:
    m = Match("quizbowl", {"questions": 2, "tiebreakers": 0})
    m.start(0)
    return m


def test_a_bots_buzz_shows_on_its_card_while_its_guess_is_held_from_the_hall():
    m = quizbowl()
    m.reveal_until(3)
    m.send("bot_guess", "bot", {"guess": "Isaac Newton", "confidence": 0.9, "buzz": True, "word": 3})
    m.buzz("bot", at=m.now + 10)
    word = m.q.possession["word"]
    hall = snapshot(m.state, "spectator")["question"]["bot_cards"]["bot"]
    assert hall["guess"] is None, "the humans may still buzz: the hall does not see the guess"
    assert hall["buzzed_at"] == word == 3 and hall["buzz_verdict"] is None
    staff = snapshot(m.state, "moderator")["question"]["bot_cards"]["bot"]
    assert staff["guess"] == "Isaac Newton" and staff["word"] == 3 and staff["buzzed_at"] == word
    m.answer("bot", "Isaac Newton")
    m.rule("reject")
    assert snapshot(m.state, "spectator")["question"]["bot_cards"]["bot"]["buzz_verdict"] == "reject"


def test_a_bots_team_phase_answer_shows_on_its_card_as_answered_while_its_words_are_held():
    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0})
    m.start(0)
    while m.q.phase + 1 < 2:
        m.advance()
    m.send("bot_guess", "b6", {"guess": "Isaac Newton", "confidence": 0.8})
    m.submit("b6", "Isaac Newton", at=m.now + 500)
    hall = snapshot(m.state, "spectator")["question"]["bot_cards"]
    assert hall["b6"]["answered"] is True and hall["b6"]["guess"] is None
    assert hall["bunl"]["answered"] is False


def test_a_bot_that_did_not_buzz_has_no_buzz_on_its_card():
    m = quizbowl()
    m.reveal_until(2)
    m.send("bot_guess", "bot", {"guess": "Isaac Newton", "confidence": 0.2})
    card = snapshot(m.state, "moderator")["question"]["bot_cards"]["bot"]
    assert card["buzzed_at"] is None and card["buzz_verdict"] is None


def test_a_guess_is_placed_at_the_words_the_bot_had_read_not_where_reading_had_got_to_when_it_came():
    m = quizbowl()
    m.reveal_until(5)
    guess = m.send("bot_guess", "bot", {"guess": "Isaac Newton", "confidence": 0.4, "word": 3})[0]
    assert guess["data"]["word"] == 3
    # A word not yet read, or no word at all, is where reading stands now.
    for told in (9, -1, "3", True, None):
        assert m.send("bot_guess", "bot", {"guess": "Newton", "confidence": 0.4, "word": told})[0]["data"]["word"] == 5
