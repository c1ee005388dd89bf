"""What a bot's card says on the big screen (static/js/ui.js botCardState, run under Node): one scale
for every bot (its confidence in its top guess in [0, 1], its buzz threshold on the same bar, its
other top guesses with their scores), "no guess yet" rather than a blank, a settled card once the
question closes, and a miss said as one."""
import json
import shutil
import subprocess

from tests.conftest import need_service
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "bot_cards.mjs"
RULES = {"phases": [{"mode": "buzz", "bot_tier": "500mib"}, {"mode": "team", "bot_tier": "6gib"},
                    {"mode": "team", "bot_tier": "unlimited"}]}
SEATS = {"small": {"id": "small", "name": "Small", "kind": "bot", "tier": "500mib", "team": "t1"},
         "big": {"id": "big", "name": "Big", "kind": "bot", "tier": "6gib", "team": "t1"}}


def view(cards=None, phase=1, closed=False, result=None, status="live"):
    question = {"phase": phase, "closed": closed, "result": result, "bot_cards": cards or {}}
    return {"status": status, "rules": RULES, "seats": SEATS, "question": question}


def cards(*cases) -> list[dict]:
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the browser's drawing code in tests)")
    done = subprocess.run([node, str(HARNESS), str(ROOT), json.dumps(cases)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def guess(text="Hamlet", confidence=0.55, threshold=0.6, **more):
    """A bot's card as question.bot_cards holds it (docs/wire-protocol.md "Bot cards")."""
    return {"state": "guessing", "word": 12, "guess": text, "confidence": confidence, "threshold": threshold,
            "buzz": False, "guesses": [[text, confidence], ["Macbeth", 0.2]], "missed": None, **more}


def test_before_its_first_guess_a_bot_says_no_guess_yet_or_when_it_plays():
    waiting, later, before = cards([view(), "small"], [view(), "big"], [{**view(), "question": None}, "small"])
    assert (waiting["guess"], waiting["note"]) == (None, "no guess yet")
    assert later["note"] == "plays in phase 2"
    assert before["note"] == "waiting for the question"


def test_the_bar_shows_its_own_confidence_against_its_threshold_on_one_scale():
    [card] = cards([view({"small": guess()}), "small"])
    assert (card["guess"], card["confidence"], card["threshold"], card["settled"]) == ("Hamlet", 0.55, 0.6, False)
    assert card["others"] == [["Macbeth", 0.2]]
    [wild] = cards([view({"small": guess(confidence=1.7, threshold=-3)}), "small"])
    assert (wild["confidence"], wild["threshold"]) == (1, 0)


def test_a_card_shows_the_top_five_guesses_each_with_its_score_on_the_one_scale():
    five = [["Hamlet", 0.55], ["Macbeth", 0.2], ["The Tempest", 0.05], ["Othello", 1.4], [" King Lear ", None]]
    [card] = cards([view({"small": guess(guesses=five)}), "small"])
    assert (card["guess"], card["confidence"]) == ("Hamlet", 0.55)
    assert card["others"] == [["Macbeth", 0.2], ["The Tempest", 0.05], ["Othello", 1], ["King Lear", 0]]


def test_a_blank_or_null_guess_reads_no_guess_not_a_blank_at_zero_percent():
    blank, null = cards([view({"small": guess(text="  ", confidence=0)}), "small"],
                        [view({"small": guess(text=None, confidence=None)}), "small"])
    for card in (blank, null):
        assert (card["guess"], card["confidence"], card["note"]) == (None, None, "no guess")


def test_every_card_settles_when_the_question_closes():
    final, silent, won = cards(
        [view({"small": guess()}, phase=3, closed=True), "small"],
        [view({"small": guess()}, phase=3, closed=True), "big"],
        [view({"big": guess()}, phase=2, closed=True, result={"seat": "big", "team": "t1", "points": 2}), "big"])
    assert final["settled"] and final["guess"] == "Hamlet" and not final.get("right")
    assert silent["settled"] and silent["note"] == "no guess on this question"
    assert won["right"] is True
    [ended] = cards([view({"small": guess()}, status="finished"), "small"])
    assert ended["settled"]


def test_a_bot_that_buzzed_says_so_at_the_consoles_word_even_while_its_guess_is_held():
    held, shown, ruled = cards(
        [view({"small": {"state": "waiting", "guess": None, "buzzed_at": 7, "buzz_verdict": None}}), "small"],
        [view({"small": guess(buzzed_at=7, buzz_verdict=None)}), "small"],
        [view({"small": {"state": "waiting", "guess": None, "buzzed_at": 7, "buzz_verdict": "reject"}}), "small"])
    assert (held["guess"], held["note"]) == (None, "buzzed at word 7")
    assert shown["guess"] == "Hamlet" and shown["buzzed"] == "buzzed at word 7" and shown["word"] == 12
    assert ruled["note"] == "buzzed at word 7, ruled wrong"
    [answered] = cards([view({"big": {"state": "waiting", "guess": None, "answered": True}}, phase=2), "big"])
    assert answered["note"] == "has answered (shown once the humans are done)"


def test_a_bot_that_missed_says_it_timed_out_or_failed():
    late, broken = cards(
        [view({"small": guess(state="missed", missed="timed_out")}), "small"],
        [view({"small": {"state": "missed", "missed": "failed", "guess": None}}), "small"])
    assert late["missed"] and late["note"] == "no answer (timed out)"
    assert broken["missed"] and broken["note"] == "failed: no answer"


def test_a_stopped_bot_says_so_on_every_card_after():
    stopped = {**SEATS, "small": {**SEATS["small"], "stopped": {"number": 1}}}
    later = {**view({"small": {"state": "stopped", "guess": None}}), "seats": stopped}
    with_guess = {**view({"small": guess(state="stopped")}), "seats": stopped}
    first, second = cards([later, "small"], [with_guess, "small"])
    for card in (first, second):
        assert card["stopped"] and card["note"] == "stopped for the rest of the match"
    [other] = cards([{**view(), "seats": stopped}, "big"])
    assert not other.get("stopped")


def test_a_card_shows_what_the_bot_measured_at_the_start_and_its_parts():
    sized = {**SEATS, "small": {**SEATS["small"], "size": {"bytes": 642_123_776, "artefacts": 300 * 1024**2,
                                                           "code": 190_000, "packages": 341_934_000}}}
    card, unsized = cards([{**view(), "seats": sized}, "small"], [{**view(), "seats": sized}, "big"])
    assert card["size"] == "612.4 MiB"  # as bots/tiers.py human_bytes says it
    assert card["sizeParts"] == "artefacts 300 MiB + code 185.5 KiB + packages 326.1 MiB"
    assert unsized["size"] is None


def test_after_its_phase_the_hall_is_told_its_guesses_wait_and_the_moderator_that_it_said_nothing():
    """In phase 3 the hall sees no card for the phase-1 bot, whether it guessed or not (its guesses are
    held while the humans may still score on the question); the moderator, who sees every guess, is
    told plainly when it made none."""
    hall, moderator = cards([view({"small": {"state": "waiting"}}, phase=3), "small"],
                            [dict(view({"small": {"state": "waiting"}}, phase=3), audience="moderator"), "small"])
    assert hall["note"] == "its guesses show when the question is over"
    assert moderator["note"] == "no guess on this question"
