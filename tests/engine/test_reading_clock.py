"""The reading clock: words appear at the set speed, with pauses after commas and sentence ends; the
power mark takes no time and never shows. Moderator-paced reading reveals a word per key press."""
from __future__ import annotations

import pytest

from game.engine.api import make_rules, project, snapshot, split_words, word_ms

from .support import MOD, Match, question

DEFAULT = make_rules("quizbowl")


@pytest.mark.parametrize("word, ms", [
    ("plain", 300),        # 200 words a minute
    ("comma,", 450),       # +50% after a clause
    ("semi;", 450),
    ("colon:", 450),
    ("dash—", 450),
    ("end.", 600),         # +100% after a sentence
    ("ask?", 600),
    ("shout!", 600),
    ('quoted."', 600),
    ('quoted,"', 450),
])
def test_default_word_durations(word, ms):
    assert word_ms(word, DEFAULT) == ms


@pytest.mark.parametrize("overrides, word, ms", [
    ({"words_per_minute": 100}, "plain", 600),
    ({"words_per_minute": 300}, "plain", 200),
    ({"words_per_minute": 600}, "end.", 200),
    ({"comma_pause": 0}, "comma,", 300),
    ({"sentence_pause": 2}, "end.", 900),
])
def test_durations_follow_the_hosts_settings(overrides, word, ms):
    assert word_ms(word, make_rules("quizbowl", overrides)) == ms


@pytest.mark.parametrize("text, words, power", [
    ("One two (*) three", ("One", "two", "three"), 2),
    ("One two(*) three", ("One", "two", "three"), 2),
    ("One two (*)three", ("One", "two", "three"), 2),
    ("(*) One two", ("One", "two"), 0),
    ("One two three", ("One", "two", "three"), None),
    ("  One\ttwo \n three  ", ("One", "two", "three"), None),
    ("One (*) two (*) three", ("One", "two", "three"), 1),  # only the first mark counts
])
def test_the_power_mark_is_not_a_word(text, words, power):
    assert split_words(text) == (words, power)


def _read_everything(text: str, overrides=None) -> Match:
    m = Match("quizbowl", dict({"questions": 1}, **(overrides or {})), questions=[question(text)])
    m.start(0)
    while m.q.revealed < len(m.question.words):
        m.advance()
    return m


def test_words_appear_on_the_clock_after_the_lead_in():
    m = _read_everything("Alpha, beta gamma. Delta epsilon")
    # lead-in 2 s, then 450 (comma), 300, 600 (sentence end), 300
    assert m.word_times() == [2000, 2450, 2750, 3350, 3650]
    assert [e["data"]["word"] for e in m.events_of_current("word_revealed")] == \
        ["Alpha,", "beta", "gamma.", "Delta", "epsilon"]


@pytest.mark.parametrize("wpm, step", [(100, 600), (200, 300), (400, 150)])
def test_reading_speed_sets_the_pace(wpm, step):
    m = _read_everything("one two three four", {"words_per_minute": wpm, "lead_in_seconds": 1})
    assert m.word_times() == [1000 + i * step for i in range(4)]


@pytest.mark.parametrize("marked", ["Alpha beta (*) gamma delta", "Alpha beta(*) gamma delta"])
def test_the_power_mark_takes_no_time_and_is_never_shown(marked):
    plain = _read_everything("Alpha beta gamma delta")
    m = _read_everything(marked)
    assert m.word_times() == plain.word_times()
    for e in m.events:
        for audience in ("player", "spectator", "bot"):
            assert "(*)" not in str(project(e, audience, "t0")["data"].get("word", ""))
    assert "(*)" not in snapshot(m.state, "player", "t0")["question"]["words"]
    assert "(*)" not in snapshot(m.state, "spectator")["question"]["words"]


def test_moderator_paced_reading_reveals_one_word_per_key_press():
    m = Match("quizbowl", {"questions": 1, "reveal": "moderator"}, questions=[question("One two three.")])
    m.start(0)
    assert m.wakeup() is None
    m.tick(60_000)
    assert m.q.revealed == 0, "no word appears by itself"
    m.send("reveal", MOD, at=61_000)
    m.send("reveal", MOD, at=70_000)
    assert m.q.revealed == 2 and m.word_times() == [61_000, 70_000]
    m.send("reveal", MOD, at=71_000)
    # after the last word ("three." takes 600 ms) the 5-second dead window runs
    assert m.wakeup() == 71_000 + 600 + 5000
    assert m.refuse("reveal", MOD).code == "all_read"


def test_a_word_revealed_by_hand_on_the_clock_sets_the_pace_instead_of_stopping_it():
    m = Match("quizbowl", {"questions": 1}, questions=[question("One two three four.")])
    m.start(0)
    m.send("reveal", MOD, at=500)  # the moderator is reading ahead of the lead-in
    assert m.wakeup() == 800
    while m.q.revealed < 4:
        m.advance()
    assert m.word_times() == [500, 800, 1100, 1400]


GRID_TEXT = "Alpha, beta gamma. Delta epsilon zeta, eta theta iota kappa."


@pytest.mark.parametrize("grid, wpm, start", [(10, 200, 0), (20, 280, 1234), (20, 300, 7), (50, 170, 3)])
def test_on_a_clock_grid_each_word_lands_on_the_grid_within_one_step_of_its_time_and_never_drifts(grid, wpm, start):
    """A server gives its matches a clock grid so that their words fall on shared instants. Each word
    comes at its exact time rounded up to the grid: never early, less than one step late, and the
    lateness never adds up, however long the question (the next word is timed from when this one was
    due, not from the grid)."""
    text = " ".join([GRID_TEXT] * 6)
    exact = Match("quizbowl", {"questions": 1, "words_per_minute": wpm}, questions=[question(text)])
    gridded = Match("quizbowl", {"questions": 1, "words_per_minute": wpm, "clock_grid_ms": grid},
                    questions=[question(text)])
    for m in (exact, gridded):
        m.start(start)
        while m.q.revealed < len(m.question.words):
            m.advance()
    assert len(gridded.word_times()) == len(exact.word_times()) == 60
    for on_grid, due in zip(gridded.word_times(), exact.word_times()):
        assert on_grid % grid == 0 and due <= on_grid < due + grid


@pytest.mark.parametrize("wpm", [100, 120, 150, 200, 300])
def test_on_the_servers_default_grid_the_common_speeds_keep_an_even_beat(wpm, settings):
    """The server's grid (EXHIBITION_CLOCK_GRAIN_MS) divides a word's time and its pauses at the usual
    speeds, so every gap between two words on the screens is the reading clock's own: the grid makes
    each word a little late, never the beat uneven."""
    grid = settings.EXHIBITION_CLOCK_GRAIN_MS
    assert grid > 0
    exact = Match("quizbowl", {"questions": 1, "words_per_minute": wpm}, questions=[question(GRID_TEXT)])
    gridded = Match("quizbowl", {"questions": 1, "words_per_minute": wpm, "clock_grid_ms": grid},
                    questions=[question(GRID_TEXT)])
    for m in (exact, gridded):
        m.start(7)
        while m.q.revealed < len(m.question.words):
            m.advance()
    gaps = lambda times: [b - a for a, b in zip(times, times[1:])]  # noqa: E731
    assert gaps(gridded.word_times()) == gaps(exact.word_times())
    assert gridded.word_times() != exact.word_times()  # late by the same part of a step throughout


def test_on_a_clock_grid_a_buzz_between_a_words_time_and_its_grid_instant_comes_before_that_word():
    """The word is shown at the grid instant, so a buzz before it was pressed on the words before it,
    and the log stays in time order."""
    m = Match("quizbowl", {"questions": 1, "words_per_minute": 280, "clock_grid_ms": 20},
              questions=[question("one two three four five")])
    m.start(0)
    m.advance()  # the first word, at 2000
    due = 2000 + word_ms("one", m.rules)  # 2214: the second word's exact time; its grid instant is 2220
    assert m.wakeup() == 2220
    m.buzz("h0", at=due + 2)
    assert m.q.revealed == 1, "the second word was not shown yet"
    times = [e["t"] for e in m.events]
    assert times == sorted(times)
