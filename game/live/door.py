"""The door of the match sockets: a socket its seat's budget refuses is turned away before any work.

Spectators need no token, so theirs is a budget per address: a spectator socket that opens on a
match more often than its address's share (game/command_budgets.py WATCH_OPENS_PER_ADDRESS) is turned
away here the same way (4429). The address is the client's as serving/client_address.py reads it
(behind a trusted proxy, the one the proxy saw); a loopback address is not counted: that is the
server's own machine (the laptop's hall screen, a bench), or a proxy nobody declared, whose clients
all share its address. The consumer reads the address from the scope for the frames' budget.

A seat's sockets that open in a loop (a hostile client re-opening whenever it is refused) cost the
web process a handshake each. This door stands in front of the session, the login and the consumer:
a player socket whose X-Seat-Token is forged, expired or of another match is closed with 4403, and
one whose seat opened too often lately (game/command_budgets.py, SOCKET_OPENS) with 4429, without a
database read, a thread hop or a consumer. A socket that carries no token (a browser: its token is in
its session) is held to the same budget per session cookie here (a buzzer station's, per session
cookie and seat: it holds several seats, game/live/station_seats.py), and per seat by the consumer once
the session is read. What the door read from a good token goes on in the scope, so the consumer does
not read it twice nor spend the seat's budget again.

It accepts before it closes, as the consumer does, so the client sees the code (docs/wire-protocol.md),
and a socket turned away for opening too often is closed only HOLD_S later, twice as long for each
refusal in a row after that up to HOLD_MAX_S: a loop that re-opens whenever it is refused is paced by
the door, not by its own patience (forty such sockets opened about 150 times a second between them
when refused at once, and a handshake costs the process more than anything the door does). A phone
that reconnects too eagerly once waits HOLD_S. Waiting costs a timer, and what the socket sends
meanwhile is dropped unread (a page sends a hello); one that sends faster than HOLD_FRAMES_PER_S
frames a second on average is closed at once.
"""
from __future__ import annotations

import asyncio
import ipaddress
import re
from http.cookies import SimpleCookie

from django.conf import settings

from serving.client_address import client_address

from game import command_budgets
from game.live.fanout import hub
from game.live.seat_tokens import HEADER, read_seat_token

CLOSE_FORBIDDEN = 4403
CLOSE_TOO_OFTEN = 4429  # a seat's sockets opened too often: the browser tries again later, as after any close
HOLD_S = 2.0  # how long a socket turned away for opening too often is held open before its close
HOLD_MAX_S = 30.0  # the longest, after many refusals in a row
HOLD_FRAMES_PER_S = 20  # a held socket that sends faster than this on average is closed at once
SEAT_PASS = "exhibition.seat_pass"  # scope key: the SeatPass the door read from the header (its budget spent)
ADDRESS = "exhibition.address"  # scope key: a spectator's address its budgets count, or None (not counted)
MATCH_PATH = re.compile(r"^/?ws/m/(?P<code>[A-Za-z0-9]{1,12})/(?P<route>play|watch|station/(?P<seat>s[0-9]{1,12}))$")
TOKEN_HEADER = HEADER.lower().encode("latin-1")


def header(scope, name: bytes) -> bytes | None:
    """A request header of the handshake (`name` in lower case), or None."""
    return next((value for key, value in scope.get("headers", ()) if key.lower() == name), None)


def session_key(scope) -> str | None:
    raw = header(scope, b"cookie")
    if raw is None:
        return None
    try:
        morsel = SimpleCookie(raw.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
    except Exception:  # a cookie header that does not parse names no session
        return None
    return morsel.value[:64] if morsel is not None else None


def refusal(scope) -> tuple[int, float] | None:
    """(the close code, how long to hold the socket first) a socket is turned away with at the door,
    or None to let it in. Sets scope[SEAT_PASS] for a good header token whose seat's budget it spent."""
    found = MATCH_PATH.match(scope.get("path", ""))
    if found is None:
        return None
    code, budgets = found["code"], hub().budgets
    if found["route"] == "watch":
        scope[ADDRESS] = address = counted_address(scope)
        if address is None:
            return None
        return _too_often(budgets.opens_refused(code, ("watch", address), command_budgets.WATCH_OPENS_PER_ADDRESS))
    if scope.get("query_string"):
        return None  # the consumer refuses a query with its own reason
    token = header(scope, TOKEN_HEADER)
    if token is not None:
        held = read_seat_token(token.decode("latin-1"), code)
        if held is None:
            return CLOSE_FORBIDDEN, 0.0
        scope[SEAT_PASS] = held
        return _too_often(budgets.opens_refused(code, held.seat))
    session = session_key(scope)
    # A buzzer station's session holds several seats, each on its own socket: each is paced on its own.
    who = ("session", session) if found["seat"] is None else ("station", session, found["seat"])
    return None if not session else _too_often(budgets.opens_refused(code, who))


def _too_often(refused: int) -> tuple[int, float] | None:
    return (CLOSE_TOO_OFTEN, min(HOLD_MAX_S, HOLD_S * 2 ** (refused - 1))) if refused else None


class _Handshake:
    """What client_address() reads of a request, from a websocket's scope."""

    def __init__(self, scope):
        forwarded = header(scope, b"x-forwarded-for")
        self.META = {"REMOTE_ADDR": (scope.get("client") or ("",))[0] or ""}
        if forwarded is not None:
            self.META["HTTP_X_FORWARDED_FOR"] = forwarded.decode("latin-1")


def counted_address(scope) -> str | None:
    """The client's address, or None where it is not counted (loopback, or none known)."""
    address = client_address(_Handshake(scope))
    try:
        return None if ipaddress.ip_address(address).is_loopback else address
    except ValueError:
        return None


class SocketDoor:
    """Websocket middleware, outside the session and the login: turns away what a budget refuses."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope = dict(scope)
            refused = refusal(scope)
            if refused is not None:
                return await _turn_away(receive, send, *refused)
        return await self.app(scope, receive, send)


async def _turn_away(receive, send, code: int, hold: float) -> None:
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    if hold and not await _hold(receive, hold):
        return  # the client closed it meanwhile
    await send({"type": "websocket.close", "code": code})


async def _hold(receive, seconds: float) -> bool:
    """Wait `seconds` reading and dropping what comes; False if the client went away meanwhile. A
    client that sends faster than HOLD_FRAMES_PER_S on average is closed at once."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    frames = 0
    while (left := began + seconds - loop.time()) > 0:
        try:
            message = await asyncio.wait_for(receive(), left)
        except asyncio.TimeoutError:
            return True
        if message.get("type") == "websocket.disconnect":
            return False
        frames += 1
        if frames > HOLD_FRAMES_PER_S * (loop.time() - began + 1):
            return True
    return True
