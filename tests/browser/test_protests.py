"""Real Chromium: a captain protests a ruling from the phone, the moderator overturns it from the console,
and every screen follows: the phone's Protest box appears after the ruling, the console lists the protest
with the team's text (as text, never markup), the big screen says "Protest: overturned", and the score
moves as an override moves it. Screenshots of each page go to the test's folder."""
import pytest

from tests.browser.test_live_match import answer, expect, join, log_in, press_next, reveal, rule, scores_in_log, shown_scores, watch

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

LONG_NAME = "Maximiliana Evangeline Worthingt"  # as long as a name may be (game.models.NAME_MAX_LENGTH)
TYPED = "<b>Mars planet</b> names Mars"


def test_a_captain_protests_and_the_moderator_overturns_it(exhibition_server, open_page, tmp_path):
    assert len(LONG_NAME) == 32
    server, code = exhibition_server, exhibition_server["matches"]["live"]
    moderator = open_page(1920, 1080)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, LONG_NAME, 0)  # the Humans' captain
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)  # the Machines' captain
    screen = watch(open_page, server, code)

    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 2")
    reveal(moderator, 3)
    ada.keyboard.press(" ")
    answer(ada, "Mars planet")
    rule(moderator, "r", "Mars planet")
    box = ada.locator("#protest-box")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Mars planet")
    ada.fill("#protest-input", TYPED)
    ada.screenshot(path=str(tmp_path / "phone-protest-box.png"), full_page=True)
    ada.locator("#protest-box button[type=submit]").click()
    expect(box).to_contain_text("Your team's protest is with the moderator.")
    expect(bo.locator("#protest-box")).to_be_hidden()  # one open protest per ruling

    card = moderator.locator("#protests-panel")
    expect(card).to_be_visible()
    expect(card.locator(".protest-text")).to_have_text(TYPED)
    assert card.locator(".protest-text b").count() == 0  # the typed markup is text
    expect(screen.locator("#feed")).to_contain_text("Humans protests the ruling on question 1")
    expect(screen.locator("#feed")).not_to_contain_text("names Mars")  # the text is the team's

    bo.locator("#buzz").click()
    answer(bo, "Mars")
    rule(moderator, "a", "Mars")
    expect(moderator.locator("#btn-next")).to_be_enabled()  # the question is over: an overturn may go ahead
    card.locator("input[type=text]").fill("the line takes Mars planet")
    card.locator("input[type=checkbox]").check()
    moderator.screenshot(path=str(tmp_path / "console-protest.png"), full_page=True)
    card.get_by_role("button", name="Overturn").click()
    expect(card.locator(".protest.overturned")).to_be_visible()
    expect(screen.locator("#feed")).to_contain_text("Protest: overturned (the line takes Mars planet)")
    expect(ada.locator("#feed")).to_contain_text("Protest: overturned")
    expect(screen.locator("#question .buzz-marker.reject")).to_have_count(0)  # Ada's marker: accepted now
    screen.screenshot(path=str(tmp_path / "hall-protest.png"))
    expected, kinds = scores_in_log(server, code)
    assert expected == {"Humans": 3, "Machines": 0}  # Ada's answer first: the bot team's later one withdrawn
    assert kinds[-2:] == ["protest_resolved", "override"]
    for page in (moderator, ada, bo, screen):
        expect(page.locator("#scores")).to_contain_text("3")
        assert shown_scores(page) == expected
    moderator.set_viewport_size({"width": 390, "height": 844})
    moderator.screenshot(path=str(tmp_path / "console-protest-phone.png"), full_page=True)
