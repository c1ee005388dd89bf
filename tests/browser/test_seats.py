"""Real headless Chromium: a seat is given up from the phone (Leave, with a confirm step) and from the
console (Remove, with a confirm step), and a second tab of the same browser takes the seat over. Each
closed page says why, offers what to do next, and does not reconnect (tests/js/test_client_commands.py
proves that with a fake clock)."""
import pytest

from tests.browser.test_live_match import expect, join, log_in

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


def player_row(console, name):
    return console.locator("#players li", has=console.locator(".player-name", has_text=name))


def test_leaving_removing_and_a_second_tab_each_close_the_seat_with_the_reason(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["seats"]
    console = open_page(1440, 900)
    log_in(console, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)  # the Humans' captain
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 0)
    expect(player_row(console, "Ada").locator(".pill")).to_have_text("captain")

    # Ada leaves: asked first, then the page closes with the reason and the way back in.
    ada.get_by_role("button", name="Leave this match").click()
    expect(ada.locator("#leave-confirm")).to_contain_text("A teammate still here becomes captain.")
    ada.get_by_role("button", name="Stay").click()
    expect(ada.locator("#conn")).to_have_text("connected")
    ada.get_by_role("button", name="Leave this match").click()
    ada.get_by_role("button", name="Leave the match").click()
    expect(ada.locator("#ended")).to_contain_text("You left this match.")
    expect(ada.locator("#conn")).to_have_text("closed")
    expect(ada.locator("#buzz")).to_be_hidden()
    expect(player_row(console, "Ada")).to_contain_text("left")
    expect(player_row(console, "Bo").locator(".pill")).to_have_text("captain")
    expect(bo.locator("#me")).to_contain_text("captain")
    ada.locator("#ended").get_by_role("link", name="Join again").click()
    ada.wait_for_url(f"**/m/{code}/join")
    ada.goto(f"{server['url']}/m/{code}/play")
    ada.wait_for_url(f"**/m/{code}/join")  # the play page no longer opens: the session forgot the seat

    # The moderator removes Bo, asked first; Bo's phone says so.
    player_row(console, "Bo").get_by_role("button", name="Remove…").click()
    expect(player_row(console, "Bo")).to_contain_text("Remove Bo?")
    player_row(console, "Bo").get_by_role("button", name="Remove", exact=True).click()
    expect(bo.locator("#ended")).to_contain_text("The moderator removed you from this seat.")
    expect(player_row(console, "Bo")).to_contain_text("removed")

    # Ada's name is free again; a second tab of her browser takes the seat over from the first.
    join(ada, server, code, "Ada", 0)
    expect(ada.locator("#me")).to_contain_text("captain")  # nobody on the team was left to captain it
    second = ada.context.new_page()
    second.goto(f"{server['url']}/m/{code}/play")
    expect(second.locator("#conn")).to_have_text("connected")
    expect(ada.locator("#ended")).to_contain_text("This seat is now playing on another device.")
    ada.get_by_role("button", name="Play on this device").click()  # and back again
    expect(ada.locator("#conn")).to_have_text("connected")
    expect(second.locator("#ended")).to_contain_text("This seat is now playing on another device.")
