"""Every figure of the event report, computed from exported match logs; plain Python, no Django.

An event is a list of matches (each team's preliminary against the computer, then the final); the
report reads each match's event log (the JSONL `export_match` writes: a header line, then one event a
line) through the engine's fold, so a figure counts exactly what the match counted: a ruling that
was undone, a question thrown out, a ruling overridden after the whistle are all as the match left
them. `event_figures(logs)` returns one plain dict (JSON-ready); the report page, the self-contained
HTML file and `manage.py event_report` all show that dict and nothing else.

The figures (docs/report.md says the same, with an example):

- points by phase (EfficientQA report, Table 9): rows are phases, columns the humans and each bot
  tier; a cell is the sum of the points of every final ruling (not a prompt) in that phase of a
  question that counted (not thrown out), credited to the humans when the ruled team is human and
  to the tier of the bot seat that answered otherwise. A wrong answer's penalty counts (negative).
  Score adjustments belong to no phase and are counted apart.
- average margin per question by phase (Table 10): per match, (human points - computer points) in
  the phase divided by the questions the match played (every question, tiebreakers included: each
  starts in phase 1), so a match's phase margins plus its adjustments per question add up to its
  average margin per question, the leaderboard's figure. The "all matches" row pools the points and
  the questions of every match.
- accuracy by phase, humans vs computer (Figure 3): accepted rulings / final rulings (accept or
  reject; prompts are not final, withdrawn rulings are not counted) of each side in the phase.
- per bot (seat name and tier, pooled over the matches): its guess trail is every `bot_guess` it
  made on a question (one per word it was asked on). A guess is right when it equals the answer or
  an accepted alternative after SQuAD normalisation (bots.text.exact_match): the automatic reading,
  not the moderator's. Accuracy at the start: the guess of the first point of each trail (the fewest
  words the bot was asked on); at the end: the guess at the point where the whole question was
  revealed, over the trails that reach it (a question a human answered early has no end point).
  Its buzz: the first point of its trail in a buzz phase that says buzz with a guess.
- EW, expected wins against these humans (QANTA): for each question the bot played in a buzz phase,
  h(q) is where the humans first buzzed right on it (words revealed / words of the question), or
  never. H is the distribution of h over every question of these matches. When the bot's buzz on q
  is right at position x, it wins that question with probability P(H > x) + P(H = x) / 2 (never
  counts as greater than any x); a wrong buzz or no buzz wins 0. EW is the mean over the bot's
  questions: the share of them it would have won against a human drawn from this event's humans.
  "EW (QANTA curve)" replaces P(H > x) by QANTA's fitted curve of human buzzes (`qanta_curve`).
- buzz positions: a histogram in tenths of the question of each bot's buzz (right / wrong) and of
  every human buzz that was ruled (right / wrong).
- bonuses (a format with bonuses): per team of each match, the bonuses it heard, its points on them,
  points per bonus, its bounceback points and each part's conversion, as the box score counts them
  (game.archive.bonus_stats); "All human teams" and "All computer teams" pool them. The margins gain
  a "Bonuses" column, (human - computer) bonus and bounceback points / questions, so a match's row
  still adds up to its average margin.
- players (tossup formats): per player (by team and name, pooled over the matches) powers, tens,
  negs, tossup points, tossups heard and tossup points per tossup heard, as the box score counts them.
- each bot beside and against the humans: buzz frequency, precision and position, expected score
  against the human buzzes on the record, its team's wins and GRACE's CalScore (game.report.human_ai,
  whose FIGURES define them).
"""
from __future__ import annotations

import math
from collections import defaultdict

from bots.text import exact_match
from game.archive.bonus_stats import bonus_cycles, bonus_lines, part_conversion
from game.archive.boxscore import powers_tens_negs, tossups_heard
from game.engine.api import apply_in_place, clean_answer, EVENT_TYPES
from game.report.bot_buzz import first_buzz, in_buzz_phase, ratio
from game.report.human_ai import human_ai_figures

HUMANS = "humans"
BINS = 10  # tenths of the question


def qanta_curve(x: float) -> float:
    """QANTA's fitted chance that a buzz at fraction x of the question beats the human players."""
    return 0.99308 + 0.07754 * x - 1.27822 * x**2 + 0.58798 * x**3


def bin_of(x: float) -> int:
    """The tenth of the question a position falls in: (0, 0.1] is 0, ..., (0.9, 1] is 9."""
    return min(BINS - 1, max(0, math.ceil(x * BINS) - 1))


# -- one match: the fold, plus what the fold does not keep (each bot's trail, each ruling's word) ---

def read_match(header: dict, events: list[dict]) -> dict:
    """What the report needs of one match: its questions that counted and every ruling, guess and
    buzz on them, read by folding the log with the engine."""
    state, trails, ruling_word, adjustments = None, defaultdict(list), {}, defaultdict(int)
    for event in events:
        if event["type"] not in EVENT_TYPES:
            continue  # a type from a newer installation: nothing this report counts
        state = apply_in_place(state, event)
        data = event.get("data") or {}
        if event["type"] == "bot_guess" and state.q is not None:
            trails[(state.q.index, data["seat"])].append(
                {"word": data.get("word") or 0, "guess": data.get("guess") or "", "buzz": bool(data.get("buzz")),
                 "confidence": data.get("confidence"), "mode": state.q.mode})
        elif event["type"] == "ruling":
            ruling_word[data["id"]] = data.get("word")
        elif event["type"] == "score_adjusted":
            for team, points in (data.get("score_changes") or {}).items():
                adjustments[team] += points
    if state is None:
        raise ValueError("The log has no events; a match log starts with match_created.")
    side = {t["id"]: state.team_kind(t["id"]) for t in state.teams}
    questions = []
    for entry in state.history:
        if entry["thrown_out"]:
            continue
        question = state.questions[entry["index"]]
        answers = [question.answer, clean_answer(question.answer), *question.accepted]
        rulings = []
        for rid in entry["rulings"]:
            r = state.rulings.get(rid)
            if r is None or r["verdict"] == "prompt" or r.get("withdrawn"):
                continue
            rulings.append({"phase": r["phase"], "mode": r["mode"], "side": side.get(r["team"], HUMANS),
                            "tier": _tier(state.seats.get(r["seat"])) if side.get(r["team"]) == "computer" else None,
                            "right": r["verdict"] == "accept", "points": r["points"], "word": ruling_word.get(rid),
                            "seat": r["seat"], "team": r["team"]})
        bots = {}
        for (index, seat), trail in trails.items():
            if index == entry["index"] and seat in state.seats:
                bots[seat] = [dict(p, right=bool(p["guess"]) and exact_match(p["guess"], answers)) for p in trail]
        questions.append({"number": entry["number"], "tiebreaker": entry["tiebreaker"],
                          "words": len(question.words), "rulings": rulings, "bots": bots})
    humans = [t["name"] for t in state.teams if side[t["id"]] == "human"]
    known = [e for e in events if e["type"] in EVENT_TYPES]
    return {
        "bonuses": _bonus_teams(state, known, side) if state.rules["bonuses"] else [],
        "players": [dict(line, side=next(side[t["id"]] for t in state.teams if t["name"] == line["team"]))
                    for line in powers_tens_negs(state, state.history, tossups_heard(state, known))["lines"]
                    if line["kind"] == "player"] if state.rules["question_kind"] == "tossup" else [],
        "code": header.get("code", ""), "title": header.get("title", ""), "humans": humans,
        "phases": [dict(p, number=i + 1) for i, p in enumerate(state.rules["phases"])],
        "seats": {sid: {"name": s.get("name", sid), "tier": _tier(s), "kind": s.get("kind"), "team": s.get("team")}
                  for sid, s in state.seats.items()},
        "finished": state.status == "finished", "winner": state.winner,
        "questions": questions,
        "adjustments": {kind: sum(p for team, p in adjustments.items() if side.get(team) == kind)
                        for kind in ("human", "computer")},
        "scores": {kind: sum(p for team, p in state.scores.items() if side.get(team) == kind)
                   for kind in ("human", "computer")},
    }


def _bonus_teams(state, events: list[dict], side: dict) -> list[dict]:
    """Per team of the match: its side, bonuses heard, bonus points, bounceback points and each part's
    [heard, right]."""
    lines, cycles = bonus_lines(events), bonus_cycles(events)
    out = []
    for team in state.teams:
        line = lines.get(team["id"])
        out.append({"team": team["name"], "side": side[team["id"]], "heard": line.heard if line else 0,
                    "points": line.points if line else 0, "bounceback": line.bounceback_points if line else 0,
                    "parts": [[p["heard"], p["right"]] for p in part_conversion(cycles, team["id"])]})
    return out


def _tier(seat: dict | None) -> str:
    """A seat's tier; a computer seat with none (a practice bot) is counted as "computer"."""
    return (seat or {}).get("tier") or "computer"


# -- the figures over every match -----------------------------------------------------------------

def event_figures(logs: list[tuple[dict, list[dict]]]) -> dict:
    """The report's figures for these matches. `logs` holds, per match, its header's "match" object
    (code, title; may be {}) and its events in seq order, as `export_match` writes them."""
    matches = [read_match(header, events) for header, events in logs]
    phases = max((m["phases"] for m in matches), key=len, default=[])
    tiers = _tiers(matches)
    first_right = _human_first_right(matches)
    return {
        "matches": [{"code": m["code"], "title": m["title"], "humans": m["humans"],
                     "questions": len(m["questions"]), "tiebreakers": sum(q["tiebreaker"] for q in m["questions"]),
                     "scores": m["scores"]} for m in matches],
        "phases": [{"number": p["number"], "mode": p["mode"], "points": p["points"], "tier": p["bot_tier"]}
                   for p in phases],
        "tiers": tiers,
        "points": points_by_phase(matches, phases, tiers),
        "margins": margins_by_phase(matches, phases),
        "accuracy": accuracy_by_phase(matches, phases),
        "bots": bot_figures(matches, first_right),
        "human_ai": human_ai_figures(matches),
        "human_buzzes": human_buzz_histogram(matches),
        "bonuses": bonus_figures(matches),
        "players": player_figures(matches),
    }


def _tiers(matches: list[dict]) -> list[str]:
    """Bot tiers in the order the phases name them, then any other tier a bot sat in."""
    order = [p["bot_tier"] for m in matches for p in m["phases"]]
    order += [s["tier"] for m in matches for s in m["seats"].values() if s["kind"] == "bot"]
    return list(dict.fromkeys(t for t in order if t))


def _rulings(matches: list[dict]):
    for m in matches:
        for q in m["questions"]:
            yield from q["rulings"]


def points_by_phase(matches: list[dict], phases: list[dict], tiers: list[str]) -> list[dict]:
    """Table 9: per phase, the points the humans and each bot tier won in it."""
    rows = {p["number"]: {"phase": p["number"], HUMANS: 0, **{t: 0 for t in tiers}} for p in phases}
    for r in _rulings(matches):
        row = rows.setdefault(r["phase"], {"phase": r["phase"], HUMANS: 0, **{t: 0 for t in tiers}})
        column = HUMANS if r["side"] == "human" else r["tier"]
        row[column] = row.get(column, 0) + r["points"]
    return [rows[n] for n in sorted(rows)]


def _margin_row(label: str, code: str, group: list[dict], phases: list[dict]) -> dict:
    played = sum(len(m["questions"]) for m in group)
    by_phase = defaultdict(int)
    for r in _rulings(group):
        by_phase[r["phase"]] += r["points"] if r["side"] == "human" else -r["points"]
    adjusted = sum(m["adjustments"]["human"] - m["adjustments"]["computer"] for m in group)
    bonuses = sum((t["points"] + t["bounceback"]) * (1 if t["side"] == "human" else -1)
                  for m in group for t in m["bonuses"])
    total = sum(by_phase.values()) + bonuses + adjusted
    return {"label": label, "code": code, "questions": played,
            "phases": {p["number"]: ratio(by_phase[p["number"]], played) for p in phases},
            "bonuses": ratio(bonuses, played), "adjustments": ratio(adjusted, played), "margin": total,
            "average": ratio(total, played)}


def margins_by_phase(matches: list[dict], phases: list[dict]) -> list[dict]:
    """Table 10: per match and for all of them, the average margin per question in each phase."""
    rows = [_margin_row(", ".join(m["humans"]) or m["title"], m["code"], [m], phases) for m in matches]
    if len(matches) > 1:
        rows.append(_margin_row("All matches", "", matches, phases))
    return rows


def accuracy_by_phase(matches: list[dict], phases: list[dict]) -> list[dict]:
    """Figure 3: per phase, the share of each side's final rulings that accepted its answer."""
    counts = {p["number"]: {"human": [0, 0], "computer": [0, 0]} for p in phases}
    for r in _rulings(matches):
        tally = counts.setdefault(r["phase"], {"human": [0, 0], "computer": [0, 0]})[r["side"]]
        tally[0] += r["right"]
        tally[1] += 1
    return [{"phase": n, **{side: {"right": c[0], "answers": c[1], "accuracy": ratio(c[0], c[1])}
                           for side, c in counts[n].items()}} for n in sorted(counts)]


def _human_first_right(matches: list[dict]) -> list[float | None]:
    """h(q) for every question: the position of the humans' first right buzz, or None (never)."""
    out = []
    for m in matches:
        for q in m["questions"]:
            right = [r["word"] / q["words"] for r in q["rulings"]
                     if r["side"] == "human" and r["mode"] == "buzz" and r["right"] and r["word"] and q["words"]]
            out.append(min(right) if right else None)
    return out


def win_chance(x: float, human_positions: list[float | None]) -> float:
    """P(H > x) + P(H = x) / 2 over the humans' first right buzzes (None: never, so later than x)."""
    if not human_positions:
        return 0.0
    later = sum(1 for h in human_positions if h is None or h > x)
    tied = sum(1 for h in human_positions if h is not None and h == x)
    return (later + tied / 2) / len(human_positions)


def _empty_histogram() -> dict:
    return {"right": [0] * BINS, "wrong": [0] * BINS}


def bot_figures(matches: list[dict], human_positions: list[float | None]) -> list[dict]:
    """Per bot: accuracy at the start and end of the question, its buzzes, EW and its histogram."""
    per_bot: dict = {}
    for m in matches:
        for q in m["questions"]:
            for seat, trail in q["bots"].items():
                info = m["seats"][seat]
                b = per_bot.setdefault((info["name"], info["tier"]), {
                    "name": info["name"], "tier": info["tier"], "questions": 0, "start_right": 0,
                    "end_questions": 0, "end_right": 0, "buzz_questions": 0, "buzzes": 0, "buzz_right": 0,
                    "wins": 0.0, "curve_wins": 0.0, "histogram": _empty_histogram()})
                b["questions"] += 1
                b["start_right"] += trail[0]["right"]
                end = [p for p in trail if p["word"] >= q["words"]]
                if end:
                    b["end_questions"] += 1
                    b["end_right"] += end[-1]["right"]
                if not in_buzz_phase(trail, q):
                    continue
                b["buzz_questions"] += 1
                buzz = first_buzz(trail)
                if buzz is None:
                    continue
                x = min(1.0, buzz["word"] / q["words"])
                b["buzzes"] += 1
                b["histogram"]["right" if buzz["right"] else "wrong"][bin_of(x)] += 1
                if buzz["right"]:
                    b["buzz_right"] += 1
                    b["wins"] += win_chance(x, human_positions)
                    b["curve_wins"] += qanta_curve(x)
    out = []
    for b in per_bot.values():
        out.append({
            "name": b["name"], "tier": b["tier"], "questions": b["questions"],
            "start_accuracy": ratio(b["start_right"], b["questions"]),
            "end_questions": b["end_questions"], "end_accuracy": ratio(b["end_right"], b["end_questions"]),
            "buzz_questions": b["buzz_questions"], "buzzes": b["buzzes"],
            "buzz_precision": ratio(b["buzz_right"], b["buzzes"]),
            "expected_wins": ratio(b["wins"], b["buzz_questions"]),
            "expected_wins_curve": ratio(b["curve_wins"], b["buzz_questions"]),
            "histogram": b["histogram"]})
    return out


def human_buzz_histogram(matches: list[dict]) -> dict:
    """Every ruled human buzz, right or wrong, by the tenth of the question it came in."""
    histogram = _empty_histogram()
    for m in matches:
        for q in m["questions"]:
            for r in q["rulings"]:
                if r["side"] == "human" and r["mode"] == "buzz" and r["word"] and q["words"]:
                    histogram["right" if r["right"] else "wrong"][bin_of(min(1.0, r["word"] / q["words"]))] += 1
    return histogram


def _bonus_row(label: str, code: str, teams: list[dict]) -> dict:
    heard = sum(t["heard"] for t in teams)
    points = sum(t["points"] for t in teams)
    most = max((len(t["parts"]) for t in teams), default=0)
    parts = [[sum(t["parts"][k][i] for t in teams if k < len(t["parts"])) for i in (0, 1)] for k in range(most)]
    return {"label": label, "code": code, "heard": heard, "points": points, "ppb": ratio(points, heard),
            "bounceback": sum(t["bounceback"] for t in teams),
            "parts": [{"part": k + 1, "heard": h, "right": r, "share": ratio(r, h)} for k, (h, r) in enumerate(parts)]}


def bonus_figures(matches: list[dict]) -> list[dict]:
    """Per team of each match with bonuses: bonuses heard, points, PPB, bounceback points and each part's
    conversion; with more than one match, a row pooling the human teams and one pooling the computer's."""
    rows = [_bonus_row(t["team"], m["code"], [t]) for m in matches for t in m["bonuses"]]
    if len([m for m in matches if m["bonuses"]]) > 1:
        for kind, label in (("human", "All human teams"), ("computer", "All computer teams")):
            rows.append(_bonus_row(label, "", [t for m in matches for t in m["bonuses"] if t["side"] == kind]))
    return rows


def player_figures(matches: list[dict]) -> list[dict]:
    """Per player of the tossup matches, by team and name over the matches: powers, tens, negs, tossup
    points, tossups heard and tossup points per tossup heard."""
    pooled: dict = {}
    for m in matches:
        for line in m["players"]:
            p = pooled.setdefault((line["team"], line["name"]), {
                "name": line["name"], "team": line["team"], "side": line["side"], "matches": 0, "powers": 0,
                "tens": 0, "negs": 0, "points": 0, "heard": 0})
            p["matches"] += 1
            for key in ("powers", "tens", "negs", "points", "heard"):
                p[key] += line[key]
    return [dict(p, pptuh=ratio(p["points"], p["heard"])) for p in pooled.values()]
