"""A finished match as QBJ, the quizbowl world's results format (quizbowl/schema), so the statistics
programs read Exhibition's results (YellowFruit a tournament and its games, MODAQ a game and a roster);
and several matches as one QBJ Tournament.

A match file's root is a bare Match (the schema allows it) that names its teams and players inline
wherever it mentions them, since its readers match them by name; a tournament file is {"version",
"objects"}: every Match, and the Tournament with its registrations (teams and players defined there,
once, with ids the matches refer to), its phases and numbered rounds, and its scoring rules. What each
reader demands beyond the schema, and how Exhibition's formats map onto QBJ, is in
docs/after-the-match.md ("QBJ").

Read from the folded log (game.archive.replay.Replay) and the spectator's frames, as the box score is, so the
file holds what the hall saw: who answered, at which word, for how many points, as the match stands
after every correction. No answer text, guess or question text is written.
"""
from __future__ import annotations

import math

from game.archive.bonus_stats import BonusCycle, bonus_cycles
from game.archive.boxscore import box_score, tossups_heard
from game.engine.api import MatchState, phase_has, possessive
from game.archive.replay import Replay, load_log

QBJ_VERSION = "2.1.1"  # the quizbowl/schema package version the files follow (the one YellowFruit reads)
MEDIA_TYPE = "application/vnd.quizbowl.qbj+json"
# YellowFruit refuses a whole tournament file whose scoring rules go past these (FileParsing.ts,
# parseScoringRules: ScoringRules.validateMaxRegTuCount, validateMaxPlayerCount).
MOST_REGULATION_TOSSUPS = 100
MOST_PLAYERS_PER_TEAM = 30


class Ids:
    """The teams and players of a file, by name: one Team per team name and one Player per name within
    a team, so a team that plays several matches of a tournament is one team there. In a tournament
    file each is defined once (with an id) and a match refers to it; a match file of its own (`inline`)
    names them where it mentions them and carries no ids."""

    def __init__(self, inline: bool = False):
        self.inline = inline
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

    def team_mention(self, name: str) -> dict:
        return {"name": name} if self.inline else ref(self.team(name))

    def player_mention(self, team: str, name: str) -> dict:
        return {"name": name} if self.inline else ref(self.player(team, name))

    def match_team(self, name: str, players: list[dict]) -> dict:
        """A MatchTeam's `team`: in a match file the team with the players it fielded, by name."""
        if self.inline:
            return {"name": name, "players": [{"name": p["name"]} for p in players]}
        return ref(self.team(name))


def ref(obj: dict) -> dict:
    return {"$ref": obj["id"]}


def answer_types(played: list[dict]) -> list[dict]:
    """The AnswerTypes of the rules the matches were played under, each value once, labelled with the
    phase and what earns it (and the format, when there are several)."""
    several = len({rules["name"] for rules in played}) > 1
    labels: dict[int, list[str]] = {}
    for rules in played:
        for number, phase in enumerate(rules["phases"], 1):
            how = "buzz" if phase["mode"] == "buzz" else "team answer"
            for key, what in (("power_points", "power"), ("points", "correct"), ("neg_points", "neg"), ("wrong_points", "wrong")):
                value = phase[key] if phase_has(phase, key) else None
                if value is None or (key == "neg_points" and value == phase["wrong_points"]):
                    continue  # no such answer here, or a neg no different from a wrong answer
                label = f"{rules['name'] + ' ' if several else ''}phase {number} {how} {what}"
                if label not in labels.setdefault(value, []):
                    labels[value].append(label)
    return [{"value": value, "label": "; ".join(labels[value])} for value in labels]


def match_qbj(state: MatchState, frames: list[dict], match_id: str, ids: Ids | None = None) -> dict:
    """The Match object of a finished match. Without `ids`, a match file of its own (teams and players
    named inline); with them, a match of a tournament file (references to the Ids' teams and players)."""
    ids = ids or Ids(inline=True)
    words_at = {f["data"]["id"]: f["data"].get("word") for f in frames if f["type"] == "ruling"}
    void = {rid for h in state.history if h["thrown_out"] for rid in h["rulings"]}

    def player_of(seat_id: str | None, team_id: str) -> str:
        name = _answerer(state, seat_id, team_id)
        ids.player(state.team_name(team_id), name)
        return name

    for seat in state.seats.values():  # every seat is a player of its team, bots of the computer team
        player_of(seat["id"], seat["team"])
    for team_id in state.team_ids:  # a team with no seat answers as the team (every team has a player)
        if not any(s["team"] == team_id for s in state.seats.values()):
            player_of(None, team_id)
    questions, notes, answered = [], [], []
    bonuses = bonus_cycles(frames)
    for number, entries in _by_number(state.history):
        played = [e for e in entries if not e["thrown_out"]]
        if not played:
            notes.append(f"Question {number} was thrown out and not replaced.")
            continue
        entry = played[-1]
        item = {"question_number": number, "tossup_question": _question(state, entries[0]), "buzzes": []}
        if entries[0] is not entry:
            item["replacement_tossup_question"] = _question(state, entry)
        last_word = max(len(state.questions[entry["index"]].words) - 1, 0)
        rulings = [state.rulings[rid] for rid in entry["rulings"] if rid in state.rulings and rid not in void]
        for team_id in sorted(state.team_ids, key=lambda t: min((r["id"] for r in rulings if r["team"] == t), default=0)):
            buzz = _team_buzz(rulings, team_id)
            if buzz is None:
                continue
            ruling, value = buzz
            team, name = state.team_name(team_id), player_of(ruling["seat"], team_id)
            answered.append((team, name, number, value))
            # Where the answer came: the word on screen at a buzz (0-based); a team answer, or a buzz
            # after the last word, at the last word (the whole question was on screen).
            word = (words_at.get(ruling["id"]) or 1) if ruling["mode"] == "buzz" else last_word + 1
            item["buzzes"].append({"team": ids.team_mention(team), "player": ids.player_mention(team, name),
                                   "buzz_position": {"word_index": min(word - 1, last_word)},
                                   "result": {"value": value}})
        if number in bonuses:
            item["bonus"] = _bonus(state, bonuses[number])
        questions.append(item)
        notes += _phase_notes(state, number, rulings)
    notes += _correction_notes(state)
    tiebreakers = sum(1 for e in state.history if e["tiebreaker"] and not e["thrown_out"])
    if tiebreakers:
        notes.append(f"The last {tiebreakers} of the {len(questions)} questions were tiebreakers.")
    heard = tossups_heard(state, frames)
    # Tiebreakers are in tossups_read but not in overtime_tossups_read: YellowFruit learns which answers
    # came in overtime only from its own fields, outside the schema, so it would count them all in
    # regulation and refuse a match with more answers right than regulation questions (the notes say
    # which questions were tiebreakers).
    match = {"id": match_id, "type": "Match", "tossups_read": len(questions), "carryover_phases": [],
             "match_teams": [_match_team(state, team, ids, heard, answered, bonuses) for team in state.teams],
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
    """A team's one buzz on a question (QBJ has at most one per team, and its readers count one answer
    per team per question): its answer that scored, else its last answer ruled wrong; worth every
    point the team's answers on the question earned."""
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


def _bonus(state: MatchState, cycle: BonusCycle) -> dict:
    """A MatchQuestionBonus: the bonus as the packet numbers it (its place among the match's bonuses, which
    are the packet's in packet order), every part, and a part's bounceback points when the match plays
    bouncebacks (YellowFruit refuses a bounceback format's part without them)."""
    bonus = state.bonuses[cycle.index]
    question = {"question_number": cycle.index + 1, "type": "bonus", "parts": len(cycle.parts),
                "external_id": bonus.qid}
    if bonus.category:
        question["category"] = bonus.category
    parts = []
    for part in cycle.parts:
        parts.append({"controlled_points": part.controlled,
                      **({"bounceback_points": part.bounceback} if state.rules["bounceback"] else {})})
    return {"question": question, "parts": parts}


def _match_team(state: MatchState, team: dict, ids: Ids, heard: dict, answered: list[tuple],
                bonuses: dict[int, BonusCycle]) -> dict:
    """A team's MatchTeam: its score, and per player the questions heard and the team's buzzes
    credited to them counted by value, so the players' points add up to the team's points on the
    questions (and a player has no more answers than questions heard). In a format with bonuses the
    score is given as the readers add it up, the players' tossup points plus `bonus_points` (and
    `bonus_bounceback_points`), as the schema prefers; a team whose score was adjusted outside the
    questions gives its `points` instead of `bonus_points`, so its total stays the box score's (YellowFruit
    then counts the adjustment among its bonus points, and flags a bonus figure it cannot be)."""
    seats = [s for s in state.seats.values() if s["team"] == team["id"]]
    all_heard = set().union(*heard.values()) if heard else set()
    players = ids.team(team["name"])["players"]
    mine = [(name, number, value) for t, name, number, value in answered if t == team["name"]]
    fielded = ({s["name"] for s in seats} or {_answerer(state, None, team["id"])}) | {name for name, _, _ in mine}
    players = [p for p in players if p["name"] in fielded]
    values = [t["value"] for t in answer_types([state.rules])]
    match_players = []
    for p in players:
        own = [s for s in seats if s["name"] == p["name"]]  # none: the team's stand-in, there throughout
        numbers = set().union(*(heard.get(s["id"], set()) for s in own)) if own else set(all_heard)
        counts: dict[int, int] = {}
        for name, number, value in mine:
            if name == p["name"]:
                numbers.add(number)  # an answer on a question the seat joined during: heard too
                counts[value] = counts.get(value, 0) + 1
        match_players.append({"player": ids.player_mention(team["name"], p["name"]), "tossups_heard": len(numbers),
                              "answer_counts": [{"answer_type": {"value": v}, "number": counts.get(v, 0)}
                                                for v in values + sorted(set(counts) - set(values))]})
    points = _bonus_points(state, team, bonuses, mine) if state.rules["bonuses"] else {
        "points": state.scores.get(team["id"], 0)}
    return {"team": ids.match_team(team["name"], players), **points, "match_players": match_players,
            "lineups": [{"first_question": 1, "reason": "initial",
                         "players": [ids.player_mention(team["name"], p["name"]) for p in players]}]}


def _bonus_points(state: MatchState, team: dict, bonuses: dict[int, BonusCycle], mine: list[tuple]) -> dict:
    """A team's bonus fields: its points on the bonuses it controlled and on bouncebacks, and the tossups it
    got right that earned no bonus (a tiebreaker, the packet's bonuses used up, a ruling made right after
    the final whistle), which QBJ leaves out of points per bonus."""
    controlled = [c for c in bonuses.values() if c.team == team["id"]]
    out = {"bonus_points": sum(c.points for c in controlled)}
    if state.rules["bounceback"]:
        out["bonus_bounceback_points"] = sum(c.bounceback_points for c in bonuses.values() if c.other == team["id"])
    score = state.scores.get(team["id"], 0)
    if score != sum(value for _, _, value in mine) + sum(out.values()):  # adjusted outside the questions
        out = {"points": score, **{key: out[key] for key in out if key != "bonus_points"}}
    without = sum(1 for _, _, value in mine if value > 0) - len(controlled)
    return {**out, "correct_tossups_without_bonuses": without} if without > 0 else out


def tournament_qbj(name: str, matches, phases=None, rounds=None) -> dict:
    """A QBJ file of a whole event: every match, and the Tournament with one Registration per team
    (defined there, inline, as the readers of a roster want them), its phases, and its scoring rules.
    `matches` are stored Match records; `phases`, when given, names each match's phase (one name per
    match, e.g. "Preliminaries", "Final"); without it every match is in one phase. `rounds`, when given,
    is each match's (round number, round description): the matches of a round number share one round
    (a tournament's rooms play a round at once). Without it each match is a round of its own, numbered
    through the tournament, its title the round's description. The readers take a round by its number,
    so the numbers must rise through the phases."""
    phases = list(phases) if phases is not None else ["Matches"] * len(matches)
    rounds = list(rounds) if rounds is not None else [(n, m.title or m.code) for n, m in enumerate(matches, 1)]
    if not len(phases) == len(rounds) == len(matches):
        raise ValueError(f"{len(phases)} phase names and {len(rounds)} rounds for {len(matches)} matches; "
                         "give one per match.")
    ids, objects, played, sides, bonuses = Ids(), [], [], 2, []
    by_phase: dict[str, dict[int, dict]] = {}
    for match, phase, (number, description) in zip(matches, phases, rounds):
        replay = Replay(load_log(match))
        played.append(replay.final.rules)
        if replay.final.rules["bonuses"]:
            bonuses += [[part["value"] for part in bonus.parts] for bonus in replay.final.bonuses]
        sides = max(sides, len(replay.final.teams))
        objects.append(match_qbj(replay.final, replay.frames("spectator"), f"match_{match.code}", ids))
        item = by_phase.setdefault(phase, {}).setdefault(number, {"name": str(number), "description": description,
                                                                  "matches": []})
        item["matches"].append({"$ref": f"match_{match.code}"})
    tournament = {"type": "Tournament", "name": name,
                  "registrations": [{"id": f"registration_{team['id']}", "type": "Registration", "name": team_name,
                                     "teams": [team]} for team_name, team in ids.teams.items()],
                  "phases": [{"name": phase, "rounds": list(items.values())} for phase, items in by_phase.items()]}
    if played:
        tournament["scoring_rules"] = scoring_rules(played, sides, objects, bonuses)
    return {"version": QBJ_VERSION, "objects": objects + [tournament]}


def scoring_rules(played: list[dict], sides: int, matches: list[dict], bonuses: list[list[int]] = ()) -> dict:
    """The ScoringRules of the rules the matches were played under: every value an answer could earn;
    the most questions a match was set to as the regulation length, and with its tiebreakers as the
    most a match may read (tiebreakers count as regulation questions, see match_qbj); as many players
    per team as the largest team fielded; these within what YellowFruit reads. With `bonuses` (each bonus
    the matches carried, as its parts' values) the bonus fields: without them the readers take the
    matches for tossups only."""
    names = []
    for rules in played:
        if (rules["label"] or rules["name"]) not in names:
            names.append(rules["label"] or rules["name"])
    fielded = max(len(team["match_players"]) for match in matches for team in match["match_teams"])
    return {"name": " / ".join(names), "teams_per_match": sides,
            "maximum_players_per_team": min(fielded, MOST_PLAYERS_PER_TEAM),
            "regulation_tossup_count": min(max(rules["questions"] for rules in played), MOST_REGULATION_TOSSUPS),
            "maximum_regulation_tossup_count": min(max(rules["questions"] + rules["tiebreakers"] for rules in played),
                                                   MOST_REGULATION_TOSSUPS),
            "answer_types": answer_types(played), **bonus_rules(played, bonuses)}


def bonus_rules(played: list[dict], bonuses: list[list[int]]) -> dict:
    """ScoringRules' bonus fields for bonuses of these part values: the most a bonus can score, the fewest and
    most parts, the divisor of every score, points per part when every part is worth the same (YellowFruit
    refuses one that does not make the most a bonus scores), and whether bonuses bounce back."""
    if not bonuses:
        return {}
    values = [value for parts in bonuses for value in parts]
    out = {"maximum_bonus_score": max(sum(parts) for parts in bonuses),
           "minimum_parts_per_bonus": min(len(parts) for parts in bonuses),
           "maximum_parts_per_bonus": max(len(parts) for parts in bonuses),
           "bonus_divisor": math.gcd(*values),
           "bonuses_bounce_back": any(rules["bounceback"] for rules in played)}
    if len(set(values)) == 1 and values[0] * out["maximum_parts_per_bonus"] == out["maximum_bonus_score"]:
        out["points_per_bonus_part"] = values[0]
    return out
