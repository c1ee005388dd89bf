"""The hall read from the back row, in real Chromium: on the big screen in every moment of a match
(the way in before it, the question being read, a buzz, the team phase, the question closed with the
bot cards, the end, a ruling arriving in the feed, a tossup's bonus with its parts' results)
and on the event's leaderboard, every visible text is at least 24 px on a 1920x1080 screen and 18 px
on a 1280x720 one; two bots of one kind are told apart by their whole names; where each buzz came is
marked beside the question's words, never among them; and the hall's pages carry no site bar.

seed_back_row.py stages the matches (paused, so nothing moves) and plays a whole event for its
leaderboard. The server runs in hall mode, as `make demo HALL=1` runs it.
"""
import re

import pytest

from tests.browser.conftest import _free_port, _server_env, seeded_server
from tests.browser.seed_hall import LONG_TOSSUP
from tests.browser.test_hall import assert_in_view, assert_no_scrolling
from tests.browser.test_live_match import expect, log_in, rule

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

FLOOR_PX = {(1920, 1080): 24, (1280, 720): 18}  # the smallest text the back row reads, per screen size
STAGES = ("setup", "phase1", "buzz", "phase3", "closed", "finished", "bonus")


@pytest.fixture(scope="module")
def back_row_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("back-row")
    port = _free_port()
    env = _server_env(folder / "db.sqlite3")
    env.update(DEBUG="0", EXHIBITION_HALL="1", EXHIBITION_PUBLIC_URL=f"http://127.0.0.2:{port}")
    with seeded_server(folder, env, seed="seed_back_row.py", bind="0.0.0.0", port=port) as server:
        yield server


# Every text node a person in the room can see: not hidden, not clipped away by a box around it (the
# visually hidden screen-reader log is a 1-pixel box), with the computed size of the text.
VISIBLE_TEXTS = """() => {
  const seen = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    const parent = node.parentElement;
    if (!text || !parent || ["SCRIPT", "STYLE", "TITLE"].includes(parent.tagName)) continue;
    if (!parent.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    let top = 0, left = 0, bottom = innerHeight, right = innerWidth;
    for (let p = parent; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflow === "visible" && style.clip === "auto") continue;
      const c = p.getBoundingClientRect();
      top = Math.max(top, c.top); left = Math.max(left, c.left); bottom = Math.min(bottom, c.bottom); right = Math.min(right, c.right);
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const shown = [...range.getClientRects()].some((r) =>
      Math.min(r.right, right) - Math.max(r.left, left) > 1 && Math.min(r.bottom, bottom) - Math.max(r.top, top) > 1);
    if (!shown) continue;
    const where = parent.id ? `#${parent.id}` : `${parent.tagName.toLowerCase()}.${[...parent.classList].join(".")}`;
    seen.push({text: text.slice(0, 50), px: parseFloat(getComputedStyle(parent).fontSize), where});
  }
  return seen;
}"""


def assert_readable_from_the_back(page, what: str, floor: float):
    texts = page.evaluate(VISIBLE_TEXTS)
    assert len(texts) > 5, f"{what}: hardly any text found ({texts})"
    small = [f"{t['text']!r} ({t['where']}) {t['px']:.1f} px" for t in texts if t["px"] < floor - 0.05]
    assert not small, f"{what}: {len(small)} texts under {floor} px:\n" + "\n".join(small)


def open_stage(open_page, server, stage, width, height):
    screen = open_page(width, height)
    screen.goto(f"{server['url']}/m/{server['matches'][stage]}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    if stage == "setup":  # before the match: the join address and its QR code, large
        expect(screen.locator("#join-panel")).to_be_visible()
    elif stage == "finished":
        expect(screen.locator("#final .final-winner")).to_be_visible()
    elif stage == "bonus":  # part 1 right, part 2 missed and got on the bounceback, part 3 answered and waiting
        expect(screen.locator("#phase")).to_contain_text("paused")
        expect(screen.locator("#question .bonus-part")).to_have_count(3)
        expect(screen.locator("#question .bonus-ruling")).to_have_count(3)
    else:
        expect(screen.locator("#phase")).to_contain_text("paused")
        expect(screen.locator("#question .word")).not_to_have_count(0)
    return screen


@pytest.mark.parametrize("width, height", list(FLOOR_PX))
def test_every_text_on_the_hall_is_read_from_the_back_row_in_every_moment(back_row_server, open_page, width, height):
    floor = FLOOR_PX[(width, height)]
    for stage in STAGES:
        screen = open_stage(open_page, back_row_server, stage, width, height)
        assert_no_scrolling(screen)
        assert screen.locator(".site-header").count() == 0, "the hall's screen has no site bar"
        if stage in ("phase3", "closed"):  # the moments with the most to show: every bot card is there, whole
            cards = screen.locator("#bots .bot-card")
            expect(cards).to_have_count(3)
            for i in range(3):
                assert_in_view(cards.nth(i), f"bot card {i + 1} at {stage}")
        if stage == "bonus":  # every part, its results and the answers shown so far, whole, and the tossup's answer
            for what in ("#question .bonus-leadin", "#question .bonus-part[data-part='2'] .bonus-typed", "#answer-line .answer"):
                assert_in_view(screen.locator(what), f"{what} in the bonus")
        assert_readable_from_the_back(screen, f"the hall at {stage}, {width}x{height}", floor)

    board = open_page(width, height)
    board.goto(f"{back_row_server['url']}/events/{back_row_server['event']}/?hall=1")
    expect(board.locator("#leaderboard tbody tr")).to_have_count(3)
    assert board.locator(".site-header").count() == 0, "the hall's leaderboard has no site bar"
    assert_no_scrolling(board)  # the whole board on the screen: the room sees every team
    assert_readable_from_the_back(board, f"the event's leaderboard, {width}x{height}", floor)
    # Anyone else opening the leaderboard still has the site's bar to go elsewhere.
    board.goto(f"{back_row_server['url']}/events/{back_row_server['event']}/")
    expect(board.locator(".site-header")).to_be_visible()


# A name is cut if it is shortened with an ellipsis, or if it is a box narrower than its text.
def test_the_feed_is_read_from_the_back_row_too(back_row_server, open_page):
    """The feed fills as things happen: the moderator rules the bot's answer while the halls watch."""
    code = back_row_server["matches"]["to_rule"]
    halls = {size: open_page(*size) for size in FLOOR_PX}
    for hall in halls.values():
        hall.goto(f"{back_row_server['url']}/m/{code}/watch")
        expect(hall.locator("#conn")).to_have_text("connected")
    moderator = open_page(1440, 900)
    log_in(moderator, back_row_server, f"/m/{code}/moderate")
    rule(moderator, "r", "Hamlet")
    for size, hall in halls.items():
        expect(hall.locator("#feed .feed-item.ruling")).to_contain_text("demo-qa-pairs")
        assert_in_view(hall.locator("#feed .feed-item.ruling"), f"the ruling in the feed at {size}")
        assert_no_scrolling(hall)
        assert_readable_from_the_back(hall, f"the hall after a ruling, {size}", FLOOR_PX[size])


NAME_SEEN = """(el) => ({text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth,
                        display: getComputedStyle(el).display, overflow: getComputedStyle(el).textOverflow})"""


@pytest.mark.parametrize("width, height", list(FLOOR_PX))
def test_two_bots_of_one_kind_are_told_apart_by_their_whole_names(back_row_server, open_page, width, height):
    screen = open_stage(open_page, back_row_server, "closed", width, height)
    expect(screen.locator("#bots .bot-card")).to_have_count(3)
    shown = []
    for name in screen.locator("#bots .bot-name").all():
        seen = name.evaluate(NAME_SEEN)
        boxed = seen["display"] != "inline"
        assert seen["overflow"] != "ellipsis" and (not boxed or seen["scroll"] <= seen["client"] + 1), f"a bot's name is cut: {seen}"
        assert_in_view(name, f"the bot name {seen['text']!r}")
        shown.append(seen["text"])
    assert shown == [f"{bot} (simulated)" for bot in back_row_server["bots"]]
    assert len(set(shown)) == 3


def test_buzz_marks_sit_beside_the_words_and_say_who_buzzed_where(back_row_server, open_page):
    screen = open_stage(open_page, back_row_server, "buzz", 1920, 1080)
    words = LONG_TOSSUP.replace(" (*)", "").split()
    # The question reads as its words in order, nothing between them.
    text = screen.locator("#question .question-words").text_content()
    assert " ".join(text.split()) == " ".join(words[:70])
    expect(screen.locator("#question .question-words .buzz-marker")).to_have_count(0)
    # Each buzz is marked: its last word heard underlined in the buzzer's colour, and a mark under the text.
    expect(screen.locator("#question .word.buzzed")).to_have_text([words[39], words[69]])
    marks = screen.locator("#question .buzz-line .buzz-marker")
    expect(marks).to_have_count(2)
    expect(marks.nth(0)).to_have_attribute("title", f"Ada buzzed at word 40 (“{words[39]}”): ruled wrong")
    expect(marks.nth(0)).to_have_text(re.compile(r"^Ada ✗\s*word 40$"))
    expect(marks.nth(1)).to_have_attribute("title", f"demo-qa-pairs buzzed at word 70 (“{words[69]}”)")
    expect(marks.nth(1)).to_have_text(re.compile(r"^demo-qa-pairs ⚡\s*word 70$"))
    last_word = screen.locator("#question .word").last.bounding_box()
    for i in range(2):
        assert_in_view(marks.nth(i), f"buzz mark {i + 1}")
        assert marks.nth(i).bounding_box()["y"] >= last_word["y"] + last_word["height"], "the marks sit under the text"
