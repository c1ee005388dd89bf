"""The hall reads aloud in real Chromium: the big screen fetches the question's audio, plays it from
the first revealed word, is further on at each later word, stops at a buzz and, after a wrong answer,
starts again from the next word; the console offers the voice and its speed. Chromium runs with
autoplay allowed, as a kiosk-mode projector browser would."""
import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _server_env, seeded_server
from tests.browser.test_live_match import answer, expect, join, log_in, rule
from tests.conftest import need_service
from tests.speech.conftest import espeak_ready

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

AUTOPLAY = "--autoplay-policy=no-user-gesture-required"
LOG = "() => window.exhibitionScreen.voice.log"


@pytest.fixture(scope="module")
def voice_server(tmp_path_factory):
    need_service(espeak_ready(), "espeak-ng (and libespeak-ng1) is not installed: apt-get install espeak-ng")
    folder = tmp_path_factory.mktemp("voice")
    env = _server_env(folder / "db.sqlite3")
    env["EXHIBITION_SPEECH_DIR"] = str(folder / "speech")
    with seeded_server(folder, env, seed="seed_voice.py", args=("2", "200")) as server:
        yield server


@pytest.fixture(scope="module")
def audible_browser():
    need_service(CHROMIUM.exists(), f"headless Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, AUTOPLAY], headless=True)
        yield chromium
        chromium.close()


def test_the_big_screen_plays_the_question_in_step_with_the_words(voice_server, audible_browser):
    errors = []
    # The projector's browser is the host's: the question's audio is served only to a signed-in host.
    host = audible_browser.new_context(viewport={"width": 1440, "height": 900})
    moderator, screen = host.new_page(), host.new_page()
    screen.set_viewport_size({"width": 1920, "height": 1080})
    player = audible_browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    for page in (moderator, screen, player):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    code = voice_server["matches"]["tossup"]
    log_in(moderator, voice_server, f"/m/{code}/moderate")
    expect(moderator.locator("#voice-panel")).to_be_visible()
    expect(moderator.locator("#voice-now")).to_have_text("Now: American English at 200 words a minute.")
    screen.goto(f"{voice_server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    assert screen.evaluate("() => window.exhibitionScreen.sound.allowed")
    join(player, voice_server, code, "Cy", 0)

    moderator.keyboard.press("n")
    screen.wait_for_function(f"() => ({LOG[6:]}).length >= 6", timeout=30_000)
    expect(player.locator("#buzz")).to_be_enabled()
    player.keyboard.press(" ")  # a buzz stops the reading
    screen.wait_for_function("() => window.exhibitionScreen.voice.playing === null")
    log = screen.evaluate(LOG)
    view = screen.evaluate("() => window.exhibitionScreen.view().question")
    offsets, key = view["voice"]["offsets"], view["voice"]["audio"]
    assert screen.evaluate(f"async () => (await window.exhibitionScreen.voice.buffers.get('{key}')).duration") \
        == pytest.approx(view["voice"]["end"] / 1000, abs=0.05)
    assert [e["index"] for e in log] == list(range(len(log)))
    assert [e["word_s"] for e in log] == [offsets[i] / 1000 for i in range(len(log))]
    # the audio is timed from when the screens show a word: its stamp plus the play-out delay the welcome told
    from game.conductor.groups import playout_ms

    assert screen.evaluate("() => window.exhibitionScreen.voice.playout()") == playout_ms(code)
    # once started, the audio is playing at every later word, further on each time
    heard = [e["audio_s"] for e in log[1:]]
    assert None not in heard and heard == sorted(heard) and heard[-1] > heard[0]
    assert screen.locator("#question .word").count() == view["revealed"]

    revealed = view["revealed"]
    answer(player, "a wrong guess")
    rule(moderator, "r", "a wrong guess")  # wrong: the next word starts the audio again from that word
    screen.wait_for_function("() => window.exhibitionScreen.voice.playing !== null", timeout=30_000)
    log = screen.evaluate(LOG)
    resumed = next(e for e in log if e["index"] == revealed)
    playing = screen.evaluate("() => window.exhibitionScreen.voice.playing")
    assert resumed["audio_s"] is None  # nothing played while the player answered
    assert offsets[revealed] / 1000 <= playing["from"] < offsets[min(revealed + 3, len(offsets) - 1)] / 1000 + 1
    assert not errors, errors
