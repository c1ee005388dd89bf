"""Real Chromium replays finished matches on a real server: it plays, seeks (timeline, keys, next
buzz), changes speed, shows buzz markers and each bot's confidence chart; what it shows at several
moments is the server's fold of the log at the same seq; the staff view has the buzz audit; the
archive lists the match with its score."""
import json
import sqlite3

import pytest

from game.engine.api import fold, project, snapshot
from game.archive.replay import timeline

from .test_live_match import expect

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]


def stored_events(server, code) -> list[dict]:
    with sqlite3.connect(server["db"]) as db:
        rows = db.execute("SELECT e.seq, e.t_ms, e.type, e.data FROM game_matchevent e JOIN game_match m "
                          "ON m.id = e.match_id WHERE m.code = ? ORDER BY e.seq", (code,)).fetchall()
    return [{"seq": s, "t": t, "type": k, "data": json.loads(d)} for s, t, k, d in rows]


def open_replay(page, server, code, query=""):
    page.goto(f"{server['url']}/m/{code}/replay{query}")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")


def shown(page) -> dict:
    return page.evaluate("""() => { const v = window.exhibitionReplay.view();
        return {seq: v.seq, scores: v.scores, status: v.status, number: v.number,
                question: v.question && {number: v.question.number, revealed: v.question.revealed, closed: v.question.closed},
                history: v.history.length}; }""")


def server_view(events, seq) -> dict:
    snap = snapshot(fold(events[:seq]), "spectator")
    q = snap["question"]
    return {"seq": seq, "scores": snap["scores"], "status": snap["status"], "number": snap["number"],
            "question": q and {"number": q["number"], "revealed": q["revealed"], "closed": q["closed"]},
            "history": len(snap["history"])}


def test_the_replay_plays_seeks_changes_speed_and_shows_buzzes_and_charts(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["finished_quizbowl"]
    events = stored_events(server, code)
    page = open_page(1920, 1080)
    open_replay(page, server, code)
    expect(page.locator("#phase")).to_contain_text("Question 1 of 4")

    # Play, at 8x: the match moves on by itself; Space pauses.
    page.select_option("#speed", "8")
    assert page.evaluate("window.exhibitionReplay.speed()") == 8
    before = shown(page)["seq"]
    page.locator("#play").click()
    expect(page.locator("#play")).to_have_text("Pause")
    page.wait_for_function(f"window.exhibitionReplay.view().seq > {before + 5}")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_text("Play")

    # Seek by clicking the timeline near its end, then by keys; every moment is the server's fold.
    box = page.locator("#timeline").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.97, box["y"] + box["height"] / 2)
    late = shown(page)
    assert late["seq"] > len(events) * 0.8
    assert late == server_view(events, late["seq"])
    page.keyboard.press("2")
    expect(page.locator("#phase")).to_contain_text("Question 2 of 4")
    assert shown(page) == server_view(events, shown(page)["seq"])
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator("#phase")).to_contain_text("Question 3 of 4")

    # Next buzz: the mark under the question's text says the word it came at, and that word is underlined.
    buzzes = [e for e in events if e["type"] == "buzz"]
    assert buzzes, "the simulated match has buzzes"
    page.keyboard.press("1")
    page.locator("#next-buzz").click()
    first = buzzes[0]
    at_buzz = shown(page)["seq"]  # the buzz and whatever happened in the same instant
    assert at_buzz >= first["seq"] and {e["t"] for e in events[first["seq"] - 1: at_buzz]} == {first["t"]}
    marker = page.locator("#question .buzz-line .buzz-marker").first
    expect(marker).to_be_visible()
    expect(marker).to_have_attribute("data-word", str(first["data"]["word"]))
    words_to_the_mark = page.evaluate("""() => { const words = [...document.querySelectorAll('#question .word')];
        return words.indexOf(document.querySelector('#question .word.buzzed')) + 1; }""")
    assert words_to_the_mark == first["data"]["word"]
    expect(page.locator("#timeline-marks .buzz-mark")).to_have_count(len(buzzes))
    assert shown(page) == server_view(events, at_buzz)

    # The bot's confidence chart: its guesses so far, a canvas drawn by the charting library.
    bot = next(s for s in events[0]["data"]["seats"] if s["kind"] == "bot")
    chart = page.locator(f"#charts figure.chart[data-seat='{bot['id']}']")
    expect(chart.locator("canvas")).to_have_count(1)
    started = max(x["seq"] for x in events[:at_buzz] if x["type"] == "question_started")
    guesses = [e for e in events[started:at_buzz] if e["type"] == "bot_guess" and e["data"]["seat"] == bot["id"]]
    assert guesses
    # The public replay shows what the hall saw: guesses held while the humans could still buzz are not
    # there yet (the fair audience rule); the chart holds the guesses the spectator frames carried.
    hall = timeline([project(e, "spectator") for e in events[:at_buzz]])[-1]["guesses"].get(bot["id"], [])
    expect(chart).to_have_attribute("data-points", str(len(hall)))

    # The end: the closing moment with the final score, as the log has it.
    page.evaluate("window.exhibitionReplay.seekTo(window.exhibitionReplay.duration())")
    final = fold(events)
    expect(page.locator("#final .final-winner")).to_be_visible()
    names = {t["id"]: t["name"] for t in final.teams}
    expect(page.locator("#final .final-score")).to_have_text(" — ".join(f"{names[t]} {p}" for t, p in final.scores.items()))
    assert shown(page) == server_view(events, len(events))
    # Once the humans were done, the hall saw the bot's thinking: the last question's chart has it.
    last = timeline([project(e, "spectator") for e in events])[-1]["guesses"].get(bot["id"], [])
    assert last
    expect(chart).to_have_attribute("data-points", str(len(last)))


def test_the_staff_view_has_the_buzz_audit_and_the_public_one_does_not(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["finished_quizbowl"]
    public = open_page(1280, 900)
    open_replay(public, server, code, "?staff=1")
    assert public.locator("#staff").count() == 0
    staff = open_page(1280, 900)
    staff.goto(f"{server['url']}/accounts/login/?next=/m/{code}/replay%3Fstaff%3D1")
    staff.fill("input[name=username]", server["user"])
    staff.fill("input[name=password]", server["password"])
    staff.click("button[type=submit]")
    expect(staff.locator("body")).to_have_attribute("data-ready", "1")
    staff.locator("#next-buzz").click()
    expect(staff.locator("#staff .audit tbody tr")).to_have_count(1)
    expect(staff.locator("#staff")).to_contain_text("Answer line")


def test_the_archive_lists_the_match_with_its_score_and_the_replay_fits_a_phone(exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["finished_efficientqa"]
    final = fold(stored_events(server, code))
    page = open_page(390, 844, mobile=True)
    page.goto(f"{server['url']}/archive/")
    item = page.locator(f"li[data-code='{code}']")
    for team in final.teams:
        expect(item.locator(".archive-score")).to_contain_text(f"{team['name']} {final.scores[team['id']]}")
    item.locator("a", has_text="Replay").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#charts figure.chart")).to_have_count(3)  # one per bot tier
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
