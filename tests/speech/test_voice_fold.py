"""Every page's fold (static/js/match-socket.js, under Node) follows a match read aloud as the server's
snapshot does, at every seq and for every audience: the moderator's pick of voice, the timings and the
audio key on the big screen and the console, none of it on the phones; the words revealed by the
voice, through a buzz, a wrong answer and the next question."""
from __future__ import annotations

from game.engine.api import apply, project, snapshot
from tests.engine.support import MOD, SYS, Match, question
from tests.js.test_browser_fold import AUDIENCES, browser_views, check_log, stored

OFFSETS = [0, 300, 700, 700, 1100, 1500]


def read_aloud_match() -> Match:
    m = Match("quizbowl", {"questions": 2, "tiebreakers": 0, "reveal": "voice", "lead_in_seconds": 1},
              questions=[question("Alpha bravo of the charlie delta.", qid="a"),
                         question("Echo foxtrot golf hotel india juliet.", qid="b"), question("Spare one.", qid="c")])
    m.send("voice", MOD, {"voice": "en-gb", "wpm": 200}, at=0)
    m.start(at=10)
    for number in (1, 2):
        q = m.state.q
        m.send("voice_timings", SYS, {"number": q.number, "index": q.index, "offsets": OFFSETS, "end": 2000,
                                      "audio": f"key{number}", "voice": "en-gb"}, at=m.now + 50)
        m.reveal_until(3)
        if number == 1:
            m.buzz("h0", at=m.now + 10)
            m.answer("h0", "a guess", at=m.now + 10)
            m.rule("reject", at=m.now + 10)
        m.play_to_close(step=200)
        if number == 1:
            m.send("next", MOD, at=m.now + 500)
    return m


def test_every_page_folds_a_match_read_aloud_as_the_server_does(tmp_path):
    m = read_aloud_match()
    kinds = [e["type"] for e in m.events]
    assert kinds.count("voice_ready") == 2 and "voice_chosen" in kinds and "ruling" in kinds
    check_log(m.events, tmp_path, starts_every=5)

    events = stored(m.events)
    states, state = [], None
    for event in events:
        state = apply(state, event)
        states.append(state)
    runs = [{"audience": a, "snapshot": None, "frames": [project(e, a, t) for e in events], "resync": {}}
            for a, t in AUDIENCES]
    for (audience, team), views in zip(AUDIENCES, browser_views(runs, tmp_path)):
        for state, view in zip(states, views):
            snap = snapshot(state, audience, team)
            assert view["voice"] == snap["voice"], audience
            if snap["question"] is not None:
                assert view["question"]["voice"] == snap["question"]["voice"], (audience, state.seq)
        assert (views[-1]["question"]["voice"] is None) == (audience == "player"), audience
