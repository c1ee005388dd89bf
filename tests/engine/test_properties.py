"""Property-based tests: random command sequences, from right and wrong actors, for both formats.

Each example plays one match: hypothesis draws a command (any type), an actor (usually a fitting one,
sometimes a wrong one) and a time step, the engine decides, and every event is folded as the
conductor would fold it. Then the invariants a user relies on are checked over the whole run:

(a) replaying the stored log (through JSON, as the database keeps it) rebuilds the live state;
(b) scores are exactly the sum of the score changes the events announced, and they agree with the
    per-question record and the declared winner;
(c) at most one buzz holds the floor, and a second buzz only takes it over explicitly;
(d) a locked-out team never answers, submits or buzzes in the phase it is locked out of;
(e) no player, bot or spectator ever receives the answer line or an unread word early;
(f) once a question's answer has been shown, nothing reopens it: no word, buzz, answer, submission,
    pass or phase for it afterwards, whatever the undos and overrides;
(g) whatever the overrides, undos and throw-outs, every question is scored from its rulings under the
    format's rules (one scorer: the first correct answer, later awards withdrawn), and its result,
    its history entry and the scores agree, checked on a fresh fold of the stored log;
(h) bots' guesses and the computer's team answers reach the hall and the phones only once no human
    can score on the question any more, in this phase or a later one (tests/engine/hall.py), under
    either hall_bot_guesses rule, live and in the replay at every moment.
"""
from __future__ import annotations

import json
import pickle
import re
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from game.engine.api import Rejected, apply, decide, fold, next_wakeup, project, snapshot
from game.engine.fold import apply_in_place
from game.engine.rules import COMMAND_TYPES, question_outcome
from game.engine.stages import BONUS_ANSWERING

from game.archive.replay import Replay, timeline

from .hall import VIEWERS as HALL_VIEWERS, check_hall_fairness
from .support import MIXED_TEAMS, MOD, SYS, TEAMS, Match, actor_for, efficientqa_seats, quizbowl_seats, teammate

FORMATS = ("efficientqa", "quizbowl", "quizbowl_bonus", "qanta26")
MAX_COMMANDS = 60
# No "explain" phase: on these long runs it costs minutes and the command transcript (note) says more.
PROPERTY_SETTINGS = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                             phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink])

# What people type. None of these words looks like the made-up words the questions are built from.
TYPED = ["Isaac Newton", "no idea", "maybe gravity", "the moon", "tesla coil", "hmm", "ok go"]
STEPS = [0, 0, 0, 1, 50, 100, 300, 300, 300, 700, 700, 1500, 2500, 4000, 9000, 20000, 45000]
MODERATOR_COMMANDS = ("start", "next", "end", "reveal", "rule", "undo", "override", "adjust",
                      "throw_out", "pause", "resume", "kick", "resolve_protest", "voice", "read_part")
# Weighted so that matches get somewhere: the clock and the core loop come up most often.
COMMAND_MENU = (
    ["tick"] * 5 + ["buzz"] * 3 + ["answer"] * 3 + ["rule"] * 4 + ["next"] * 2 + ["submit"] * 3
    + ["pass", "chat", "start", "reveal", "undo", "override", "adjust", "throw_out", "pause", "resume",
       "bot_guess", "end", "kick", "leave", "bot_stopped", "protest", "resolve_protest", "voice", "voice_timings",
       "read_part", "bonus_answer", "buzz_for", "decide_part"]
)
WRONG_ACTORS = [
    {"role": "player", "seat": "h0", "team": "t1"},  # claims the other team
    {"role": "player", "seat": "ghost", "team": "t0"},  # no such seat
    {"role": "spectator"},
    {},
    SYS,
    MOD,
]


def test_the_menu_covers_every_client_and_clock_command():
    # join, bot_missed, judge and snippets come from the conductor itself, not from people or the clock.
    # So does bot_stopped; it is in the menu so that random matches go on with a bot stopped midway.
    assert set(COMMAND_MENU) == COMMAND_TYPES - {"join", "bot_missed", "judge", "snippets"}


# -- playing a random match -------------------------------------------------------------------------

@dataclass
class Step:
    command: dict
    before: object  # state before the command
    events: list = field(default_factory=list)
    states: list = field(default_factory=list)  # state after each event


@dataclass
class Run:
    match: Match
    steps: list[Step]
    final: object

    @property
    def log(self):
        return self.match.events

    def event_steps(self):
        """(state before, event, state after) for every event after match_created, in order."""
        for step in self.steps:
            prev = step.before
            for event, after in zip(step.events, step.states):
                yield prev, event, after
                prev = after


def _draw_actor(data, m: Match, kind: str):
    s = m.state
    seats = list(m.seats.values())
    if data.draw(st.integers(0, 9), label="wrong actor?") == 9:  # shrinks towards fitting actors
        everyone = WRONG_ACTORS + [actor_for(x) for x in seats]
        return data.draw(st.sampled_from(everyone), label="any actor")
    if kind in ("tick", "bot_stopped", "voice_timings"):
        return SYS
    if kind in MODERATOR_COMMANDS:
        return MOD
    poss = s.q.possession if s.q is not None else None
    if kind == "answer" and poss is not None and data.draw(st.booleans()):
        return m.actor(poss["seat"])
    if kind == "buzz" and poss is not None and data.draw(st.booleans()):
        seats = [x for x in seats if x["team"] != poss["team"]]  # a rival, maybe with an earlier buzz
    if kind in ("chat", "leave", "protest", "buzz_for"):
        seats = [x for x in seats if x["kind"] == "human" and (kind != "protest" or x["captain"] or data.draw(st.booleans()))]
    if kind == "bot_guess":
        seats = [x for x in seats if x["kind"] == "bot"]
    turn = s.q.bonus["answering"] if s.q is not None and s.q.bonus is not None else None
    if kind == "bonus_answer" and turn is not None and data.draw(st.booleans(), label="the team whose turn it is?"):
        seats = [x for x in seats if x["team"] == turn and (x["captain"] or x["kind"] == "bot")]
    if kind == "decide_part":  # the moderator, or a captain (mostly the controlling team's)
        if data.draw(st.booleans(), label="the moderator decides?"):
            return MOD
        seats = [x for x in seats if x["captain"]]
    return m.actor(data.draw(st.sampled_from([x["id"] for x in seats]), label="seat"))


def _draw_data(data, kind: str, s) -> dict:
    text = st.sampled_from(TYPED + ["", "   "])
    if kind == "buzz":
        return data.draw(st.fixed_dictionaries({}, optional={"seen": st.integers(0, 12)}))
    if kind == "buzz_for":  # mostly for a bot on the presser's team: whichever mode it has
        bots = sorted(seat for seat, x in s.seats.items() if x["kind"] == "bot")
        return data.draw(st.fixed_dictionaries({"bot": st.sampled_from(bots + ["nobody"])},
                                                optional={"seen": st.integers(0, 12)}))
    if kind in ("answer", "submit", "chat"):
        return {"text": data.draw(text)}
    b = s.q.bonus if s.q is not None else None
    if kind == "bonus_answer":  # mostly for the part in play; now and then a late one for the part before
        parts = [b["part"]] * 4 + [b["part"] - 1] if b is not None else [0]
        return data.draw(st.fixed_dictionaries({"text": text}, optional={"part": st.sampled_from(parts)}))
    if kind == "decide_part":
        decision = st.sampled_from(["own", "consult", "consult", "abstain", "abstain", "maybe"])
        parts = [b["part"]] * 4 + [b["part"] - 1] if b is not None else [0]
        return data.draw(st.fixed_dictionaries({"decision": decision}, optional={"part": st.sampled_from(parts)}))
    if kind == "read_part":
        parts = [b["part"] + 1] * 4 + [b["part"]] if b is not None else [0]
        return data.draw(st.fixed_dictionaries({}, optional={"part": st.sampled_from(parts)}))
    if kind == "rule":  # mostly the answer on the floor, as the console names it; now and then a stale one, or none
        shown = s.q.floor_seq if s.q is not None and s.q.floor_seq is not None else 0
        parts = {"part": st.sampled_from([b["part"]] * 6 + [b["part"] - 1, None])} if b is not None else {}
        return data.draw(st.fixed_dictionaries(
            {"verdict": st.sampled_from(["accept", "accept", "reject", "reject", "prompt", "prompt", "maybe"])},
            optional={"heard": st.sampled_from(TYPED),
                      "answer": st.sampled_from([shown] * 8 + [max(0, shown - 1), True, "1"]), **parts}))
    if kind == "undo" and s.q is not None and s.q.ruling_ids and data.draw(st.booleans(), label="name the ruling?"):
        return {"ruling": data.draw(st.sampled_from([s.q.ruling_ids[-1], s.q.ruling_ids[0], 99]))}
    if kind == "override":
        ruling = st.sampled_from(sorted(s.rulings)) if s.rulings else st.integers(0, 3)
        return {"ruling": data.draw(st.one_of(ruling, st.integers(0, 9))),
                "verdict": data.draw(st.sampled_from(["accept", "reject", "prompt"])), **_correction(data, s)}
    if kind == "adjust":
        out = {"team": data.draw(st.sampled_from(["t0", "t1", "t9"])),
               "points": data.draw(st.sampled_from([-5, 3, 0, 10])),
               "reason": data.draw(st.sampled_from(["protest upheld", ""])),
               "public": data.draw(st.booleans(), label="reason public?"), **_correction(data, s)}
        if data.draw(st.booleans(), label="name the scores?"):
            out["scores_seq"] = data.draw(st.sampled_from([s.scores_seq, s.scores_seq - 1]))
        return out
    if kind == "throw_out":
        out = {"reason": "a typo in the question"}
        if s.q is not None and data.draw(st.booleans(), label="name the question?"):
            out["question"] = data.draw(st.sampled_from([s.q.index, s.q.index + 1]))
        return out
    if kind == "pause":
        return {"reason": "a short break"}
    if kind == "protest":
        ruling = st.sampled_from([max(s.rulings)] * 3 + sorted(s.rulings)) if s.rulings else st.integers(0, 3)
        return {"ruling": data.draw(ruling, label="protested ruling"), "text": data.draw(text)}
    if kind == "resolve_protest":
        out = {"protest": data.draw(st.integers(1, max(1, len(s.protests))), label="protest"),
               "outcome": data.draw(st.sampled_from(["upheld", "overturned", "overturned", "maybe"])),
               "reason": data.draw(st.sampled_from(["the line allows it", ""]), label="resolution reason")}
        correction = _correction(data, s)
        return dict(out, **{k: v for k, v in correction.items() if k == "confirm"})
    if kind in ("kick", "bot_stopped"):
        out = {"seat": data.draw(st.sampled_from(sorted(s.seats) + ["nobody"]), label="seat")}
        return dict(out, reason="over its memory limit") if kind == "bot_stopped" else out
    if kind == "voice":
        return {"voice": data.draw(st.sampled_from(["en-us", "en-gb", "hand", "klingon"])),
                "wpm": data.draw(st.sampled_from([175, 150, 9000]))}
    if kind == "voice_timings" and s.q is not None:  # the conductor's timings, now and then for the wrong words
        words = len(s.question.words) + data.draw(st.sampled_from([0, 0, 0, -1]), label="timings fit?")
        offsets = [0]
        for _ in range(words - 1):
            offsets.append(offsets[-1] + data.draw(st.sampled_from([0, 120, 400]), label="word time"))
        return {"number": s.q.number, "index": s.q.index, "offsets": offsets, "end": offsets[-1] + 300,
                "audio": data.draw(st.sampled_from(["k1", None]), label="audio")}
    if kind == "bot_guess":
        return {"guess": data.draw(st.sampled_from(TYPED)), "confidence": data.draw(st.floats(0, 1)),
                "buzz": data.draw(st.booleans()), "alternatives": [[data.draw(st.sampled_from(TYPED)), 0.25]]}
    return {}


def _correction(data, s) -> dict:
    """After the final whistle a score change must be confirmed: mostly it is, sometimes not (refused)."""
    if s.status != "finished":
        return {}
    return {"confirm": data.draw(st.sampled_from([True, True, False]), label="confirmed?"),
            "reason": data.draw(st.sampled_from(["a late protest", ""]), label="correction reason")}


def _sensible_kind(data, s) -> str:
    """A command that moves this match along, so random runs reach deep states often."""
    if s.status == "setup":
        return "start"
    if s.paused:
        return data.draw(st.sampled_from(["resume", "resume", "rule", "chat", "undo"]))
    if any(p["status"] == "open" for p in s.protests) and data.draw(st.booleans(), label="resolve the protest?"):
        return "resolve_protest"
    q = s.q
    if s.status == "finished" or q is None:
        return data.draw(st.sampled_from(["override", "adjust", "next", "protest", "resolve_protest"]))
    if q.bonus is not None and not q.closed:  # a tossup's bonus: parts read, answered, ruled, timed out
        return data.draw(st.sampled_from(["read_part"] * 3 + ["bonus_answer"] * 3 + ["rule"] * 3 + ["tick", "undo", "chat"]
                                         + ["decide_part"] * 2 * s.rules["bonus_decisions"]))
    if q.closed:
        return data.draw(st.sampled_from(["next"] * 3 + ["override"] * 2 + ["undo", "throw_out", "adjust", "protest", "resolve_protest"]))
    if s.rules["reveal"] == "voice" and q.voice is None and q.mode == "buzz" and data.draw(st.booleans()):
        return "voice_timings"  # read aloud: the conductor hands in the voice's timings soon after a question starts
    if q.mode == "team":
        return data.draw(st.sampled_from(["submit"] * 3 + ["rule"] * 3 + ["pass", "chat", "tick", "undo", "protest"]))
    if q.possession is None:
        return data.draw(st.sampled_from(["tick"] * 3 + ["buzz"] * 3 + ["reveal", "bot_guess", "undo", "protest", "buzz_for"]))
    if q.possession["answer"] is None:
        return data.draw(st.sampled_from(["answer"] * 3 + ["buzz"] * 2 + ["rule", "pass", "tick"]))
    return data.draw(st.sampled_from(["rule"] * 3 + ["buzz", "pause", "tick"]))


def play(data, preset: str) -> Run:
    rule = data.draw(st.sampled_from(["after_humans", "live"]), label="hall_bot_guesses")
    reveal = data.draw(st.sampled_from(["clock", "clock", "voice"]), label="reveal")
    bounce = {"bounceback": data.draw(st.booleans(), label="bouncebacks?")} if preset in ("quizbowl_bonus", "qanta26") else {}
    # An AI teammate on the human team, with its buzz mode, or none (tests/engine/support.py teammate).
    mode = data.draw(st.sampled_from([None, None, "semi", "autonomous", "after_k", "muted"]), label="AI teammate")
    seats = efficientqa_seats() if preset == "efficientqa" else quizbowl_seats()
    mixed = {"seats": seats + [teammate(mode, k=3)], "teams": MIXED_TEAMS} if mode else {}
    m = Match(preset, {"questions": 2, "tiebreakers": 1, "hall_bot_guesses": rule, "reveal": reveal, **bounce}, reserve=3,
              length=7, power_after=3, **mixed)
    steps = []
    # "Go on?" before each command (0 stops) lets hypothesis shrink a failure by dropping commands.
    while len(steps) < MAX_COMMANDS and data.draw(st.integers(0, 49), label="go on?"):
        s = m.state
        if not steps and data.draw(st.booleans()):
            kind = "start"
        elif data.draw(st.integers(0, 2), label="guided?"):
            kind = _sensible_kind(data, s)
        else:
            kind = data.draw(st.sampled_from(COMMAND_MENU), label="type")
        due = next_wakeup(s)
        if kind == "tick" and due is not None and due > m.now and data.draw(st.booleans(), label="on time?"):
            m.now = due  # exactly when the engine asked, as the conductor ticks: boundaries get hit
        else:
            m.now += data.draw(st.sampled_from(STEPS), label="step")
        command = {"type": kind, "actor": _draw_actor(data, m, kind), "data": _draw_data(data, kind, s)}
        if command["actor"].get("role") == "bot":  # what a bot says is new each time, so a screen that shows it is caught
            if kind == "bot_guess":
                command["data"] = dict(command["data"], guess=f"Hunch {len(steps)}x",
                                       alternatives=[[f"Inkling {len(steps)}x", 0.25]])
            elif kind in ("answer", "submit", "bonus_answer"):
                command["data"] = dict(command["data"], text=f"Reply {len(steps)}x")
        if kind in ("buzz", "buzz_for"):
            command["received"] = m.now - data.draw(st.sampled_from([0, 0, 0, 1, 50, 120, 400, 2500]), label="lag")
            poss = s.q.possession if s.q is not None else None
            if poss is not None and data.draw(st.booleans(), label="race the holder?"):
                command["received"] = poss["received"] - data.draw(st.sampled_from([0, 0, 1, 30]), label="lead")
            if data.draw(st.booleans(), label="claims a press time?"):  # as a phone does (engine/buzzrace.py)
                received = command["received"]
                command["data"]["pressed"] = received - data.draw(st.sampled_from([-5, 0, 20, 90, 200, 600]), label="claim")
                command["clock"] = {"rtt": data.draw(st.sampled_from([None, 40, 300]), label="rtt"),
                                    "seen_at": data.draw(st.sampled_from([None, 0, received - 100]), label="seen at")}
        step = Step(command, s)
        steps.append(step)
        frozen = pickle.dumps(s)  # a cheap exact fingerprint of the state before the command
        try:
            events = decide(s, command, m.now)
        except Rejected as exc:
            note(f"{m.now:>7} {kind} {command['actor']} {command['data']} -> refused: {exc} {[e['type'] for e in exc.events]}")
            assert pickle.dumps(s) == frozen, f"a rejected {kind} changed the state"
            if not exc.events:
                continue
            assert exc.record and exc.events[-1]["type"] == "buzz_refused"
            events = exc.events  # a refusal kept on the record is stored as the conductor stores it
        note(f"{m.now:>7} {kind} {command['actor']} {command['data']} -> {[e['type'] for e in events]}")
        assert pickle.dumps(s) == frozen, f"decide({kind}) changed the state it was given"
        for event in events:
            frozen = pickle.dumps(m.state)
            new = apply(m.state, event)
            assert pickle.dumps(m.state) == frozen, f"apply({event['type']}) changed the state it was given"
            m.state = new
            step.events.append(event)
            step.states.append(new)
        m.events.extend(events)
    return Run(m, steps, m.state)


def formats():
    return pytest.mark.parametrize("preset", FORMATS)


# -- (a) replay ---------------------------------------------------------------------------------------

@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_replaying_the_stored_log_rebuilds_the_live_state(preset, data):
    run = play(data, preset)
    stored = json.loads(json.dumps(run.log, allow_nan=False))  # the log as the database hands it back
    assert fold(stored) == run.final
    assert fold(run.log) == run.final
    # A client that joins midway folds a prefix: that too is the state the match had then.
    if run.steps:
        k = data.draw(st.integers(0, len(run.steps) - 1), label="replay up to command")
        upto = 1 + sum(len(step.events) for step in run.steps[: k + 1])
        expected = run.steps[k].states[-1] if run.steps[k].events else run.steps[k].before
        assert fold(stored[:upto]) == expected
    # The timeline only moves forward, so replays and exports can place every event.
    times = [e["t"] for e in run.log]
    assert times == sorted(times)


# -- (b) scores -----------------------------------------------------------------------------------------

@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_scores_are_the_sum_of_announced_changes_and_agree_with_the_record(preset, data):
    run = play(data, preset)
    team_ids = [t["id"] for t in TEAMS]
    totals = {t: 0 for t in team_ids}
    adjusted = {t: 0 for t in team_ids}
    for _, event, s in run.event_steps():
        for team, points in event["data"].get("score_changes", {}).items():
            totals[team] += points
        assert s.scores == totals, f"after {event['type']} the scores are not the sum of announced changes"

        # The same total, seen from the match record: every question's net effect plus adjustments.
        if event["type"] == "score_adjusted":
            adjusted[event["data"]["team"]] += event["data"]["points"]
        recorded = dict(adjusted)
        for entry in s.history:
            for team, points in entry["score_changes"].items():
                recorded[team] += points
        if s.q is not None and not _in_history(s.q):
            for team, points in s.q.score_changes.items():
                recorded[team] += points
        if s.q is not None and _in_history(s.q):
            assert s.history[-1]["number"] == s.q.number
            assert _nonzero(s.q.score_changes) == _nonzero(s.history[-1]["score_changes"]), \
                f"after {event['type']} the closed question's record disagrees with its history entry"
            assert s.q.result == s.history[-1]["result"], f"after {event['type']} two different results"
        assert recorded == s.scores, f"after {event['type']} the per-question record does not add up to the scores"
        if s.status == "finished":
            ranked = sorted(s.scores.values(), reverse=True)
            if ranked[0] == ranked[1]:
                assert s.winner is None, f"after {event['type']} the scores are tied but there is a winner"
            else:
                assert s.winner is not None and s.scores[s.winner] == ranked[0], \
                    f"after {event['type']} the winner is not the top score"


def _nonzero(changes: dict) -> dict:
    return {t: p for t, p in changes.items() if p}


def _in_history(q) -> bool:
    """Whether the question in play has its history entry: it closed, or its tossup did and its bonus is played."""
    return q.closed or q.bonus is not None


def _tossup_points(score_changes: dict, bonus: dict | None) -> dict:
    """A question's points less what its bonus scored: what its tossup rulings are worth."""
    out = dict(score_changes)
    for team, points in (bonus["points"] if bonus else {}).items():
        out[team] = out.get(team, 0) - points
    return out


# -- (c) one buzz at a time -----------------------------------------------------------------------------

@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_only_one_buzz_holds_the_floor(preset, data):
    run = play(data, preset)
    pending = None  # the seat whose buzz has not been ruled on yet
    for before, event, after in run.event_steps():
        kind, d = event["type"], event["data"]
        if kind == "buzz":
            held = before.q.possession
            if pending is None:
                assert held is None and d["replaces"] is None
            else:
                assert d["replaces"] == pending == held["seat"], "a second buzz arrived while one was unruled"
                assert held["answer"] is None and not held["prompted"], "a buzz took over an answered buzz"
            pending = d["seat"]
        elif kind == "ruling" and d["verdict"] != "prompt":
            pending = None
        elif kind in ("phase_started", "question_started", "question_closed", "question_thrown_out"):
            pending = None
        elif kind == "undo":
            pending = after.q.possession["seat"] if after.q.possession else None
        q = after.q
        if q is not None and q.possession is not None:
            assert isinstance(q.possession, dict) and q.mode == "buzz" and not q.closed
            assert q.possession["team"] not in q.locked
            assert pending == q.possession["seat"]


# -- (d) lockout ------------------------------------------------------------------------------------------

@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_locked_out_team_never_answers_in_that_phase(preset, data):
    run = play(data, preset)
    for before, event, _ in run.event_steps():
        if event["type"] in ("buzz", "answer", "submission"):
            team = event["data"]["team"]
            assert team not in before.q.locked, f"{team} got a {event['type']} while locked out"
            if event["type"] == "submission":
                assert team not in before.q.passed, f"{team} submitted after passing"
            seat = before.seats[event["data"]["seat"]]
            assert seat["team"] == team


# -- (f) no reopening after the answer is out ---------------------------------------------------------

_PLAY = {"word_revealed", "buzz", "answer", "submission", "pass", "phase_started"}


@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_question_whose_answer_was_shown_is_never_reopened(preset, data):
    run = play(data, preset)
    shown: set[int] = set()  # indexes of questions whose answer everyone has seen
    for before, event, after in run.event_steps():
        q = before.q
        if event["type"] in _PLAY and q is not None and event["type"] != "phase_started":
            assert q.index not in shown, f"{event['type']} on question {q.number} after its answer was shown"
        if event["type"] == "phase_started":
            assert after.q.index not in shown, f"a new phase of question {after.q.number} after its answer was shown"
        if event["type"] == "question_closed":
            shown.add(after.q.index)
        if after.q is not None and after.q.index in shown:  # (a bonus's own clocks run after its tossup closed)
            assert after.q.answer_shown and (next_wakeup(after) is None or after.q.stage in BONUS_ANSWERING)


# -- (g) scoring under overrides, undos and throw-outs --------------------------------------------------

def _check_question_scoring(s, rulings: list[int], result, score_changes: dict, where: str):
    outcome = question_outcome([s.rulings[rid] for rid in rulings])
    assert result == outcome["result"], f"{where}: the result is not the question's first correct answer"
    assert _nonzero(score_changes) == _nonzero(outcome["score_changes"]), f"{where}: its points are not its rulings'"
    for each in outcome["rulings"]:
        record = s.rulings[each["id"]]
        assert record["points"] == each["points"], f"{where}: ruling {each['id']} is worth the wrong points"
        assert bool(record.get("withdrawn")) == each["withdrawn"], f"{where}: ruling {each['id']} withdrawn wrongly"
    accepted = [e for e in outcome["rulings"] if not e["withdrawn"] and s.rulings[e["id"]]["verdict"] == "accept"]
    assert len(accepted) <= 1, f"{where}: two correct answers score on one question"
    if s.rules["name"] == "efficientqa":
        scorers = [team for team, points in score_changes.items() if points > 0]
        assert len(scorers) <= 1, f"{where}: {scorers} all scored on one EfficientQA question"


@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_every_question_is_scored_from_its_rulings_whatever_the_corrections(preset, data):
    run = play(data, preset)
    stored = json.loads(json.dumps(run.log, allow_nan=False))
    fresh = apply_in_place(None, stored[0])
    adjusted = {t["id"]: 0 for t in TEAMS}
    for (_, event, live), again in zip(run.event_steps(), stored[1:]):
        fresh = apply_in_place(fresh, again)
        assert fresh == live, f"after {event['type']} the fresh fold of the log is not the live state"
        if event["type"] == "score_adjusted":
            adjusted[event["data"]["team"]] += event["data"]["points"]
        recorded = dict(adjusted)
        for entry in fresh.history:
            where = f"after {event['type']}, question {entry['number']}"
            if entry["thrown_out"]:
                assert entry["result"] is None and not _nonzero(entry["score_changes"]), f"{where} scores though thrown out"
                continue
            _check_question_scoring(fresh, entry["rulings"], entry["result"],
                                    _tossup_points(entry["score_changes"], entry["bonus"]), where)
            for team, points in entry["score_changes"].items():
                recorded[team] += points
        q = fresh.q
        if q is not None:
            where = f"after {event['type']}, the current question {q.number}"
            _check_question_scoring(fresh, q.ruling_ids, q.result, _tossup_points(q.score_changes, q.bonus), where)
            if _in_history(q):  # its banner is its history entry
                assert q.result == fresh.history[-1]["result"], f"{where}: banner and history disagree"
            else:
                for team, points in q.score_changes.items():
                    recorded[team] += points
        assert recorded == fresh.scores, f"after {event['type']} the questions and adjustments do not add up to the scores"


# -- (h) the fair audience rule ------------------------------------------------------------------------

@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_hall_sees_no_bot_guess_while_the_humans_may_answer(preset, data):
    run = play(data, preset)
    steps = [(before, dict(event, seq=seq), after) for seq, (before, event, after) in enumerate(run.event_steps(), 2)]
    check_hall_fairness(steps, {x["id"] for x in run.final.seats.values() if x["kind"] == "bot"})


@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_replay_shows_no_bot_guess_at_any_moment_a_human_could_still_score(preset, data):
    """The replay of the stored log, moment by moment: its state at each seq and the summary built from
    the frames so far (what the replay page shows) obey the same rule as the live screens did."""
    run = play(data, preset)
    replay = Replay([dict(e, seq=seq) for seq, e in enumerate(json.loads(json.dumps(run.log)), 1)], every=7)
    frames = {(audience, team): replay.frames(audience, team) for audience, team in HALL_VIEWERS}
    steps = [(replay.state_at(seq - 1), replay.events[seq - 1], replay.state_at(seq))
             for seq in range(2, replay.last_seq + 1)]
    check_hall_fairness(steps, {x["id"] for x in run.final.seats.values() if x["kind"] == "bot"},
                        more_views=lambda seq, audience, team: [
                            ("replay summary", timeline(frames[audience, team][:seq]))])


# -- (e) nothing leaks -----------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z]+")


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


def _public_tokens(run: Run) -> set[str]:
    """Words anyone may see anyway: names, categories, typed text."""
    s = run.final
    public = set()
    for t in s.teams:
        public |= _tokens(t["name"])
    for x in s.seats.values():
        public |= _tokens(x["name"])
    for q in s.questions:
        public |= _tokens(q.category)
    for text in TYPED:
        public |= _tokens(text)
    return public


def _secrets(s, disclosed: set[int], public: set[str]) -> tuple[set[str], list[str]]:
    """The distinctive words and the answer lines no one but the moderator may have seen yet."""
    words, answers = set(), []
    revealed = set()
    if s.q is not None:
        for w in s.question.words[: s.q.revealed]:
            revealed |= _tokens(w)
    for index, question in enumerate(s.questions):
        if index in disclosed:
            continue
        answers.append(question.answer.lower())
        hidden = question.words[s.q.revealed:] if s.q is not None and index == s.q.index else question.words
        for w in hidden:
            words |= {t for t in _tokens(w) if len(t) >= 5}
        words |= {t for t in _tokens(question.answer) if len(t) >= 5}
    return words - revealed - public, answers


def _assert_hidden(frame, secret_words, answers, who):
    text = json.dumps(frame).lower()
    leaked = secret_words & _tokens(text)
    assert not leaked, f"{who} saw unread words {sorted(leaked)}: {text[:300]}"
    for answer in answers:
        assert answer not in text, f"{who} saw the answer line {answer!r}"


@formats()
@PROPERTY_SETTINGS
@given(data=st.data())
def test_players_bots_and_screens_never_see_unread_words_or_the_answer(preset, data):
    run = play(data, preset)
    public = _public_tokens(run)
    audiences = [("player", "t0"), ("player", "t1"), ("bot", None), ("spectator", None)]
    disclosed: set[int] = set()
    first = run.log[0]
    secret, answers = _secrets(fold([first]), disclosed, public)
    for audience, team in audiences:
        _assert_hidden(project(first, audience, team), secret, answers, f"{audience} {team} (match_created)")
    for step in run.steps:
        if not step.events:
            continue
        for event, after in zip(step.events, step.states):
            for entry in after.history:
                if not entry["thrown_out"]:  # a thrown-out question's text and answer stay unsaid
                    disclosed.add(entry["index"])
            if after.q is not None and after.q.closed:
                disclosed.add(after.q.index)
            secret, answers = _secrets(after, disclosed, public)
            for audience, team in audiences:
                _assert_hidden(project(event, audience, team), secret, answers, f"{audience} {team} ({event['type']})")
        for audience, team in audiences:
            _assert_hidden(snapshot(after, audience, team), secret, answers, f"{audience} {team} snapshot")


def test_the_leak_check_would_notice_a_leak():
    """Guard the guard: the moderator does see the words, so the same check must fire for them."""
    m = Match("quizbowl", {"questions": 1})
    m.start(0)
    s = m.state
    secret, answers = _secrets(s, set(), set())
    assert secret and answers
    with pytest.raises(AssertionError):
        _assert_hidden(snapshot(s, "moderator"), secret, answers, "moderator")

