"""A buzzer race in real Chromium: the play page measures the server's clock and says when each buzz was
pressed. One phone's uplink is made slow in the page itself (its buzz and its echo pings leave late),
so it presses first but its buzz arrives second: it takes the floor, and the console and the big
screen tell the race (who, at which word, how many ms apart)."""
import json
import sqlite3

import pytest

from .test_live_match import expect, first_question, join, log_in, watch

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

SLOW_BUZZ_MS, SLOW_ECHO_MS = 350, 450  # the slow phone's uplink: its buzz, and the pings the server times
SLOW_UPLINK = """
(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (text) {
    const frame = JSON.parse(text);
    const late = frame.type === "buzz" ? %d : frame.type === "ping" && frame.data && "echo" in frame.data ? %d : 0;
    if (late) setTimeout(() => send.call(this, text), late); else send.call(this, text);
  };
})();
""" % (SLOW_BUZZ_MS, SLOW_ECHO_MS)
SLOW_NAME, FAST_NAME = "Bartholomew Quincy Fitzgerald-Bo", "Adelaide Montgomery-Whitfield II"  # 32 characters each


def buzzes(server, code) -> list[dict]:
    with sqlite3.connect(server["db"]) as db:
        rows = db.execute("SELECT e.data FROM game_matchevent e JOIN game_match m ON m.id = e.match_id "
                          "WHERE m.code = ? AND e.type = 'buzz' ORDER BY e.seq", (code,)).fetchall()
    return [json.loads(data) for (data,) in rows]


def test_the_earlier_press_on_a_slow_link_takes_the_floor_and_every_screen_tells_the_race(
        exhibition_server, open_page, tmp_path):
    server, code = exhibition_server, exhibition_server["matches"]["race"]
    moderator = open_page(1920, 1080)
    log_in(moderator, server, f"/m/{code}/moderate")
    fast = open_page(390, 844, mobile=True)
    join(fast, server, code, FAST_NAME, 0)
    slow = open_page(390, 844, mobile=True)
    slow.add_init_script(SLOW_UPLINK)
    join(slow, server, code, SLOW_NAME, 1)
    screen = watch(open_page, server, code)

    first_question(moderator, 3)
    for page in (fast, slow):
        expect(page.locator("#buzz")).to_be_enabled()
    slow.wait_for_timeout(3500)  # a second probe pair each, so the server has timed the slow uplink
    slow.keyboard.press(" ")  # pressed first; its buzz leaves SLOW_BUZZ_MS later
    fast.wait_for_timeout(30)
    fast.keyboard.press(" ")  # pressed later, arrives first
    expect(slow.locator("#answer-input")).to_be_visible()
    won = buzzes(server, code)
    assert len(won) == 2 and won[1]["replaces"] == won[0]["seat"], won
    assert won[1]["claimed"] is not None and won[1]["clamp"] is None and won[1]["rtt"] >= SLOW_ECHO_MS
    assert won[1]["received"] > won[0]["received"] and won[1]["pressed"] < won[0]["pressed"]
    margin = won[1]["margin"]
    expect(moderator.locator("#floor .race")).to_contain_text(f"{SLOW_NAME} took the floor from {FAST_NAME}: "
                                                             f"pressed {margin} ms earlier")
    told = f"{SLOW_NAME} (word 3) pressed {margin} ms before {FAST_NAME} (word 3)"
    expect(screen.locator("#feed")).to_contain_text(told)
    expect(fast.locator("#status-line")).to_contain_text(f"{SLOW_NAME}")
    screen.wait_for_timeout(3000)  # the buzz flash fades
    for name, page in (("console", moderator), ("screen", screen), ("fast", fast), ("slow", slow)):
        page.screenshot(path=str(tmp_path / f"race-{name}.png"))
    moderator.set_viewport_size({"width": 390, "height": 844})
    moderator.locator("#floor").scroll_into_view_if_needed()
    moderator.screenshot(path=str(tmp_path / "race-console-390.png"))
    print("screenshots:", tmp_path)
