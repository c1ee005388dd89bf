"""Buzzes judged by what each player saw: the earlier press wins a race within the grace window, whatever
the links, and a phone cannot buy the floor with a press time it could not have had (engine/buzzrace.py)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.api import Rejected, apply, decide
from game.engine.buzzrace import BEFORE_WORD, GRACE_CAP_MS, NO_CLOCK, UNSENT_WORD, WINDOW, press_time

from .support import MOD, Match

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = 6


def reading(grace: int = 150) -> tuple[Match, list[int]]:
    """A quizbowl tossup with WORDS words shown by the moderator, 400 ms apart, and no more until someone
    buzzes; (the match, when each word was revealed)."""
    m = Match("quizbowl", {"questions": 1, "buzz_grace_ms": grace, "reveal": "moderator"}, length=12)
    m.start(0)
    for word in range(WORDS):
        m.send("reveal", MOD, {"word": word}, at=1000 + 400 * word)
    return m, m.word_times()


def send_buzz(m: Match, seat: str, received: int, seen: int, pressed=None, rtt=None, seen_at=None) -> tuple[str, dict]:
    """A person's buzz as the web layer forwards it, decided at `received`; ("won" | the refusal's code, the event)."""
    data = {"seen": seen} if pressed is None else {"seen": seen, "pressed": pressed}
    command = {"type": "buzz", "actor": m.actor(seat), "data": data, "received": received,
               "clock": {"rtt": rtt, "seen_at": seen_at}}
    m.now = max(m.now, received)
    try:
        events = decide(m.state, command, m.now)
    except Rejected as refusal:
        events, outcome = refusal.events, refusal.code
    else:
        outcome = "won"
    for event in events:
        m.state = apply(m.state, event)
    return outcome, (events[-1] if events else {})


phone = st.fixed_dictionaries({
    "press": st.integers(0, 1200),  # ms after the word it saw was revealed
    "seen": st.integers(1, WORDS),
    "one_way": st.integers(10, 150),  # a 20-300 ms round trip
    "extra": st.integers(0, 40),  # this buzz's jitter on top
})


@SETTINGS
@given(a=phone, b=phone)
def test_the_earlier_press_wins_whatever_order_the_buzzes_arrive_in(a, b):
    """Two people on different teams press; each phone's clock is right, each link as drawn. Within the
    window the earlier press holds the floor, though its buzz may arrive second."""
    m, times = reading()
    buzzes = []
    for seat, p in (("h0", a), ("h2", b)):
        sent = times[p["seen"] - 1] + 5  # the word went out to that phone
        pressed = sent + p["one_way"] + p["press"]
        buzzes.append({"seat": seat, "pressed": pressed, "received": pressed + p["one_way"] + p["extra"],
                       "seen": p["seen"], "rtt": 2 * p["one_way"], "seen_at": sent})
    for buzz in sorted(buzzes, key=lambda x: x["received"]):
        send_buzz(m, buzz["seat"], buzz["received"], buzz["seen"], buzz["pressed"], buzz["rtt"], buzz["seen_at"])
    first, second = sorted(buzzes, key=lambda x: x["pressed"])
    late = second["received"] - first["received"]  # how long after the earlier press's buzz the later one came
    # Every buzz is corrected by its whole lag when that is within the window (as here: lag <= rtt, <= 150 ms
    # or the window's edge), so the earlier press wins unless it came to the server a full window later.
    corrected = {x["seat"]: max(x["pressed"], x["received"] - min(150, x["rtt"])) for x in buzzes}
    if corrected[first["seat"]] < corrected[second["seat"]]:
        assert m.q.possession["seat"] == first["seat"], (buzzes, late)
    if first["pressed"] < second["pressed"] and first["received"] - first["pressed"] <= min(150, first["rtt"]) \
            and second["received"] - second["pressed"] <= min(150, second["rtt"]):
        assert m.q.possession["seat"] == first["seat"], "both lags within the window: the earlier press wins"
    assert m.q.possession["pressed"] == corrected[m.q.possession["seat"]]


@SETTINGS
@given(claimed=st.integers(-10**6, 10**6), seen=st.integers(-2, WORDS + 3), rtt=st.one_of(st.none(), st.integers(0, 5000)),
       lag=st.integers(0, 3000), grace=st.integers(0, GRACE_CAP_MS))
def test_a_correction_never_goes_beyond_the_window_nor_before_the_word_reached_the_phone(claimed, seen, rtt, lag, grace):
    """Whatever a phone claims, the press time a buzz is ordered by is within [arrival - window, arrival],
    the window at most the grace setting and the round trip the server measured; a claim before the
    word it names was sent, or naming a word not revealed, earns nothing, and the reason is recorded."""
    m, times = reading(grace)
    received = times[-1] + lag
    seen_at = times[seen - 1] + 5 if 1 <= seen <= WORDS else times[0] - 400 if seen == 0 else None
    outcome, event = send_buzz(m, "h0", received, seen, received + claimed, rtt, seen_at)
    assert outcome == "won"
    d = event["data"]
    window = min(grace, rtt or 0)
    assert received - window <= d["pressed"] <= received
    assert d["claimed"] == received + claimed and d["received"] == received and d["rtt"] == rtt
    if d["pressed"] < received:
        assert d["pressed"] >= seen_at, "never credited with a press before its word reached the phone"
    if not 0 <= seen <= WORDS:
        assert (d["pressed"], d["clamp"]) == (received, UNSENT_WORD)
    elif rtt is None:
        assert (d["pressed"], d["clamp"]) == (received, NO_CLOCK)
    elif received + claimed < seen_at:
        assert (d["pressed"], d["clamp"]) == (received, BEFORE_WORD)
    elif -claimed > window:
        assert (d["pressed"], d["clamp"]) == (received - window, WINDOW)
    assert m.q.buzz_log[-1]["pressed"] == d["pressed"] and m.q.buzz_log[-1]["clamp"] == d["clamp"]


@SETTINGS
@given(gap=st.integers(1, 2000), claim=st.integers(0, 10**5), grace=st.integers(0, GRACE_CAP_MS))
def test_a_buzz_arriving_a_full_window_after_the_holder_never_takes_the_floor(gap, claim, grace):
    """The held floor is safe once the window has passed: a later buzz's claim, however early, cannot
    reach back past its own window, so the game never waits on a race that cannot be close."""
    m, times = reading(grace)
    held_at = times[-1] + 10
    assert send_buzz(m, "h0", held_at, WORDS)[0] == "won"
    received = held_at + grace + gap
    outcome, event = send_buzz(m, "h2", received, 1, received - claim, rtt=10**4, seen_at=times[0])
    assert outcome == "beaten" and m.q.possession["seat"] == "h0"
    assert event["data"]["margin"] == event["data"]["pressed"] - held_at > 0


def test_a_later_arriving_earlier_press_takes_the_floor_and_the_race_is_on_the_record():
    m, times = reading()
    send_buzz(m, "h0", times[-1] + 100, WORDS, times[-1] + 90, rtt=40, seen_at=times[-1] + 5)
    outcome, event = send_buzz(m, "h2", times[-1] + 110, WORDS - 1, times[-1] - 20, rtt=300, seen_at=times[-2] + 5)
    assert outcome == "won" and m.q.possession["seat"] == "h2"
    assert event["data"]["replaces"] == "h0" and event["data"]["margin"] == 110
    # Pressed before the last word was revealed: credited with the words shown at the press.
    assert event["data"]["word"] == WORDS - 1 and [b["seat"] for b in m.q.buzzes] == ["h2"]
    assert [(b["seat"], b["received"], b["pressed"]) for b in m.q.buzz_log] == [
        ("h0", times[-1] + 100, times[-1] + 90), ("h2", times[-1] + 110, times[-1] - 20)]


def test_without_a_grace_window_buzzes_go_by_arrival():
    m, times = reading(grace=0)
    send_buzz(m, "h0", times[-1] + 100, WORDS, times[-1] + 90, rtt=40, seen_at=times[-1] + 5)
    outcome, event = send_buzz(m, "h2", times[-1] + 160, WORDS, times[-1] + 30, rtt=300, seen_at=times[-1] + 5)
    assert outcome == "beaten" and event["data"]["pressed"] == times[-1] + 160


def test_press_time_reasons():
    clock = {"rtt": 100, "seen_at": 1000}
    assert press_time(1200, None, 3, 4, clock, 150) == (1200, None)  # no claim: a bot, an older client
    assert press_time(1200, 1150, 3, 4, clock, 150) == (1150, None)
    assert press_time(1200, 1050, 3, 4, clock, 150) == (1100, WINDOW)  # the round trip caps the window
    assert press_time(1200, 999, 3, 4, clock, 150) == (1200, BEFORE_WORD)
    assert press_time(1200, 1150, 5, 4, clock, 150) == (1200, UNSENT_WORD)
    assert press_time(1200, 1150, 3, 4, {"rtt": None, "seen_at": 1000}, 150) == (1200, NO_CLOCK)
    assert press_time(1200, 1300, 3, 4, clock, 150) == (1200, None)  # a clock ahead: never later than arrival
