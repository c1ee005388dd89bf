"""The fast fold (in place, one state for the whole log) gives exactly the state the old fold gave
(a fresh copy of the state per event), at every seq of played matches; and decide() still never
changes the state it is given, even when it refuses a command after the clock already moved."""
from __future__ import annotations

import copy
import pickle

import pytest

from game.engine.api import Rejected, apply, decide, fold
from game.engine.fold import apply_in_place
from game.engine.state import CLOSED_RECORDS, QUESTION_RECORDS

from .played import PLAYED
from .support import Match


def copying_fold(events):
    """The fold as it was: apply() copies the state for every event."""
    state, states = None, []
    for event in events:
        state = apply(state, event)
        states.append(state)
    return states


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_the_in_place_fold_equals_the_copying_fold_at_every_seq(name):
    m = PLAYED[name]()
    expected = copying_fold(m.events)
    state = None
    for event, old in zip(m.events, expected):
        state = apply_in_place(state, event)
        assert state == old, f"the folds differ after seq {old.seq} ({event['type']})"
    assert fold(m.events) == expected[-1]
    assert {e["type"] for e in m.events} >= {"undo", "override", "score_adjusted", "ruling", "bot_guess",
                                             "question_thrown_out"}


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_the_fold_equals_the_live_state_after_every_command(name):
    m = PLAYED[name]()
    for seq, live in m.live.items():
        assert fold(m.events[:seq]) == pickle.loads(live), f"the fold of the first {seq} events is not the live state"


def test_a_refused_command_leaves_the_given_state_alone_even_after_the_clock_moved():
    m = Match("quizbowl", {"questions": 1, "reveal": "clock"})
    m.start(0)
    m.reveal_until(3)
    m.buzz("h0")
    m.answer("h0", "the moon")
    m.rule("reject")
    before = pickle.dumps(m.state)
    # Words are due by then, so decide emits them first; then the locked-out team's buzz is refused.
    with pytest.raises(Rejected):
        decide(m.state, {"type": "buzz", "actor": m.actor("h1"), "data": {}}, m.now + 5000)
    assert pickle.dumps(m.state) == before


def test_apply_leaves_the_given_state_alone_and_the_in_place_fold_does_not():
    m = Match("quizbowl", {"questions": 1})
    m.start(0)
    event = m.reveal_until(1) and m.events[-1]
    state = fold(m.events[:-1])
    before = pickle.dumps(state)
    after = apply(state, event)
    assert pickle.dumps(state) == before and after.q.revealed == 1
    assert apply_in_place(state, event) is state and state.q.revealed == 1


def mutable_ids(value, seen: dict) -> dict:
    """id -> object of every dict, list and state dataclass reachable from value (questions excepted)."""
    if isinstance(value, (dict, list)) or hasattr(value, "__dataclass_fields__"):
        if id(value) in seen or type(value).__name__ == "Question":
            return seen
        seen[id(value)] = value
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else vars(value).values()
        for item in items:
            mutable_ids(item, seen)
    elif isinstance(value, tuple):
        for item in value:
            mutable_ids(item, seen)
    return seen


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_a_state_copy_equals_deepcopy_and_shares_only_what_the_fold_never_changes(name):
    """MatchState.clone (the copy decide folds into) has deepcopy's value at every seq of played
    matches. The only mutable objects it shares with the original are the rules and teams (fixed when
    the match is created) and the closed records (questions closed, rulings, corrections, protests),
    which the fold replaces instead of changing; the lists and dicts that hold the records are the
    copy's own, like everything else it has."""
    state = None
    for event in PLAYED[name]().events:
        state = apply_in_place(state, event)
        clone = state.clone()
        assert clone == copy.deepcopy(state), f"the copies differ after seq {state.seq}"
        assert clone.questions is state.questions, "questions are shared, not copied"
        records = mutable_ids(state.teams, mutable_ids(state.rules, {}))  # fixed when the match was created
        assert clone.rules is state.rules and clone.teams is state.teams
        for name in QUESTION_RECORDS if state.q is not None else ():
            mutable_ids(getattr(state.q, name), records)
        for container in CLOSED_RECORDS:
            held = getattr(state, container)
            for record in held.values() if isinstance(held, dict) else held:
                mutable_ids(record, records)
        shared = mutable_ids(clone, {}).keys() & mutable_ids(state, {}).keys()
        assert shared <= records.keys(), \
            f"after seq {state.seq} the copy shares {len(shared - records.keys())} mutable objects beyond the closed records"


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_folding_into_a_copy_never_changes_the_state_it_came_from(name):
    """What makes sharing the closed records safe: from every seq of played matches (an undo, an
    override and a protest after the final whistle among them), the copy is folded on in place to the
    end of the log, as decide folds a command's events one after another, and the state it was copied
    from is still what it was."""
    events = PLAYED[name]().events
    state = None
    for seq, event in enumerate(events, 1):
        state = apply_in_place(state, event)
        before = pickle.dumps(state)
        copy_of = state.clone()
        for later in events[seq:]:
            copy_of = apply_in_place(copy_of, later)
        assert pickle.dumps(state) == before, f"folding on from seq {seq} changed the state it was copied from"
