"""The seats a buzzer station holds: one browser in the hall that buzzes for several seated players.

Each player at the station is seated as a phone seats one (the join form, the match code) and gets
their own seat token; the station's browser keeps those tokens in its session, under its station
entry, beside (not instead of) the one seat a phone holds. Each seat then plays on its own socket,
ws/m/<code>/station/<seat>, which reads that seat's token from the session: the seat key in the path
names which of the session's seats, it is no credential (the HttpOnly session cookie is). So every buzz
from the station is that seat's own command, checked and budgeted as a phone's is: no new authority.
"""
from __future__ import annotations

import re

SESSION_STATION = "station"  # request.session[SESSION_STATION][match code] -> {seat key: token}
STATION_SEATS_MAX = 12  # players one station holds in one match (one keyboard and a few gamepads)
SEAT_KEY = re.compile(r"^s[0-9]{1,12}$")


def station_tokens(session, code: str) -> dict[str, str]:
    """{seat key: token} of the seats this session's station holds in match `code`."""
    held = session.get(SESSION_STATION, {}) if session is not None else {}
    return dict(held.get(code, {}))


def station_token(session, code: str, seat: str) -> str | None:
    return station_tokens(session, code).get(seat) if SEAT_KEY.match(seat or "") else None


def keep_station_token(session, code: str, seat: str, token: str) -> None:
    held = dict(session.get(SESSION_STATION, {}))
    held[code] = {**held.get(code, {}), seat: token}
    session[SESSION_STATION] = held


def forget_station_token(session, code: str, seat: str) -> None:
    held = dict(session.get(SESSION_STATION, {}))
    seats = dict(held.get(code, {}))
    if seats.pop(seat, None) is not None:
        held[code] = seats
        session[SESSION_STATION] = held
