"""The longest names the pages allow, without a space, in real Chromium: the join page, the
phone at 390x844 with its BUZZ button on screen, the console, the hall's big screen at 1920x1080 and
1280x720, the host's match page, the box score, the replay and the archive. No page scrolls sideways
and nothing on it scrolls sideways inside; the big screen does not scroll at all. (A 60-character
name without spaces widened the phone to 951 px and pushed BUZZ off the screen.)

seed_names.py: teams named "W" * NAME_MAX_LENGTH and "M" * NAME_MAX_LENGTH, and a bot with a
60-character name; the players join through the join page with names as long.
"""
import pytest

from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_hall import assert_in_view, assert_no_scrolling
from tests.browser.test_back_row import FLOOR_PX, assert_readable_from_the_back
from tests.browser.test_live_match import expect, log_in, press_next, reveal, rule
from tests.browser.test_station import box, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

PHONE, DESKTOP, PROJECTOR = (390, 844), (1920, 1080), (1280, 720)

# How wide the page is against the viewport it was given, and every box on it that scrolls sideways
# inside (a table in a card that scrolls is the box score "breaking" too).
SIDEWAYS = """() => {
  const scrolls = [...document.querySelectorAll("body *")].filter((el) => {
    const x = getComputedStyle(el).overflowX;
    return (x === "auto" || x === "scroll") && el.scrollWidth > el.clientWidth + 1;
  }).map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth, scrolls};
}"""


@pytest.fixture(scope="module")
def names_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    with seeded_server(folder, _server_env(folder / "db.sqlite3"), seed="seed_names.py") as server:
        yield server


def assert_no_sideways(page, what: str, inside: bool = True):
    """The page is no wider than the viewport it was given (a phone's does not zoom out to fit), and,
    with inside, no box on it scrolls sideways."""
    seen = page.evaluate(SIDEWAYS)
    width = page.viewport_size["width"]
    assert seen["innerWidth"] == width and seen["scrollWidth"] <= width, f"{what} scrolls sideways: {seen}"
    if inside:
        assert not seen["scrolls"], f"{what} has boxes that scroll sideways: {seen['scrolls']}"


def assert_buzz_on_screen(phone, what: str):
    box = phone.locator("#buzz").bounding_box()
    width, height = phone.viewport_size["width"], phone.viewport_size["height"]
    assert box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width \
        and box["y"] + box["height"] <= height, f"BUZZ is not inside the {width}x{height} screen on {what}: {box}"


def join_as(open_page, server, code, name, team):
    """A phone joins through the join page, which says how long a name may be and takes one that long."""
    phone = open_page(*PHONE, mobile=True)
    phone.goto(f"{server['url']}/m/{code}/join")
    expect(phone.locator("#name-help")).to_contain_text(f"Up to {len(name)} characters")
    phone.fill("input[name=name]", name)
    assert phone.input_value("input[name=name]") == name
    phone.locator("input[name=team]").nth(team).check()
    assert_no_sideways(phone, "the join page")
    phone.click("button[type=submit]")
    phone.wait_for_url(f"**/m/{code}/play")
    expect(phone.locator("#conn")).to_have_text("connected")
    expect(phone.locator("#me")).to_contain_text(name)
    return phone


def test_the_longest_names_fit_the_phone_the_console_the_hall_and_the_host_page(names_server, open_page):
    server, code, names = names_server, names_server["matches"]["live"], names_server["names"]
    console = open_page(*DESKTOP)
    log_in(console, server, f"/m/{code}/moderate")
    w = join_as(open_page, server, code, names["humans"], 0)
    m = join_as(open_page, server, code, names["rivals"], 1)
    halls = {}
    for size in (DESKTOP, PROJECTOR):
        halls[size] = open_page(*size)
        halls[size].goto(f"{server['url']}/m/{code}/watch")
        expect(halls[size].locator("#conn")).to_have_text("connected")

    def everywhere(moment):
        for phone in (w, m):
            assert_no_sideways(phone, f"the phone, {moment}")
            assert_buzz_on_screen(phone, f"the phone, {moment}")
        assert_no_sideways(console, f"the console, {moment}")
        for size, hall in halls.items():
            assert_no_scrolling(hall)
            for score in hall.locator("#scores .score").all():
                assert_in_view(score.locator(".points"), f"a score on the {size} screen, {moment}")

    press_next(console)
    expect(console.locator("#phase")).to_contain_text("Question 1 of 1")
    reveal(console, 4)
    expect(w.locator("#buzz")).to_be_enabled()
    everywhere("while the question is read")
    w.locator("#buzz").click()  # a real click: nothing may cover the button or push it aside
    for size, hall in halls.items():
        expect(hall.locator("#buzz-flash .flash-name")).to_have_text(names["humans"])
        hall.wait_for_timeout(300)  # the flash has grown in (it starts at 108 %)
        assert_in_view(hall.locator("#buzz-flash .flash-name"), f"the buzzer's name on the {size} screen")
    answer = w.locator("#answer-input")
    expect(answer).to_be_focused()
    answer.fill(names["humans"])  # an answer as long and unbroken as the name
    answer.press("Enter")
    rule(console, "r", names["humans"])
    expect(m.locator("#buzz")).to_be_enabled()
    everywhere("after a wrong answer")
    m.locator("#buzz").click()
    expect(m.locator("#answer-input")).to_be_focused()
    m.locator("#answer-input").fill("Hamlet")
    m.locator("#answer-input").press("Enter")
    rule(console, "a", "Hamlet")
    for size, hall in halls.items():
        expect(hall.locator("#answer-line .outcome")).to_have_text(f"{names['rivals']} +3")
        assert_in_view(hall.locator("#answer-line .outcome"), f"who scored, on the {size} screen")
    everywhere("when the question closed")

    for size in (DESKTOP, PHONE):
        host = open_page(*size)
        log_in(host, server, f"/host/m/{code}/", live=False)
        expect(host.locator(".roster")).to_contain_text(names["humans"])
        assert_no_sideways(host, f"the host's match page at {size}")


@pytest.mark.parametrize("width, height", [DESKTOP, PROJECTOR])
def test_the_hall_and_the_console_fit_the_longest_names_and_a_bots_long_name(names_server, open_page, width, height):
    code, names = names_server["matches"]["phase3"], names_server["names"]
    screen = open_page(width, height)
    screen.goto(f"{names_server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    expect(screen.locator("#phase")).to_contain_text("paused")
    expect(screen.locator("#bots .bot-card")).to_have_count(3)
    assert_no_scrolling(screen)
    for card in screen.locator("#bots .bot-card").all():
        for pill in card.locator(".pill").all():  # its tier and its measured size
            assert_in_view(pill, "a bot's tier and size")
    assert_in_view(screen.locator("#scores .score .side-marks").first, "the humans' part in the phase")
    console = open_page(*DESKTOP)
    log_in(console, names_server, f"/m/{code}/moderate")
    expect(console.locator("#players")).to_contain_text(names["humans"])
    expect(console.locator(".bot-card .bot-name").nth(1)).to_have_attribute("title", f"{names['bot']} (simulated)")
    # The answer line's required word is underlined as the packet marks it, never shown as "<u>Hamlet</u>".
    expect(console.locator("#answer u")).to_have_text("Hamlet")
    assert console.locator("#answer").inner_text().startswith("Hamlet [accept The Tragedy of Hamlet")
    assert_no_sideways(console, "the console")


@pytest.mark.parametrize("page_path", ["/m/{code}/boxscore", "/m/{code}/replay", "/archive/"])
@pytest.mark.parametrize("width, height", [DESKTOP, PHONE])
def test_the_box_score_the_replay_and_the_archive_fit_the_longest_names(names_server, open_page, page_path, width, height):
    code, names = names_server["matches"]["finished"], names_server["names"]
    page = open_page(width, height, mobile=width < 600)
    page.goto(names_server["url"] + page_path.format(code=code))
    expect(page.locator("main")).to_contain_text(names["humans"])
    if "replay" in page_path:
        expect(page.locator("#question-list li")).not_to_have_count(0)
    # On a phone the box score's table of ten numbers per player may scroll inside its card, as it
    # always has; a name never makes anything scroll.
    assert_no_sideways(page, page_path, inside=width >= 600)


def test_the_station_fits_the_longest_player_name_and_a_long_named_teammates_key(names_server, open_page, tmp_path):
    """A player as long-named as a join allows, seated at the station beside a semi bot of 60 characters: the key
    for the bot is set, and the box, its two key lines and the seating form stay on screen at every size."""
    server, code, names = names_server, names_server["matches"]["station"], names_server["names"]
    station = open_page(*DESKTOP)
    seat_players(station, server, code, [(names["humans"], 0)])
    player = box(station, names["humans"])
    player.locator(".set-bot-key").click()
    station.keyboard.press("q")
    expect(player.locator(".player-bot-keys")).to_have_text(f"{names['bot']}: key Q")
    player.locator(".set-key").click()
    station.keyboard.press("w")
    expect(player.locator(".player-keys")).to_have_text("key W")
    station.locator("details.station-seat summary").click()  # the seating form open too
    for size in (DESKTOP, PROJECTOR, PHONE):
        station.set_viewport_size({"width": size[0], "height": size[1]})
        assert_no_sideways(station, f"the station at {size}")
        if size in FLOOR_PX:
            assert_readable_from_the_back(station, f"the station at {size}", FLOOR_PX[size])
        station.screenshot(path=str(tmp_path / f"station-long-{size[0]}.png"), full_page=True)
    print("screenshots:", tmp_path)
