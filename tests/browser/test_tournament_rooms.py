"""A tournament's rooms in real Chromium: a room's screen opened as the projector's (?hall=1) goes on
to the spectator screen of the match its room plays next, and that screen goes back to the room's
screen when the match ends; the standings are read from the back row (24 px at 1920x1080, 18 px at 1280x720) with
no site bar, and anyone else's standings page stays put with the site's bar."""
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_back_row import FLOOR_PX, assert_readable_from_the_back

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def tournament_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tournament-rooms")
    with seeded_server(folder, _server_env(folder / "db.sqlite3"), seed="seed_tournament.py") as server:
        yield server


def test_a_rooms_screen_goes_to_the_match_its_room_plays_next(tournament_server, open_page):
    url, tournament = tournament_server["url"], tournament_server["tournament"]
    for room, code in tournament_server["matches"].items():
        hall = open_page(1920, 1080)
        hall.goto(f"{url}/tournaments/{tournament}/rooms/{room}/?hall=1")
        hall.wait_for_url(f"**/m/{code}/watch?hall=1")
        expect(hall.locator("#conn")).to_have_text("connected")
        # where the screen goes back to once the match has ended (watch.js backToTheBoard)
        config = hall.evaluate("() => JSON.parse(document.getElementById('page-config').textContent)")
        assert config["event_board"] == f"/tournaments/{tournament}/rooms/{room}/"
    visitor = open_page(390, 844)
    visitor.goto(f"{url}/tournaments/{tournament}/rooms/1/")
    expect(visitor.locator("#room-next")).to_contain_text("Next here:")
    assert visitor.url.endswith("/rooms/1/")  # only the projector's screen moves on


@pytest.mark.parametrize("width, height", list(FLOOR_PX))
def test_the_standings_are_read_from_the_back_row(tournament_server, open_page, width, height):
    url, tournament = tournament_server["url"], tournament_server["tournament"]
    board = open_page(width, height)
    board.goto(f"{url}/tournaments/{tournament}/?hall=1")
    expect(board.locator(".tournament-standings tbody tr")).to_have_count(4)
    assert board.locator(".site-header").count() == 0
    assert_readable_from_the_back(board, f"the tournament's standings, {width}x{height}", FLOOR_PX[(width, height)])
    board.goto(f"{url}/tournaments/{tournament}/")
    expect(board.locator(".site-header")).to_be_visible()
