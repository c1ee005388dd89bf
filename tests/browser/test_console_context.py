"""The moderator's console rebuilds the current question from the log: after a reload and after an
undo it shows what it showed before — the answer line and the answers it also accepts, every buzz
marker with its word, and every pending judge suggestion labelled by team — and ruling one team's
answer keeps the other team's suggestion. Real Daphne, real Chromium."""
import pytest

from .test_live_match import answer, expect, join, log_in, press_next, reveal

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


def context(moderator) -> dict:
    """What the console shows about the question in play."""
    return {
        "answer": moderator.locator("#answer").inner_text(),
        "accepted": moderator.locator("#accepted").inner_text(),
        "markers": [m.inner_text() for m in moderator.locator("#question .buzz-marker").all()],
        "marker_words": [m.get_attribute("data-word") for m in moderator.locator("#question .buzz-marker").all()],
        "suggestions": [(j.get_attribute("data-team"), j.inner_text()) for j in moderator.locator("#floor .judge").all()],
        "floor": moderator.locator("#floor .possession").all_inner_texts(),
    }


def reloaded(moderator) -> dict:
    moderator.reload()
    expect(moderator.locator("#conn")).to_have_text("connected")
    expect(moderator.locator("#answer")).not_to_have_text("—")
    return context(moderator)


def wait_for_suggestions(moderator, teams: list[str]):
    for team in teams:
        expect(moderator.locator(f"#floor .judge[data-team={team}]")).to_have_count(1)
    expect(moderator.locator("#floor .judge")).to_have_count(len(teams))


def test_after_a_reload_and_after_an_undo_the_console_shows_the_same_question(exhibition_server, open_page, tmp_path):
    server, code = exhibition_server, exhibition_server["matches"]["console"]
    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)

    press_next(moderator)
    expect(moderator.locator("#accepted")).to_have_text("also accept: the planet Mars · Ares")
    reveal(moderator, 3)
    ada.keyboard.press(" ")
    answer(ada, "Venus")
    wait_for_suggestions(moderator, ["t0"])
    expect(moderator.locator("#floor .judge")).to_contain_text("Humans")
    moderator.keyboard.press("r")
    expect(bo.locator("#buzz")).to_be_enabled()
    bo.keyboard.press(" ")
    answer(bo, "Jupiter")
    wait_for_suggestions(moderator, ["t1"])
    phase_one = context(moderator)
    assert len(phase_one["markers"]) == 2 and phase_one["marker_words"] == ["3", "3"]
    assert "Machines" in phase_one["suggestions"][0][1] and "Jupiter" in phase_one["suggestions"][0][1]
    assert reloaded(moderator) == phase_one

    # The team phase: both captains submit; each answer has its suggestion, labelled by team.
    moderator.keyboard.press("r")
    expect(moderator.locator("#phase")).to_contain_text("Phase 2")
    bo.fill("#submit-input", "Mars")
    bo.press("#submit-input", "Enter")
    ada.fill("#submit-input", "Venus again")
    ada.press("#submit-input", "Enter")
    wait_for_suggestions(moderator, ["t0", "t1"])
    both = context(moderator)
    assert reloaded(moderator) == both
    moderator.screenshot(path=str(tmp_path / "console-two-suggestions.png"), full_page=True)

    # Ruling the humans (they have priority) keeps the computer side's suggestion.
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Venus again")
    moderator.keyboard.press("r")
    wait_for_suggestions(moderator, ["t1"])
    waiting = context(moderator)
    assert waiting["markers"] == both["markers"] and waiting["accepted"] == both["accepted"]
    assert reloaded(moderator) == waiting

    # Accepted by mistake, then undone: the console is back where it stood, and so after a reload.
    moderator.keyboard.press("a")
    expect(moderator.locator("#floor .floor-result")).to_have_text("Machines scored 2 in phase 2.")
    expect(moderator.locator("#floor .judge")).to_have_count(0)
    moderator.keyboard.press("u")
    wait_for_suggestions(moderator, ["t1"])
    assert context(moderator) == waiting
    assert reloaded(moderator) == waiting
