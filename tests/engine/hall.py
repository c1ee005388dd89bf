"""The fair-audience check, shared by the played matches and the random ones: while the humans may
still answer the phase, nothing the hall (the big screen) or a human team's phones receive, frame or
snapshot, holds a guess a bot made during that phase, nor the computer's answer to it; once they
cannot, every guess is out.

"May still answer" is restated here from the rules of play, not read from the engine: the question is
open and its answer not shown, and a human team is not locked out (ruled wrong) and, in a
team phase, has not passed or run out of time; a buzz phase that timed out ("dead") is over.
"""
from __future__ import annotations

import json

from game.engine.api import project, snapshot

HALL = (("spectator", None), ("player", "t0"))  # t0 is the human team in tests/engine/support.py


def humans_may_answer(s, humans=("t0",)) -> bool:
    q = s.q
    if q is None or q.closed or q.answer_shown:
        return False
    return any(t not in q.locked and (q.mode == "buzz" or t not in q.passed) for t in humans)


def held_rule_applies(s) -> bool:
    return s.q.mode == "team" or s.rules.get("hall_bot_guesses", "after_humans") != "live"


def check_hall_fairness(steps, bots: set[str]) -> int:
    """steps: (state before, event, state after) for every event after match_created. Returns how many
    times something was held back (so a caller can tell the check saw a hold)."""
    pending: set[str] = set()  # what bots said during this phase while the humans could answer
    phase = None
    over = False  # a buzz phase whose time ran out is over until the next phase starts
    holds = 0
    steps = list(steps)
    for i, (before, event, after) in enumerate(steps):
        kind, d = event["type"], event["data"]
        here = (after.q.index, after.q.phase) if after.q is not None else None
        if here != phase:
            pending, phase, over = set(), here, False
        if kind == "timeout" and d.get("kind") == "dead":
            over = True
        answering = before.q is not None and humans_may_answer(before) and held_rule_applies(before)
        if kind == "bot_guess" and answering:
            said = {d["guess"]} | {g for g, _ in d.get("alternatives") or []}
            pending |= {x for x in said if x}
            holds += 1
        if kind == "submission" and d["seat"] in bots and answering:
            pending.add(d["text"])
        done = not humans_may_answer(after)
        if after.q is not None and (done or kind == "phase_started"):
            # Nothing stays held once they are done: what was held goes out at once, in the next event.
            following = steps[i + 1] if i + 1 < len(steps) else None
            settled = following[2] if following is not None and following[1]["type"] == "bot_guesses_released" else after
            shown = snapshot(settled, "spectator")["question"]["bot_guesses"]
            assert shown == snapshot(settled, "moderator")["question"]["bot_guesses"], \
                f"after {event['type']} (seq {event.get('seq')}) the hall still misses a bot's guess"
        if done or over:
            pending = set()
            continue
        for audience, team in HALL:
            for what, view in ((f"{audience} frame", project(event, audience, team)),
                               (f"{audience} snapshot", snapshot(after, audience, team))):
                text = json.dumps(view)
                leaked = sorted(x for x in pending if x in text)
                assert not leaked, f"{what} after {event['type']} shows the bots' {leaked} while the humans may answer"
    return holds
