"""A finished match in the files other tools read: per bot, qb-tournament-runner's *.buzz.csv; a
per-buzz gameplay CSV in the spirit of QANTA's gameplay logs; and the box score as CSV.

Each is written from one audience's frames (game.archive.replay.Replay.frames), so a public export holds
what the hall saw and nothing else (the bot guesses the audience rule let through, the buzzes and
the rulings), and a staff export everything. The full event log is game.archive.match_archive's job.
"""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from intake.csv_cells import as_text_cell

from game.engine.api import MatchState
from game.archive.bonus_stats import part_rulings
from game.archive.replay import timeline

BUZZ_CSV_COLUMNS = ("question_id", "token_position", "guess", "confidence", "buzz")  # bots/replay_bot.py reads these
# A bonus part's answer is a row of its own: phase "bonus", the part (1, 2, 3 …) and whether it was the other
# team's bounceback. The columns are the same in every match; a match without bonuses leaves the last two blank.
BONUS_ANSWER_COLUMNS = ("bonus_part", "bounceback")
GAMEPLAY_COLUMNS = ("date", "question_number", "question_id", "phase", "player", "team", "kind", "word_position",
                    "question_words", "fraction", "guess", "ruling", "overridden", "withdrawn", "points",
                    *BONUS_ANSWER_COLUMNS)
BOXSCORE_COLUMNS = ("question_number", "question_id", "tiebreaker", "thrown_out", "ended_in_phase", "result",
                    "answer_line", "phase", "team", "who", "kind", "answer", "word_position", "fraction", "ruling",
                    "overridden", "withdrawn", "points", *BONUS_ANSWER_COLUMNS)
PROTEST_COLUMNS = ("question_number", "protested_by", "answer_of", "answer", "ruling_protested", "outcome",
                   "ruling_now", "reason")
PLAYER_COLUMNS = ("player", "team", "kind", "buzzes", "correct", "wrong", "negs", "prompts", "points",
                  "mean_buzz_position", "powers", "tens", "tossups_heard", "points_per_tossup_heard")
# Only in a match with bonuses, after the players' table (as the protests' is only when one was filed):
BONUS_COLUMNS = ("team", "bonuses_heard", "bonus_points", "points_per_bonus", "bounceback_points")
BONUS_PART_COLUMNS = ("team", "part", "heard", "right", "share_right")


def _csv(rows, header) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([as_text_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def _qids(state: MatchState, frames: list[dict]) -> dict:
    """question_started seq -> the question's id (the id is public; its text is not until it closes)."""
    return {f["seq"]: state.questions[f["data"]["index"]].qid for f in frames if f["type"] == "question_started"}


def bot_seats(state: MatchState) -> list[dict]:
    return [s for s in state.seats.values() if s.get("kind") == "bot"]


def buzz_csv(state: MatchState, frames: list[dict], seat: str) -> str:
    """One bot's guesses as qb-tournament-runner's *.buzz.csv: one row per guess it reported, with the
    number of words it had seen (token_position), so bots/replay_bot.py can play the run again."""
    qids = _qids(state, frames)
    rows = []
    for q in timeline(frames):
        if q["thrown_out"]:
            continue
        for g in q["guesses"].get(seat, []):
            rows.append((qids[q["start_seq"]], g["word"], g["guess"], g["confidence"], "True" if g["buzz"] else "False"))
    return _csv(rows, BUZZ_CSV_COLUMNS)


def gameplay_csv(state: MatchState, frames: list[dict]) -> str:
    """One row per buzz: when, who (human or bot), which question, at which word and fraction, what they
    said, how it was ruled (as it finally stands: overridden, or withdrawn because an earlier answer was
    ruled right after it) and the points."""
    qids = _qids(state, frames)
    parts = _parts_by_number(frames)
    rows = []
    for q in timeline(frames):
        length = q["words"] or len(state.questions[_index(frames, q["start_seq"])].words)
        rulings = {r["id"]: r for r in q["rulings"]}
        for b in q["buzzes"]:
            r = rulings.get(b["ruling"]) or _last_ruling_of(q, b)
            rows.append((_iso(b["t"]), q["number"], qids[q["start_seq"]], r["phase"] if r else "", b["name"],
                         _team(state, b["team"]), b["kind"], b["word"], length,
                         round(b["word"] / length, 3) if length else "", r["text"] if r else "",
                         "thrown out" if q["thrown_out"] else (b["verdict"] or (r["verdict"] if r else "none")),
                         bool(r and r.get("overridden")), bool(r and r.get("withdrawn")),
                         0 if q["thrown_out"] or not r else r["points"], "", ""))
        if not q["thrown_out"]:
            rows += [_part_row(state, r) for r in parts.pop(q["number"], [])]
    return _csv(rows, GAMEPLAY_COLUMNS)


def _parts_by_number(frames: list[dict]) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for r in part_rulings(frames):
        out.setdefault(r["number"], []).append(r)
    return out


def _part_row(state: MatchState, r: dict) -> tuple:
    """A bonus part's ruling as a gameplay row: who answered (the team when nobody typed: a spoken answer or
    the clock), what was typed or heard, the ruling and the points."""
    seat = state.seats.get(r["seat"]) or {}
    return (_iso(r["t"]), r["number"], state.bonuses[_bonus_index(state, r["number"])].qid, "bonus",
            seat.get("name") or _team(state, r["team"]), _team(state, r["team"]), seat.get("kind", "team"), "", "",
            "", r["text"] or r["heard"] or "", r["verdict"], False, False, r["points"], r["part"] + 1, r["bounce"])


def _bonus_index(state: MatchState, number: int) -> int:
    """The bonus a question number heard (its last entry that counted)."""
    return next(h["bonus"]["index"] for h in reversed(state.history) if h["number"] == number and h["bonus"])


def _index(frames, seq) -> int:
    return next(f["data"]["index"] for f in frames if f["seq"] == seq)


def _last_ruling_of(q: dict, buzz: dict):
    """The last ruling on this buzz's seat after the buzz (a prompt leaves the buzz open)."""
    later = [r for r in q["rulings"] if r["seat"] == buzz["seat"] and r["seq"] > buzz["seq"] and r["mode"] == "buzz"]
    return later[-1] if later else None


def _team(state: MatchState, team: str) -> str:
    return state.team_name(team)


def _iso(t_ms: int) -> str:
    return datetime.fromtimestamp(t_ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


def boxscore_csv(box: dict) -> str:
    """The box score as tables: one row per answer ruled, then one row per player and bot, then (when
    any was filed) one row per protest."""
    rows = []
    for row in box["rows"]:
        result = "thrown out" if row["thrown_out"] else (row["result"] and "scored") or "dead"
        base = (row["number"], row["qid"], row["tiebreaker"], row["thrown_out"], row["phase"], result, row["answer"])
        if not row["answers"]:
            rows.append(base + ("",) * 13)
        for a in row["answers"]:
            rows.append(base + (a["phase"], a["team"], a["who"], a["kind"], a["text"] or "", _blank(a["word"]),
                                _blank(a["fraction"]), a["verdict"], a["overridden"], a["withdrawn"], a["points"], "", ""))
        rows += _bonus_rows(base[:6], row["bonus"])
    tossups = {p["seat"]: p for p in (box.get("quizbowl") or {}).get("lines", []) if p["kind"] == "player"}
    players = [(p["name"], p["team"], p["kind"], p["buzzes"], p["correct"], p["wrong"], p["negs"], p["prompts"],
                p["points"], _blank(p["mean_position"]),
                *((t["powers"], t["tens"], t["heard"], _blank(t["pptuh"])) if (t := tossups.get(p["seat"])) else ("",) * 4))
               for p in box.get("players", [])]
    out = _csv(rows, BOXSCORE_COLUMNS) + "\n" + _csv(players, PLAYER_COLUMNS)
    if box.get("bonuses"):
        teams = box["bonuses"]["teams"]
        out += "\n" + _csv([(t["team"], t["heard"], t["points"], _rounded(t["ppb"], 2),
                             t["bounceback_points"]) for t in teams], BONUS_COLUMNS)
        out += "\n" + _csv([(t["team"], p["part"], p["heard"], p["right"], _rounded(p["share"], 3))
                             for t in teams for p in t["parts"]], BONUS_PART_COLUMNS)
    protests = [(p["number"], p["team"], p["answer_of"], p["answer"] or "", p["verdict"], p["outcome"], p["now"] or "",
                 p["reason"] or "") for p in box.get("protests", {}).get("rows", [])]
    return out + "\n" + _csv(protests, PROTEST_COLUMNS) if protests else out


def _bonus_rows(question: tuple, bonus: dict | None) -> list[tuple]:
    """A question's bonus in the box score's table, after the question's own cells: per part its answer line
    and the controlling team's result, and a bounced part's result for the other team (phase "bonus", no
    word or typed answer: the gameplay CSV has those)."""
    rows = []
    for p in bonus["parts"] if bonus else []:
        for team, points, bounce in [(bonus["team"], p["controlled"], False)] + (
                [(bonus["other"], p["bounceback"], True)] if p["bounced"] else []):
            rows.append(question + (p["answer"], "bonus", team, team, "team", "", "", "", "accept" if points else "reject",
                                    False, False, points, p["part"], bounce))
    return rows


def _blank(value):
    return "" if value is None else value


def _rounded(value: float | None, digits: int):
    return "" if value is None else round(value, digits)
