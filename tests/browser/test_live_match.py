"""Real headless Chromium plays a short match on a real server: a moderator, two players on
different teams and a spectator screen, all in their own browser contexts.

The match uses moderator-paced reveal (seed.py), so every word appears because the moderator
pressed Space, and nothing in the test races a clock.
"""
import json
import sqlite3

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

HOSTILE_ANSWER = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
HOSTILE_NAME = '<b onmouseover="__xss=3">Eve</b>'  # as long as a name may be (game.models.NAME_MAX_LENGTH)


def expect(locator):
    from playwright.sync_api import expect as pw_expect
    return pw_expect(locator)


def log_in(page, server, next_path, live=True):
    """Sign in as staff and open next_path; a live page (live) has connected its socket."""
    page.goto(f"{server['url']}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", server["user"])
    page.fill("input[name=password]", server["password"])
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_path}")
    if live:
        expect(page.locator("#conn")).to_have_text("connected")


def join(page, server, code, name, team_index):
    page.goto(f"{server['url']}/join")
    page.fill("input[name=code]", code.lower())
    page.click("button[type=submit]")
    page.fill("input[name=name]", name)
    page.locator("input[name=team]").nth(team_index).check()
    page.click("button[type=submit]")
    page.wait_for_url(f"**/m/{code}/play")
    expect(page.locator("#conn")).to_have_text("connected")


def watch(open_page, server, code):
    """The spectator screen at 1920x1080, connected."""
    screen = open_page(1920, 1080)
    screen.goto(f"{server['url']}/m/{code}/watch")
    expect(screen.locator("#conn")).to_have_text("connected")
    return screen


def reveal(moderator, words):
    for _ in range(words):
        before = moderator.locator("#question .word.read").count()
        moderator.keyboard.press(" ")
        expect(moderator.locator("#question .word.read")).to_have_count(before + 1)


def first_question(moderator, words):
    """Start the match and read `words` words of its first question."""
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1")
    reveal(moderator, words)


def press_next(moderator):
    # N does nothing until the console itself knows the question closed; wait for that, as a person would.
    expect(moderator.locator("#btn-next")).to_be_enabled()
    moderator.keyboard.press("n")


def answer(player, text):
    box = player.locator("#answer-input")
    expect(box).to_be_visible()
    expect(box).to_be_focused()  # the box takes the focus when you hold the floor
    box.fill(text)
    box.press("Enter")


def rule(moderator, key, typed):
    expect(moderator.locator("#floor .typed").first).to_have_text(typed)
    moderator.keyboard.press(key)


def miss(moderator, player, typed):
    """The player buzzes, answers `typed`, and the moderator rules it wrong."""
    expect(player.locator("#buzz")).to_be_enabled()
    player.keyboard.press(" ")
    answer(player, typed)
    rule(moderator, "r", typed)


def scores_in_log(server, code) -> dict:
    """Each team's name and score, summed from the stored event log."""
    with sqlite3.connect(server["db"]) as db:
        rows = db.execute("SELECT e.type, e.data FROM game_matchevent e JOIN game_match m ON m.id = e.match_id "
                          "WHERE m.code = ? ORDER BY e.seq", (code,)).fetchall()
    events = [(kind, json.loads(data)) for kind, data in rows]
    names = {t["id"]: t["name"] for t in events[0][1]["teams"]}
    totals = {name: 0 for name in names.values()}
    for _, data in events:
        for team, points in (data.get("score_changes") or {}).items():
            totals[names[team]] += points
    return totals, [kind for kind, _ in events]


def shown_scores(page) -> dict:
    return {score.locator(".team-name").inner_text(): int(score.locator(".points").inner_text())
            for score in page.locator("#scores .score").all()}


def test_a_short_match_played_in_the_browser_ends_with_the_logged_scores_on_every_screen(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["live"]
    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)  # Humans: first on the team, so captain
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)  # Machines: captain too
    screen = watch(open_page, server, code)
    expect(ada.locator("#me")).to_contain_text("captain")

    # Question 1, phase 1: Ada buzzes, is prompted, is wrong; Bo buzzes and is right.
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 2")
    reveal(moderator, 3)
    expect(ada.locator("#question .word")).to_have_count(3)
    expect(ada.locator("#buzz")).to_be_enabled()
    ada.keyboard.press(" ")
    answer(ada, "the red one")
    rule(moderator, "p", "the red one")
    expect(ada.locator("#answer-label")).to_have_text("Prompt: be more specific")
    answer(ada, "Jupiter")
    rule(moderator, "r", "Jupiter")
    expect(ada.locator("#status-line")).to_have_text("Your team is locked out of this question.")
    expect(ada.locator("#buzz")).to_be_disabled()
    expect(screen.locator("#question .buzz-marker.reject")).to_have_count(1)  # where Ada's buzz came
    bo.locator("#buzz").click()
    answer(bo, "Mars")
    rule(moderator, "a", "Mars")
    for page in (ada, bo):
        expect(page.locator("#result .answer")).to_have_text("Mars")
    expect(screen.locator("#answer-line .answer")).to_have_text("Mars")
    expect(screen.locator("#feed")).to_contain_text("Jupiter")

    # Question 2: both sides miss in phase 1, so it goes to the team phase; the captains submit.
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 2 of 2")
    reveal(moderator, 2)
    miss(moderator, bo, "Rome")
    miss(moderator, ada, "London")

    for page in (ada, bo):
        expect(page.locator("#team-phase")).to_be_visible()
    expect(screen.locator("#phase")).to_contain_text("team discussion")
    ada.fill("#chat-input", "surely it is Paris")
    ada.press("#chat-input", "Enter")
    bo.fill("#chat-input", "Lyon?")
    bo.press("#chat-input", "Enter")
    expect(moderator.locator("#chat")).to_contain_text("surely it is Paris")
    expect(bo.locator("#chat-log")).to_contain_text("Lyon?")
    expect(bo.locator("#chat-log")).not_to_contain_text("Paris")  # team talk stays in the team
    bo.fill("#submit-input", "Lyon")
    bo.press("#submit-input", "Enter")
    rule(moderator, "r", "Lyon")
    expect(ada.locator("#team-note")).to_contain_text("You have the floor")
    ada.fill("#submit-input", "Paris")
    ada.press("#submit-input", "Enter")
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Paris")
    moderator.keyboard.press("a")
    expect(screen.locator("#answer-line .answer")).to_have_text("Paris")

    press_next(moderator)  # two questions played: the match ends
    expect(screen.locator("#phase")).to_contain_text("Final")
    expected, kinds = scores_in_log(server, code)
    assert kinds[-1] == "match_ended"
    assert {"ruling", "submission", "chat", "question_closed"} <= set(kinds)
    assert expected == {"Humans": 2, "Machines": 3}
    for page in (moderator, ada, bo, screen):
        expect(page.locator("#phase")).to_contain_text("Final")
        assert shown_scores(page) == expected
    expect(bo.locator("#result .final")).to_have_text("Your team won!")
    # The closing moment on every screen: winner, final score, the per-phase summary, the replay link.
    for page in (moderator, ada, bo, screen):
        expect(page.locator("#final .final-winner")).to_have_text("Machines win!")
        expect(page.locator("#final .final-score")).to_have_text("Humans 2 — Machines 3")
        expect(page.locator("#final .final-table")).to_contain_text("Phase 2")
        expect(page.locator(f"#final a[href^='/m/{code}/replay']")).to_have_count(1)
    summary = {row.locator("th").inner_text(): [c.inner_text() for c in row.locator("td").all()]
               for row in screen.locator("#final .final-table tbody tr").all()}
    assert summary["Phase 1"] == ["0 won · 0", "1 won · +3"] and summary["Phase 2"] == ["1 won · +2", "0 won · 0"]
    assert summary["Final"] == ["2", "3"]
    expect(screen.locator(".bot-card", has_text="thinking")).to_have_count(0)
    screen.locator(f"#final a[href='/m/{code}/replay']").click()
    expect(screen.locator("body")).to_have_attribute("data-ready", "1")
    expect(screen.locator("#question-list li")).to_have_count(2)


def test_typed_answers_and_names_are_shown_as_text_on_every_screen(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["xss"]
    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    eve = open_page(390, 844, mobile=True)
    join(eve, server, code, HOSTILE_NAME, 0)
    screen = watch(open_page, server, code)

    first_question(moderator, 2)
    expect(eve.locator("#buzz")).to_be_enabled()
    eve.locator("#buzz").click()
    answer(eve, HOSTILE_ANSWER)
    expect(moderator.locator("#floor .typed")).to_have_text(HOSTILE_ANSWER)  # exactly what was typed, as text
    moderator.locator("#heard").type("apr")  # typing in a field must not fire the A/P/R ruling keys
    expect(moderator.locator("#heard")).to_have_value("apr")
    moderator.locator("#heard").press("Escape")  # hands the keys back to the console
    moderator.keyboard.press("r")
    expect(moderator.locator("#history .ruling-row")).to_have_count(1)
    expect(moderator.locator("#history .ruling-row .verdict")).to_have_text("reject")

    for page, where in ((moderator, "#history"), (screen, "#feed"), (eve, "#feed")):
        expect(page.locator(where)).to_contain_text(HOSTILE_ANSWER)
        expect(page.locator("#question .buzz-name")).to_contain_text(HOSTILE_NAME)
        assert page.locator("img[src=x], main b").count() == 0
        assert page.evaluate("window.__xss") is None
