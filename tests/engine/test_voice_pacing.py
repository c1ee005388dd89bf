"""Reading aloud: with reveal "voice" each word is shown when the voice says it (its timings enter as
data from the conductor), words said as one unit appear together, a buzz stops the reading and a
wrong answer resumes it from the next word; the moderator picks the voice or reads by hand. The
phones and the bots never get the audio or the timings, only when the first word is due."""
from __future__ import annotations

from game.engine.api import fold, next_wakeup, project, snapshot

from .support import MOD, SYS, Match, question

TEXT = "Alpha bravo of the charlie delta echo."  # 7 words
OFFSETS = [0, 400, 900, 900, 1300, 2000, 2600]  # "of the" said as one unit
END = 3200


def voice_match(**rules):
    m = Match("quizbowl", {"questions": 1, "reveal": "voice", "lead_in_seconds": 1, **rules},
              questions=[question(TEXT), question("Spare question text here.", qid="r")])
    m.start(at=0)
    return m


def timings(m, offsets=OFFSETS, end=END, at=None, **extra):
    q = m.state.q
    data = {"number": q.number, "index": q.index, "offsets": offsets, "end": end, "audio": "abc123", **extra}
    return m.send("voice_timings", SYS, data, at=at)


def test_no_word_is_shown_until_the_voice_timings_arrive():
    m = voice_match()
    assert m.state.q.next_word_at is None and next_wakeup(m.state) is None
    m.tick(5000)
    assert m.state.q.revealed == 0
    timings(m, at=5100)
    assert m.state.q.next_word_at == 6100  # the lead-in runs from when the voice is ready


def test_each_word_is_shown_when_the_voice_says_it():
    m = voice_match()
    timings(m, at=100)
    start = m.state.q.next_word_at
    while m.state.q.revealed < len(OFFSETS):
        m.advance()
    shown = [t - start for t in m.word_times()]
    assert shown == OFFSETS  # exact: the reveal schedule is the audio's own


def test_words_said_as_one_unit_appear_together():
    m = voice_match()
    timings(m, at=0)
    m.tick(1000 + 900)
    assert m.state.q.revealed == 4  # "of" and "the" at once
    events = m.events_of_current("word_revealed")
    assert [e["data"]["word"] for e in events[-2:]] == ["of", "the"] and events[-1]["t"] == events[-2]["t"]


def test_a_buzz_stops_the_reading_and_a_wrong_answer_resumes_from_the_next_word():
    m = voice_match()
    timings(m, at=0)
    m.tick(1000 + 400)  # two words read
    m.buzz("h0", at=1500)
    assert next_wakeup(m.state) != 1000 + 900  # no word while someone answers
    m.answer("h0", "wrong guess", at=2500)
    m.rule("reject", at=4000)
    assert m.state.q.revealed == 2 and m.state.q.next_word_at == 4000
    m.tick(4000)
    # "of the" (said as one unit) come together; the next word follows at the voice's spacing
    assert m.state.q.revealed == 4 and m.state.q.next_word_at == 4000 + 400


def test_bad_or_stale_timings_are_refused_and_change_nothing():
    m = voice_match()
    q = m.state.q
    base = {"number": q.number, "index": q.index, "end": END}
    assert m.refuse("voice_timings", SYS, dict(base, offsets=OFFSETS[:-1])).code == "bad_shape"
    assert m.refuse("voice_timings", SYS, dict(base, offsets=[0, 500, 400, 900, 1300, 2000, 2600])).code == "bad_shape"
    assert m.refuse("voice_timings", SYS, dict(base, offsets=OFFSETS, end=10**9)).code == "bad_shape"
    assert m.refuse("voice_timings", SYS, dict(base, offsets=OFFSETS, audio="../x")).code == "bad_shape"
    assert m.refuse("voice_timings", SYS, dict(base, offsets=OFFSETS, number=9)).code == "stale"
    assert m.refuse("voice_timings", MOD, dict(base, offsets=OFFSETS)).code == "forbidden"
    timings(m)
    assert m.refuse("voice_timings", SYS, dict(base, offsets=OFFSETS)).code == "stale"


def test_the_moderator_picks_the_voice_and_speed_or_reads_by_hand():
    m = voice_match()
    m.send("voice", MOD, {"voice": "en-gb", "wpm": 150})
    assert m.state.voice == {"voice": "en-gb", "wpm": 150}
    assert m.refuse("voice", MOD, {"voice": "robot", "wpm": 150}).code == "bad_voice"
    assert m.refuse("voice", MOD, {"voice": "en-gb", "wpm": 9000}).code == "bad_wpm"
    assert m.refuse("voice", "h0", {"voice": "en-gb", "wpm": 150}).code == "forbidden"
    m.send("voice", MOD, {"voice": "hand", "wpm": 175})
    # by hand, with no timings: each key press shows one word and nothing is scheduled after it
    m.send("reveal", MOD, {"word": 0}, at=200)
    assert m.state.q.revealed == 1 and next_wakeup(m.state) is None
    assert fold(m.events).voice == m.state.voice


def test_only_the_big_screen_and_the_moderator_get_the_audio_and_the_timings():
    m = voice_match()
    event = timings(m, at=0)[-1]
    for audience in ("player", "bot"):
        frame = project(event, audience, team="t0")
        assert frame["data"] == {"number": 1, "next_word_at": 1000}
        assert snapshot(m.state, audience, team="t0")["question"]["voice"] is None
    assert project(event, "spectator")["data"]["offsets"] == OFFSETS
    assert snapshot(m.state, "spectator")["question"]["voice"]["audio"] == "abc123"


def test_the_clock_format_is_unchanged_by_timings_it_never_gets():
    m = Match("quizbowl", {"questions": 1, "lead_in_seconds": 1}, questions=[question(TEXT), question("Spare.", qid="r")])
    m.start(at=0)
    assert m.state.q.next_word_at == 1000
    assert m.refuse("voice_timings", SYS, {"number": 1, "index": 0, "offsets": OFFSETS, "end": END}).code == "stale"
