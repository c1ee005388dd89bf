"""The report's human-AI figures per bot equal a reading of the exported JSONL lines written here from
their definitions (docs/report.md), without the engine's fold or the report's code: buzz frequency,
precision and position, expected score against the recorded human buzzes, the team's wins (with human
teammates apart) and GRACE's CalScore where the bot reports a confidence."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from game.report.figures import event_figures
from game.report.human_ai import FIGURES
from tests.report.logs import exported, muted_bot_text, parsed, played_text
from tests.report.test_figures import is_right, raw_reading, words_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def raw_winner(events: list[dict]) -> tuple[bool, str | None]:
    """Whether the match ended, and the team with the top score at the end of the log (None: a shared top)."""
    scores = {t["id"]: 0 for t in events[0]["data"]["teams"]}
    for e in events:
        for team, points in (e["data"].get("score_changes") or {}).items():
            scores[team] += points
    ended = any(e["type"] == "match_ended" for e in events)
    top = sorted(scores.values(), reverse=True)
    leader = max(scores, key=scores.get) if len(top) == 1 or top[0] != top[1] else None
    return ended, leader


def expected_by_bot(logs: list[tuple[dict, list[dict]]]) -> dict:
    by_bot = defaultdict(lambda: {"buzz_n": 0, "buzzes": 0, "right": 0, "words": 0, "fractions": 0.0,
                                  "human_n": 0, "score": 0.0, "matches": 0, "won": 0.0, "with_n": 0, "with_won": 0.0,
                                  "pairs": [], "guesses": []})
    for _, events in logs:
        raw = raw_reading(events)
        seats = raw["seats"]
        ended, leader = raw_winner(events)
        for bot_id, bot in seats.items():
            if bot["kind"] != "bot":
                continue
            b = by_bot[(bot["name"], bot.get("tier") or "computer")]
            if ended:
                b["matches"] += 1
                won = 1.0 if leader == bot["team"] else 0.5 if leader is None else 0.0
                b["won"] += won
                if any(s["kind"] == "human" and s["team"] == bot["team"] for s in seats.values()):
                    b["with_n"] += 1
                    b["with_won"] += won
            for (index, seat), trail in raw["trails"].items():
                if seat != bot_id:
                    continue
                b["guesses"] += trail
                question = raw["questions"][index]
                n = words_of(question)
                if not any(g["mode"] == "buzz" for g in trail):
                    continue
                b["buzz_n"] += 1
                buzz = next((g for g in trail if g["mode"] == "buzz" and g["buzz"] and g["guess"]), None)
                if buzz is not None:
                    b["buzzes"] += 1
                    b["right"] += is_right(buzz["guess"], question)
                    b["words"] += buzz["word"]
                    b["fractions"] += min(1.0, buzz["word"] / n)
                if not any(s["kind"] == "human" and s["team"] != bot["team"] for s in seats.values()):
                    continue  # nobody played against it
                humans = [r for r in raw["rulings"] if r["index"] == index and r["mode"] == "buzz"
                          and r["word"] is not None and r["seat"] in seats and seats[r["seat"]]["kind"] == "human"
                          and r["team"] != bot["team"]]
                first = min(humans, key=lambda r: r["word"]) if humans else None  # None: no human buzzed
                b["human_n"] += 1
                if buzz is not None and (first is None or buzz["word"] < first["word"]):
                    b["score"] += 1 if is_right(buzz["guess"], question) else -0.5
                if buzz is not None:
                    h = first is not None and first["verdict"] == "accept"
                    b["pairs"].append((h, is_right(buzz["guess"], question), buzz["confidence"]))
    return by_bot


def mean(total, count):
    return pytest.approx(total / count) if count else None


def check_human_ai(texts: list[str]) -> list[dict]:
    logs = [parsed(text) for text in texts]
    figures = event_figures(logs)
    expected = expected_by_bot(logs)
    assert {(b["name"], b["tier"]) for b in figures["human_ai"]} == set(expected)
    for bot in figures["human_ai"]:
        b = expected[(bot["name"], bot["tier"])]
        assert bot["buzz_questions"] == b["buzz_n"] and bot["buzzes"] == b["buzzes"]
        assert bot["buzz_frequency"] == mean(b["buzzes"], b["buzz_n"])
        assert bot["buzz_precision"] == mean(b["right"], b["buzzes"])
        assert bot["mean_buzz_word"] == mean(b["words"], b["buzzes"])
        assert bot["mean_buzz_position"] == mean(b["fractions"], b["buzzes"])
        assert bot["questions_against_humans"] == b["human_n"]
        assert bot["expected_score"] == mean(b["score"], b["human_n"])
        assert bot["matches"] == b["matches"] and bot["human_matches"] == b["with_n"]
        assert bot["win_rate"] == mean(b["won"], b["matches"])
        assert bot["win_rate_with_humans"] == mean(b["with_won"], b["with_n"])
        reported = any(g["confidence"] != (1.0 if g["buzz"] else 0.0) for g in b["guesses"])
        assert bot["confidence_reported"] == reported
        if reported and b["pairs"]:
            penalty = sum((1 - h) * g * c for h, g, c in b["pairs"])
            assert bot["calibration"] == pytest.approx(1 - penalty / len(b["pairs"]))
        else:
            assert bot["calibration"] is None
    return figures["human_ai"]


def test_efficientqa_human_ai_figures_equal_the_raw_reading():
    bots = check_human_ai(exported("efficientqa") + [played_text("efficientqa"), muted_bot_text()])
    assert any(b["buzzes"] and b["questions_against_humans"] for b in bots)
    assert any(b["calibration"] is not None for b in bots)


def test_quizbowl_human_ai_figures_equal_the_raw_reading():
    bots = check_human_ai(exported("quizbowl", seeds=(4, 5)) + [played_text("quizbowl"), muted_bot_text()])
    qbot = next(b for b in bots if b["name"] == "Qbot")  # the played match's and the muted bot's, pooled
    assert qbot["matches"] == 2 and qbot["human_matches"] == 2


def test_a_muted_bot_beside_a_person_is_scored_against_the_other_teams_buzzes():
    """The muted bot's three questions, worked by hand: it would have buzzed right before Ann (+1), wrong
    before Ann (−0.5), right after Ann's wrong buzz (0); Cho, its teammate, never counts as the human."""
    (bot,) = check_human_ai([muted_bot_text()])
    assert (bot["buzz_questions"], bot["buzzes"], bot["buzz_frequency"]) == (3, 3, 1.0)
    assert bot["buzz_precision"] == pytest.approx(2 / 3)
    assert bot["mean_buzz_word"] == pytest.approx((2 + 1 + 6) / 3)
    assert bot["expected_score"] == pytest.approx((1 - 0.5 + 0) / 3)
    assert (bot["matches"], bot["win_rate"], bot["human_matches"], bot["win_rate_with_humans"]) == (1, 1.0, 1, 1.0)
    # (1 − h)·g·c: Ann right on Q1 (0), the bot wrong on Q2 (0), Ann wrong and the bot right at 0.7 on Q3.
    assert bot["calibration"] == pytest.approx(1 - 0.7 / 3)


def test_a_bot_whose_confidence_only_repeats_its_buzz_has_no_calibration():
    """As a QANTA remote bot's: 1 when it buzzes, 0 when it does not."""
    header, events = parsed(muted_bot_text())
    for e in events:
        if e["type"] == "bot_guess":
            e["data"]["confidence"] = 1.0 if e["data"]["buzz"] else 0.0
    (bot,) = event_figures([(header, events)])["human_ai"]
    assert bot["confidence_reported"] is False and bot["calibration"] is None
    assert bot["expected_score"] == pytest.approx(0.5 / 3)  # the rest does not need a confidence


def test_every_figure_is_defined_in_the_docs_as_on_the_page():
    docs = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    for key, heading, definition, _ in FIGURES:
        assert f"| {heading} | {definition} |" in docs, key


def test_the_page_shows_the_table_its_definitions_and_says_when_no_bot_played_with_humans():
    from game.report.page import NO_HUMAN_TEAMMATES, report_from_logs
    from tests.report.test_report_files import report_data

    header, events = parsed(played_text("efficientqa"))
    for seat in events[0]["data"]["seats"]:  # Cho moves to the human team: the computer team is bots alone
        if seat["id"] == "h2":
            seat["team"] = "t0"
    alone = report_from_logs([(header, events)], "Bots alone", inline=True)
    assert NO_HUMAN_TEAMMATES in alone
    assert "Per bot, with and against humans" in alone and "<dt>CalScore</dt>" in alone
    tiny = next(b for b in report_data(alone)["human_ai"] if b["name"] == "Tiny")
    assert (tiny["matches"], tiny["human_matches"], tiny["win_rate_with_humans"]) == (1, 0, None)

    beside = report_from_logs([parsed(muted_bot_text())], "Beside people", inline=True)
    assert "No bot sat on a team with people" not in beside
    table = beside.split('id="human_ai-title"')[1].split("</table>")[0]
    row = table.split('<th scope="row">Qbot (500 MiB)</th>')[1].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split("<td>")[1:]]
    headings = [heading for _, heading, _, _ in FIGURES]
    shown = dict(zip(headings, cells))
    assert shown["Buzz frequency"] == "100%" and shown["Expected score vs humans"] == "+0.17"
    assert shown["Matches won"] == "100% of 1" and shown["Won with human teammates"] == "100% of 1"
    assert shown["CalScore"] == "0.767"

    header, events = parsed(muted_bot_text())
    for e in events:
        if e["type"] == "bot_guess":
            e["data"]["confidence"] = 1.0 if e["data"]["buzz"] else 0.0
    assert ">not reported</td>" in report_from_logs([(header, events)], "No confidence", inline=True)
