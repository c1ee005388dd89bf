"""Seat tokens: the credential that says which seat of which match a player holds.

A token is signed (django.core.signing, salt "exhibition.seat"), which also stamps when it was made,
and names the seat, the match and the seat's credential generation. So a token opens no other match,
stops working EXHIBITION_SEAT_TOKEN_HOURS after the join, and stops working at once when its seat is
given up (the player leaves or the moderator removes it: game/seats_left.py bumps the generation).

A socket opened with a token is closed when the token's age passes (game/live/consumers.py, 4412), so
a seat is never played on a token that would no longer open it.

It never travels in a URL, because proxies log URLs. A browser keeps it in its session (the HttpOnly
session cookie names the session, not the token), and its player socket reads it from there; other
clients (tests, benches) send it in the X-Seat-Token header of the websocket handshake.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from game.models import Seat

SALT = "exhibition.seat"
HEADER = "X-Seat-Token"
SESSION_SEATS = "seats"  # request.session[SESSION_SEATS][match code] -> the token of the seat held there
CLOSE_EXPIRED = 4412  # an open socket's token passed its age: final, the page says to join again
EXPIRED = "Your seat's pass has expired. Join again with the match code to keep playing."


@dataclass(frozen=True)
class SeatPass:
    """What a genuine, unexpired token says: a seat's primary key, the generation it was made for,
    and when it stops working (seconds since the epoch)."""

    seat: int
    generation: int
    expires: float = float("inf")


def make_seat_token(seat) -> str:
    """The token for a Seat, as it is now: kept in the player's session, or sent in the X-Seat-Token header."""
    return signing.dumps({"seat": seat.pk, "match": seat.team.match.code, "gen": seat.credential}, salt=SALT)


def max_age_seconds() -> float:
    return float(settings.EXHIBITION_SEAT_TOKEN_HOURS) * 3600


def read_seat_token(token, code: str) -> SeatPass | None:
    """What the token says if it is genuine, not expired and made for match `code`; else None."""
    if not isinstance(token, str) or not token:
        return None
    try:
        value = signing.loads(token, salt=SALT, max_age=max_age_seconds())
    except signing.BadSignature:  # forged, tampered with, or expired (SignatureExpired is one)
        return None
    if not isinstance(value, dict) or value.get("match") != code:
        return None
    seat, generation = value.get("seat"), value.get("gen")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (seat, generation)):
        return None
    made = signing.b62_decode(token.rsplit(":", 2)[-2])  # the signing stamp, genuine once loads() passed
    return SeatPass(seat, generation, made + max_age_seconds())


def seat_for_token(token, code: str) -> Seat | None:
    """The person's Seat the token holds now in match `code`, or None: a token that is not genuine,
    expired, for another match or a bot's seat, or of a seat that was given up since it was made."""
    held = read_seat_token(token, code)
    if held is None:
        return None
    return (Seat.objects.select_related("team").filter(
        pk=held.seat, team__match__code=code, kind=Seat.Kind.HUMAN, credential=held.generation, left__isnull=True)
        .first())
