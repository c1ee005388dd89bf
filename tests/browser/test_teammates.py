"""An AI teammate in the browser: Ada's phone has a "Buzz for Robo" button for the semi bot on her team; she
presses it, the embedded conductor asks the bot (a real simulated bot) for its answer, and the moderator
rules that answer for her team. Every screen shows Robo on the humans' team, marked as a bot, with its mode.

Real Daphne, real Chromium (seed.py: the "teammate" match, moderator-paced)."""
import pytest

from .test_live_match import expect, join, log_in, press_next, reveal, rule, scores_in_log

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


def test_a_human_presses_the_semi_bots_buzzer_and_its_answer_is_ruled_for_the_team(exhibition_server, open_page, tmp_path):
    server, code = exhibition_server, exhibition_server["matches"]["teammate"]
    moderator = open_page(1280, 720)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)  # the other team: no button for a bot that is not theirs
    screen = open_page(1920, 1080)
    screen.goto(f"{server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")

    for page in (moderator, ada, screen):  # the humans' card names its AI teammate and how it buzzes
        expect(page.locator(".score[data-team=t0] .team-mate")).to_contain_text("Robo (simulated) · semi")
    expect(moderator.locator(".bot-row .bot-mode")).to_contain_text("semi · lightweight")
    button = ada.locator("#buzz-for button", has_text="Buzz for Robo")
    expect(button).to_be_visible()
    expect(bo.locator("#buzz-for")).to_be_hidden()

    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 1")
    expect(button).to_be_disabled()  # nothing read yet: no buzz
    reveal(moderator, 3)
    expect(button).to_be_enabled()
    ada.screenshot(path=str(tmp_path / "phone-390x844.png"))
    button.click()
    for page in (ada, bo):  # the bot holds the floor, on Ada's press
        expect(page.locator("#status-line")).to_contain_text("Robo (Humans) buzzed")
    rule(moderator, "a", "Mars")  # the bot's answer, asked of it at the press, ruled right
    expect(ada.locator(".score[data-team=t0] .points")).to_have_text("3")
    expect(screen.locator(".score[data-team=t0] .points")).to_have_text("3")
    expect(bo.locator(".score[data-team=t1] .points")).to_have_text("0")
    screen.screenshot(path=str(tmp_path / "hall-1920x1080.png"))
    moderator.screenshot(path=str(tmp_path / "console-1280x720.png"))
    totals, kinds = scores_in_log(server, code)
    assert totals == {"Humans": 3, "Machines": 0} and "bot_missed" not in kinds
