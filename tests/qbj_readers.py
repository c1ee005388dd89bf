"""What the two statistics programs that read QBJ demand of a file beyond the published schema, one
check per rule, each written from what the reader's own code does (its facts, not its code) and
naming where: YellowFruit (ANadig/YellowFruit, src/renderer/) opening a tournament file, importing its
teams and importing a game; MODAQ (alopezlago/MODAQ, src/qbj/QBJ.ts) reading a game (fromQBJ) and a
roster (parseRegistration). docs/after-the-match.md ("QBJ") says the same for people.

Each check returns the problems it finds in a file (none: that reader takes it). `match_file_problems`
runs the checks of a match file of its own, `tournament_problems` those of a tournament file;
`stats_points` is how YellowFruit's import totals a match and `modaq_points` how MODAQ scores one."""
from __future__ import annotations

import copy

MATCH_FILE, TOURNAMENT, EVERY_MATCH = "match file", "tournament file", "every match"
RULES: dict[str, list] = {MATCH_FILE: [], TOURNAMENT: [], EVERY_MATCH: []}
YF_VERSIONS = ("2.1.1",)  # QbjUtils.ts validQbjVersions


def rule(kind: str, reader: str, where: str):
    def register(check):
        RULES[kind].append((reader, where, check))
        return check
    return register


def _named(obj) -> bool:
    return isinstance(obj, dict) and "$ref" not in obj and isinstance(obj.get("name"), str) and obj["name"].strip() != ""


def _team_name(match_team: dict) -> str:
    return (match_team.get("team") or {}).get("name", "?")


def _counts(match_player: dict) -> list[tuple[int, int]]:
    return [(c["answer_type"]["value"], c["number"]) for c in match_player["answer_counts"]]


def stats_points(match: dict) -> tuple[dict, dict]:
    """YellowFruit's figures for a match (FileParsing.ts parseMatchTeam / parseMatchPlayer; MatchTeam.ts,
    PlayerAnswerCount.ts): a player's points are each answer count's number times its value; a team's,
    its MatchTeam.points as written, or without them (MatchTeam.ts calculateTotalPoints) its players'
    points plus its bonus_points and bonus_bounceback_points. Returns ({team: points}, {(team, player): points})."""
    players = {(_team_name(t), p["player"].get("name")): sum(v * n for v, n in _counts(p))
               for t in match["match_teams"] for p in t["match_players"]}
    teams = {_team_name(t): t["points"] if "points" in t else
             sum(p for (team, _), p in players.items() if team == _team_name(t)) + t.get("bonus_points", 0)
             + t.get("bonus_bounceback_points", 0) for t in match["match_teams"]}
    return teams, players


def stats_bonuses(match: dict) -> dict[str, dict]:
    """YellowFruit's bonus figures for a match (MatchTeam.ts getBonusesHeard, getBonusPoints,
    getPointsPerBonus): bonuses heard are the team's right answers (answer counts of a positive value;
    it reads no correct_tossups_without_bonuses), bonus points its total less its players' points and
    its bounceback points. {team: {"heard", "points", "bounceback_points", "ppb"}}."""
    teams, players = stats_points(match)
    out = {}
    for t in match["match_teams"]:
        name = _team_name(t)
        heard = sum(n for p in t["match_players"] for v, n in _counts(p) if v > 0)
        bounceback = t.get("bonus_bounceback_points", 0)
        points = teams[name] - sum(p for (team, _), p in players.items() if team == name) - bounceback
        out[name] = {"heard": heard, "points": points, "bounceback_points": bounceback,
                     "ppb": points / heard if heard else None}
    return out


def _bonuses(match: dict) -> list[tuple[dict, dict]]:
    """(match question, its bonus) for every question that carries one."""
    return [(q, q["bonus"]) for q in match.get("match_questions") or [] if q.get("bonus")]


def modaq_points(match: dict, words: dict[int, int], power_at: dict[int, int | None]) -> dict[str, int]:
    """How MODAQ scores the game it reads (QBJ.ts fromQBJ keeps only each buzz's position and whether
    it was right; GameState.ts getScoreChangeFromCycle, PacketState.ts Tossup.getPointsAtPosition): a
    right buzz 15 before the power mark, else 10; the first wrong buzz of a question −5 unless it came
    on the last word; any other wrong buzz 0; the question's bonus parts' controlled points to the team
    of the right buzz. `words`/`power_at`: per tossup's question_number, its words and the words before
    its power mark."""
    scores = {_team_name(t): 0 for t in match["match_teams"]}
    for q in match["match_questions"]:
        played = (q.get("replacement_tossup_question") or q["tossup_question"])["question_number"]
        wrong = 0
        for b in q["buzzes"]:
            index = b["buzz_position"]["word_index"]
            if b["result"]["value"] > 0:
                power = power_at[played]
                scores[b["team"].get("name")] += 15 if power is not None and index < power else 10
                # The bonus goes to the right buzz's team, part by part at its controlled points; a part
                # with no controlled points is skipped before its bounceback points are looked at, so
                # bounceback points are never counted (QBJ.ts fromQBJ, the bonus part loop).
                scores[b["team"].get("name")] += sum(part["controlled_points"] for part in (q.get("bonus") or {})
                                                     .get("parts", []))
            else:
                wrong += 1
                if wrong == 1 and index < words[played] - 1:
                    scores[b["team"].get("name")] -= 5
    return scores


def resolved(qbj: dict) -> dict:
    """A tournament file with every reference replaced by the object it names (as YellowFruit's
    QbjUtils2.ts collectRefTargets and QbjUtils.ts getBaseQbjObject do), so every match reads by name."""
    targets: dict[str, dict] = {}

    def collect(value):
        if isinstance(value, dict):
            if "id" in value and "$ref" not in value:
                targets[value["id"]] = value
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    def swap(value):
        if isinstance(value, dict):
            if "$ref" in value:  # a reference nothing defines stays one (dangling)
                return swap(copy.deepcopy(targets[value["$ref"]])) if value["$ref"] in targets else value
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(item) for item in value]
        return value

    collect(qbj)
    return swap(qbj)


def _tournament(qbj: dict) -> dict:
    return next((o for o in qbj.get("objects", []) if o.get("type") == "Tournament"), {})


def tournament_matches(qbj: dict) -> list[dict]:
    """The matches of a tournament file as YellowFruit reads them: in round order, every reference
    resolved (so teams and players carry their names)."""
    return [m for phase in _tournament(resolved(qbj)).get("phases", []) for rnd in phase.get("rounds", [])
            for m in rnd.get("matches", [])] if "objects" in qbj else []


# --- A match file of its own: YellowFruit's game import and MODAQ's fromQBJ --------------------------

@rule(MATCH_FILE, "YellowFruit and MODAQ", "FileParsing.ts parseMatchMatchTeams; QBJ.ts fromQBJ")
def two_teams(match, words):
    teams = match.get("match_teams") or []
    return [] if len(teams) == 2 else [f"{len(teams)} match teams; both read exactly two"]


@rule(MATCH_FILE, "YellowFruit", "FileParsing.ts resolveTeamIdentity (importing a game)")
def teams_named_inline(match, words):
    return [f"match team {i + 1}'s team is not named inline (\"Couldn't resolve reference to team\")"
            for i, t in enumerate(match["match_teams"]) if not _named(t.get("team"))]


@rule(MATCH_FILE, "YellowFruit", "FileParsing.ts resolvePlayerIdentity (importing a game)")
def players_named_inline(match, words):
    return [f"a match player of {_team_name(t)} is not named inline (\"Couldn't resolve reference to player\")"
            for t in match["match_teams"] for p in t.get("match_players", []) if not _named(p.get("player"))]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (team names)")
def distinct_team_names(match, words):
    names = [_team_name(t).strip() for t in match["match_teams"]]
    return [] if len(set(names)) == len(names) else ["two match teams have the same name"]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (match players)")
def players_listed_once(match, words):
    out = []
    for t in match["match_teams"]:
        names = [p["player"].get("name") for p in t.get("match_players", [])]
        if not names:
            out.append(f"{_team_name(t)} has no match players")
        if len(set(names)) != len(names):
            out.append(f"{_team_name(t)} lists a player twice")
    return out


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (bonus_points)")
def bonus_points_not_negative(match, words):
    return [f"{_team_name(t)} has negative bonus points" for t in match["match_teams"] if t.get("bonus_points", 0) < 0]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (bonus.question.question_number; a gap is read as bonuses thrown out)")
def bonuses_in_packet_order(match, words):
    numbers = [(bonus.get("question") or {}).get("question_number") for _, bonus in _bonuses(match)]
    if None in numbers:
        return ["a bonus has no question number (MODAQ cannot tell which of the packet's bonuses it was)"]
    return [] if numbers == sorted(set(numbers)) and all(n >= 1 for n in numbers) else [
        f"bonus numbers {numbers} do not go up through the match (MODAQ reads the packet's bonuses in order)"]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (the bonus goes to the team of the question's right buzz)")
def bonuses_after_right_buzzes(match, words):
    return [f"question {q['question_number']} has a bonus but no right buzz: MODAQ drops its points"
            for q, _ in _bonuses(match) if not any(b["result"]["value"] > 0 for b in q["buzzes"])]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ, Cycle.ts addCorrectBuzz (a bonus of bonus.parts.length parts)")
def every_part_of_a_bonus(match, words):
    out = []
    for q, bonus in _bonuses(match):
        parts = bonus.get("parts") or []
        if not parts or len(parts) != (bonus.get("question") or {}).get("parts", len(parts)):
            out.append(f"question {q['question_number']}: the bonus lists {len(parts)} parts, not each of its parts")
        if any(part.get("controlled_points", -1) < 0 or part.get("bounceback_points", 0) < 0 for part in parts):
            out.append(f"question {q['question_number']}: a bonus part's points are missing or negative")
    return out


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ, getPlayerSetFromLineup")
def lineups_of_match_players(match, words):
    out = []
    for t in match["match_teams"]:
        lineups = t.get("lineups") or []
        if not lineups:
            out.append(f"{_team_name(t)} has no lineup")
            continue
        players = {p["player"].get("name") for p in t["match_players"]}
        for lineup in lineups:
            names = [p.get("name") for p in lineup["players"]]
            if len(set(names)) != len(names) or not set(names) <= players:
                out.append(f"a lineup of {_team_name(t)} names someone twice or not among its match players")
        firsts = [lineup["first_question"] for lineup in lineups[1:]]
        if firsts != sorted(set(firsts)) or any(not 1 <= f <= len(match["match_questions"]) for f in firsts):
            out.append(f"{_team_name(t)}'s later lineups do not start at increasing questions of the match")
    return out


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (match questions)")
def questions_with_tossups(match, words):
    questions = match.get("match_questions") or []
    return (["no match questions"] if not questions else []) + [
        f"match question {q['question_number']} has no tossup_question number"
        for q in questions if "question_number" not in (q.get("tossup_question") or {})]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (buzzes: playerMap lookup)")
def buzzes_by_match_players(match, words):
    players = {(_team_name(t), p["player"].get("name")) for t in match["match_teams"] for p in t["match_players"]}
    return [f"question {q['question_number']}: a buzz names no match player of its team"
            for q in match["match_questions"] for b in q["buzzes"]
            if not (_named(b.get("team")) and _named(b.get("player")))
            or (b["team"].get("name"), b["player"].get("name")) not in players]


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (buzz.buzz_position.word_index)")
def buzz_positions_in_the_question(match, words):
    out = []
    for q in match["match_questions"]:
        length = words[(q.get("replacement_tossup_question") or q["tossup_question"])["question_number"]]
        for b in q["buzzes"]:
            index = (b.get("buzz_position") or {}).get("word_index")
            if index is None or not 0 <= index <= length + 1:
                out.append(f"question {q['question_number']}: a buzz has no word_index in 0..{length + 1}")
    return out


@rule(MATCH_FILE, "MODAQ", "QBJ.ts fromQBJ (addCorrectBuzzEvent keeps the last right buzz)")
def one_right_buzz_a_question(match, words):
    return [f"question {q['question_number']} has more than one right buzz"
            for q in match["match_questions"] if sum(b["result"]["value"] > 0 for b in q["buzzes"]) > 1]


# --- Every match, in either file: what YellowFruit's Match.validateAll counts as an error (a match in
# error is left out of its statistics: Match.ts determineStatsValidity) --------------------------------

@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateTotalTuh")
def tossups_read(match, scoring):
    return [] if 1 <= match.get("tossups_read", 0) <= 999 else ["tossups_read missing or outside 1..999"]


@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateTeams")
def two_different_teams(match, scoring):
    names = [_team_name(t) for t in match["match_teams"]]
    return ["a team plays itself"] if len(set(names)) < len(names) else []


def _uses_bonuses(match: dict, scoring: dict | None) -> bool:
    """Whether YellowFruit reads the match under rules with bonuses: a tournament file's own scoring rules
    (a maximum_bonus_score), or for a game imported into the stat keeper's tournament, bonuses in the file."""
    if scoring is not None:
        return "maximum_bonus_score" in scoring
    return bool(_bonuses(match)) or any("bonus_points" in t for t in match["match_teams"])


@rule(EVERY_MATCH, "YellowFruit", "MatchTeam.ts validateTotalAndTuPtsEqual (no bonuses)")
def players_points_add_up(match, scoring):
    if _uses_bonuses(match, scoring):
        return []
    teams, players = stats_points(match)
    return [f"{team}'s players' points {sum(p for (t, _), p in players.items() if t == team)} are not its {points}"
            for team, points in teams.items() if sum(p for (t, _), p in players.items() if t == team) != points]


@rule(EVERY_MATCH, "YellowFruit", "FileParsing.ts parseMatchQuestion, MatchQuestion.ts validate (a bonus)")
def bonuses_the_rules_read(match, scoring):
    if not _bonuses(match):
        return []
    if not _uses_bonuses(match, scoring):
        return ["bonus parts under scoring rules without bonuses (\"Dead tossup with nonzero bonus points\")"]
    out = []
    for q, bonus in _bonuses(match):
        marked = {"bounceback_points" in part for part in bonus.get("parts") or []}
        if not bonus.get("parts"):
            out.append(f"question {q['question_number']}: a bonus with no parts (\"Missing bonus information\")")
        elif scoring is not None and scoring.get("bonuses_bounce_back") and marked != {True}:
            out.append(f"question {q['question_number']}: a bounceback format's bonus part has no bounceback_points")
        elif len(marked) > 1:
            out.append(f"question {q['question_number']}: some parts have bounceback_points and some do not")
    return out


@rule(EVERY_MATCH, "YellowFruit", "MatchTeam.ts validateBonusPoints, Match.ts validateBouncebackConversion")
def bonus_points_possible(match, scoring):
    if not _uses_bonuses(match, scoring):
        return []
    most = (scoring or {}).get("maximum_bonus_score", 30)  # importing a game: ScoringRules.ts's 30 unless the stat keeper's differ
    figures = stats_bonuses(match)
    out = []
    for name, f in figures.items():
        if f["points"] < 0:
            out.append(f"{name}: bonus points {f['points']} (\"Bonus points cannot be negative\")")
        elif f["points"] > most * f["heard"]:
            out.append(f"{name}: {f['points']} bonus points on {f['heard']} bonuses heard (over {most} a bonus)")
        other = next(g for n, g in figures.items() if n != name)
        if f["bounceback_points"] > most * other["heard"] - other["points"]:
            out.append(f"{name}: more bounceback points than the other team's bonuses left (over 100%)")
    return out


@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateTotalBuzzes")
def answers_within_tossups_read(match, scoring):
    read = match["tossups_read"]
    buzzes = {_team_name(t): sum(n for p in t["match_players"] for _, n in _counts(p)) for t in match["match_teams"]}
    converted = sum(n for t in match["match_teams"] for p in t["match_players"] for v, n in _counts(p) if v > 0)
    return [f"{team}'s {n} answers exceed the {read} tossups read" for team, n in buzzes.items() if n > read] + (
        [f"{converted} tossups converted of {read} read"] if converted > read else [])


@rule(EVERY_MATCH, "YellowFruit", "MatchPlayer.ts validateAnswerCounts; Match.ts validatePlayerTuh")
def players_answer_what_they_heard(match, scoring):
    return [f"{p['player']['name']}: {sum(n for _, n in _counts(p))} answers, {p['tossups_heard']} tossups heard "
            f"of {match['tossups_read']}"
            for t in match["match_teams"] for p in t["match_players"]
            if not sum(n for _, n in _counts(p)) <= p["tossups_heard"] <= match["tossups_read"]]


@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateAllMatchPlayersTuh")
def team_tossups_heard(match, scoring):
    out = []
    for t in match["match_teams"]:
        # ScoringRules.ts: 4 players unless the rules say; importing a game, the stat keeper's rules
        most = scoring.get("maximum_players_per_team", 4) if scoring is not None else len(t["match_players"])
        total = sum(p["tossups_heard"] for p in t["match_players"])
        if not 0 < total <= min(len(t["match_players"]), most) * match["tossups_read"]:
            out.append(f"{_team_name(t)}'s players heard {total} tossups in all")
    return out


@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateOvertimeTuhField (overtime answers read only from YfData)")
def overtime_conversions(match, scoring):
    regulation = match["tossups_read"] - match.get("overtime_tossups_read", 0)
    converted = sum(n for t in match["match_teams"] for p in t["match_players"] for v, n in _counts(p) if v > 0)
    return [f"{converted} tossups converted, {regulation} read in regulation"] \
        if match.get("overtime_tossups_read") and converted > regulation else []


@rule(EVERY_MATCH, "YellowFruit", "Match.ts validateTotalAndOtTuhRelationship")
def regulation_within_the_rules(match, scoring):
    if scoring is None:  # importing a game: the open tournament's rules, the stat keeper's
        return []
    regulation = match["tossups_read"] - match.get("overtime_tossups_read", 0)
    most = scoring.get("maximum_regulation_tossup_count", 20)
    return [f"{regulation} regulation tossups, the rules allow {most}"] if regulation > most else []


@rule(EVERY_MATCH, "YellowFruit", "FileParsing.ts parsePlayerAnswerCount")
def values_of_the_rules(match, scoring):
    if scoring is None:
        return []
    known = {a["value"] for a in scoring["answer_types"]} | {0}  # a 0 it does not know it skips
    return [f"an answer count of {v} points, not an answer type of the rules"
            for t in match["match_teams"] for p in t["match_players"] for v, _ in _counts(p) if v not in known]


# --- A tournament file: YellowFruit's "Open QBJ Tournament" and team import, MODAQ's roster ----------

@rule(TOURNAMENT, "YellowFruit", "TournamentManager.ts loadTournamentFromQbjObjects; QbjUtils.ts qbjFileValidVersion")
def a_tournament_of_a_version_read(qbj):
    return ([] if qbj.get("version") in YF_VERSIONS else [f"version {qbj.get('version')!r} is not {YF_VERSIONS}"]) + (
        [] if _tournament(qbj) else ["no Tournament object"])


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts parseScoringRules, parseAnswerType")
def scoring_rules_read(qbj):
    rules = _tournament(resolved(qbj)).get("scoring_rules") or {}
    values = [a["value"] for a in rules.get("answer_types", [])]
    out = [] if any(v > 0 for v in values) else ["no positive answer type"]
    out += [f"answer type {v} outside -1000..1000" for v in values if not -1000 <= v <= 1000]
    if rules.get("teams_per_match", 2) != 2:
        out.append(f"teams_per_match {rules['teams_per_match']}")
    if not 1 <= rules.get("maximum_regulation_tossup_count", 20) <= 100:
        out.append("maximum_regulation_tossup_count outside 1..100")
    if not 1 <= rules.get("maximum_players_per_team", 4) <= 30:
        out.append("maximum_players_per_team outside 1..30")
    return out


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts parseScoringRulesBonusSettings")
def bonus_settings_read(qbj):
    rules = _tournament(resolved(qbj)).get("scoring_rules") or {}
    if "maximum_bonus_score" not in rules:
        return []
    most, fewest = rules.get("maximum_parts_per_bonus", 3), rules.get("minimum_parts_per_bonus", 3)
    out = [f"{key} {rules[key]} outside 1..1000" for key in ("maximum_bonus_score", "minimum_parts_per_bonus",
                                                            "maximum_parts_per_bonus", "points_per_bonus_part",
                                                            "bonus_divisor") if key in rules and not 1 <= rules[key] <= 1000]
    if most < fewest:
        out.append("maximum parts per bonus below the minimum")
    each = rules.get("points_per_bonus_part")
    if each is not None and each * most != rules["maximum_bonus_score"]:
        out.append("points per bonus part times the most parts is not the maximum bonus score")
    divisor = rules.get("bonus_divisor", 10)  # a divisor the maximum does not divide is taken as 1
    if each is not None and rules["maximum_bonus_score"] % divisor == 0 and each % divisor:
        out.append(f"points per bonus part {each} and bonus divisor {divisor} are incompatible")
    return out


@rule(TOURNAMENT, "MODAQ and YellowFruit", "QBJ.ts parseRegistration; FileParsing.ts findRegistrations, parseTeam, "
      "parsePlayer")
def registrations_inline_with_players(qbj):
    tournament = _tournament(qbj)
    regs = tournament.get("registrations")
    if not _named(tournament) or not isinstance(regs, list) or not regs:
        return ["the Tournament has no name or no list of registrations"]
    out = []
    for reg in regs:
        if not _named(reg) or not isinstance(reg.get("teams"), list):
            out.append("a registration is a reference, or has no name or no teams inline (\"missing a teams field\")")
            continue
        for team in reg["teams"]:
            if not _named(team) or not team.get("players") or not all(_named(p) for p in team["players"]):
                out.append(f"team {team.get('name')!r}: no name, no players, or a player not named inline")
    return out


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts parsePhase, parseRound (a round whose name is not a number "
      "keeps none of its matches)")
def rounds_numbered_through(qbj):
    numbers, out = [], []
    for phase in _tournament(qbj).get("phases", []):
        if not phase.get("rounds"):
            out.append(f"phase {phase.get('name')!r} has no round")
        for rnd in phase.get("rounds", []):
            try:
                numbers.append(float(rnd["name"]))
            except ValueError:
                out.append(f"round {rnd['name']!r} is not a number: its matches are dropped")
    return out + ([] if numbers == sorted(set(numbers)) else ["round numbers repeat or go back"])


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts findMatches, parseRoundMatches")
def every_match_in_a_round(qbj):
    defined = {o["id"] for o in qbj.get("objects", []) if o.get("type") == "Match"}
    listed = [m.get("$ref") for phase in _tournament(qbj).get("phases", []) for rnd in phase.get("rounds", [])
              for m in rnd.get("matches", [])]
    return [f"round match {ref!r} is not a match of the file" for ref in listed if ref not in defined] + (
        [f"match {m} is in no round" for m in sorted(defined - set(listed))])


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts parseMatchCarryoverPhasesStart (iterates carryover_phases)")
def carryover_phases_listed(qbj):
    return [f"match {m.get('id')} has no carryover_phases list" for m in qbj.get("objects", [])
            if m.get("type") == "Match" and not isinstance(m.get("carryover_phases"), list)]


@rule(TOURNAMENT, "YellowFruit", "FileParsing.ts resolveTeamIdentity, resolvePlayerIdentity (opening a file: "
      "by id)")
def matches_refer_to_registered_ids(qbj):
    tournament = _tournament(qbj)
    teams = {t.get("id"): {p.get("id") for p in t.get("players", [])}
             for reg in tournament.get("registrations", []) for t in reg.get("teams", [])}
    out = []
    for m in (o for o in qbj.get("objects", []) if o.get("type") == "Match"):
        for t in m["match_teams"]:
            team = t["team"].get("$ref", t["team"].get("id"))
            if team not in teams:
                out.append(f"match {m['id']}: team {team!r} is no registered team")
                continue
            out += [f"match {m['id']}: player {p['player']} is not on {team}" for p in t["match_players"]
                    if p["player"].get("$ref", p["player"].get("id")) not in teams[team]]
    return out


def match_file_problems(match: dict, words: dict[int, int]) -> list[str]:
    """Every problem the readers of a match file of its own would have with it. `words`: per tossup's
    question_number, the number of words in it (MODAQ checks buzz positions against the packet)."""
    return [f"{reader} ({where}): {problem}" for reader, where, check in RULES[MATCH_FILE]
            for problem in check(match, words)] + _every_match(match, None)


def tournament_problems(qbj: dict) -> list[str]:
    """Every problem the readers of a tournament file would have with it, its matches' included."""
    out = [f"{reader} ({where}): {problem}" for reader, where, check in RULES[TOURNAMENT] for problem in check(qbj)]
    scoring = _tournament(resolved(qbj)).get("scoring_rules") or {}
    return out + [problem for match in tournament_matches(qbj) for problem in _every_match(match, scoring)]


def _every_match(match: dict, scoring: dict | None) -> list[str]:
    return [f"{reader} ({where}), match {match.get('id')}: {problem}" for reader, where, check in RULES[EVERY_MATCH]
            for problem in check(match, scoring)]

