"""Every page passes axe-core's WCAG 2.1 A/AA audit in real Chromium, at 1920x1080 and 390x844, with
names as long as the pages allow: no serious or critical violation.

The live pages are audited in the moments that matter: before the match, a question being read, a
player holding the floor, an answer with the moderator, a ruling shown, paused, a team phase (the
phones' discussion and the captain's answer box), the question closed and the match over. A failure names the rule, the page, the size and the element.

To audit a new page, add it to PAGES (a page anyone or staff opens by address) or RENDERED (a page
the server shows only when something failed, rendered here from its template). With
EXHIBITION_A11Y_SHOTS=<folder> every audited page is also saved as a screenshot at both sizes.
"""
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from tests.browser.axe_audit import audit_sizes
from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_live_match import expect, join, log_in, press_next, reveal, rule

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

SHOTS = Path(os.environ["EXHIBITION_A11Y_SHOTS"]) if os.environ.get("EXHIBITION_A11Y_SHOTS") else None


@dataclass(frozen=True)
class Page:
    name: str
    path: str  # {live}, {finished}, {phase3}: the seeded matches' codes
    staff: bool = False
    ready: str = "main"  # shown once the page has drawn what it shows


PAGES = [
    Page("landing", "/"),
    Page("sign-in", "/accounts/login/?next=/host/", ready="form"),
    Page("join by code", "/join"),
    Page("join by code, wrong code", "/join?code=ZZZZZZ"),
    Page("join a match", "/m/{live}/join"),
    Page("buzzer station, nobody seated yet", "/m/{live}/station", ready="details.station-seat[open]"),
    Page("the stream's overlay", "/m/{live}/overlay", ready=".overlay-top"),
    Page("host: a match's broadcast", "/host/m/{live}/broadcast", staff=True),
    Page("no such match (404)", "/m/ZZZZZZ/watch"),
    Page("archive", "/archive/"),
    Page("replay", "/m/{finished}/replay", ready="#question-list li"),
    Page("box score", "/m/{finished}/boxscore"),
    Page("after the match, the hall", "/m/{finished}/watch", ready="#final:not([hidden])"),
    Page("host: new match", "/host/", staff=True),
    Page("host: a match's links", "/host/m/{live}/", staff=True),
    Page("host: import questions", "/host/import/", staff=True),
    Page("replay, staff", "/m/{finished}/replay?staff=1", staff=True, ready="#question-list li"),
    Page("after the match, the console", "/m/{finished}/moderate", staff=True, ready="#final:not([hidden])"),
    Page("team phase, the console", "/m/{phase3}/moderate", staff=True, ready="#conn.live"),
    Page("team phase, the hall", "/m/{phase3}/watch", ready="#conn.live"),
    Page("host: events", "/host/events/", staff=True),
    Page("host: an event", "/host/events/{event}/", staff=True),
    Page("an event's leaderboard, the hall", "/events/{event}/"),
    Page("host: the report's form", "/host/report", staff=True),
    Page("the report", "/host/report?codes={finished}", staff=True, ready="canvas"),
]

# Pages the server shows only when something failed: rendered from their templates with the context
# their views give, and served at the site's own address, so they load its stylesheet.
RENDERED = {
    "busy (503)": ("busy.html", {"retry_seconds": 600, "post": True, "fields": [("name", "W" * 32)], "action": "/join"}, 503),
    "busy (503), a page": ("busy.html", {"retry_seconds": 600, "post": False, "fields": [], "action": "/archive/"}, 503),
    "server error (500)": ("500.html", {}, 500),
    "taking your seat (202)": ("joining.html", {"match": {"code": "ABCDEF", "title": "T" * 32}, "seat": {"name": "W" * 32},
                                                "retry_seconds": 600, "reason": "The game server is busy."}, 202),
}


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("a11y")
    with seeded_server(folder, _server_env(folder / "db.sqlite3"), seed="seed_a11y.py") as server:
        yield server


def _audit(page, where: str) -> list[str]:
    return audit_sizes(page, where, shots=SHOTS)


@pytest.mark.parametrize("spec", PAGES, ids=[p.name for p in PAGES])
def test_every_page_passes_the_audit(a11y_server, open_page, spec):
    page = open_page(1920, 1080)
    path = spec.path.format(**a11y_server["matches"])
    if spec.staff:
        log_in(page, a11y_server, path, live=False)
    else:
        page.goto(a11y_server["url"] + path)
    expect(page.locator(spec.ready).first).to_be_visible()
    found = _audit(page, spec.name)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", RENDERED)
def test_every_error_page_passes_the_audit(a11y_server, open_page, name):
    template, context, status = RENDERED[name]
    html = render_to_string(template, context)
    page = open_page(1920, 1080)
    address = f"{a11y_server['url']}/a11y-rendered"
    page.route(address, lambda route: route.fulfill(status=status, body=html, content_type="text/html"))
    page.goto(address)
    expect(page.locator("main")).to_be_visible()
    found = _audit(page, name)
    assert not found, "\n".join(found)


def test_the_live_pages_pass_the_audit_in_every_moment_of_a_match(a11y_server, open_page):
    server, code, names = a11y_server, a11y_server["matches"]["live"], a11y_server["names"]
    console = open_page(1920, 1080)
    log_in(console, server, f"/m/{code}/moderate")
    hall = open_page(1920, 1080)
    hall.goto(f"{server['url']}/m/{code}/watch")
    expect(hall.locator("#conn")).to_have_text("connected")
    w, m = open_page(390, 844), open_page(390, 844)
    join(w, server, code, names["humans"], 0)
    join(m, server, code, names["rivals"], 1)
    found = []

    def everywhere(moment):
        for where, page in (("the console", console), ("the hall", hall), ("a player's phone", w), ("the other player's phone", m)):
            found.extend(_audit(page, f"{where}, {moment}"))
        console.set_viewport_size({"width": 1920, "height": 1080})  # the console's keys need it in view

    everywhere("before the match")
    press_next(console)
    expect(console.locator("#phase")).to_contain_text("Question 1 of 1")
    reveal(console, 4)
    expect(w.locator("#buzz")).to_be_enabled()
    everywhere("a question being read")
    w.locator("#buzz").click()
    expect(w.locator("#answer-input")).to_be_focused()
    everywhere("a player holding the floor")
    w.locator("#answer-input").fill(names["humans"])
    w.locator("#answer-input").press("Enter")
    expect(console.locator("#floor .typed").first).to_have_text(names["humans"])
    everywhere("an answer with the moderator")
    rule(console, "r", names["humans"])
    expect(w.locator("#feed .ruling")).to_have_count(1)
    everywhere("a ruling shown")
    console.keyboard.press("h")
    expect(hall.locator("#phase")).to_contain_text("paused")
    everywhere("paused")
    expect(console.locator("#btn-pause")).to_contain_text("Resume")
    console.keyboard.press("h")
    expect(hall.locator("#phase")).not_to_contain_text("paused")
    expect(m.locator("#buzz")).to_be_enabled()
    m.locator("#buzz").click()
    m.locator("#answer-input").fill("Macbeth")
    m.locator("#answer-input").press("Enter")
    rule(console, "r", "Macbeth")  # both sides missed: the team phase
    for phone in (w, m):
        expect(phone.locator("#team-phase")).to_be_visible()
    w.locator("#chat-input").fill(names["humans"])
    w.locator("#chat-input").press("Enter")
    expect(w.locator("#chat-log")).to_contain_text(names["humans"])
    everywhere("a team phase")
    w.locator("#submit-input").fill("Hamlet")
    w.locator("#submit-input").press("Enter")
    rule(console, "a", "Hamlet")
    expect(hall.locator("#answer-line .outcome")).to_have_text(f"{names['humans']} +2")
    everywhere("the question closed")
    press_next(console)
    expect(w.locator("#final")).to_be_visible()
    everywhere("the match over")
    assert not found, f"{len(found)} violations:\n" + "\n".join(found)


def _tab_to(page, selector: str, limit: int = 40):
    """Press Tab until the element matching selector has the focus, as a keyboard user moves."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"{selector} never took the focus in {limit} presses of Tab")


def test_a_player_joins_buzzes_and_answers_by_keyboard_and_a_screen_reader_hears_it(a11y_server, open_page):
    """No mouse: the player tabs through the join page, buzzes with Space and answers with Enter; the
    moderator reads, rules and goes on with single keys. What a screen reader is told arrives in the
    page's live regions: the question's start and its words, "you buzzed", the ruling."""
    server, code, names = a11y_server, a11y_server["matches"]["keyboard"], a11y_server["names"]
    console = open_page(1920, 1080)
    log_in(console, server, f"/m/{code}/moderate")
    for key, button in (("A", "[data-rule=accept]"), ("R", "[data-rule=reject]"), ("N", "#btn-next"), ("H", "#btn-pause")):
        expect(console.locator(button)).to_have_attribute("aria-keyshortcuts", key)
    hall = open_page(1920, 1080)
    hall.goto(f"{server['url']}/m/{code}/watch")
    phone = open_page(390, 844)
    phone.goto(f"{server['url']}/m/{code}/join")
    _tab_to(phone, "input[name=name]")
    phone.keyboard.type(names["humans"])
    _tab_to(phone, "input[name=team]")
    phone.keyboard.press("Space")
    expect(phone.locator("input[name=team]").first).to_be_checked()
    _tab_to(phone, "button[type=submit]")
    phone.keyboard.press("Enter")
    phone.wait_for_url(f"**/m/{code}/play")
    expect(phone.locator("#conn")).to_have_text("connected")
    expect(phone.locator("#buzz")).to_have_attribute("aria-keyshortcuts", "Space")
    for live in ("#feed", "#said"):
        expect(phone.locator(live)).to_have_attribute("aria-live", "polite")
    expect(phone.locator("#said-now")).to_have_attribute("role", "alert")

    press_next(console)
    expect(console.locator("#phase")).to_contain_text("Question 1 of 1")
    reveal(console, 3)
    said = phone.locator("#said")
    expect(said).to_contain_text("Question 1 of 1")
    expect(phone.locator("#buzz")).to_be_enabled()
    phone.keyboard.press("Space")
    answer_box = phone.locator("#answer-input")
    expect(answer_box).to_be_focused()
    expect(phone.locator("#said-now")).to_contain_text("You buzzed")
    expect(said).to_contain_text("This play's")  # the words read so far, said as one phrase at the buzz
    phone.keyboard.type("Macbeth")
    phone.keyboard.press("Enter")
    rule(console, "r", "Macbeth")
    expect(phone.locator("#said-now")).to_contain_text(f"{names['humans']}: wrong")
    expect(phone.locator("#feed .ruling")).to_contain_text("Macbeth")
    # The feed is redrawn on every event; an item already there stays the same element, so the live
    # region announces only what is new.
    phone.evaluate("document.querySelector('#feed .ruling').dataset.heard = 'yes'")
    console.keyboard.press("h")
    expect(said).to_contain_text("Paused.")
    expect(console.locator("#btn-pause")).to_contain_text("Resume")  # H resumes once the console knows it paused
    console.keyboard.press("h")
    expect(said).to_contain_text("Resumed.")
    expect(phone.locator("#feed .ruling[data-heard=yes]")).to_have_count(1)
    expect(hall.locator("#said")).to_contain_text("Question 1 of 1")
    expect(hall.locator("#said")).to_contain_text("Resumed.")
    assert said.locator("p").count() <= 12, "the spoken log keeps only its last lines"


# Run in the page before its scripts: the match socket never hands the page its first ruling frame,
# as when a delivery is lost on the way (a Redis blip); window.__lost keeps the seq it dropped.
LOSE_FIRST_RULING = """(() => {
  const Native = window.WebSocket;
  window.__lost = [];
  window.WebSocket = class extends Native {
    set onmessage(handler) {
      super.onmessage = (e) => {
        let frame = null;
        try { frame = JSON.parse(e.data); } catch { /* not ours to judge */ }
        if (frame?.type === "ruling" && !window.__lost.length) { window.__lost.push(frame.seq); return; }
        handler(e);
      };
    }
    get onmessage() { return super.onmessage; }
  };
})();"""


def test_a_ruling_lost_on_the_way_to_a_phone_is_still_said_and_shown(a11y_server, open_page):
    """A frame that never reached the phone: the next one shows the gap, the page asks for what it
    missed, and the ruling comes folded like any frame, with its feed line and the alert a screen
    reader says (a snapshot would have brought the score but neither of those)."""
    server, code, names = a11y_server, a11y_server["matches"]["lost_frame"], a11y_server["names"]
    console = open_page(1920, 1080)
    log_in(console, server, f"/m/{code}/moderate")
    phone = open_page(390, 844)
    phone.add_init_script(LOSE_FIRST_RULING)
    join(phone, server, code, names["humans"], 0)
    press_next(console)
    expect(console.locator("#phase")).to_contain_text("Question 1 of 1")
    reveal(console, 3)
    expect(phone.locator("#buzz")).to_be_enabled()
    phone.locator("#buzz").click()
    answer_box = phone.locator("#answer-input")
    expect(answer_box).to_be_focused()
    answer_box.fill("Macbeth")
    answer_box.press("Enter")
    rule(console, "r", "Macbeth")
    expect(console.locator("#floor")).to_contain_text("Locked out")
    reveal(console, 1)  # the next frame the phone gets is a word: one after the gap
    expect(phone.locator("#said-now")).to_contain_text(f"{names['humans']}: wrong")
    expect(phone.locator("#feed .ruling")).to_contain_text("Macbeth")
    assert len(phone.evaluate("window.__lost")) == 1, "the ruling frame itself was lost"
    expect(phone.locator("#question .word")).to_have_count(4)
    if SHOTS is not None:
        for width, height in ((390, 844), (1920, 1080)):
            phone.set_viewport_size({"width": width, "height": height})
            phone.screenshot(path=str(SHOTS / f"play after a lost frame {width}x{height}.png"), full_page=True)


def test_the_throttled_join_and_the_locked_out_sign_in_pass_the_audit(a11y_server, open_page):
    """Last in this module: it spends the joins this address may make in a minute (429) and locks a
    (made-up) user out of signing in; both pages are the real server's."""
    server, code = a11y_server, a11y_server["matches"]["phase3"]  # a match still open to joins
    page = open_page(1920, 1080)
    for _ in range(60):
        page.goto(f"{server['url']}/m/{code}/join")
        page.evaluate("document.querySelector('main form').noValidate = true")  # a join the server refuses: no name
        with page.expect_navigation():
            page.click("button[type=submit]")
        if "Too many joins" in page.content():
            break
    expect(page.locator(".error").first).to_contain_text("Too many joins")
    found = _audit(page, "join, too many joins (429)")
    signin = open_page(1920, 1080)
    for _ in range(20):
        signin.goto(f"{server['url']}/accounts/login/")
        signin.fill("input[name=username]", "nobody-" + "x" * 25)
        signin.fill("input[name=password]", "wrong")
        signin.click("button[type=submit]")
        signin.wait_for_load_state()
        if "Too many failed sign-ins" in signin.title():
            break
    expect(signin.locator("main")).to_contain_text("minute")
    found += _audit(signin, "sign-in locked out")
    assert not found, "\n".join(found)
