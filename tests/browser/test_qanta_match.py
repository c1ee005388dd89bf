"""A QANTA 2026 match played over real sockets in Chromium: on each bonus part the controlling team decides
to answer on its own, consult its AI or abstain, from the captain's phone or the moderator's console. Every
screen shows the decision and what the part is worth under it; the part scores accordingly (consulting is
set to 5 off a part, seed_qanta.py), an abstention takes no answer and scores when the moderator rules that
nobody was right. Screenshots of the console, the phone and the hall at 1920x1080, 1280x720 and 390x844 go
to the test's own folder (pytest's tmp_path: keep them with --basetemp) for a person to look at.
"""
from pathlib import Path

import pytest

from tests.browser.conftest import _server_env, seeded_server
from tests.browser.test_bonus_match import bonus_answer, part, read_part, the_room, tossup
from tests.browser.test_live_match import expect, rule, scores_in_log, shown_scores

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]
SIZES = ((1920, 1080), (1280, 720), (390, 844))


@pytest.fixture(scope="module")
def qanta_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("qanta")
    with seeded_server(folder, _server_env(folder / "db.sqlite3"), seed="seed_qanta.py") as server:
        yield server


def shoot(pages: dict, moment: str, folder: Path):
    """Each page at each size, for a person to look at."""
    for name, page in pages.items():
        before = page.viewport_size
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(folder / f"{moment} {name} {width}x{height}.png"), full_page=True)
        page.set_viewport_size(before)


def test_a_qanta_bonus_decided_part_by_part_from_the_phone_and_the_console(qanta_server, open_page, tmp_path):
    server, code = qanta_server, qanta_server["matches"]["live"]
    moderator, ada, bo, hall = the_room(open_page, server, code)

    tossup(moderator, ada, "Question 1 of 2", 3, "Newton")
    for page in (moderator, ada, bo, hall):
        expect(page.locator("#phase")).to_contain_text("bonus for Humans")
    # Part 1: the console and Ada's phone offer the decision; the other team's phone does not. Ada consults.
    read_part(moderator, 1)
    buttons = ada.locator("#bonus-decision .decision")
    expect(buttons).to_have_text(["Own answer", "Consult AI", "Abstain"])
    expect(moderator.locator("#floor .decision")).to_have_count(3)
    expect(bo.locator("#bonus-decision")).to_be_hidden()
    ada.locator("#bonus-decision [data-decision='consult']").click()
    for page in (moderator, ada, bo, hall):
        expect(part(page, 1).locator(".part-decision")).to_have_text("Consulted AI: 5 if right")
    expect(ada.locator("#bonus-decision [data-decision='consult']")).to_have_attribute("aria-pressed", "true")
    shoot({"console": moderator, "phone": ada, "hall": hall}, "consulted", tmp_path)
    bonus_answer(ada, 1, "Wagner")
    expect(ada.locator("#bonus-decision")).to_be_hidden()  # answered: the decision stands
    rule(moderator, "a", "Wagner")
    expect(part(hall, 1).locator(".bonus-ruling.accept")).to_contain_text("right +5")

    # Part 2: the moderator records Ada's abstention from the console: no answer box, and "nobody was right" scores 1.
    read_part(moderator, 2)
    moderator.locator("#floor [data-decision='abstain']").click()
    expect(part(hall, 2).locator(".part-decision")).to_have_text("Abstained: 1 if nobody is right")
    expect(ada.locator("#submit-form")).to_be_hidden()
    expect(ada.locator("#team-note")).to_have_text("Your team abstained on part 2: the moderator rules whether anybody was right.")
    expect(moderator.locator("[data-rule='accept']")).to_contain_text("Nobody was right on part 2")
    expect(moderator.locator("[data-rule='reject']")).to_contain_text("Somebody was right on part 2")
    shoot({"console": moderator, "phone": ada, "hall": hall}, "abstained", tmp_path)
    moderator.keyboard.press("a")
    for page in (hall, ada, bo):
        expect(part(page, 2).locator(".bonus-ruling.accept")).to_contain_text("nobody was right +1")

    # Part 3: Ada answers without deciding: her own answer, the part's full 10.
    read_part(moderator, 3)
    bonus_answer(ada, 3, "Mozart")
    rule(moderator, "a", "Mozart")
    expect(part(hall, 3).locator(".bonus-ruling.accept")).to_contain_text("right +10")
    expect(hall.locator("#answer-line .bonus-outcome")).to_have_text("Bonus: Humans 16")
    assert shown_scores(hall) == {"Humans": 26, "Scholars": 0}
    logged, kinds = scores_in_log(server, code)
    assert logged == {"Humans": 26, "Scholars": 0} and kinds.count("bonus_part_decided") == 2
