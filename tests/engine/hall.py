"""The fair-audience check, shared by the played matches, the random ones and the replays, stated from
the human's side: while I can still score on this question, nothing I see carries a bot's thought
about it. Nothing the hall (the big screen) or any phone receives, frame or snapshot, holds a guess
or an alternative a bot gave for the question, nor the computer's answer in a team phase; once no
human can score on it any more, the room sees every bot's latest guess for it.

"Can still score" is restated here from the rules of play, not read from the engine: the question is
open and its answer not shown, and either a phase of it is still to come (a team locked out of phase
1 or one that passed phase 2 plays the next phase) or a human team may answer this phase (not locked
out; in a team phase, not passed or out of time).

Public by nature, and so never a leak: an answer a bot speaks after its own buzz, and anything a human
said first. Not against anyone: a human team's own bot (an AI teammate) shown to that team's phones while
the team may consult it, restated from the rules: the rule consult_teammate_bots is on and the guess came
in a team phase (or on a bonus part the team controls, which is after the question closed anyway). The one exception is the host's: with hall_bot_guesses "live", guesses given in a buzz
phase that is the question's last are shown as they come.
"""
from __future__ import annotations

import json

from game.engine.api import project, snapshot

HUMANS = ("t0",)  # the human team in tests/engine/support.py; t1 is the computer (with a human captain)
VIEWERS = (("spectator", None), ("player", "t0"), ("player", "t1"))  # the big screen and every team's phones


def last_phase(s) -> bool:
    return s.q.phase == len(s.rules["phases"]) - 1


def humans_may_score(s, humans=HUMANS) -> bool:
    q = s.q
    if q is not None and q.bonus is not None:  # a bonus part: its controlling team confers, the other takes a bounce
        if q.stage not in ("bonus_confer", "bonus_bounce"):
            return False
        others = {t["id"] for t in s.teams if t["id"] != q.bonus["team"]}
        may = others if q.stage == "bonus_bounce" else {q.bonus["team"]} | (others if s.rules["bounceback"] else set())
        return bool(may)  # a team's captain is a person who says its answers, the computer's team's too
    if q is None or q.closed or q.answer_shown:
        return False
    if not last_phase(s):
        return True
    return any(t not in q.locked and (q.mode == "buzz" or t not in q.passed) for t in humans)


def shown_live(s) -> bool:
    """The host's exception: a buzz phase that is the question's last, under hall_bot_guesses "live"."""
    return s.q.mode == "buzz" and last_phase(s) and s.rules["hall_bot_guesses"] == "live"


def consulted_by(s, event: dict) -> str | None:
    """The team whose phones may see this bot guess to consult it (its own human team), or None."""
    d = event["data"]
    team = next((t for t in s.teams if t["id"] == d.get("team")), None)
    if event["type"] != "bot_guess" or team is None or team.get("kind") != "human":
        return None
    return d["team"] if s.rules["consult_teammate_bots"] and s.q.mode == "team" else None


def check_hall_fairness(steps, bots: set[str], viewers=VIEWERS, more_views=None) -> int:
    """steps: (state before, event, state after) for every event after match_created; more_views(seq,
    audience, team), if given, names more of what that viewer sees after event seq (a replay's
    summary, say). Returns how many guesses were held back (so a caller can tell the check saw a hold)."""
    pending: set[str] = set()  # what bots said about this question while a human could still score on it
    consulted: dict[str, set] = {}  # of those, what a team's own bot said to it to consult: team -> texts
    question = None
    holds = 0
    steps = list(steps)
    for i, (before, event, after) in enumerate(steps):
        kind, d = event["type"], event["data"]
        here = after.q.index if after.q is not None else None
        if here != question:
            pending, consulted, question = set(), {}, here
        scoring = before.q is not None and humans_may_score(before) and not shown_live(before)
        if kind == "bot_guess" and scoring:
            said = {d["guess"]} | {g for g, _ in d.get("alternatives") or []}
            pending |= {x for x in said if x}
            holds += 1
            if consulted_by(before, event) is not None:
                consulted.setdefault(d["team"], set()).update(x for x in said if x)
        if kind == "submission" and d["seat"] in bots and scoring:
            pending.add(d["text"])
        if kind in ("answer", "submission") and (d["seat"] not in bots or kind == "answer"):
            pending.discard(d["text"])  # said aloud after a buzz, or first said by a human: public
        if after.q is not None and not humans_may_score(after):
            # Nothing stays held once no human can score: what was held goes out at once, in the next event.
            following = steps[i + 1] if i + 1 < len(steps) else None
            settled = following[2] if following is not None and following[1]["type"] == "bot_guesses_released" else after
            shown = snapshot(settled, "spectator")["question"]["bot_guesses"]
            assert shown == snapshot(settled, "moderator")["question"]["bot_guesses"], \
                f"after {event['type']} (seq {event.get('seq')}) the hall still misses a bot's guess"
            pending, consulted = set(), {}
            continue
        if not pending:
            continue
        for audience, team in viewers:
            views = [(f"{audience} {team or ''} frame", project(event, audience, team)),
                     (f"{audience} {team or ''} snapshot", snapshot(after, audience, team))]
            if more_views is not None:
                views += more_views(event["seq"], audience, team)
            for what, view in views:
                text = json.dumps(view)
                own = consulted.get(team, set()) if audience == "player" else set()
                leaked = sorted(x for x in pending - own if x in text)
                assert not leaked, \
                    f"{what} after {event['type']} (seq {event.get('seq')}) shows the bots' {leaked} " \
                    f"while a human may still score on question {after.q.number}"
    return holds
