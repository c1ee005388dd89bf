"""A ruling names what it rules, in real Chromium on a real server: the console's buttons say whose
answer they rule, and a key pressed on what the console showed is not applied to a captain's answer that
reached the server a moment before it. The console's socket is routed so that the captain's submission
reaches the server but not yet the console (the moment between the moderator's look and the key); the
engine refuses the ruling and the console says why; once the console has the answer, the keys rule it.

Real Daphne, real Chromium (seed.py "ruling": EfficientQA, Humans against Machines, moderator-paced)."""
import json
import re

import pytest

from .test_live_match import answer, expect, join, log_in, miss, press_next, reveal, rule

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

PASS_THROUGH = ("ack", "error", "pong")  # a command's answer reaches the console at once, even while frames wait
FLOW_BUTTONS = ("#btn-next", "#btn-undo", "#btn-pause", "#btn-end")


def test_the_consoles_keys_wait_for_the_match_they_act_on(exhibition_server, open_page):
    """Connected but not yet sent the match (the welcome came, the snapshot is on its way), the console's
    buttons are disabled and N starts nothing; once the snapshot is in, Start is offered. A moderator who
    presses N on a page just opened is never left with a start that silently went nowhere."""
    server, code = exhibition_server, exhibition_server["matches"]["ruling"]
    moderator = open_page(1440, 900)
    held, sent, route = [], [], {"socket": None, "hold": True}

    def console_socket(ws):
        upstream = ws.connect_to_server()

        def up(message):
            sent.append(message)
            upstream.send(message)

        def down(message):
            frame = json.loads(message) if isinstance(message, str) else {}
            if route["hold"] and frame.get("type") not in ("welcome", *PASS_THROUGH):
                held.append(message)
            else:
                ws.send(message)

        ws.on_message(up)
        upstream.on_message(down)
        route["socket"] = ws

    moderator.route_web_socket(re.compile(r"/ws/m/[^/]+/moderate"), console_socket)
    log_in(moderator, server, f"/m/{code}/moderate")  # waits for "connected": the welcome
    for _ in range(100):
        if any('"snapshot"' in message for message in held):
            break
        moderator.wait_for_timeout(100)
    assert any('"snapshot"' in message for message in held), "the server sent the console its snapshot"
    for button in FLOW_BUTTONS:
        expect(moderator.locator(button)).to_be_disabled()
    moderator.keyboard.press("n")
    moderator.wait_for_timeout(500)
    assert not [m for m in sent if '"start"' in m], "N pressed before the console knew the match sent nothing"

    route["hold"] = False
    for message in held:
        route["socket"].send(message)
    expect(moderator.locator("#btn-next")).to_be_enabled()
    expect(moderator.locator("#btn-next")).to_contain_text("Start match")
    expect(moderator.locator("#btn-end")).to_be_disabled()  # nothing to end before the start


def test_a_captains_answer_between_the_moderators_look_and_key_is_refused_and_the_console_says_why(
        exhibition_server, open_page):
    server, code = exhibition_server, exhibition_server["matches"]["ruling"]
    moderator = open_page(1440, 900)
    route, held = {"socket": None, "hold": False}, []

    def console_socket(ws):
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def down(message):
            frame = json.loads(message) if isinstance(message, str) else {}
            if route["hold"] and frame.get("type") not in PASS_THROUGH:
                held.append(message)
            else:
                ws.send(message)

        upstream.on_message(down)
        route["socket"] = ws

    moderator.route_web_socket(re.compile(r"/ws/m/[^/]+/moderate"), console_socket)
    log_in(moderator, server, f"/m/{code}/moderate")
    ada = open_page(390, 844, mobile=True)
    join(ada, server, code, "Ada", 0)  # Humans' captain; the Humans have priority on question 1
    bo = open_page(390, 844, mobile=True)
    join(bo, server, code, "Bo", 1)  # Machines' captain

    press_next(moderator)
    expect(moderator.locator("#phase")).to_contain_text("Question 1 of 2")
    reveal(moderator, 2)
    expect(bo.locator("#buzz")).to_be_enabled()
    bo.keyboard.press(" ")
    expect(moderator.locator("[data-rule=reject]")).to_have_text("Reject Machines' answer R")  # Bo's buzz
    answer(bo, "Rome")
    rule(moderator, "r", "Rome")
    miss(moderator, ada, "London")
    for page in (ada, bo):
        expect(page.locator("#team-phase")).to_be_visible()

    bo.fill("#submit-input", "Paris")  # the Machines' answer is in; the Humans hold the floor
    bo.press("#submit-input", "Enter")
    expect(moderator.locator(".possession:not(.has-floor) .typed")).to_have_text("Paris")
    expect(moderator.locator("[data-rule=accept]")).to_have_text("Accept Humans' answer A")
    route["hold"] = True  # the moderator looks; what the server sends next reaches the console late
    ada.fill("#submit-input", "Lyon")
    ada.press("#submit-input", "Enter")
    for _ in range(100):
        if any('"submission"' in message for message in held):
            break
        moderator.wait_for_timeout(100)
    assert any('"submission"' in message for message in held), "the captain's answer reached the server"
    expect(moderator.locator(".possession.has-floor .typed")).to_have_count(0)  # the console has not seen it

    moderator.keyboard.press("a")  # meant for the Humans' floor as shown: nothing typed there yet
    expect(moderator.locator("#toast")).to_have_text("Humans' answer changed to “Lyon” since you looked: rule again.")
    expect(moderator.locator("#toast")).to_be_visible()

    route["hold"] = False
    for message in held:
        route["socket"].send(message)
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Lyon")
    rule(moderator, "r", "Lyon")  # the Humans' answer, seen now: wrong
    expect(moderator.locator(".possession.has-floor .typed")).to_have_text("Paris")
    expect(moderator.locator("[data-rule=accept]")).to_have_text("Accept Machines' answer A")
    moderator.keyboard.press("a")
    expect(moderator.locator("#floor .floor-result")).to_have_text("Machines scored 2 in phase 2.")
    rulings = moderator.locator("#history .ruling-row")
    expect(rulings).to_have_count(4)  # Rome, London, Lyon, Paris: the refused press ruled nothing
