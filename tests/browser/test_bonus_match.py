"""A tossup–bonus match played over real sockets in Chromium: the moderator's console, two phones (one
captain a team) and the hall. A correct tossup earns its team the bonus; the moderator reads each part
(N), the captain answers from the phone, the moderator rules it (A / R name the part); with bouncebacks
on, a missed part goes to the other team's phone, which answers it. The hall shows each part's result
and its answer once the part is over; the scores end tied, and the tiebreaker tossup has no bonus.

seed_bonus.py makes the match: moderator-paced reading and long clocks, so nothing races a clock.
"""
import re

import pytest

from tests.browser.axe_audit import violations
from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_live_match import HOSTILE_ANSWER, expect, join, log_in, press_next, reveal, rule, scores_in_log, shown_scores, watch

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def bonus_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bonus")
    with seeded_server(folder, _server_env(folder / "db.sqlite3"), seed="seed_bonus.py") as server:
        yield server


def tossup(moderator, phone, phase, words, text):
    """The next tossup (its banner says `phase`): `words` read, the phone's player buzzes and answers
    `text` (the box takes the focus), and the moderator accepts it."""
    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text(phase)
    reveal(moderator, words)
    expect(phone.locator("#buzz")).to_be_enabled()
    phone.keyboard.press(" ")
    box = phone.locator("#answer-input")
    expect(box).to_be_focused()
    box.fill(text)
    box.press("Enter")
    rule(moderator, "a", text)


def read_part(moderator, number):
    """The moderator reads part `number` (1-based) with N, once the console offers it."""
    button = moderator.locator("#btn-read-part")
    expect(button).to_be_enabled()
    expect(button).to_contain_text(f"Read part {number}")
    moderator.keyboard.press("n")
    expect(moderator.locator(f"#bonus .bonus-part[data-part='{number - 1}']")).to_have_attribute("data-state", "in-play")


def bonus_answer(phone, number, text):
    """The captain answers part `number` from the phone's answer box."""
    box = phone.locator("#submit-input")
    expect(phone.locator("#submit-label")).to_have_text(f"Team answer to part {number}")
    box.fill(text)
    box.press("Enter")


def rule_spoken(moderator, key, team, number):
    """Rule an answer nobody typed (said aloud, or nothing): the button names the team and the part."""
    button = moderator.locator("[data-rule='accept']" if key == "a" else "[data-rule='reject']")
    expect(button).to_contain_text(re.compile(f"{team}'s? answer to part {number}"))
    moderator.keyboard.press(key)


def part(page, number):
    return page.locator(f"#question .bonus-part[data-part='{number - 1}'], #bonus .bonus-part[data-part='{number - 1}']")


def the_room(open_page, server, code):
    """The moderator's console, Ada's phone (the Humans' captain), Bo's (the Scholars') and the hall, connected."""
    moderator = open_page(1440, 900)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)  # Humans' captain
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)  # Scholars' captain
    hall = watch(open_page, server, code)
    return moderator, ada, bo, hall


def test_a_tossup_bonus_match_with_a_bounceback_and_a_tiebreaker(bonus_server, open_page):
    server, code = bonus_server, bonus_server["matches"]["live"]
    moderator, ada, bo, hall = the_room(open_page, server, code)

    # Tossup 1: Ada buzzes and is right; her team hears the first bonus.
    tossup(moderator, ada, "Question 1 of 2", 3, "Newton")
    for page in (moderator, ada, bo, hall):
        expect(page.locator("#phase")).to_contain_text("bonus for Humans")
        expect(page.locator(".bonus-leadin")).to_have_text("For 10 points each, name these composers of operas.")
    expect(hall.locator("#answer-line .answer")).to_have_text("Isaac Newton")  # the tossup's answer stays up
    expect(ada.locator("#buzz")).to_be_hidden()
    # The moderator sees every part and its whole answer line at once; the others no part before it is read.
    expect(moderator.locator("#bonus .bonus-part")).to_have_count(3)
    expect(part(moderator, 2).locator(".part-answer strong b")).to_have_text("Verdi")
    expect(hall.locator("#question .bonus-part")).to_have_count(0)
    expect(hall.locator("#question .bonus-next")).to_have_text("3 parts to come")
    assert "Wagner" not in hall.locator("body").inner_text() and "Wagner" not in bo.locator("body").inner_text()

    # Part 1: read, Ada confers and answers, accepted.
    read_part(moderator, 1)
    expect(part(ada, 1)).to_contain_text("This German wrote the four operas of Der Ring des Nibelungen.")
    expect(ada.locator("#timer")).to_contain_text("to confer")
    expect(bo.locator("#team-note")).to_have_text("Humans answer part 1; a miss bounces to your team.")
    expect(bo.locator("#submit-form")).to_be_hidden()
    expect(ada.locator("#submit-input")).to_be_focused()  # the captain's answer box takes the focus when the part is read
    ada.locator("#chat-input").fill("Ring cycle: Wagner")
    ada.locator("#chat-input").press("Enter")
    expect(ada.locator("#chat-log")).to_contain_text("Ring cycle: Wagner")
    bonus_answer(ada, 1, "Wagner")
    expect(ada.locator("#team-note")).to_have_text("Answered: “Wagner” — waiting for the moderator.")
    rule(moderator, "a", "Wagner")
    for page in (hall, ada, bo):
        expect(part(page, 1).locator(".bonus-ruling.accept")).to_contain_text(re.compile(r"✓\s*Ada\s*Wagner\s*right \+10"))
        expect(part(page, 1).locator(".part-answer")).to_contain_text("Richard Wagner")

    # Part 2: Ada misses it; it bounces to Bo's phone, who gets it.
    read_part(moderator, 2)
    bonus_answer(ada, 2, "Puccini")
    rule(moderator, "r", "Puccini")
    expect(hall.locator("#phase")).to_contain_text("part 2 of 3 · bounceback")
    expect(part(hall, 2).locator(".part-answer")).to_have_count(0)  # not over: Bo's team may still answer
    expect(bo.locator("#team-note")).to_have_text("Bounceback! Answer part 2 for your team.")
    expect(ada.locator("#submit-form")).to_be_hidden()
    expect(bo.locator("#submit-input")).to_be_focused()
    found = [v for where, page in (("the console", moderator), ("the captain's phone", ada), ("the bounceback phone", bo),
                                   ("the hall", hall)) for v in violations(page, f"{where} in a bounceback")]
    assert not found, "\n".join(found)  # WCAG 2.1 AA, as tests/browser/test_accessibility.py audits the other moments
    bonus_answer(bo, 2, "Verdi")
    rule(moderator, "a", "Verdi")
    for page in (hall, ada, bo):
        rulings = part(page, 2).locator(".bonus-ruling")
        expect(rulings).to_have_count(2)
        expect(rulings.nth(0)).to_contain_text(re.compile(r"✗\s*Ada\s*Puccini\s*wrong"))
        expect(rulings.nth(1)).to_contain_text(re.compile(r"✓\s*Bo\s*Verdi\s*right \+10\s*bounceback"))
        expect(part(page, 2).locator(".part-answer")).to_contain_text("Giuseppe Verdi")

    # Part 3: both teams miss it (the bounceback's answer is hostile markup, shown as text); the bonus ends.
    read_part(moderator, 3)
    bonus_answer(ada, 3, "Salieri")
    rule(moderator, "r", "Salieri")
    bonus_answer(bo, 3, HOSTILE_ANSWER)
    rule(moderator, "r", HOSTILE_ANSWER)
    expect(part(hall, 3).locator(".bonus-ruling").nth(1).locator("q")).to_have_text(HOSTILE_ANSWER)
    expect(hall.locator("#answer-line .bonus-outcome")).to_have_text("Bonus: Humans 10 · Scholars 10 on bouncebacks")
    expect(ada.locator("#result .bonus-result")).to_have_text("Bonus: Humans 10 · Scholars 10 on bouncebacks")
    for page in (moderator, ada, bo, hall):
        expect(page.locator("#scores")).to_contain_text("20")
    assert shown_scores(hall) == {"Humans": 20, "Scholars": 10}
    assert hall.evaluate("window.__xss") is None and bo.evaluate("window.__xss") is None

    # Tossup 2: Bo is right; the Scholars' bonus: nobody gets a part, the last two ruled as spoken (nothing typed).
    tossup(moderator, bo, "Question 2 of 2", 2, "Jupiter")
    expect(hall.locator("#phase")).to_contain_text("bonus for Scholars")
    for number in (1, 2, 3):
        read_part(moderator, number)
        rule_spoken(moderator, "r", "Scholars", number)
        rule_spoken(moderator, "r", "Humans", number)  # the bounceback, nobody answered
        if number == 1:  # U takes the bounceback's ruling back: the part's answer stays up and no new answer is taken
            expect(part(hall, 1).locator(".part-answer")).to_contain_text("Danube")
            moderator.keyboard.press("u")
            expect(ada.locator("#team-note")).to_have_text("The moderator is ruling part 1 again.")
            expect(ada.locator("#submit-form")).to_be_hidden()
            expect(part(hall, 1).locator(".bonus-ruling")).to_have_count(1)
            expect(part(hall, 1).locator(".part-answer")).to_contain_text("Danube")
            rule_spoken(moderator, "r", "Humans", number)
        expect(part(hall, number).locator(".bonus-ruling.reject")).to_have_count(2)
    expect(hall.locator("#answer-line .bonus-outcome")).to_have_text("Bonus: Scholars 0")
    assert shown_scores(hall) == {"Humans": 20, "Scholars": 20}

    # A tie: the tiebreaker tossup has no bonus.
    tossup(moderator, ada, "Tiebreaker", 2, "iron")
    expect(hall.locator("#answer-line .answer")).to_have_text("iron")
    expect(moderator.locator("#bonus-panel")).to_be_hidden()
    expect(hall.locator("#question .bonus-view")).to_have_count(0)
    expect(ada.locator("#bonus")).to_be_hidden()
    press_next(moderator)
    for page in (moderator, ada, bo, hall):
        expect(page.locator("#final .final-winner")).to_contain_text("Humans")
    logged, kinds = scores_in_log(server, code)
    assert logged == {"Humans": 30, "Scholars": 20} == shown_scores(hall)
    assert kinds.count("bonus_started") == 2 and kinds.count("bonus_ended") == 2

    # The replay folds the same events and draws with the hall's code: the first bonus as the hall showed it
    # (sought frame by frame: the moderator may have pressed N a few milliseconds after it ended).
    replay = open_page(1920, 1080)
    replay.goto(f"{server['url']}/m/{code}/replay")
    expect(replay.locator("body")).to_have_attribute("data-ready", "1")
    replay.evaluate("""() => { const r = window.exhibitionReplay;
        for (const t of r.moments()) { r.seekTo(t); if (r.view().question?.bonus?.ended) return; } }""")
    expect(replay.locator("#question .bonus-ruling")).to_have_count(5)
    expect(replay.locator("#question .bonus-ruling.accept")).to_have_count(2)
    expect(replay.locator("#answer-line .bonus-outcome")).to_have_text("Bonus: Humans 10 · Scholars 10 on bouncebacks")
