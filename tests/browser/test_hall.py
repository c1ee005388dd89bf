"""A real hall in real Chromium: the big screen fits a 1920x1080 and a 1280x720 projector whatever
the question, keys never scroll it, and a phone joins through the QR code the screen shows and plays.

The server runs as `make demo HALL=1` runs it: hall mode, every interface, DEBUG off. Its public
address is EXHIBITION_PUBLIC_URL=http://127.0.0.2:PORT: an address of this machine that the default
settings refuse (tests/test_hall.py shows the LAN addresses found on the interfaces are allowed the
same way), reached without sending anything off the machine.
"""
import base64

import pytest

from tests.browser.conftest import _free_port, _server_env, seeded_server
from tests.browser.test_live_match import answer, expect, log_in, press_next, reveal, rule

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

SIZES = [(1920, 1080), (1280, 720)]


@pytest.fixture(scope="module")
def hall_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hall")
    port = _free_port()
    public = f"http://127.0.0.2:{port}"
    env = _server_env(folder / "db.sqlite3")
    env.update(DEBUG="0", EXHIBITION_HALL="1", EXHIBITION_PUBLIC_URL=public)
    with seeded_server(folder, env, seed="seed_hall.py", bind="0.0.0.0", port=port) as server:
        yield dict(server, public=public)


# Whether an element is wholly in view: inside the viewport and inside every box around it that clips.
IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  let top = 0, left = 0, bottom = innerHeight, right = innerWidth;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (getComputedStyle(p).overflow === "visible") continue;
    const c = p.getBoundingClientRect();
    top = Math.max(top, c.top); left = Math.max(left, c.left); bottom = Math.min(bottom, c.bottom); right = Math.min(right, c.right);
  }
  const box = {top: r.top, left: r.left, bottom: r.bottom, right: r.right, width: r.width, height: r.height};
  return {ok: r.width > 0 && r.height > 0 && r.top >= top - 0.5 && r.left >= left - 0.5 && r.bottom <= bottom + 0.5
          && r.right <= right + 0.5, box, clip: {top, left, bottom, right}};
}"""


def assert_in_view(locator, what: str):
    seen = locator.evaluate(IN_VIEW)
    assert seen["ok"], f"{what} is not wholly in view: {seen}"


def assert_no_scrolling(page):
    sizes = page.evaluate("() => ({sh: document.documentElement.scrollHeight, sw: document.documentElement.scrollWidth, "
                          "h: innerHeight, w: innerWidth, y: scrollY})")
    assert (sizes["sh"], sizes["sw"], sizes["y"]) == (sizes["h"], sizes["w"], 0), sizes


def open_screen(open_page, server, stage, width, height):
    screen = open_page(width, height)
    screen.goto(f"{server['url']}/m/{server['matches'][f'screen_{stage}']}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    expect(screen.locator("#phase")).to_contain_text("paused")  # the staged match holds still
    expect(screen.locator("#question .word")).not_to_have_count(0)
    return screen


@pytest.mark.parametrize("width, height", SIZES)
def test_a_long_tossup_with_three_bots_and_snippets_fits_the_screen(hall_server, open_page, width, height):
    screen = open_screen(open_page, hall_server, "phase3", width, height)
    words = screen.locator("#question .word")
    assert words.count() >= 120
    expect(words.last).to_have_text("Laertes.")
    expect(screen.locator("#bots .bot-card")).to_have_count(3)
    expect(screen.locator("#snippets .snippet")).to_have_count(3)
    assert_no_scrolling(screen)
    assert_in_view(words.last, "the last word")
    for i in range(3):
        assert_in_view(screen.locator("#bots .bot-card").nth(i), f"bot card {i + 1}")
    shown = screen.locator("#snippets .snippet:visible")  # as many as fit, the first first (test_search_results_…)
    assert shown.count() >= 1
    for i in range(shown.count()):
        assert_in_view(shown.nth(i), f"search result {i + 1}")
    for score in screen.locator("#scores .score").all():
        assert_in_view(score.locator(".points"), "a score")
    assert_in_view(screen.locator("#timer"), "the discussion clock")
    assert_in_view(screen.locator("#join-qr"), "the QR code")
    # The hall sees each side's part in the team phase: the humans have priority and are ruled first.
    humans = screen.locator("#scores .score").first
    expect(humans.locator(".side-mark.priority")).to_have_text("priority")
    expect(humans.locator(".side-mark.floor")).to_have_text("ruled first")
    expect(humans.locator(".side-mark.busy")).to_have_text("discussing")
    expect(screen.locator("#timer")).to_contain_text("to discuss")


@pytest.mark.parametrize("width, height", SIZES)
def test_the_answer_banner_the_last_word_and_the_scores_fit_when_the_question_closes(hall_server, open_page, width, height):
    screen = open_screen(open_page, hall_server, "closed", width, height)
    expect(screen.locator("#answer-line .outcome")).to_have_text("Humans +1")
    expect(screen.locator("#question .word").last).to_have_text("Laertes.")
    assert_no_scrolling(screen)
    assert_in_view(screen.locator("#question .word").last, "the last word")
    assert_in_view(screen.locator("#question .power-mark"), "the power mark")
    assert_in_view(screen.locator("#answer-line .answer"), "the answer")
    assert_in_view(screen.locator("#answer-line .outcome"), "who scored")
    for score in screen.locator("#scores .score").all():
        assert_in_view(score.locator(".points"), "a score")
    # Every bot's card has settled on its final guess: nobody is still "thinking" on a closed question.
    cards = screen.locator("#bots .bot-card")
    expect(cards).to_have_count(3)
    for i in range(3):
        expect(cards.nth(i)).to_have_attribute("data-state", "settled")
        expect(cards.nth(i).locator(".guess")).to_contain_text("final: Hamlet")
        assert_in_view(cards.nth(i), f"bot card {i + 1}")


@pytest.mark.parametrize("width, height", SIZES)
def test_keys_never_scroll_the_screen(hall_server, open_page, width, height):
    screen = open_screen(open_page, hall_server, "phase1", width, height)
    last = screen.locator("#question .word").last
    assert_in_view(last, "the last word")
    inner = "() => [...document.querySelectorAll('main *')].map((e) => e.scrollTop)"
    before = screen.evaluate(inner)
    screen.locator("body").click()
    for key in (" ", "PageDown", "End", "ArrowDown", " "):
        screen.keyboard.press(key)
    assert_no_scrolling(screen)
    assert screen.evaluate(inner) == before  # nothing inside scrolled either
    assert_in_view(last, "the last word after the keys")
    assert_in_view(screen.locator("#scores .score .points").first, "the scores after the keys")


def decode_qr(page, where: str) -> list[str]:
    """The QR code as the screen shows it, read from its pixels by ZXing, as a phone's camera would."""
    import numpy as np
    import zxingcpp

    shot = base64.b64encode(page.locator(where).screenshot()).decode()
    pixels = page.evaluate("""async (png) => {
      const img = new Image();
      img.src = "data:image/png;base64," + png;
      await img.decode();
      const canvas = Object.assign(document.createElement("canvas"), {width: img.width, height: img.height});
      const ctx = canvas.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const rgba = ctx.getImageData(0, 0, img.width, img.height).data;
      return {w: img.width, h: img.height, gray: Array.from({length: img.width * img.height}, (_, i) => rgba[i * 4 + 1])};
    }""", shot)
    image = np.array(pixels["gray"], dtype=np.uint8).reshape(pixels["h"], pixels["w"])
    return [found.text for found in zxingcpp.read_barcodes(image)]


def test_a_phone_joins_through_the_qr_code_on_the_screen_and_plays(hall_server, open_page):
    server, code = hall_server, hall_server["matches"]["live"]
    screen = open_page(1920, 1080)
    screen.goto(f"{server['url']}/m/{code}/watch")  # the projector's computer opens the screen on itself
    expect(screen.locator("#conn")).to_have_text("connected")
    shown = screen.locator("#join-url")
    expect(shown).to_have_text(f"{server['public'].split('://')[1]}/join")
    # Before the match the screen is the way in: a large QR code (the bar's small one takes over once it starts).
    [link] = decode_qr(screen, "#join-panel .big-qr")
    assert link == f"{server['public']}/m/{code}/join" == screen.locator("#join-qr").get_attribute("href")

    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    phones = {}
    for name, team in (("Ada", 0), ("Bo", 1)):
        phone = open_page(390, 844, mobile=True)
        phone.goto(link)  # where the camera app sends the phone
        phone.fill("input[name=name]", name)
        phone.locator("input[name=team]").nth(team).check()
        phone.click("button[type=submit]")
        phone.wait_for_url(f"{server['public']}/m/{code}/play")
        expect(phone.locator("#conn")).to_have_text("connected")  # the websocket's Origin is accepted too
        phones[name] = phone
    ada, bo = phones["Ada"], phones["Bo"]
    expect(ada.locator("body")).to_have_attribute("data-wake-lock", "off")

    press_next(moderator)
    expect(screen.locator("#join-panel")).to_be_hidden()
    assert decode_qr(screen, "#join-qr") == [link]
    for phone in (ada, bo):  # the match is live: the phones keep their screens on
        expect(phone.locator("body")).to_have_attribute("data-wake-lock", "held")
    reveal(moderator, 5)
    screen.locator("body").click()  # the one click browsers want before a page may play sound
    expect(screen.locator("#sound-hint")).to_be_hidden()
    ada.locator("#buzz").click()
    flash = screen.locator("#buzz-flash")
    expect(flash).to_be_visible()
    expect(flash.locator(".flash-name")).to_have_text("Ada")
    assert screen.evaluate("window.exhibitionScreen.sound.played") == 1
    answer(ada, "Macbeth")
    rule(moderator, "r", "Macbeth")
    expect(screen.locator(".side-mark.out")).to_have_text("locked out")
    assert screen.evaluate("window.exhibitionScreen.sound.playedKinds") == ["buzz", "lockout"]  # the team ruled out

    screen.locator("#sound").click()  # mute
    expect(screen.locator("#sound")).to_have_attribute("aria-pressed", "false")
    expect(bo.locator("#buzz")).to_be_enabled()
    bo.locator("#buzz").click()
    expect(flash.locator(".flash-name")).to_have_text("Bo")
    expect(flash).to_be_visible()
    assert screen.evaluate("window.exhibitionScreen.sound.played") == 2  # muted: the flash, no sound
    answer(bo, "Hamlet")
    rule(moderator, "a", "Hamlet")
    expect(screen.locator("#answer-line .answer")).to_contain_text("Hamlet")
    expect(screen.locator("#answer-line .outcome")).to_have_text("Machines +3")

    press_next(moderator)  # one question: the match ends
    expect(screen.locator("#final .final-winner")).to_have_text("Machines win!")
    expect(ada.locator("body")).to_have_attribute("data-wake-lock", "off")  # and the phones may sleep again


# -- the phase-3 search results read from the back of the room ---------------------------

SNIPPET_FONT_PX = 20  # the smallest text the back of a room reads on a hall's screen

SNIPPETS_SEEN = """(panel) => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const box = panel.getBoundingClientRect();
  const shown = [...panel.querySelectorAll(".snippet")].filter((s) => s.getClientRects().length);
  return {scrollHeight: panel.scrollHeight, clientHeight: panel.clientHeight, scrollTop: panel.scrollTop,
          panelTop: box.top, panelBottom: box.bottom, heading: panel.querySelector("h3").textContent,
          headingPx: px(panel.querySelector("h3")),
          shown: shown.map((s) => ({title: s.querySelector("strong").textContent, top: s.getBoundingClientRect().top,
                                    bottom: s.getBoundingClientRect().bottom, titlePx: px(s.querySelector("strong")),
                                    textPx: px(s.querySelector("p"))}))};
}"""


@pytest.mark.parametrize("width, height", SIZES)
def test_search_results_show_the_first_result_first_large_and_never_scroll(hall_server, open_page, width, height):
    from tests.browser.seed_hall import SNIPPETS

    screen = open_screen(open_page, hall_server, "phase3", width, height)
    panel = screen.locator("#snippets")
    expect(panel).to_be_visible()
    seen = panel.evaluate(SNIPPETS_SEEN)
    assert seen["scrollHeight"] <= seen["clientHeight"] and seen["scrollTop"] == 0, f"the panel scrolls: {seen}"
    assert_no_scrolling(screen)
    shown = seen["shown"]
    assert shown and shown[0]["title"] == SNIPPETS[0][0], f"the first result is not the first shown: {seen}"
    assert [s["title"] for s in shown] == [title for title, _ in SNIPPETS[:len(shown)]], "results in their order"
    for s in shown:  # each result shown is wholly in the panel: none is cut at its top or its bottom
        assert seen["panelTop"] - 0.5 <= s["top"] and s["bottom"] <= seen["panelBottom"] + 0.5, seen
        assert min(s["titlePx"], s["textPx"]) >= SNIPPET_FONT_PX, f"a result's text is smaller than {SNIPPET_FONT_PX} px: {s}"
    assert seen["headingPx"] >= SNIPPET_FONT_PX, seen
    assert_in_view(panel.locator(".snippet").first, "the first search result")
    left_out = len(SNIPPETS) - len(shown)
    assert seen["heading"] == (f"Search results · first {len(shown)} of {len(SNIPPETS)}" if left_out else "Search results")



def test_a_phone_watching_the_screen_shows_the_first_search_result_too(hall_server, open_page):
    """A screen held in the hand (taller than wide: one column) keeps the results at its own size."""
    screen = open_screen(open_page, hall_server, "phase3", 390, 844)
    panel = screen.locator("#snippets")
    seen = panel.evaluate(SNIPPETS_SEEN)
    assert seen["scrollHeight"] <= seen["clientHeight"] and seen["scrollTop"] == 0, seen
    assert seen["shown"] and seen["shown"][0]["bottom"] <= seen["panelBottom"] + 0.5, seen
    assert_in_view(panel.locator(".snippet").first.locator("strong"), "the first result's title")
    assert_in_view(panel.locator("h3"), "the panel's heading")
    assert_no_scrolling(screen)


# -- each bot's top five guesses with their scores, under the audience rule ----------------

def alt_rows_of(rows) -> list[tuple[str, str]]:
    return [(row.locator(".alt-guess").text_content(), row.locator(".pct").text_content()) for row in rows.all()]


def alt_rows(card) -> list[tuple[str, str]]:
    return alt_rows_of(card.locator(".bot-alts li"))


def test_each_bot_card_shows_its_top_five_guesses_with_scores_once_the_hall_may_see_them(hall_server, open_page):
    unlimited_five = [("Hamlet (1948 film)", "4%"), ("Hamnet", "2%"), ("Rosencrantz and Guildenstern Are Dead", "1%"),
                      ("The Spanish Tragedy", "1%")]
    # Phase 3, the humans discussing: the console sees the unlimited bot's five guesses; the hall none yet.
    console = open_page(1920, 1080)
    log_in(console, hall_server, f"/m/{hall_server['matches']['screen_phase3']}/moderate")
    card = console.locator(".bot-card", has=console.locator(".pill", has_text="unlimited"))
    expect(card.locator(".guess")).to_have_text("Hamlet")
    expect(card.locator(".guess-row .pct")).to_have_text("93%")
    assert alt_rows(card) == unlimited_five
    expect(card.locator(".bot-alts .bar")).to_have_count(4)
    screen = open_screen(open_page, hall_server, "phase3", 1920, 1080)
    held = screen.locator(".bot-card", has=screen.locator(".pill", has_text="unlimited"))
    expect(held).to_contain_text("no guess yet")
    assert "Hamnet" not in screen.content()
    # Phase 1 is over, but the humans may still score on this question in phase 3: its bot's guesses wait too.
    small = screen.locator(".bot-card", has=screen.locator(".pill", has_text="500mib"))
    expect(small).to_have_attribute("data-state", "waiting")
    assert alt_rows(small) == [] and "Macbeth" not in screen.content()
    # The question closed: the hall is sent every bot's top guesses, five at most, each with its bar and
    # score, and shows the top ones that fit at the size the room reads (the console shows them all).
    screen = open_screen(open_page, hall_server, "closed", 1920, 1080)
    card = screen.locator(".bot-card", has=screen.locator(".pill", has_text="unlimited"))
    expect(card.locator(".guess")).to_contain_text("final: Hamlet")
    assert alt_rows(card) == unlimited_five
    small = screen.locator(".bot-card", has=screen.locator(".pill", has_text="500mib"))
    small_five = [("Macbeth", "20%"), ("The Tempest", "5%"), ("Othello", "4%"), ("King Lear", "3%")]
    assert alt_rows(small) == small_five
    for bot, five in ((card, unlimited_five), (small, small_five)):
        shown = bot.locator(".bot-alts li:visible")
        assert alt_rows_of(shown) == five[:shown.count()], "the guesses shown are its top ones, in order"
        for i in range(shown.count()):
            assert_in_view(shown.nth(i), f"a bot's guess {i + 2}")
    assert small.locator(".bot-alts li:visible").count() >= 1, "the hall shows the first bot's second guess"
    assert_no_scrolling(screen)
