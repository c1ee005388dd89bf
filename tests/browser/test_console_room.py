"""The moderator's view of the room in real Chromium: the Room panel shows who is connected
and how the bot does, live; a reason the moderator keeps private stays off the big screen; the bot's
card says it buzzed, at the console's word; long rulings and a long answer line wrap on the big screen
instead of being cut; and after the final an override and an adjustment each ask for a confirmation and
then show as corrections on the console, the big screen, the box score and the replay.

Real Daphne, real Chromium, a real simulated bot asked by the embedded conductor (seed.py "room")."""
import pytest

from .seed import LONG_ANSWER, ROOM_GUESS
from .test_fair_audience import bot_card
from .test_live_match import answer, expect, join, log_in, press_next, reveal

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

LONG_TYPED = ("the treaty John Jay negotiated in London in 1794 to settle what the War of Independence had left "
              "open between Britain and the United States")
PRIVATE = "misheard the end of the clue"  # the moderator's own note: never on the big screen
PUBLIC = "John Jay's treaty, described in full"


def room_row(console, name):
    return console.locator("#players li", has=console.locator(".player-name", has_text=name))


def clipped(page, selector: str) -> list[str]:
    """The texts of the elements matching selector that do not fit their box (cut off or with an ellipsis)."""
    return page.locator(selector).evaluate_all("""els => els.filter((e) => e.scrollWidth > e.clientWidth + 1
        || getComputedStyle(e).textOverflow === 'ellipsis' && getComputedStyle(e).whiteSpace === 'nowrap')
        .map((e) => e.textContent)""")


def test_the_room_the_bot_card_long_texts_and_corrections_after_the_final(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["room"]
    console = open_page(1920, 1080)
    log_in(console, server, f"/m/{code}/moderate")
    expect(room_row(console, "500mib bot").locator(".pill.health")).to_have_text("not asked yet")
    expect(room_row(console, "500mib bot")).to_contain_text("500mib")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)
    expect(room_row(console, "Ada").locator(".presence")).to_have_attribute("data-presence", "online")
    screen = open_page(1920, 1080)
    screen.goto(f"{server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    expect(console.locator(".room-foot")).to_have_text("1 screen watching")

    # The bot buzzes at the first word: its card says so, at the console's word, on every screen.
    press_next(console)
    expect(console.locator("#phase")).to_contain_text("Question 1 of 1", timeout=60_000)  # the first start loads the bots
    reveal(console, 1)
    expect(console.locator("#floor .possession .who")).to_contain_text("buzzed at word 1 of")
    expect(bot_card(screen, "500mib")).to_contain_text("buzzed at word 1")  # its guess is held, its buzz is not
    expect(bot_card(console, "500mib")).to_contain_text("buzzed at word 1")
    expect(room_row(console, "500mib bot").locator(".pill.health")).to_have_text("healthy")
    expect(console.locator("#floor .typed").first).to_have_text(ROOM_GUESS)
    console.fill("#rule-reason", PRIVATE)
    console.click("button[data-rule=reject]")
    expect(console.locator("#history .ruling-row.reject")).to_contain_text(PRIVATE)
    expect(console.locator("#history .ruling-row.reject .pill.private")).to_have_text("private")

    # Ada answers at length and is right; the big screen shows her ruling and the answer line whole.
    expect(ada.locator("#buzz")).to_be_enabled()
    ada.keyboard.press(" ")
    answer(ada, LONG_TYPED)
    expect(console.locator("#floor .typed").first).to_have_text(LONG_TYPED)
    console.fill("#rule-reason", PUBLIC)
    console.check("#rule-public")
    console.click("button[data-rule=accept]")
    expect(screen.locator("#answer-line .answer")).to_have_text(LONG_ANSWER)
    expect(screen.locator("#feed")).to_contain_text(LONG_TYPED)
    expect(screen.locator("#feed")).to_contain_text(PUBLIC)
    for page in (screen, ada):
        expect(page.locator("body")).not_to_contain_text(PRIVATE)
    assert clipped(screen, "#feed .feed-item") == [] and clipped(screen, "#answer-line .answer") == []
    phone = open_page(390, 844, mobile=True)
    phone.goto(f"{server['url']}/m/{code}/watch")
    expect(phone.locator("#answer-line .answer")).to_have_text(LONG_ANSWER)
    assert clipped(phone, "#feed .feed-item") == [] and clipped(phone, "#answer-line .answer") == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The final; then a correction asks first and shows as one everywhere.
    press_next(console)
    expect(console.locator("#final")).to_contain_text("Humans")
    console.locator("#history .ruling-row.accept button").click()
    confirm = console.locator("#correction-confirm")
    expect(confirm).to_contain_text("Correction after the final")
    expect(confirm).to_contain_text("becomes reject")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    expect(console.locator("#scores [data-team=t0] .points")).to_have_text("3")
    console.locator("#history .ruling-row.accept button").click()
    console.fill("#correction-reason", "the answer named the wrong treaty")
    confirm.get_by_role("button", name="Confirm correction").click()
    expect(console.locator("#scores [data-team=t0] .points")).to_have_text("0")
    expect(console.locator("#corrections")).to_contain_text("Question 1: ruling changed to reject")
    expect(console.locator("#final .final-corrected")).to_contain_text("As called at the final whistle: Humans 3")
    expect(screen.locator("#final .final-corrected")).to_contain_text("corrected after the final")

    form = console.locator("#adjust-form")
    expect(form.locator("button")).to_have_text("Correct the final score…")
    form.locator("select[name=team]").select_option(label="Computer")
    form.locator("input[name=points]").fill("2")
    form.locator("input[name=reason]").fill("protest upheld")
    form.locator("input[name=public]").check()
    form.locator("button").click()
    expect(confirm).to_contain_text("Computer +2 points (protest upheld)")
    confirm.get_by_role("button", name="Confirm correction").click()
    expect(console.locator("#corrections li")).to_have_count(2)
    expect(console.locator("#scores [data-team=t1] .points")).to_have_text("2")

    # Ada's phone goes away: the Room says she is offline.
    ada.close()
    expect(room_row(console, "Ada").locator(".presence")).to_have_attribute("data-presence", "offline")

    # The box score and the replay show the corrections as such (a private reason stays out).
    box = open_page(1280, 900)
    box.goto(f"{server['url']}/m/{code}/boxscore")
    expect(box.locator("#corrections")).to_contain_text("Ada's answer overridden to reject")
    expect(box.locator("#corrections")).to_contain_text("protest upheld")
    expect(box.locator("#called-score")).to_contain_text("Humans 3")
    expect(box.locator("body")).not_to_contain_text("the answer named the wrong treaty")
    box.goto(f"{server['url']}/m/{code}/replay")
    expect(box.locator("#timeline-marks .correction-mark")).to_have_count(2)
    box.locator("#correction-list button").last.click()
    expect(box.locator("#final .final-corrected")).to_contain_text("As called at the final whistle: Humans 3")
