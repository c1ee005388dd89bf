"""A finished match as QBJ, the quizbowl world's results format (quizbowl/schema), so tournament
statistics programs can read Exhibition's results; and several matches as one QBJ Tournament.

A match file's root is a bare Match (the schema allows it), with its teams and players defined inside
its match_teams; a tournament file is {"version", "objects"} with one Registration per team, every
match, and the Tournament that puts them in phases and rounds. How Exhibition's formats map onto QBJ
(buzz and team phases, bot seats, corrections, prompts, thrown-out questions) is in
docs/after-the-match.md ("QBJ").

Read from the folded log (game.archive.replay.Replay) and the spectator's frames, as the box score is, so the
file holds what the hall saw: who answered, at which word, for how many points, as the match stands
after every correction. No answer text, guess or question text is written.
"""
from __future__ import annotations

from game.archive.boxscore import box_score
from game.engine.api import MatchState, phase_has, possessive
from game.archive.replay import Replay, load_log, timeline

QBJ_VERSION = "2.1.1"  # the quizbowl/schema package version the files follow
MEDIA_TYPE = "application/vnd.quizbowl.qbj+json"


class Ids:
    """The ids of teams and players, by name: one Team per team name and one Player per name within a
    team, so a team that plays several matches of a tournament is one team there."""

    def __init__(self):
        self.teams: dict[str, dict] = {}  # team name -> Team
        self.players: dict[tuple[str, str], dict] = {}  # (team name, player name) -> Player

    def team(self, name: str) -> dict:
        if name not in self.teams:
            self.teams[name] = {"id": f"team_{len(self.teams) + 1}", "name": name, "players": []}
        return self.teams[name]

    def player(self, team: str, name: str) -> dict:
        key = (team, name)
        if key not in self.players:
            self.players[key] = {"id": f"player_{len(self.players) + 1}", "name": name}
            self.team(team)["players"].append(self.players[key])
        return self.players[key]


def ref(obj: dict) -> dict:
    return {"$ref": obj["id"]}


def answer_values(rules: dict) -> list[int]:
    """Every number of points one answer can earn under these rules, each once, in phase order."""
    values: list[int] = []
    for phase in rules["phases"]:
        for key in ("power_points", "points", "wrong_points", "neg_points"):
            value = phase[key] if phase_has(phase, key) else None
            if value is not None and value not in values:
                values.append(value)
    return values


def answer_types(rules: dict) -> list[dict]:
    """The AnswerTypes of a format, labelled with the phase and what earns them."""
    labels: dict[int, list[str]] = {}
    for number, phase in enumerate(rules["phases"], 1):
        how = "buzz" if phase["mode"] == "buzz" else "team answer"
        for key, what in (("power_points", "power"), ("points", "correct"), ("neg_points", "neg"), ("wrong_points", "wrong")):
            if phase_has(phase, key) and phase[key] is not None:
                labels.setdefault(phase[key], []).append(f"phase {number} {how} {what}")
    return [{"value": value, "label": "; ".join(labels[value])} for value in answer_values(rules)]


def match_qbj(state: MatchState, frames: list[dict], match_id: str, ids: Ids | None = None) -> dict:
    """The Match object of a finished match. Without `ids` the teams and their players are defined
    inside the match (a file of its own); with them they are references to the Ids' teams."""
    inline = ids is None
    ids = ids or Ids()
    words_at = {f["data"]["id"]: f["data"].get("word") for f in frames if f["type"] == "ruling"}
    void = {rid for h in state.history if h["thrown_out"] for rid in h["rulings"]}

    def player_of(seat_id: str | None, team_id: str) -> dict:
        return ids.player(state.team_name(team_id), _answerer(state, seat_id, team_id))

    for seat in state.seats.values():  # every seat is a player of its team, bots of the computer team
        player_of(seat["id"], seat["team"])
    questions, notes = [], []
    for number, entries in _by_number(state.history):
        played = [e for e in entries if not e["thrown_out"]]
        if not played:
            notes.append(f"Question {number} was thrown out and not replaced.")
            continue
        entry = played[-1]
        item = {"question_number": number, "tossup_question": _question(state, entries[0]), "buzzes": []}
        if entries[0] is not entry:
            item["replacement_tossup_question"] = _question(state, entry)
        rulings = [state.rulings[rid] for rid in entry["rulings"] if rid in state.rulings and rid not in void]
        for team_id in sorted(state.team_ids, key=lambda t: min((r["id"] for r in rulings if r["team"] == t), default=0)):
            buzz = _team_buzz(rulings, team_id)
            if buzz is not None:
                ruling, value = buzz
                out = {"team": ref(ids.team(state.team_name(team_id))), "player": ref(player_of(ruling["seat"], team_id)),
                       "result": {"value": value}}
                if ruling["mode"] == "buzz" and words_at.get(ruling["id"]):
                    out["buzz_position"] = {"word_index": words_at[ruling["id"]] - 1}
                item["buzzes"].append(out)
        questions.append(item)
        notes += _phase_notes(state, number, rulings)
    notes += _correction_notes(state)
    heard = _tossups_heard(state, frames)
    match = {"id": match_id, "type": "Match", "tossups_read": len(questions),
             "overtime_tossups_read": sum(1 for e in state.history if e["tiebreaker"] and not e["thrown_out"]),
             "match_teams": [_match_team(state, team, ids, heard, void, inline) for team in state.teams],
             "match_questions": questions}
    if notes:
        match["notes"] = "\n".join(notes)
    return match


def _answerer(state: MatchState, seat_id: str | None, team_id: str) -> str:
    """Who an answer is credited to: its seat; a team answer with no seat, the team's captain (or first
    seat); a team with no seats, the team itself."""
    seat = state.seats.get(seat_id)
    if seat is None:
        seats = [s for s in state.seats.values() if s["team"] == team_id]
        seat = next((s for s in seats if s.get("captain")), seats[0] if seats else None)
    return seat["name"] if seat else f"{state.team_name(team_id)} (team answer)"


def _by_number(history: list[dict]) -> list[tuple[int, list[dict]]]:
    """History entries grouped by question number (a replacement keeps the number it replaces), in order."""
    groups: dict[int, list[dict]] = {}
    for entry in history:
        groups.setdefault(entry["number"], []).append(entry)
    return list(groups.items())


def _question(state: MatchState, entry: dict) -> dict:
    question = state.questions[entry["index"]]
    out = {"question_number": entry["index"] + 1, "type": "tossup", "external_id": question.qid}
    if question.category:
        out["category"] = question.category
    return out


def _team_buzz(rulings: list[dict], team_id: str) -> tuple[dict, int] | None:
    """A team's one buzz on a question (QBJ has at most one per team): its answer that scored, else its
    last answer ruled wrong; worth every point the team's answers on the question earned."""
    mine = [r for r in rulings if r["team"] == team_id and r["verdict"] != "prompt"]
    if not mine:
        return None
    right = [r for r in mine if r["verdict"] == "accept" and not r.get("withdrawn")]
    return (right or mine)[-1], sum(r["points"] for r in mine)


def _phase_notes(state: MatchState, number: int, rulings: list[dict]) -> list[str]:
    """What a single buzz per team cannot say: answers in team phases, more than one answer by a team."""
    ruled = [r for r in rulings if r["verdict"] != "prompt"]
    if len(state.rules["phases"]) == 1 and len({r["team"] for r in ruled}) == len(ruled):
        return []
    parts = []
    for r in ruled:
        who = state.seats.get(r["seat"], {}).get("name") or state.team_name(r["team"])
        parts.append(f"phase {r['phase']} {'buzz' if r['mode'] == 'buzz' else 'team answer'} by {who} "
                     f"({state.team_name(r['team'])}): {r['verdict']}{' (overridden)' if r.get('overridden') else ''} {r['points']:+d}")
    return [f"Question {number}: " + "; ".join(parts)] if parts else []


def _correction_notes(state: MatchState) -> list[str]:
    """The corrections after the final whistle and the points from outside the questions, as the box
    score tells them (a reason the moderator kept private stays out)."""
    box = box_score(state)
    out = [f"Correction: {c['what']}" + (f" ({c['reason']})" if c["reason"] else "") for c in box["corrections"]]
    out += [f"Points outside the questions (score adjustments): {name} {points:+d}."
            for name, points in box["adjustments"].items()]
    # Protests: the ruling, who protested and how it was resolved; the team's own text is theirs, not here.
    out += [f"Protest: question {p['number']}, {p['team']} protested the {p['verdict']} of {possessive(p['answer_of'])} answer: "
            f"{p['outcome']}" + (f" ({p['reason']})" if p["reason"] else "") + "."
            for p in box["protests"]["rows"]]
    return out


def _tossups_heard(state: MatchState, frames: list[dict]) -> dict[str, int]:
    """seat -> questions that counted (not thrown out) which started while the seat was in the match."""
    void = {q["start_seq"] for q in timeline(frames) if q["thrown_out"]}
    present: set[str] = set()
    heard: dict[str, int] = {}
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
                heard[seat] = heard.get(seat, 0) + 1
    return heard


def _match_team(state: MatchState, team: dict, ids: Ids, heard: dict, void: set, inline: bool) -> dict:
    values = answer_values(state.rules)
    seats = [s for s in state.seats.values() if s["team"] == team["id"]]
    counts: dict[str, dict[int, int]] = {}
    for r in state.rulings.values():
        if r["team"] == team["id"] and r["verdict"] != "prompt" and r["id"] not in void:
            per = counts.setdefault(_answerer(state, r["seat"], team["id"]), {})
            per[r["points"]] = per.get(r["points"], 0) + 1
    defined = ids.team(team["name"])
    players = [p for p in defined["players"] if p["name"] in {s["name"] for s in seats} | set(counts)]
    match_players = []
    for p in players:
        per = counts.get(p["name"], {})
        tossups = max((heard.get(s["id"], 0) for s in seats if s["name"] == p["name"]), default=max(heard.values(), default=0))
        match_players.append({"player": ref(p), "tossups_heard": tossups,
                              "answer_counts": [{"answer_type": {"value": v}, "number": per.get(v, 0)}
                                                for v in values + sorted(set(per) - set(values))]})
    return {"team": dict(defined, players=list(defined["players"])) if inline else ref(defined),
            "points": state.scores.get(team["id"], 0),
            "match_players": match_players,
            "lineups": [{"first_question": 1, "reason": "initial", "players": [ref(p) for p in players]}]}


def tournament_qbj(name: str, matches, phases=None) -> dict:
    """A QBJ file of a whole event: one Registration per team, every match, and the Tournament with
    its phases. `matches` are stored Match records; `phases`, when given, names each match's phase
    (one name per match, e.g. "Preliminaries", "Final"); without it every match is in one phase. Each
    match is a round of its phase, named by its title."""
    phases = list(phases) if phases is not None else ["Matches"] * len(matches)
    if len(phases) != len(matches):
        raise ValueError(f"{len(phases)} phase names for {len(matches)} matches; give one per match.")
    ids, objects, rules, sides = Ids(), [], None, 2
    rounds: dict[str, list[dict]] = {}
    for match, phase in zip(matches, phases):
        replay = Replay(load_log(match))
        state = replay.final
        rules = rules or state.rules
        sides = max(sides, len(state.teams))
        objects.append(match_qbj(state, replay.frames("spectator"), f"match_{match.code}", ids))
        rounds.setdefault(phase, []).append({"name": match.title or match.code, "matches": [{"$ref": f"match_{match.code}"}]})
    registrations = [{"id": f"registration_{team['id']}", "type": "Registration", "name": team_name, "teams": [team]}
                     for team_name, team in ids.teams.items()]
    tournament = {"type": "Tournament", "name": name,
                  "registrations": [ref(r) for r in registrations],
                  "phases": [{"name": phase, "rounds": items} for phase, items in rounds.items()]}
    if rules is not None:
        tournament["scoring_rules"] = {"name": rules["label"] or rules["name"], "teams_per_match": sides,
                                       "answer_types": answer_types(rules)}
    return {"version": QBJ_VERSION, "objects": registrations + objects + [tournament]}
