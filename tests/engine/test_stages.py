"""The stage table (game/engine/stages.py) is the one place that says what each stage of play takes.

Folding generated matches of both formats (the played ones, the random runs of test_properties.py and
whole matches played by game/simulation.py's simulated people on the engine alone), every move from one
stage to another is one the table lists, and after every command the stage agrees with what the
question holds (who has the floor, what the clock runs). In a sample state of every stage, paused or
not, decide() refuses each command the table refuses with the table's code and sentence, and refuses no
command the table takes for a reason of the stage.
"""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import stages
from game.engine.api import Rejected, decide, decide_and_fold, fold
from game.engine.fold import apply_in_place
from game.engine.stages import PAUSE_REFUSALS, REFUSALS, STAGES, Stage, StageRules, refusal, stage_of
from game.simulation import SimulatedCompetitor, VirtualMatch

from .played import PLAYED
from .support import MOD, SYS, EngineRunner, Match, answered_quizbowl
from .test_properties import FORMATS, PROPERTY_SETTINGS, play

S = Stage


# -- generated matches ----------------------------------------------------------------------------------

def simulated(preset: str, seed: int) -> Match:
    """A whole match played by simulate's people and bots on a virtual clock."""
    m = Match(preset, {"questions": 4, "tiebreakers": 1}, reserve=3, length=9)
    competitors = [SimulatedCompetitor(seat["id"], seat["team"], "bot" if seat["kind"] == "bot" else "player",
                                       accuracy=0.5) for seat in m.seats.values()]
    VirtualMatch(EngineRunner(m), competitors, seed=seed, start_ms=0).run()
    assert m.state.status == "finished"
    return m


def logs() -> dict[str, list[dict]]:
    out = {}
    for name, build in PLAYED.items():
        out[name] = build(judged=True).events
        out[f"{name}, bot guesses live"] = build(hall_bot_guesses="live").events
    for preset in FORMATS:
        for seed in (1, 2, 3):
            out[f"{preset} simulated, seed {seed}"] = simulated(preset, seed).events
    return out


LOGS = logs()


def check_moves(events: list[dict]) -> set[tuple[Stage, Stage]]:
    """Fold the log; fail on a move between stages that the table does not list. Returns the moves."""
    moves, state, before = set(), None, None
    for seq, event in enumerate(events, 1):
        state = apply_in_place(state, event)
        after = stage_of(state)
        if before is not None and after != before:
            assert after in STAGES[before].exits, f"seq {seq} ({event['type']}) moved {before} -> {after}, " \
                                                  "which the stage table does not list"
            moves.add((before, after))
        before = after
    return moves


def check_agrees(s):
    """After a command, the stage says what the question holds, and the clock runs only the stage's timers."""
    stage, q = stage_of(s), s.q
    if stage in (S.SETUP, S.FINISHED):
        assert not s.paused
    if stage not in stages.QUESTION_STAGES:
        assert q is None or (q.closed and q.possession is None and q.deadline is None)
        return
    words = len(s.question.words)
    held = q.possession
    assert (q.mode == "team") == (stage in (S.DISCUSSION, S.REVIEW_TEAM)), (stage, q.mode)
    assert (held is not None) == (stage in (*stages.FLOOR_HELD, S.REVIEW_BUZZ)), (stage, held)
    if stage is S.READING:
        assert q.revealed < words
    if stage is S.DEAD:
        assert q.revealed == words
    if stage is S.BUZZED:
        assert held["answer"] is None and not held["prompted"]
    if stage is S.PROMPTED:
        assert held["answer"] is None and held["prompted"]
    if stage is S.ANSWERED:
        assert held["answer"] is not None
    timers = STAGES[stage].timers
    assert q.next_word_at is None or "word" in timers, (stage, q.next_word_at)
    assert q.deadline is None or q.deadline["kind"] in timers, (stage, q.deadline)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_move_of_a_generated_match_is_in_the_table(name):
    assert (S.BETWEEN, S.READING) in check_moves(LOGS[name])


def test_the_table_lists_the_moves_that_matches_make_and_the_played_matches_reach_every_stage():
    moves = set().union(*(check_moves(events) for events in LOGS.values()))
    reached = {stage for move in moves for stage in move}
    assert reached == set(Stage)
    # Once the answer was shown, an undo leads to ruling again.
    assert {(S.CLOSED, S.REVIEW_BUZZ), (S.CLOSED, S.REVIEW_TEAM)} <= moves
    for stage, rules in STAGES.items():
        assert stage not in rules.exits, f"{stage} lists itself: staying is not a move"


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_after_every_command_the_stage_agrees_with_the_question(name):
    m = PLAYED[name]()
    for live in m.live.values():
        check_agrees(pickle.loads(live))


@pytest.mark.parametrize("preset", FORMATS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_matches_move_only_as_the_table_says_and_agree_with_it(preset, data):
    run = play(data, preset)
    check_moves(run.log)
    for step in run.steps:
        check_agrees(step.states[-1] if step.states else step.before)


def test_a_move_the_table_lacks_fails_the_check(monkeypatch):
    monkeypatch.setitem(STAGES, S.BUZZED, StageRules(
        "no answers", takes=STAGES[S.BUZZED].takes, exits=STAGES[S.BUZZED].exits - {S.ANSWERED}))
    with pytest.raises(AssertionError, match="buzzed -> answered"):
        check_moves(LOGS["quizbowl"])


# -- every stage refuses what the table refuses, and nothing else for its stage ---------------------------

def settled(state):
    """The state with the clock run up to its own time, so that deciding at that time runs no clock first."""
    return decide_and_fold(state, {"type": "tick", "actor": SYS}, state.t)[1]


def samples() -> dict[tuple[Stage, bool], object]:
    """A state of every stage, live ones paused too: after commands of the played matches, and with no
    question in play (after a throw-out's event, before its replacement's)."""
    found = {}
    for build in PLAYED.values():
        m = build()
        for live in m.live.values():
            state = settled(pickle.loads(live))
            found.setdefault((stage_of(state), False), state)
        thrown = next(i for i, e in enumerate(m.events) if e["type"] == "question_thrown_out")
        found.setdefault((S.BETWEEN, False), fold(m.events[: thrown + 1]))
    for (stage, _), state in list(found.items()):
        if stage not in (S.SETUP, S.FINISHED):
            found[stage, True] = decide_and_fold(state, {"type": "pause", "actor": MOD}, state.t)[1]
    return found


SAMPLES = samples()


def test_there_is_a_sample_of_every_stage_running_and_paused():
    assert {stage for stage, _ in SAMPLES} == set(Stage)
    assert {stage for stage, paused in SAMPLES if paused} == set(Stage) - {S.SETUP, S.FINISHED}


def _human(s, captain: bool | None = None) -> str:
    return next(x["id"] for x in s.seats.values() if x["kind"] == "human" and not x.get("left")
                and (captain is None or x["captain"] == captain))


def fitting(s, kind: str) -> tuple[dict, dict]:
    """An actor and data for `kind` that nothing but the stage would refuse, where the state allows it:
    the buzz holder's answer, a captain's submission, a fresh seat, a real ruling..."""
    seat = lambda seat_id: {"role": "bot" if s.seats[seat_id]["kind"] == "bot" else "player",  # noqa: E731
                            "seat": seat_id, "team": s.seats[seat_id]["team"]}
    q = s.q
    holder = q.possession["seat"] if q is not None and q.possession is not None else None
    bot = next(x["id"] for x in s.seats.values() if x["kind"] == "bot")
    if kind in ("buzz", "chat", "leave"):
        return seat(_human(s, captain=False)), {"text": "so it is"} if kind == "chat" else {}
    if kind == "buzz_for":  # a person pressing for a bot (the computer's, here: refused for its own reason)
        return seat(_human(s, captain=False)), {"bot": bot}
    if kind in ("answer", "pass"):
        who = holder if holder is not None and q.mode == "buzz" else _human(s, captain=True)
        return seat(who), {"text": "a guess"} if kind == "answer" else {}
    if kind == "submit":
        return seat(_human(s, captain=True)), {"text": "a guess"}
    if kind == "bonus_answer":  # the captain of the team whose turn it is (any captain when it is nobody's)
        team = q.bonus["answering"] if q is not None and q.bonus is not None else None
        captain = next(x["id"] for x in s.seats.values() if x["captain"] and (team is None or x["team"] == team))
        return seat(captain), {"text": "a guess"}
    if kind == "protest":
        return seat(_human(s, captain=True)), {"ruling": max(s.rulings, default=1), "text": "we were right"}
    if kind == "bot_guess":
        return seat(bot), {"guess": "Zebulon", "confidence": 0.4}
    moderator = {
        "rule": {"verdict": "reject", "answer": s.q.floor_seq if s.q is not None else 0,
                 **({"part": q.bonus["part"]} if q is not None and q.bonus is not None else {})},
        "decide_part": {"decision": "own", **({"part": q.bonus["part"]} if q is not None and q.bonus is not None else {})},
        "override": {"ruling": 1, "verdict": "accept", "confirm": True},
        "adjust": {"team": "t0", "points": 1, "reason": "a test", "confirm": True}, "kick": {"seat": _human(s)},
        "voice": {"voice": "en-gb", "wpm": 150}, "resolve_protest": {"protest": 1, "outcome": "upheld", "reason": "r"},
    }
    if kind in moderator or kind in MOD_COMMANDS:
        return MOD, moderator.get(kind, {})
    if kind == "voice_timings":
        words = len(s.question.words) if q is not None else 1
        return SYS, {"number": s.number, "index": q.index if q else 0, "offsets": list(range(0, 100 * words, 100)),
                     "end": 100 * words}
    system = {"join": {"seat": {"id": "new", "name": "Newcomer", "team": "t0"}}, "bot_missed": {"seat": bot},
              "bot_stopped": {"seat": bot}, "snippets": {"snippets": []}}
    return SYS, system.get(kind, {})


MOD_COMMANDS = ("start", "next", "end", "resume", "pause", "reveal", "undo", "throw_out", "read_part")
STAGE_REFUSALS = {(r.code, r.sentence) for given in REFUSALS.values()
                  for r in (given.values() if isinstance(given, dict) else [given])}
STAGE_REFUSALS |= {(r.code, r.sentence) for held in PAUSE_REFUSALS.values() for r in held.values()}
# A taken command refused for its own reason in the words a stage uses: voice timings for a match that is
# not read aloud (the played matches are on the clock) are told what they are told with no question.
OWN_REASONS = {("voice_timings", stages.NOT_READ_ALOUD.code, stages.NOT_READ_ALOUD.sentence)}


@pytest.mark.parametrize("stage,paused", sorted(SAMPLES), ids=lambda v: str(v))
def test_decide_refuses_exactly_what_the_stage_refuses(stage, paused):
    s = SAMPLES[stage, paused]
    for kind in stages.COMMANDS:
        actor, data = fitting(s, kind)
        want = refusal(stage, kind, paused)
        try:
            decide(s, {"type": kind, "actor": actor, "data": data}, s.t)
        except Rejected as got:
            said = (got.code, str(got))
            if want is not None:
                assert said == (want.code, want.sentence), f"{kind} in {stage}"
            elif (kind, *said) not in OWN_REASONS:
                assert said not in STAGE_REFUSALS, f"{stage} takes {kind}, yet it was refused as by a stage: {said}"
        else:
            assert want is None, f"{kind} in {stage} was taken; the table refuses it: {want}"


def test_the_table_says_for_each_stage_and_command_whether_it_is_taken_or_why_not():
    for stage, rules in STAGES.items():
        for kind in stages.COMMANDS:
            refused = refusal(stage, kind, paused=False)
            assert (kind in rules.takes) == (refused is None or kind == "resume"), (stage, kind)
            if refused is not None:
                # With no question in play the stage speaks first; inside one, after the sender's own checks.
                assert refused.early == (stage not in stages.QUESTION_STAGES or kind == "resume"), (stage, kind)


def test_a_table_that_forgets_a_refusal_does_not_load(monkeypatch):
    monkeypatch.setitem(REFUSALS, "reveal", {k: v for k, v in REFUSALS["reveal"].items() if k is not S.DEAD})
    with pytest.raises(ValueError, match="dead stage neither takes reveal nor says why"):
        stages._refusals_by_stage()
    monkeypatch.setitem(REFUSALS, "reveal", {**REFUSALS["reveal"], S.DEAD: stages.NOT_LIVE, S.READING: stages.NOT_LIVE})
    with pytest.raises(ValueError, match="reading stage takes reveal, yet REFUSALS refuses it there"):
        stages._refusals_by_stage()


# -- what a person is told when several things are wrong ---------------------------------------------------

def both_miss_the_buzz_phase() -> Match:
    """EfficientQA, question 1: the humans and then the small bot are ruled wrong; phase 2 (team) begins."""
    m = Match("efficientqa", {"questions": 2})
    m.start(0)
    m.reveal_until(3)
    m.send("buzz", "h0", at=m.now + 50)
    m.answer("h0", "the moon")
    m.rule("reject", at=m.now + 100)
    m.reveal_until(5)
    m.send("buzz", "b500", at=m.now + 50)
    m.answer("b500", "the sun")
    m.rule("reject", at=m.now + 100)
    assert stage_of(m.state) is S.DISCUSSION and m.q.phase == 1
    return m


def test_an_undo_in_a_team_phase_goes_back_to_the_buzz_that_was_ruled():
    m = both_miss_the_buzz_phase()
    m.send("undo", MOD, at=m.now + 500)
    assert (S.DISCUSSION, S.ANSWERED) in check_moves(m.events)
    assert stage_of(m.state) is S.ANSWERED and m.q.phase == 0 and m.q.possession["seat"] == "b500"
    m.rule("accept", at=m.now + 500)
    assert stage_of(m.state) is S.CLOSED and m.q.result["seat"] == "b500"


def test_a_command_meant_for_an_earlier_phase_is_told_so_rather_than_that_the_phase_takes_no_buzz():
    m = both_miss_the_buzz_phase()
    late = m.refuse("buzz", "h1", {"question": m.q.index, "phase": 1})
    assert (late.code, str(late)) == ("stale", "That was meant for an earlier phase; it was not sent in time.")
    now = m.refuse("buzz", "h1", {"question": m.q.index, "phase": 2})
    assert (now.code, str(now)) == ("bad_phase", "This is a team phase; discuss and let the captain submit.")


def test_with_no_question_in_play_nothing_about_the_sender_is_checked_first():
    m = answered_quizbowl()
    m.rule("accept")
    assert stage_of(m.state) is S.CLOSED
    stranger = {"role": "player", "seat": "h0", "team": "t1"}  # not the seat's team
    got = m.refuse("buzz", stranger)
    assert (got.code, str(got)) == ("no_question", "No question is being played right now.")


def test_a_pause_holds_the_stage_it_interrupts():
    m = answered_quizbowl()
    m.send("pause", MOD)
    assert stage_of(m.state) is S.ANSWERED and m.state.paused
    assert m.refuse("answer", "h0", {"text": "again"}).code == "paused"
    m.rule("prompt")
    assert stage_of(m.state) is S.PROMPTED
    m.send("resume", MOD, at=m.now + 5000)
    assert stage_of(m.state) is S.PROMPTED
    m.answer("h0", "the full moon")
    assert stage_of(m.state) is S.ANSWERED
