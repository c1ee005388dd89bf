"""The report's figures equal an independent reading of the raw JSONL logs.

The test reads the exported event lines itself, without the engine's fold: each ruling as it was
made, undone (undo), dropped with its question (question_thrown_out) or changed (override), each bot
guess under the question it was made on. It recomputes points by phase, margins, accuracy, each
bot's start/end accuracy and EW from that, and compares with game.report.figures.event_figures."""
from __future__ import annotations

from collections import defaultdict

import pytest

from bots.text import exact_match
from game.engine.questions import clean_answer, split_words
from game.report.figures import event_figures
from tests.report.logs import exported, parsed, played_text

pytestmark = pytest.mark.django_db


def raw_reading(events: list[dict]) -> dict:
    """One match read line by line: its final rulings, questions played, bot trails and adjustments."""
    created = events[0]["data"]
    seats = {s["id"]: s for s in created["seats"]}
    bot_teams = {s["team"] for s in created["seats"] if s["kind"] == "bot"}
    side = {t["id"]: t.get("kind") or ("computer" if t["id"] in bot_teams else "human") for t in created["teams"]}
    questions = created["questions"]
    rulings, current, index, mode = {}, [], None, None
    trails, thrown, started = defaultdict(list), set(), []
    adjusted = {"human": 0, "computer": 0}
    everything = {"human": 0, "computer": 0}
    for e in events:
        kind, d = e["type"], e["data"]
        for team, points in (d.get("score_changes") or {}).items():
            everything[side[team]] += points
        if kind == "seat_joined":
            seats[d["seat"]["id"]] = d["seat"]
        elif kind == "question_started":
            current, index = [], d["index"]
            started.append(index)
        elif kind == "phase_started":
            mode = d["mode"]
        elif kind == "ruling":
            rulings[d["id"]] = {"phase": d["phase"], "mode": d["mode"], "team": d["team"], "seat": d["seat"],
                                "points": d["points"], "verdict": d["verdict"], "word": d.get("word"),
                                "index": index, "withdrawn": False}
            current.append(d["id"])
        elif kind == "undo":
            del rulings[d["ruling"]]
        elif kind == "question_thrown_out":
            thrown.add(index)
            for rid in current:
                rulings.pop(rid, None)
        elif kind == "override":
            rulings[d["ruling"]].update(verdict=d["verdict"], points=d["points"])
            for each in d.get("rulings") or ():
                rulings[each["id"]].update(points=each["points"], withdrawn=each["withdrawn"])
        elif kind == "score_adjusted":
            adjusted[side[d["team"]]] += d["points"]
        elif kind == "bot_guess":
            trails[(index, d["seat"])].append(dict(d, mode=mode))
    final = [dict(r, side=side[r["team"]], tier=seats[r["seat"]].get("tier") or "computer")
             for r in rulings.values() if r["verdict"] != "prompt" and not r["withdrawn"]]
    return {"rulings": final, "played": len(started) - len(thrown),
            "played_indexes": [i for i in started if i not in thrown], "adjusted": adjusted, "everything": everything,
            "trails": {k: v for k, v in trails.items() if k[0] not in thrown}, "seats": seats,
            "questions": questions}


def words_of(question: dict) -> int:
    return len(split_words(question["text"])[0])


def is_right(guess, question: dict) -> bool:
    return bool(guess) and exact_match(guess, [question["answer"], clean_answer(question["answer"]),
                                               *question.get("accepted", [])])


def check_against_raw(texts: list[str]) -> dict:
    logs = [parsed(text) for text in texts]
    figures = event_figures(logs)
    raws = [raw_reading(events) for _, events in logs]

    # Every point of every match is in a phase or an adjustment: the reading itself adds up.
    for raw in raws:
        for kind in ("human", "computer"):
            ruled = sum(r["points"] for r in raw["rulings"] if r["side"] == kind)
            assert ruled + raw["adjusted"][kind] == raw["everything"][kind]

    # Table 9: points by phase for the humans and each tier.
    points = defaultdict(int)
    for raw in raws:
        for r in raw["rulings"]:
            points[(r["phase"], "humans" if r["side"] == "human" else r["tier"])] += r["points"]
    for row in figures["points"]:
        for column, value in row.items():
            if column != "phase":
                assert value == points.get((row["phase"], column), 0), (row, column)
    assert sum(v for row in figures["points"] for k, v in row.items() if k != "phase") == sum(points.values())

    # Table 10: per match, (human - computer) points in each phase per question played.
    for raw, row in zip(raws, figures["margins"]):
        assert row["questions"] == raw["played"]
        for phase, margin in row["phases"].items():
            expected = sum(r["points"] * (1 if r["side"] == "human" else -1) for r in raw["rulings"] if r["phase"] == phase)
            assert margin == pytest.approx(expected / raw["played"])
        net = raw["everything"]["human"] - raw["everything"]["computer"]
        assert row["average"] == pytest.approx(net / raw["played"])

    # Figure 3: right / final answers per phase and side.
    for row in figures["accuracy"]:
        for kind in ("human", "computer"):
            mine = [r for raw in raws for r in raw["rulings"] if r["phase"] == row["phase"] and r["side"] == kind]
            assert row[kind]["answers"] == len(mine)
            assert row[kind]["right"] == sum(r["verdict"] == "accept" for r in mine)

    # Per bot: start and end accuracy, buzzes, and EW against the humans' first right buzzes.
    firsts = []
    for raw in raws:
        for index in raw["played_indexes"]:
            n = words_of(raw["questions"][index])
            right = [r["word"] / n for r in raw["rulings"] if r["index"] == index and r["side"] == "human"
                     and r["mode"] == "buzz" and r["verdict"] == "accept"]
            firsts.append(min(right) if right else None)
    by_bot = defaultdict(lambda: {"questions": 0, "start": 0, "end_n": 0, "end": 0, "buzzes": 0, "buzz_n": 0, "wins": 0.0})
    for raw in raws:
        for (index, seat), trail in raw["trails"].items():
            question, info = raw["questions"][index], raw["seats"][seat]
            n = words_of(question)
            b = by_bot[(info["name"], info.get("tier") or "computer")]
            b["questions"] += 1
            b["start"] += is_right(trail[0]["guess"], question)
            full = [g for g in trail if g["word"] >= n]
            if full:
                b["end_n"] += 1
                b["end"] += is_right(full[-1]["guess"], question)
            buzz_phase = [g for g in trail if g["mode"] == "buzz"]
            if buzz_phase:
                b["buzz_n"] += 1
                buzz = next((g for g in buzz_phase if g["buzz"] and g["guess"]), None)
                if buzz is not None:
                    b["buzzes"] += 1
                    x = buzz["word"] / n
                    if is_right(buzz["guess"], question):
                        b["wins"] += sum(1 if h is None or h > x else 0.5 if h == x else 0 for h in firsts) / len(firsts)
    assert {(b["name"], b["tier"]) for b in figures["bots"]} == set(by_bot)
    for bot in figures["bots"]:
        b = by_bot[(bot["name"], bot["tier"])]
        assert bot["questions"] == b["questions"] and bot["end_questions"] == b["end_n"]
        assert bot["start_accuracy"] == pytest.approx(b["start"] / b["questions"])
        assert bot["end_accuracy"] == (pytest.approx(b["end"] / b["end_n"]) if b["end_n"] else None)
        assert bot["buzzes"] == b["buzzes"] and bot["buzz_questions"] == b["buzz_n"]
        assert bot["expected_wins"] == (pytest.approx(b["wins"] / b["buzz_n"]) if b["buzz_n"] else None)
        assert sum(bot["histogram"]["right"]) + sum(bot["histogram"]["wrong"]) == b["buzzes"]
    return figures


def test_efficientqa_event_figures_equal_the_raw_reading():
    figures = check_against_raw(exported("efficientqa") + [played_text("efficientqa")])
    assert [p["number"] for p in figures["phases"]] == [1, 2, 3]
    assert figures["tiers"] == ["500mib", "6gib", "unlimited"]
    # Not a vacuous comparison: the matches scored in phases, bots buzzed and the humans got some right.
    assert figures["points"][0]["humans"] > 0 and any(b["buzzes"] for b in figures["bots"])
    assert figures["accuracy"][0]["human"]["answers"] > 0
    assert len(figures["margins"]) == 5 and figures["margins"][-1]["label"] == "All matches"
    assert any(b["start_accuracy"] is not None and b["end_accuracy"] for b in figures["bots"])


def test_quizbowl_event_figures_equal_the_raw_reading():
    figures = check_against_raw(exported("quizbowl", seeds=(4, 5)) + [played_text("quizbowl")])
    assert [p["number"] for p in figures["phases"]] == [1]
    assert any(row["humans"] < 0 or row["humans"] > 0 for row in figures["points"])


def test_the_pooled_margin_is_the_points_of_all_matches_over_all_their_questions():
    figures = event_figures([parsed(played_text("efficientqa")), parsed(played_text("quizbowl"))])
    first, second, pooled = figures["margins"]
    margin = first["margin"] + second["margin"]
    assert pooled["questions"] == first["questions"] + second["questions"]
    assert pooled["average"] == pytest.approx(margin / pooled["questions"])


def test_an_empty_log_is_a_clear_error():
    with pytest.raises(ValueError, match="match_created"):
        event_figures([({}, [])])


def test_a_right_buzz_wins_against_every_later_or_missing_human_buzz_and_half_a_tie():
    from game.report.figures import win_chance

    humans = [0.5, None, 0.8, 0.2]  # first right human buzzes on four questions (None: nobody got it)
    assert win_chance(0.5, humans) == pytest.approx((2 + 0.5) / 4)
    assert win_chance(0.1, humans) == 1.0 and win_chance(0.9, humans) == 0.25
    assert win_chance(0.5, []) == 0.0


def test_the_figures_module_needs_no_django():
    """Anyone with the exported files can recompute the figures: the module loads without Django."""
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, game.report.figures; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})
    assert out.stdout.strip() == "[]"


def test_bonus_figures_count_the_logs_bonuses_and_the_margins_still_add_up():
    """Two tossup-bonus matches (a bounceback, an undone part ruling, a throw-out, an adjustment after the
    final): each team's bonus figures are the log's, pooled per side, and a match's margin row, bonuses
    included, adds up to its score difference per question."""
    from tests.archive.test_bonus_results import log_totals

    texts = [played_text("quizbowl_bonus"), played_text("quizbowl_bonus", {"t0": "Owls", "t1": "Robots"})]
    logs = [parsed(text) for text in texts]
    figures = event_figures(logs)
    rows = {r["label"]: r for r in figures["bonuses"]}
    for _, events in logs:
        for name, t in log_totals(events).items():
            assert (rows[name]["points"], rows[name]["bounceback"]) == (t["bonus"], t["bounceback"]), name
    assert rows["Humans"]["heard"] == 1 and rows["Humans"]["ppb"] == 10
    assert [(p["right"], p["heard"]) for p in rows["Robots"]["parts"]] == [(1, 1), (0, 1), (1, 1)]
    pooled = rows["All human teams"]  # Humans and Owls, the same team's play renamed
    assert (pooled["heard"], pooled["points"]) == (2, rows["Humans"]["points"] + rows["Owls"]["points"])
    for match, margin in zip(figures["matches"], figures["margins"]):
        assert sum(margin["phases"].values()) + margin["bonuses"] + margin["adjustments"] == pytest.approx(
            margin["average"])
        assert margin["margin"] == match["scores"]["human"] - match["scores"]["computer"]
        assert margin["bonuses"] != 0
    ann = next(p for p in figures["players"] if p["name"] == "Ann")
    assert (ann["matches"], ann["powers"], ann["negs"], ann["points"], ann["heard"]) == (1, 2, 1, 25, 3)
    assert ann["pptuh"] == pytest.approx(25 / 3)


def test_a_report_without_bonuses_has_no_bonus_figures():
    figures = event_figures([parsed(played_text("efficientqa"))])
    assert figures["bonuses"] == [] and figures["players"] == []
    assert all(m["bonuses"] == 0 for m in figures["margins"])
