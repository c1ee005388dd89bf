"""Stale state + events == fresh state, for the browser: the fold every page runs
(static/js/match-fold.js), run under Node on the frames each audience received in played matches,
equals the server's snapshot (game/engine/projection.py) at every seq, for every audience (moderator,
spectator, a player of each team), on both formats, with undo, override, throw-out, held bot guesses,
judge suggestions and protests (upheld, overturned, after the final whistle) in the logs; from the first frame, and from a snapshot taken midway (a page that
reconnects). On an undo the page asks for a snapshot, as it does live, and gets the server's.

What a page shows for the current question (answer line, buzz markers, pending suggestions labelled by
team, bot cards, the audit of buzzes) is in that comparison, so the console shows after an undo or a
reload what it showed before.
"""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.api import apply, fold, project, snapshot
from tests.conftest import need_service
from tests.engine.played import PLAYED, judgement
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "fold_views.mjs"
AUDIENCES = [("moderator", None), ("spectator", None), ("player", "t0"), ("player", "t1")]
TOP = ("seq", "t", "status", "paused", "rules", "teams", "scores", "scores_seq", "number", "winner", "corrections",
       "protests", "bonuses_left")
HISTORY = ("number", "index", "tiebreaker", "thrown_out", "reason", "phase", "result", "rulings", "score_changes",
           "answer", "text", "buzzes", "bonus")
QUESTION = ("number", "index", "tiebreaker", "priority", "category", "kind", "revealed", "words", "phase", "mode",
            "locked", "passed", "possession", "floor", "deadline", "next_word_at", "closed", "answer_shown", "result",
            "score_changes", "answer", "power_index", "submissions", "chat", "bot_guesses", "bot_missed", "bot_cards",
            "snippets", "buzz_log", "buzzes", "answers", "suggestions", "ruling_ids", "bonus")
STAFF_ONLY = ("can_undo", "last_ruling", "floor_seq")


def comparable(view: dict, audience: str) -> dict:
    """The parts of a view (a snapshot, or the browser's fold) that every page draws from."""
    view = json.loads(json.dumps(view))
    out = {k: view[k] for k in TOP}
    out["seats"] = sorted(view["seats"], key=lambda s: s["id"])
    out["rulings"] = sorted(view["rulings"], key=lambda r: r["id"])
    out["history"] = [{k: h.get(k) for k in HISTORY} for h in view["history"]]
    q = view["question"]
    keys = QUESTION + (STAFF_ONLY if audience == "moderator" else ())
    out["question"] = None if q is None else {k: q.get(k) for k in keys}
    return out


def stored(events: list[dict]) -> list[dict]:
    return json.loads(json.dumps([dict(e, seq=i) for i, e in enumerate(events, 1)]))


def browser_views(runs: list[dict], tmp_path) -> list[list[dict]]:
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the browser's fold in tests)")
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({"runs": runs}))
    done = subprocess.run([node, str(HARNESS), str(ROOT), str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def check_log(events: list[dict], tmp_path, starts_every: int = 11):
    """Every audience's browser fold against the server's snapshot at every seq, from the start and from
    snapshots at several seqs (every question's start and every `starts_every` seqs)."""
    events = stored(events)
    states, state = [None], None
    for event in events:
        state = apply(state, event)
        states.append(state)
    snaps = {(a, t): [snapshot(s, a, t) if s else None for s in states] for a, t in AUDIENCES}
    starts = sorted({0} | {e["seq"] for e in events if e["type"] == "question_started"}
                    | set(range(starts_every, len(events), starts_every)))
    runs, expected = [], []
    for audience, team in AUDIENCES:
        frames = [project(e, audience, team) for e in events]
        resync = {e["seq"]: snaps[(audience, team)][e["seq"]] for e in events if e["type"] == "undo"}
        for start in starts:
            runs.append({"audience": audience, "snapshot": snaps[(audience, team)][start] if start else None,
                         "frames": frames[start:], "resync": {str(k): v for k, v in resync.items() if k > start}})
            expected.append((audience, team, start))
    for (audience, team, start), views in zip(expected, browser_views(runs, tmp_path)):
        for seq, view in enumerate(views, start + 1):
            want = comparable(snaps[(audience, team)][seq], audience)
            got = comparable(view, audience)
            if got != want:
                diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
                if "question" in diff and got["question"] and want["question"]:
                    diff["question"] = {k: (got["question"][k], want["question"][k]) for k in want["question"]
                                        if got["question"][k] != want["question"][k]}
                pytest.fail(f"{audience} {team or ''} (from seq {start}): after seq {seq} ({events[seq - 1]['type']}) "
                            f"the browser's fold differs from the snapshot (browser, server): {diff}")


@pytest.mark.parametrize("fmt", sorted(PLAYED))
@pytest.mark.parametrize("rule", ["after_humans", "live"])
def test_the_browser_fold_equals_the_snapshot_at_every_seq_for_every_audience(fmt, rule, tmp_path):
    m = PLAYED[fmt](rule, judged=True)
    kinds = {e["type"] for e in m.events}
    assert {"undo", "override", "question_thrown_out", "judge_suggested", "bot_guess", "protest_filed",
            "protest_resolved"} <= kinds
    check_log(m.events, tmp_path)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.nested_given])
@given(data=st.data(), fmt=st.sampled_from(["efficientqa", "quizbowl"]))
def test_the_browser_fold_equals_the_snapshot_on_random_matches(data, fmt, tmp_path):
    from tests.engine.test_properties import play

    run = play(data, fmt)
    events = list(run.log)
    # The judge's suggestion follows each typed answer, as the conductor's follow-up does.
    judged, state = [], fold(events[:1])
    for event in events[1:]:
        judged.append(event)
        if event["type"] in ("answer", "submission"):
            judged.append({"type": "judge_suggested", "t": event["t"], "data": judgement(event, len(judged) + 1)})
    check_log(events[:1] + judged, tmp_path, starts_every=17)


def test_the_browser_fold_follows_seats_given_up(tmp_path):
    """A player leaves, the moderator removes a captain mid-question (the captaincy passes on), and a
    newcomer takes a freed name: every page's roster (who is here, who captains) equals the server's."""
    from tests.engine.support import MOD, SYS, Match, seat

    m = Match("efficientqa", {"questions": 1, "tiebreakers": 0})
    m.start(0)
    m.reveal_until(3)
    m.send("leave", "h2", at=m.now + 100)  # the computer team's only person
    m.send("kick", MOD, {"seat": "h0"}, at=m.now + 100)  # the humans' captain: Ben captains now
    m.send("join", SYS, {"seat": seat("h9", "t0", "Ann")}, at=m.now + 100)
    while m.q.mode != "team":
        m.tick(m.now + 1000)
    m.send("submit", "h1", {"text": "gravity"}, at=m.now + 100)
    kinds = [e["type"] for e in m.events]
    assert kinds.count("seat_left") == 2 and "submission" in kinds
    check_log(m.events, tmp_path, starts_every=3)


def test_every_bot_card_shows_its_top_five_guesses_in_the_browser_as_on_the_server(tmp_path):
    """A bot's card carries its top MAX_GUESSES guesses with their scores, on the server and in the
    browser's fold alike: five from a guess the engine took now, and five of the ten a log written
    before the engine cut a report to five holds."""
    from game.engine.api import project
    from game.engine.rules import MAX_GUESSES
    from tests.engine.support import Match

    assert MAX_GUESSES == 5
    m = Match("quizbowl", {"questions": 1, "hall_bot_guesses": "live"})
    m.start(0)
    m.reveal_until(3)
    ten = [[f"guess {i}", round(1 - i / 10, 2)] for i in range(10)]
    m.send("bot_guess", "bot", {"guess": "guess 0", "confidence": 0.9, "buzz": False, "alternatives": ten, "threshold": 0.5})
    now = m.events[-1]
    old = dict(now, data=dict(now["data"], alternatives=ten), t=now["t"] + 1)  # as stored before the cut
    events = m.events + [old]
    for event in (now, old):
        state = fold(events[: events.index(event) + 1])
        for audience, team in AUDIENCES:
            card = snapshot(state, audience, team)["question"]["bot_cards"]["bot"]
            assert [g for g, _ in card["guesses"]] == [f"guess {i}" for i in range(MAX_GUESSES)], audience
    assert project(old, "spectator")["data"]["alternatives"] == ten  # the frame as stored; the card cuts it
    check_log(events, tmp_path, starts_every=2)


def test_the_browser_fold_follows_a_bot_stopped_midway(tmp_path):
    """The start puts each bot's measured size on its seat; a bot is stopped for the rest of the match in
    phase 1 (its worker hit its memory limit): every page's roster says so (the moderator's with the
    reason), its card says stopped on the next question too."""
    from tests.engine.support import MOD, SYS, Match

    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0})
    m.send("start", MOD, {"bot_sizes": {"b500": {"bytes": 300, "artefacts": 100, "code": 50, "packages": 150},
                                        "b6": {"bytes": 7}}}, at=0)  # what each bot measured, for its card
    m.reveal_until(3)
    m.send("bot_guess", "b500", {"guess": "Quvexo", "confidence": 0.2, "buzz": False})
    m.send("bot_stopped", SYS, {"seat": "b500", "reason": "over its tier's memory limit"}, at=m.now + 10)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 2000)
    m.reveal_until(2)
    assert [e["type"] for e in m.events].count("bot_stopped") == 1 and m.state.q.number == 2
    check_log(m.events, tmp_path, starts_every=4)


def test_the_browser_fold_follows_an_ai_teammate_consulted_and_buzzed_for(tmp_path):
    """A semi bot on the humans' team: its guesses held from everyone while the team buzzes, shown to its own
    team's phones (only) in a team phase, then released; a teammate's press for it, and its answer ruled for the
    team: every page's fold equals the server's snapshot, its own team's phones included."""
    from tests.engine.support import MIXED_TEAMS, MOD, Match, efficientqa_seats, teammate

    mates = [teammate("semi", "6gib"), teammate("semi", "500mib", id="mate5")]
    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0}, seats=efficientqa_seats() + mates, teams=MIXED_TEAMS)
    m.start(0)
    m.reveal_until(3)
    while m.q.mode != "team":
        m.tick(m.now + 1000)
    m.send("bot_guess", "mate", {"guess": "Zebulon Quartermaine", "confidence": 0.8, "buzz": False}, at=m.now + 100)
    m.send("submit", "h0", {"text": "Zebulon Quartermaine"}, at=m.now + 100)
    m.rule("reject", at=m.now + 100)
    while not m.q.closed:
        m.tick(m.now + 5000)
    m.send("next", MOD, at=m.now + 100)
    m.reveal_until(4)
    m.send("buzz_for", "h1", {"bot": "mate5"}, at=m.now + 50)  # phase 1 is the 500mib bot's
    m.answer("mate5", "Quvexo")
    m.rule("accept", at=m.now + 100)
    kinds = [e["type"] for e in m.events]
    assert m.state.history[-1]["result"]["seat"] == "mate5"
    consulted = [e for e in m.events if e["type"] == "bot_guess" and e["data"].get("consult")]
    assert consulted and "bot_guesses_released" in kinds
    check_log(m.events, tmp_path, starts_every=5)
