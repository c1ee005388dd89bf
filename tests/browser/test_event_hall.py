"""The projector follows an event with nobody at its keyboard, in real Chromium: the leaderboard opened
as the hall's screen goes on to the spectator screen of the preliminary the host started, and that
screen, once the room has seen the match end, goes back to the leaderboard. Opened by anyone else,
the leaderboard stays where it is."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_live_match import log_in, press_next

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def event_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("event-hall")
    env = dict(_server_env(folder / "db.sqlite3"), EXHIBITION_HALL_RETURN_SECONDS="3")
    with seeded_server(folder, env, seed="seed_event_hall.py") as server:
        yield server


def test_the_hall_goes_from_the_leaderboard_to_the_match_and_back(event_server, open_page):
    board = f"{event_server['url']}/events/{event_server['event']}/"
    visitor = open_page(390, 844)
    visitor.goto(board)
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Hall night")

    hall = open_page(1920, 1080)
    hall.goto(board + "?hall=1")
    hall.wait_for_url(f"**/m/{event_server['match']}/watch?hall=1")
    expect(hall.locator("#conn")).to_have_text("connected")

    moderator = open_page(1920, 1080)
    log_in(moderator, event_server, f"/m/{event_server['match']}/moderate")
    press_next(moderator)  # the match starts: the room sees it played
    # Starting measures each bot kind's code beside the conductor (a fresh interpreter a kind), which a
    # loaded two-core machine may take longer than the default 15 s for: the start is waited for, not timed.
    expect(moderator.locator("#btn-next")).to_be_disabled(timeout=60_000)
    expect(hall.locator("#question")).not_to_be_empty()
    # The preliminary is one question long: the computer's guess is ruled wrong (R) if it buzzes, and once
    # the question has been read out and closed, N ends the match.
    for _ in range(300):
        if moderator.locator("#btn-next").is_enabled():
            break
        if moderator.locator("button[data-rule='reject']").is_enabled():
            moderator.keyboard.press("r")
        moderator.wait_for_timeout(200)
    press_next(moderator)
    expect(hall.get_by_role("link", name="Event leaderboard")).to_be_visible()
    assert "/watch" in hall.url  # the room first sees the final score (for 3 s here; 30 s by default)
    hall.wait_for_url(re.compile(rf".*/events/{event_server['event']}/\?hall=1$"))
    expect(hall.get_by_role("heading", level=1)).to_have_text("Hall night")
    assert visitor.url == board  # a visitor's leaderboard never jumps
