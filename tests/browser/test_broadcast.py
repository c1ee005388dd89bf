"""The broadcast beside the hall, in real Chromium on a real server: the host makes a feed token on the
match's Broadcast page, the hall's big screen, two overlays (1920x1080 and 1280x720) and the feed follow a
played question, and the feed's frames are the hall's own frames, seq for seq; no answer reaches any of
them before its question closes; the overlay shows the hall's scores, the buzz and the ruling; revoking the
token on the host's page ends the open feed with a sentence at once (the heartbeat, which would also
end it, is set longer than the test waits). Screenshots of the overlay at both sizes over
a dark and a light picture are kept in the test's folder (printed) for a person to look at."""
import json
import time

import pytest

from broadcast.feed import REVOKED
from tests.broadcast.feed_reader import FeedReader
from tests.browser.conftest import _server_env, seeded_server

from .test_live_match import answer, expect, join, log_in, press_next, reveal, rule, shown_scores

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

PICTURES = {"dark": "#101418", "light": "#f4f1ea"}
HEARTBEAT_S = 60  # longer than the test waits for a revoked feed to end: it ends by the hub's message, not a heartbeat


@pytest.fixture(scope="module")
def broadcast_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broadcast")
    with seeded_server(folder, dict(_server_env(folder / "db.sqlite3"), EXHIBITION_HEARTBEAT_SECONDS=str(HEARTBEAT_S))) as server:
        yield server


def recorded(page) -> list:
    """The frames the page's websockets receive, as they come (parsed)."""
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    return frames


def events(frames) -> dict:
    """seq -> the event frame, for the frames that are events (a snapshot, a welcome, a heartbeat are not)."""
    return {f["seq"]: f for f in frames if "seq" in f}


def shown_on_overlay(page) -> dict:
    return {s.locator(".team-name").inner_text(): int(s.locator(".points").inner_text())
            for s in page.locator("#scores .overlay-score").all()}


def test_the_feed_and_the_overlay_show_the_halls_frames_and_a_revoked_feed_ends(broadcast_server, open_page, tmp_path):
    server, code = broadcast_server, broadcast_server["matches"]["live"]
    host = open_page(1440, 900)
    log_in(host, server, f"/host/m/{code}/broadcast", live=False)
    host.fill("input[name=label]", "scoreboard laptop")
    host.click("button[value=create]")
    token = host.locator("#new-token").inner_text()
    feed = FeedReader(f"{server['url']}/m/{code}/feed", token)

    hall = open_page(1920, 1080)
    hall_frames = recorded(hall)
    hall.goto(f"{server['url']}/m/{code}/watch")
    expect(hall.locator("#conn")).to_have_text("connected")
    overlays = {}
    for width, height in ((1920, 1080), (1280, 720)):
        overlays[width] = page = open_page(width, height)
        page.goto(f"{server['url']}/m/{code}/overlay")
        expect(page.locator("#phase")).to_have_text("Before the match")
        expect(page.locator("#conn")).to_be_hidden()

    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)

    # Question 1: Ada buzzes after three words and is wrong. The answer is on no broadcast screen yet.
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 2")
    reveal(moderator, 3)
    ada.keyboard.press(" ")
    answer(ada, "Jupiter")
    rule(moderator, "r", "Jupiter")
    for page in overlays.values():
        expect(page.locator("#question")).to_have_text("Which planet is ◆")  # three words read, then the buzz
        expect(page.locator("#happening")).to_contain_text("Ada “Jupiter” wrong")
        expect(page.locator("#phase")).to_contain_text("Question 1 of 2")
    for name, page in overlays.items():
        for picture, colour in PICTURES.items():
            page.evaluate("colour => { document.documentElement.style.background = colour; }", colour)
            page.screenshot(path=str(tmp_path / f"overlay-{name}-{picture}.png"))
        page.evaluate("() => { document.documentElement.style.background = ''; }")
    print("screenshots:", tmp_path)
    for page in (hall, *overlays.values()):
        assert "Mars" not in page.content()
    assert not any("Mars" in (e["data"] or "") for e in feed.events), "the feed told the answer before the question closed"

    # Bo buzzes and is right: the question closes, and its answer is on every screen.
    bo.locator("#buzz").click()
    answer(bo, "Mars")
    rule(moderator, "a", "Mars")
    expect(hall.locator("#answer-line .answer")).to_have_text("Mars")
    for page in overlays.values():
        expect(page.locator("#happening")).to_contain_text("Answer: Mars")
        expect(page.locator("#scores .overlay-score")).to_have_count(2)
        assert shown_on_overlay(page) == shown_scores(hall) == {"Humans": 0, "Machines": 3}

    # The feed's frames are the hall's frames, seq for seq.
    hall_events = events(hall_frames)
    last = max(hall_events)
    give_up = time.monotonic() + 15
    while max(feed.frames(), default=0) < last and time.monotonic() < give_up:
        time.sleep(0.05)
    fed = feed.frames()
    assert set(hall_events) <= set(fed)
    assert {seq: fed[seq] for seq in hall_events} == hall_events
    assert any(f["type"] == "question_closed" for f in hall_events.values())

    # Revoked on the host's page: the open feed ends with a sentence.
    host.goto(f"{server['url']}/host/m/{code}/broadcast")
    host.locator("#tokens tr", has_text="scoreboard laptop").locator("button[value=revoke]").click()
    expect(host.locator("#tokens tr", has_text="scoreboard laptop")).to_contain_text("revoked")
    assert feed.ended.wait(10), "the revoked token's feed stayed open"
    assert feed.events[-1]["event"] == "closed"
    assert json.loads(feed.events[-1]["data"]) == {"code": "revoked", "reason": REVOKED}
