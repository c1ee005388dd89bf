"""The fair audience rule in the browser: while the humans may still score on a question, in this phase
or a later one, a bot's guess for it is on no screen of the hall — not the big screen, not a phone —
only on the moderator's console; once they cannot (ruled wrong in the last phase here) it appears on
the big screen. With the rule set to "live", a bot's guess in a buzz phase that is the question's last
is on the big screen while the humans may still buzz.

Real Daphne, real Chromium, real simulated bots asked by the embedded conductor (seed.py: bots that
never know the answer, so each guesses its one distractor, FAIR_GUESSES)."""
import pytest

from .seed import FAIR_GUESSES
from .test_live_match import answer, expect, join, log_in, press_next, reveal, rule

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


def start_hall(open_page, server, code):
    """The moderator, two phones on the human team and the big screen, all connected; question 1 starts."""
    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)  # first on the team: the captain
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 0)
    screen = open_page(1920, 1080)
    screen.goto(f"{server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 1")
    return moderator, ada, bo, screen


def assert_nowhere(pages, text):
    """Neither the page's text nor its markup (attributes, hidden elements) holds `text`."""
    for page in pages:
        expect(page.locator("body")).not_to_contain_text(text)
        assert text not in page.content(), f"{text!r} is in the markup of {page.url}"


def bot_card(page, tier):
    return page.locator(".bot-card", has=page.locator(".pill", has_text=tier))


def test_the_bots_guess_is_on_no_screen_of_the_hall_while_the_humans_discuss(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["fair"]
    guess = FAIR_GUESSES["6gib"]
    moderator, ada, bo, screen = start_hall(open_page, server, code)

    # Phase 1: the small bot buzzes at the first word and is ruled wrong; so is Ada.
    reveal(moderator, 1)
    rule(moderator, "r", FAIR_GUESSES["500mib"])
    expect(ada.locator("#buzz")).to_be_enabled()
    ada.keyboard.press(" ")
    answer(ada, "Venus")
    rule(moderator, "r", "Venus")

    # Phase 2: the humans discuss; the 6 GiB bot guesses and the computer submits meanwhile. The
    # moderator sees the guess; the hall learns only that the computer has answered.
    expect(screen.locator("#phase")).to_contain_text("team discussion")
    expect(bot_card(moderator, "6gib")).to_contain_text(guess)
    computer = screen.locator(".score", has_text="Computer")
    expect(computer.locator(".side-mark.done")).to_have_text("answered")
    expect(ada.locator("#team-phase")).to_be_visible()
    ada.fill("#chat-input", "not Venus, then")
    ada.press("#chat-input", "Enter")
    expect(bo.locator("#chat-log")).to_contain_text("not Venus, then")  # the phones are up to date
    assert_nowhere([screen, ada, bo], guess)
    # Its card says what the hall knows (the computer has answered), never "no guess yet".
    expect(bot_card(screen, "6gib")).to_contain_text("has answered")

    # Ada submits; while her answer waits for its ruling the humans may still answer: still hidden.
    ada.fill("#submit-input", "Saturn")
    ada.press("#submit-input", "Enter")
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Saturn")
    expect(screen.locator(".score", has_text="Humans").locator(".side-mark.done")).to_have_text("answered")
    assert_nowhere([screen, ada, bo], guess)

    # Ruled wrong: the humans are out of phase 2, but phase 3 of the same question is still theirs to
    # play, so the guess stays off every screen of the hall; so does the computer's answer, ruled wrong.
    moderator.keyboard.press("r")
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text(guess)
    assert_nowhere([screen, ada, bo], guess)
    moderator.keyboard.press("r")
    expect(screen.locator("#phase")).to_contain_text("Phase 3")
    expect(ada.locator("#team-phase")).to_be_visible()
    assert_nowhere([screen, ada, bo], guess)

    # Phase 3 ruled wrong too: no human can score on the question any more, and the guess is shown.
    ada.fill("#submit-input", "Jupiter")
    ada.press("#submit-input", "Enter")
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Jupiter")
    assert_nowhere([screen, ada, bo], guess)
    moderator.keyboard.press("r")
    expect(bot_card(screen, "6gib").locator(".guess")).to_have_text(guess)


def test_with_the_live_rule_the_bots_guess_shows_while_the_humans_may_still_buzz(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["fair_live"]
    guess = FAIR_GUESSES["500mib"]
    moderator, ada, bo, screen = start_hall(open_page, server, code)
    reveal(moderator, 2)
    expect(bot_card(moderator, "500mib")).to_contain_text(guess)
    expect(bot_card(screen, "500mib").locator(".guess")).to_have_text(guess)
    # Nobody has buzzed (the bot may not before word 500): the humans may still answer.
    expect(ada.locator("#buzz")).to_be_enabled()
    assert screen.locator("#question .buzz-marker").count() == 0
