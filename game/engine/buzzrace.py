"""When a person pressed the buzzer, as far as the server can believe the phone.

A buzz reaches the server one network trip after the press, so on arrival order a phone on a slow
link loses races it won on its own screen. The phone estimates the server's clock (ping exchange)
and says when it pressed in that clock ("pressed"); the web layer adds what the server itself knows
of that socket: the median round trip it measured, and when it sent the phone the word the phone
says it was looking at ("seen"). press_time() turns that into the time buzzes are ordered by:

- no claim (a bot, an older client) or nothing measured yet: the arrival time, as before;
- a claim earlier than the moment its word went to that phone, or naming a word the server had not
  revealed, is not believed: the arrival time, with the reason recorded ("tamper");
- otherwise the claim, but never more than the grace window before arrival, the window being the
  match's buzz_grace_ms and at most the round trip the server measured for that socket (a phone
  cannot buy a wider window by claiming a slow link); never later than arrival.

So a correction is always within [arrival - window, arrival], and the window is at most
GRACE_CAP_MS. Pure: no clock, no Django.
"""
from __future__ import annotations

GRACE_CAP_MS = 500  # the widest grace window a match may set (its rule buzz_grace_ms, game/engine/rule_table.py)

# Why a claimed press time was not taken as it came (the audit's "clamp"):
BEFORE_WORD = "before_word"  # earlier than the server sent that phone the word it claims to have seen
UNSENT_WORD = "unsent_word"  # claims a word the server had not revealed when the buzz arrived
NO_CLOCK = "no_clock"  # the server has not measured this socket's round trip (or its words) yet
WINDOW = "window"  # earlier than the grace window allows: moved to the window's edge
TAMPER = frozenset({BEFORE_WORD, UNSENT_WORD})


def grace_ms(rules: dict) -> int:
    """The match's grace window, within [0, GRACE_CAP_MS] (its rules were checked as it was made)."""
    return rules["buzz_grace_ms"]


def _ms(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def press_time(received: int, claimed, seen, revealed_then: int, clock: dict | None, grace: int) -> tuple[int, str | None]:
    """(the time this buzz is ordered by, why the claim was not taken as it came or None).

    received: when the web layer got the buzz; claimed: the phone's press time in server time;
    seen: words the phone showed; revealed_then: words the server had revealed at `received`;
    clock: {"rtt": the socket's median round trip, "seen_at": when word `seen` went to it}, both
    measured by the server."""
    claimed = _ms(claimed)
    if claimed is None:
        return received, None
    clock = clock if isinstance(clock, dict) else {}
    rtt, seen_at = _ms(clock.get("rtt")), _ms(clock.get("seen_at"))
    if _ms(seen) is None or seen < 0 or seen > revealed_then:
        return received, UNSENT_WORD
    if rtt is None or seen_at is None:
        return received, NO_CLOCK
    if claimed < seen_at:
        return received, BEFORE_WORD
    window = min(grace, max(rtt, 0))
    if claimed >= received:
        return received, None
    if received - claimed > window:
        return received - window, WINDOW
    return claimed, None
