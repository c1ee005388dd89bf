"""One live device per seat: a seat's newest socket plays it, and an older one is closed.

When a player's socket says hello it claims its seat with a stamp (the time in ms, its socket id).
The hub keeps the claim and sends it to the match's group, so every web process with a socket of
the match hears it, and each closes its own socket of that seat if the claim is newer than that
socket's (CLOSE_TAKEN_OVER). Every process compares stamps the same way, so of two devices racing
exactly one keeps the seat, never neither. A socket claims only once its process is in the match's
group, so the process hears every later claim; one that hears a claim older than its own socket's
(two machines' clocks disagree, or the claim was sent before it joined) answers with its socket's
claim, so the older socket still closes wherever it is.

When a seat is given up, the conductor tells the group once the seat_left event is stored
(game/conductor/groups.py), and every process closes that seat's socket with the code and the
reason of who gave it up. The browser does not reconnect after these codes (docs/wire-protocol.md).
"""
from __future__ import annotations

import time

CLOSE_TAKEN_OVER = 4409
CLOSE_REMOVED = 4410
CLOSE_LEFT = 4411
TAKEN_OVER = "This seat is now playing on another device."
GIVEN_UP = {"moderator": (CLOSE_REMOVED, "The moderator removed you from this seat."),
            "player": (CLOSE_LEFT, "You left this match.")}
CLAIM = "hub.seat_claim"


def claim_message(code: str, seat: str, stamp: tuple) -> dict:
    return {"type": CLAIM, "match": code, "seat": seat, "claim": list(stamp)}


class SeatHolders:
    """(match, seat) -> the socket that plays the seat in this process. A socket here has `claim`
    (its stamp) and `shut(code, reason)`."""

    def __init__(self):
        self.holders: dict[tuple[str, str], object] = {}

    def claim(self, socket, code: str, seat: str) -> dict:
        """Make `socket` the seat's holder here (closing an older one); the message for the group."""
        held = self.holders.get((code, seat))
        at = int(time.time() * 1000)
        if held is not None:  # the newer socket here wins even within one millisecond
            at = max(at, held.claim[0] + 1)
        socket.claim = (at, socket.socket_id)
        self.heard(code, seat, socket.claim)
        self.holders[(code, seat)] = socket
        return claim_message(code, seat, socket.claim)

    def heard(self, code: str, seat: str, stamp: tuple) -> dict | None:
        """A claim for the seat (from any process, this one too): the socket here gives way if the
        claim is newer. If the socket here is the newer one, the message that says so again."""
        holder = self.holders.get((code, seat))
        if holder is None or holder.claim == stamp:
            return None
        if holder.claim > stamp:
            return claim_message(code, seat, holder.claim)
        del self.holders[(code, seat)]
        holder.shut(CLOSE_TAKEN_OVER, TAKEN_OVER)
        return None

    def given_up(self, code: str, seat: str, by: str) -> None:
        holder = self.holders.pop((code, seat), None)
        if holder is not None:
            holder.shut(*GIVEN_UP.get(by, GIVEN_UP["moderator"]))

    def release(self, socket, code: str, seat: str | None) -> None:
        if seat is not None and self.holders.get((code, seat)) is socket:
            del self.holders[(code, seat)]
