"""Per bot, how it plays beside and against people: its buzzes, its expected score against the recorded
human buzzes, its team's wins and its calibration (GRACE's CalScore); plain Python, no Django.

`FIGURES` is the one statement of each figure: its key in the report's data, its heading and its
definition. The report page shows the headings and the definitions from it, docs/report.md repeats the
definitions word for word (tests/report/test_human_ai.py holds the two together), and
`human_ai_figures` computes the values from the matches `game.report.figures.read_match` read.
"""
from __future__ import annotations

from game.report.bot_buzz import first_buzz, in_buzz_phase, ratio

RIGHT, WRONG, SILENT = 1.0, -0.5, 0.0  # a bot's score on a question against the human buzz

# (key, heading, definition, how the page writes the value: count | share | decimal | signed | calibration |
# "share of K", a share and the count K it is of)
FIGURES = (
    ("buzz_questions", "Buzz questions",
     "the questions that counted which the bot played in a buzz phase (it guessed on them there)", "count"),
    ("buzz_frequency", "Buzz frequency",
     "its buzzes ÷ its buzz questions; its buzz on a question is the first guess of its trail in a buzz phase that "
     "says buzz with a guess (what it would have done alone)", "share"),
    ("buzz_precision", "Buzz precision",
     "its right buzzes ÷ its buzzes; right is the automatic reading (the answer or an accepted alternative after "
     "SQuAD normalisation)", "share"),
    ("mean_buzz_word", "Mean buzz word",
     "the mean, over its buzzes, of the words revealed when it buzzed", "decimal"),
    ("mean_buzz_position", "Mean buzz position",
     "the mean, over its buzzes, of the words revealed when it buzzed ÷ the words of the question", "share"),
    ("expected_score", "Expected score vs humans",
     "over its buzz questions in matches where another team held a human seat, the mean of its score on each "
     "against the earliest buzz of such a human in a buzz phase with a final ruling (the human buzz on the record; "
     "none when no such human buzzed): +1 when it buzzed right at fewer words than that buzz or where there was "
     "none, −0.5 when it buzzed wrong so, 0 when it was silent or buzzed at the same word or later",
     "signed"),
    ("questions_against_humans", "Questions against humans",
     "the buzz questions its expected score is the mean over", "count"),
    ("win_rate", "Matches won",
     "the finished matches its team won ÷ the finished matches it sat in (a tie counts a half); its team is the "
     "team of its seat, with any people seated on it", "share of matches"),
    ("win_rate_with_humans", "Won with human teammates",
     "the same over the finished matches in which its team also held human seats", "share of human_matches"),
    ("calibration", "CalScore",
     "GRACE's CalScore, 1 − E[(1 − h)·g·c], over its questions against humans on which it buzzed: h is 1 when "
     "the human buzz on the record was ruled right (0 when there was none), g is 1 when the bot's buzz was right, c "
     "is the confidence it reported with its buzz. Not reported when every confidence the "
     "bot gave is 1 with a buzz and 0 without (a bot whose protocol has no confidence, as QANTA's remote one)",
     "calibration"),
)
NOT_REPORTED = "not reported"


def _bot_key(seat: dict) -> tuple[str, str]:
    return seat["name"], seat["tier"]


def reports_confidence(trails: list[dict]) -> bool:
    """Whether a bot gave a confidence of its own: some guess whose confidence is not just its buzz (1 or 0)."""
    return any(p["confidence"] is not None and p["confidence"] != (1.0 if p["buzz"] else 0.0) for p in trails)


def earliest_human_buzz(question: dict, seats: dict, team: str) -> dict | None:
    """The earliest ruled buzz on the question by a human seat of a team other than `team`."""
    buzzes = [r for r in question["rulings"] if r["mode"] == "buzz" and r["word"] is not None
              and (seats.get(r["seat"]) or {}).get("kind") == "human" and r["team"] != team]
    return min(buzzes, key=lambda r: r["word"], default=None)


def score_against(buzz: dict | None, human: dict | None) -> float:
    """The bot's score on a question against the human buzz (None: the humans did not buzz): only a buzz at fewer
    words than the human's counts."""
    if buzz is None or human is not None and buzz["word"] >= human["word"]:
        return SILENT
    return RIGHT if buzz["right"] else WRONG


def _new(name: str, tier: str) -> dict:
    return {"name": name, "tier": tier, "buzz_questions": 0, "buzzes": 0, "buzz_right": 0, "words": 0,
            "fractions": 0.0, "questions_against_humans": 0, "score": 0.0, "matches": 0, "won": 0.0,
            "human_matches": 0, "human_won": 0.0, "paired": 0, "penalty": 0.0, "points": []}


def _play(b: dict, m: dict, seat: dict) -> None:
    """One finished match the bot sat in: its team's result, and whether people sat on that team."""
    won = 1.0 if m["winner"] == seat["team"] else 0.5 if m["winner"] is None else 0.0
    with_humans = any(s["kind"] == "human" and s["team"] == seat["team"] for s in m["seats"].values())
    b["matches"] += 1
    b["won"] += won
    b["human_matches"] += with_humans
    b["human_won"] += won if with_humans else 0.0


def _question(b: dict, m: dict, seat: dict, q: dict, trail: list[dict]) -> None:
    b["points"] += trail
    if not in_buzz_phase(trail, q):
        return
    b["buzz_questions"] += 1
    buzz = first_buzz(trail)
    if buzz is not None:
        b["buzzes"] += 1
        b["buzz_right"] += buzz["right"]
        b["words"] += buzz["word"]
        b["fractions"] += min(1.0, buzz["word"] / q["words"])
    if not any(s["kind"] == "human" and s["team"] != seat["team"] for s in m["seats"].values()):
        return  # no person played against it
    human = earliest_human_buzz(q, m["seats"], seat["team"])
    b["questions_against_humans"] += 1
    b["score"] += score_against(buzz, human)
    if buzz is not None:
        b["paired"] += 1
        b["penalty"] += (1 - (human is not None and human["right"])) * buzz["right"] * (buzz["confidence"] or 0.0)


def human_ai_figures(matches: list[dict]) -> list[dict]:
    """Per bot (seat name and tier, pooled over the matches), every figure of FIGURES."""
    per_bot: dict = {}
    for m in matches:
        bot_seats = {sid: s for sid, s in m["seats"].items() if s["kind"] == "bot"}
        played = set()
        for sid, seat in bot_seats.items():
            b = per_bot.setdefault(_bot_key(seat), _new(*_bot_key(seat)))
            if m["finished"] and (_bot_key(seat), seat["team"]) not in played:
                played.add((_bot_key(seat), seat["team"]))
                _play(b, m, seat)
        for q in m["questions"]:
            for sid, trail in q["bots"].items():
                if sid in bot_seats:
                    _question(per_bot[_bot_key(bot_seats[sid])], m, bot_seats[sid], q, trail)
    out = []
    for b in per_bot.values():
        calibrated = reports_confidence(b["points"])
        out.append({
            "name": b["name"], "tier": b["tier"], "buzz_questions": b["buzz_questions"], "buzzes": b["buzzes"],
            "buzz_frequency": ratio(b["buzzes"], b["buzz_questions"]),
            "buzz_precision": ratio(b["buzz_right"], b["buzzes"]),
            "mean_buzz_word": ratio(b["words"], b["buzzes"]),
            "mean_buzz_position": ratio(b["fractions"], b["buzzes"]),
            "questions_against_humans": b["questions_against_humans"],
            "expected_score": ratio(b["score"], b["questions_against_humans"]),
            "matches": b["matches"], "win_rate": ratio(b["won"], b["matches"]),
            "human_matches": b["human_matches"], "win_rate_with_humans": ratio(b["human_won"], b["human_matches"]),
            "confidence_reported": calibrated, "calibration_questions": b["paired"] if calibrated else 0,
            "calibration": (1 - b["penalty"] / b["paired"]) if calibrated and b["paired"] else None})
    return out
