"""The box score of a match: per question the phase it ended in, who answered what at which word, the
rulings and the points, then the final score; and the statistics people ask for afterwards: per player
and per bot (buzzes, correct, wrong, negs, prompts, mean buzz position), the EfficientQA margin per
question and phase, and the quizbowl power/ten/neg line with each player's tossups heard and points per
tossup heard; in a format with bonuses, each question's bonus part by part and per team the bonuses heard,
bonus points, points per bonus, bounceback points and each part's conversion (game.archive.bonus_stats). A change of score after the final whistle is
listed as a correction, beside the score as it was called at the whistle.

Derived from the folded event log, never stored. Statistics read only frames the spectator screen
received (buzzes and rulings), so a public box score holds nothing the hall did not see.
"""
from __future__ import annotations

from game.engine.api import MatchState, clean_answer, possessive, private_reason
from game.archive.bonus_stats import BonusCycle, bonus_cycles, bonus_lines, part_conversion
from game.archive.protest_summary import protest_summary


def box_score(state: MatchState, frames: list[dict] | None = None) -> dict:
    """The box score; with `frames` (the spectator's frames of the log) also the word of each answer
    and the statistics."""
    seats = state.seats
    words_at = _ruling_words(frames or [])
    cycles = bonus_cycles(frames or [])
    corrected = {c["ruling"] for c in state.corrections if c["kind"] == "override"}
    rows = []
    for entry in state.history:
        rulings = [state.rulings[rid] for rid in entry["rulings"] if rid in state.rulings]
        length = len(state.questions[entry["index"]].words)
        rows.append({
            "number": entry["number"],
            "qid": entry["qid"],
            "tiebreaker": entry["tiebreaker"],
            "thrown_out": entry["thrown_out"],
            "reason": private_reason(entry).get("reason", ""),  # the moderator's note stays theirs unless made public
            # the phase it ended in: an override to correct ends it where that answer was given
            "phase": entry["result"]["phase"] if entry["result"] else entry["phase"],
            "answer": state.questions[entry["index"]].answer,
            "result": entry["result"],
            "words": length,
            "answers": [
                {
                    "team": state.team_name(r["team"]),
                    "who": seats.get(r["seat"], {}).get("name") or state.team_name(r["team"]),
                    "kind": seats.get(r["seat"], {}).get("kind", "team"),
                    "simulated": bool(seats.get(r["seat"], {}).get("simulated")),
                    "text": r["text"],
                    "verdict": r["verdict"],
                    "overridden": bool(r.get("overridden")),
                    "corrected": r["id"] in corrected,  # overridden after the final whistle
                    "withdrawn": bool(r.get("withdrawn")),
                    "by": r["by"],
                    "reason": private_reason(r).get("reason"),
                    "phase": r["phase"],
                    "points": r["points"],
                    "word": words_at.get(r["id"]),
                    "fraction": _fraction(words_at.get(r["id"]), length),
                }
                for r in rulings
            ],
            "points": {state.team_name(t): p for t, p in entry["score_changes"].items() if p},
            "phase_points": _phase_points(state, rulings) if not entry["thrown_out"] else {},
            "bonus": _bonus_row(state, cycles[entry["number"]]) if entry["number"] in cycles and not entry["thrown_out"]
            else None,
        })
    box = {
        "teams": [t["name"] for t in state.teams],
        "phases": len(state.rules["phases"]),
        "rows": rows,
        "scores": {state.team_name(t): p for t, p in state.scores.items()},
        "winner": state.team_name(state.winner) if state.winner else None,
        "adjustments": _adjustments(state, rows),
        "corrections": corrections(state),
        "called_scores": _called_scores(state),
        "protests": protest_summary(state),
    }
    if frames is not None:
        box["players"] = player_stats(state, frames, rows)
        box["margins"] = margins(box)
        box["quizbowl"] = powers_tens_negs(state, rows, tossups_heard(state, frames)) \
            if state.rules["question_kind"] == "tossup" else None
        box["bonuses"] = bonus_figures(state, frames, cycles) if state.rules["bonuses"] else None
    return box


def _bonus_row(state: MatchState, cycle: BonusCycle) -> dict:
    """A question's bonus in the box score: who controlled it, and per part its value, the controlling
    team's points, whether it bounced, the other team's points on it and its answer (clean, as the hall saw it)."""
    other = state.team_name(cycle.other) if cycle.other else None
    return {"team": state.team_name(cycle.team), "other": other, "points": cycle.points,
            "bounceback_points": cycle.bounceback_points,
            "parts": [{"part": k + 1, "value": p.value, "controlled": p.controlled, "bounced": p.bounced,
                       "bounceback": p.bounceback, "answer": clean_answer(state.bonuses[cycle.index].parts[k]["answer"])}
                      for k, p in enumerate(cycle.parts)]}


def bonus_figures(state: MatchState, frames: list[dict], cycles: dict[int, BonusCycle]) -> dict:
    """Per team: bonuses heard (controlled), bonus points, points per bonus, bounceback points, and each
    part's conversion (part 1, 2, 3 … right of heard); `parts` is the most parts a bonus had."""
    lines = bonus_lines(frames)
    most = max((len(c.parts) for c in cycles.values()), default=0)
    teams = []
    for team in state.teams:
        line = lines.get(team["id"])
        parts = part_conversion(cycles, team["id"])
        parts += [{"part": k + 1, "heard": 0, "right": 0, "share": None} for k in range(len(parts), most)]
        teams.append({"team": team["name"], "heard": line.heard if line else 0, "points": line.points if line else 0,
                      "ppb": line.ppb if line else None, "bounceback_points": line.bounceback_points if line else 0,
                      "parts": parts})
    return {"teams": teams, "parts": most, "bounceback": bool(state.rules["bounceback"])}


def corrections(state: MatchState) -> list[dict]:
    """The changes of score after the final whistle, in order, as the hall may read them (a reason
    the moderator kept private stays out): what changed, the points it moved, the reason."""
    out = []
    for c in state.corrections:
        if c["kind"] == "override":
            ruling = state.rulings.get(c["ruling"], {})
            who = state.seats.get(ruling.get("seat"), {}).get("name") or state.team_name(c["team"])
            what = f"Q{c['number']}: {possessive(who)} answer overridden to {c['verdict']}"
        else:
            what = f"{state.team_name(c['team'])} adjusted by {c['points']:+d}"
        out.append({"seq": c["seq"], "kind": c["kind"], "what": what, "reason": private_reason(c).get("reason"),
                    "changes": {state.team_name(t): p for t, p in c["score_changes"].items() if p}})
    return out


def _called_scores(state: MatchState) -> dict | None:
    """The scores as called at the final whistle, before any correction (None when nothing was corrected)."""
    if not state.corrections:
        return None
    called = dict(state.scores)
    for c in state.corrections:
        for team, points in c["score_changes"].items():
            called[team] = called.get(team, 0) - points
    return {state.team_name(t): p for t, p in called.items()}


def _ruling_words(frames: list[dict]) -> dict:
    return {f["data"]["id"]: f["data"].get("word") for f in frames if f["type"] == "ruling"}


def _fraction(word, length: int):
    return round(word / length, 3) if word is not None and length else None


def _phase_points(state: MatchState, rulings: list[dict]) -> dict:
    """phase -> team name -> points earned in that phase of this question."""
    out: dict = {}
    for r in rulings:
        if r["points"]:
            per = out.setdefault(r["phase"], {})
            per[state.team_name(r["team"])] = per.get(state.team_name(r["team"]), 0) + r["points"]
    return out


def _adjustments(state: MatchState, rows: list[dict]) -> dict:
    """Points from outside the questions (score adjustments): the final score minus the questions."""
    from_questions = {name: 0 for name in (t["name"] for t in state.teams)}
    for row in rows:
        for name, points in row["points"].items():
            from_questions[name] = from_questions.get(name, 0) + points
    scores = {state.team_name(t): p for t, p in state.scores.items()}
    return {name: scores.get(name, 0) - pts for name, pts in from_questions.items() if scores.get(name, 0) != pts}


def player_stats(state: MatchState, frames: list[dict], rows: list[dict]) -> list[dict]:
    """Per player and per bot: buzzes, correct, wrong, negs, prompts, points and the mean buzz position
    (the fraction of the question read when they buzzed). Only rulings that stand count: not those of a
    thrown-out question, nor one withdrawn because an earlier answer was ruled right after it."""
    stats = {sid: {"seat": sid, "name": s.get("name", sid), "team": state.team_name(s.get("team")),
                   "kind": s.get("kind", "human"), "simulated": bool(s.get("simulated")), "buzzes": 0, "correct": 0,
                   "wrong": 0, "negs": 0, "prompts": 0, "points": 0, "positions": []}
             for sid, s in state.seats.items()}
    played, current = [], None  # one entry per question put in play, replacements included
    for frame in frames:
        d = frame.get("data") or {}
        if frame["type"] == "question_started":
            current = {"length": len(state.questions[d["index"]].words), "buzzes": [], "void": False}
            played.append(current)
        elif frame["type"] == "question_thrown_out" and current is not None:
            current["void"] = True
        elif frame["type"] == "buzz" and current is not None:
            current["buzzes"].append((d["seat"], d["word"]))
    for question in played:
        for seat, word in [] if question["void"] else question["buzzes"]:
            if seat in stats:
                stats[seat]["buzzes"] += 1
                stats[seat]["positions"].append(word / question["length"] if question["length"] else 0)
    void_rulings = {rid for h in state.history if h["thrown_out"] for rid in h["rulings"]}
    for r in state.rulings.values():
        if r["seat"] not in stats or r["id"] in void_rulings or r.get("withdrawn"):
            continue
        s = stats[r["seat"]]
        s["points"] += r["points"]
        if r["verdict"] == "accept":
            s["correct"] += 1
        elif r["verdict"] == "prompt":
            s["prompts"] += 1
        else:
            s["wrong"] += 1
            s["negs"] += 1 if r["points"] < 0 else 0
    out = []
    for s in stats.values():
        positions = s.pop("positions")
        s["mean_position"] = round(sum(positions) / len(positions), 3) if positions else None
        out.append(s)
    return out


def tossups_heard(state: MatchState, frames: list[dict]) -> dict[str, set[int]]:
    """seat -> numbers of the questions that counted (not thrown out) which started while the seat was
    in the match."""
    void, started = set(), None  # the question_started seqs of the questions thrown out
    for frame in frames:
        if frame["type"] == "question_started":
            started = frame["seq"]
        elif frame["type"] == "question_thrown_out":
            void.add(started)
    present: set[str] = set()
    heard: dict[str, set[int]] = {}
    for frame in frames:
        d = frame.get("data") or {}
        if frame["type"] == "match_created":
            present = {s["id"] for s in d.get("seats", [])}
        elif frame["type"] == "seat_joined":
            present.add(d["seat"]["id"])
        elif frame["type"] == "seat_left":
            present.discard(d.get("seat"))
        elif frame["type"] == "question_started" and frame["seq"] not in void:
            for seat in present:
                heard.setdefault(seat, set()).add(d["number"])
    return heard


def margins(box: dict) -> list[dict]:
    """The EfficientQA organisers' table: for each question, the first team's points minus the second
    team's in each phase, and the running margin after the question. Only for two-team matches."""
    if len(box["teams"]) != 2:
        return []
    first, second = box["teams"]
    running, out = 0, []
    for row in box["rows"]:
        if row["thrown_out"]:
            continue
        by_phase = {}
        for phase in range(1, box["phases"] + 1):
            pts = row["phase_points"].get(phase, {})
            by_phase[phase] = pts.get(first, 0) - pts.get(second, 0)
        running += row["points"].get(first, 0) - row["points"].get(second, 0)
        out.append({"number": row["number"], "tiebreaker": row["tiebreaker"], "phase": row["phase"],
                    "by_phase": by_phase, "running": running})
    return out


def powers_tens_negs(state: MatchState, rows: list[dict], heard_by: dict[str, set[int]]) -> dict:
    """The quizbowl line: powers, tens and negs per player (every seat) and team, with the tossups each heard
    (`heard_by`: seat -> the numbers of the questions it heard) and its tossup points per tossup heard."""
    rules = state.rules["phases"][0]
    buzz = rules["mode"] == "buzz"  # a team phase has no power or neg
    power = rules["power_points"] if buzz else None
    heard = sum(1 for row in rows if not row["thrown_out"])
    void_rulings = {rid for h in state.history if h["thrown_out"] for rid in h["rulings"]}
    lines: dict = {("player", sid): {"kind": "player", "seat": sid, "name": s["name"], "team": state.team_name(s["team"]),
                                     "powers": 0, "tens": 0, "negs": 0, "points": 0} for sid, s in state.seats.items()}
    for r in state.rulings.values():
        if r["id"] in void_rulings or r["verdict"] == "prompt":
            continue
        seat = state.seats.get(r["seat"], {})
        for key in (("player", r["seat"], seat.get("name", r["seat"]), state.team_name(r["team"])),
                    ("team", r["team"], state.team_name(r["team"]), state.team_name(r["team"]))):
            line = lines.setdefault(key[:2], {"kind": key[0], "seat": key[1] if key[0] == "player" else None,
                                              "name": key[2], "team": key[3], "powers": 0, "tens": 0, "negs": 0,
                                              "points": 0})
            line["points"] += r["points"]
            if r["verdict"] == "accept":
                line["powers" if power is not None and r["points"] >= power else "tens"] += 1
            elif r["points"] < 0:
                line["negs"] += 1
    for (kind, key), line in lines.items():
        # a seat: the questions it heard; a team, or a team's answer with no seat: every question
        line["heard"] = len(heard_by.get(key, ())) if kind == "player" and key in state.seats else heard
        line["pptuh"] = round(line["points"] / line["heard"], 2) if line["heard"] else None
    ordered = sorted(lines.values(), key=lambda x: (x["kind"] != "team", x["team"], x["name"]))
    return {"heard": heard, "power": power, "ten": rules["points"], "neg": rules["neg_points"] if buzz else None,
            "lines": ordered}


def format_box_score(box: dict) -> str:
    """Plain text for a terminal."""
    lines = []
    for row in box["rows"]:
        label = f"Q{row['number']}" + (" (tiebreaker)" if row["tiebreaker"] else "")
        if row["thrown_out"]:
            lines.append(f"{label}: thrown out" + (f" ({row['reason']})" if row.get("reason") else ""))
            continue
        ended = f"phase {row['phase']}" if row["result"] else f"dead after phase {row['phase']}"
        lines.append(f"{label}: {ended} — answer: {row['answer']}")
        for a in row["answers"]:
            who = a["who"] + (" (simulated)" if a["simulated"] else "")
            said = f'"{a["text"]}"' if a["text"] else "(no answer)"
            how = "" if a["by"] == "moderator" else f" [{a['by']}]"
            at = f" at word {a['word']}/{row['words']}" if a.get("word") is not None else ""
            verdict = a["verdict"] + (" (overridden)" if a.get("overridden") else "") + (
                " (withdrawn: an earlier answer was right)" if a.get("withdrawn") else "")
            lines.append(f"    p{a['phase']} {who} [{a['team']}]{at}: {said} → {verdict}{how} {a['points']:+d}")
        if row["bonus"]:
            lines.append(f"    bonus ({row['bonus']['team']}): " + bonus_parts_text(row["bonus"]))
        if row["points"]:
            lines.append("    points: " + ", ".join(f"{t} {p:+d}" for t, p in row["points"].items()))
    if box.get("adjustments"):
        lines.append("Adjustments: " + ", ".join(f"{t} {p:+d}" for t, p in box["adjustments"].items()))
    if box.get("corrections"):
        lines += ["", "Corrections after the final:"]
        for c in box["corrections"]:
            moved = ", ".join(f"{t} {p:+d}" for t, p in c["changes"].items())
            lines.append(f"    {c['what']}" + (f" ({moved})" if moved else "") + (f": {c['reason']}" if c["reason"] else ""))
        lines.append("As called at the final whistle: " + " — ".join(f"{t} {p}" for t, p in box["called_scores"].items()))
    if box["protests"]["rows"]:
        lines += ["", "Protests:"]
        for p in box["protests"]["rows"]:
            lines.append(f"    Q{p['number']}: {p['team']} protested {possessive(p['answer_of'])} {p['verdict']} — {p['outcome']}"
                         + (f": {p['reason']}" if p["reason"] else ""))
    lines.append("")
    lines.append(("Final score, corrected: " if box.get("corrections") else "Final score: ")
                 + " — ".join(f"{t} {p}" for t, p in box["scores"].items()))
    lines.append(f"Winner: {box['winner']}" if box["winner"] else "Result: a tie")
    if box.get("players"):
        lines += ["", "Players: buzzes, correct, wrong (negs), prompts, points, mean buzz position"]
        for p in box["players"]:
            where = f"{p['mean_position']:.0%}" if p["mean_position"] is not None else "—"
            lines.append(f"    {p['name']} [{p['team']}, {p['kind']}]: {p['buzzes']} buzzes, {p['correct']} correct, "
                         f"{p['wrong']} wrong ({p['negs']} negs), {p['prompts']} prompts, {p['points']:+d} points, "
                         f"buzzed at {where} of the question")
    if box.get("margins") and box["phases"] > 1:
        first, second = box["teams"]
        lines += ["", f"Margin ({first} minus {second}) per question, by phase, and running:"]
        for m in box["margins"]:
            phases = "  ".join(f"p{p} {v:+d}" for p, v in m["by_phase"].items())
            lines.append(f"    Q{m['number']}: {phases}  running {m['running']:+d}")
    if box.get("quizbowl"):
        qb = box["quizbowl"]
        lines += ["", f"Powers/tens/negs ({qb['heard']} tossups heard):"]
        for line in qb["lines"]:
            pptuh = "—" if line["pptuh"] is None else f"{line['pptuh']:.2f}"
            lines.append(f"    {line['name']}{' (team)' if line['kind'] == 'team' else ''}: "
                         f"{line['powers']}/{line['tens']}/{line['negs']}, {line['points']} tossup points, "
                         f"{line['heard']} heard, {pptuh} a tossup heard")
    if box.get("bonuses"):
        lines += ["", "Bonuses: heard, points, points per bonus, bounceback points, parts right"]
        for t in box["bonuses"]["teams"]:
            ppb = "—" if t["ppb"] is None else f"{t['ppb']:.2f}"
            parts = ", ".join(f"part {p['part']} {p['right']}/{p['heard']}" for p in t["parts"]) or "none heard"
            lines.append(f"    {t['team']}: {t['heard']} heard, {t['points']} points, {ppb} PPB, "
                         f"{t['bounceback_points']} on bouncebacks; {parts}")
    return "\n".join(lines)


def bonus_parts_text(bonus: dict) -> str:
    """A question's bonus part by part: "10 / 0 (bounced: Computer 10) / 0 = 10"."""
    parts = []
    for p in bonus["parts"]:
        bounce = f" (bounced: {bonus['other']} {p['bounceback']})" if p["bounced"] else ""
        parts.append(f"{p['controlled']}{bounce}")
    return " / ".join(parts) + f" = {bonus['points']}"
