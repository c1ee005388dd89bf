"""The buzzer station: one page on one computer in the hall where several players buzz, each with a key
of its keyboard or a gamepad's button (static/js/station.js, docs/hall.md "Buzzers in the hall").

Each player at the station is seated as a phone seats one (the join form, the same checks and limits)
and their seat token goes into this browser's session, beside any others it holds here
(game/live/station_seats.py): every buzz is then that seat's own command on that seat's own socket.
"""
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render

from game.live.seat_tokens import make_seat_token, seat_for_token
from game.live.station_seats import (STATION_SEATS_MAX, forget_station_token, keep_station_token,
                                     station_tokens)
from game.models import Match
from game.web.forms import JoinForm
from game.web.not_found import match_page
from game.web.views_match import JOIN_RETRY_S, NOT_YET, REFUSED, confirm_join, join_allowed, page_config, take_seat

SESSION_UNCONFIRMED = "station_unconfirmed"  # {match code: [seat keys]} whose join the conductor has not answered yet


def station_seats(request, match: Match) -> list:
    """The seats this station holds in the match and can still play, in joining order; a token that
    stopped working (the seat left, was removed, or its pass expired) is forgotten."""
    seats = []
    for key, token in station_tokens(request.session, match.code).items():
        seat = seat_for_token(token, match.code)
        if seat is None:
            forget_station_token(request.session, match.code, key)
        else:
            seats.append(seat)
    return sorted(seats, key=lambda s: s.pk)


def _unconfirmed(request, code: str) -> list[str]:
    return list(request.session.get(SESSION_UNCONFIRMED, {}).get(code, []))


def _set_unconfirmed(request, code: str, keys: list[str]) -> None:
    held = dict(request.session.get(SESSION_UNCONFIRMED, {}))
    held[code] = keys
    request.session[SESSION_UNCONFIRMED] = held


def _confirm_waiting(request, match: Match, seats: list) -> tuple[list[str], bool]:
    """Ask the conductor again for each seat whose join it had not answered: (the notes for the page,
    whether some are still unanswered)."""
    waiting, notes = [], []
    for seat in seats:
        if seat.key not in _unconfirmed(request, match.code):
            continue
        outcome, message = confirm_join(match, seat)
        if outcome == NOT_YET:
            waiting.append(seat.key)
            notes.append(f"The match has not confirmed {seat.name}'s seat yet; this page asks again in {JOIN_RETRY_S} s.")
        elif outcome == REFUSED:
            forget_station_token(request.session, match.code, seat.key)
            seat.delete()  # not in the log: nobody holds it
            notes.append(f"{seat.name}: {message}")
    _set_unconfirmed(request, match.code, waiting)
    return notes, bool(waiting)


def full_note() -> str:
    return f"This station holds {STATION_SEATS_MAX} players already; seat the next one on another station or a phone."


def _seat_player(request, match: Match, form: JoinForm, held: int) -> int | None:
    """Seat the form's player at this station: None once seated, else the status of the page that
    shows the form's errors."""
    if held >= STATION_SEATS_MAX:
        form.add_error(None, full_note())
        return 400
    if not join_allowed(request):
        form.add_error(None, "Too many joins from this device in the last minute; wait a minute and try again.")
        return 429
    if not form.is_valid():
        return 400
    with transaction.atomic():  # a seat is stored only with the session that holds its token
        seat = take_seat(match, form)
        if seat is None:
            return 400
        keep_station_token(request.session, match.code, seat.key, make_seat_token(seat))
        request.session.save()
    outcome, message = confirm_join(match, seat)
    if outcome == REFUSED:
        seat.delete()
        forget_station_token(request.session, match.code, seat.key)
        form.add_error(None, message)
        return 409
    if outcome == NOT_YET:
        _set_unconfirmed(request, match.code, [*_unconfirmed(request, match.code), seat.key])
    return None


@match_page
def station(request, code):
    match = get_object_or_404(Match, code=code)
    if match.status == Match.Status.FINISHED:
        return redirect("boxscore", code=code)
    seats = station_seats(request, match)
    form = JoinForm(match, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = _seat_player(request, match, form, len(seats))
        if status is None:
            return redirect("station", code=code)  # a reload does not seat the player twice
    notes, waiting = _confirm_waiting(request, match, seats)
    seats = [s for s in seats if s.pk is not None]
    players = [{"seat": s.key, "team": s.team.key, "name": s.name} for s in seats]
    config = page_config(match, "player", players=players)
    response = render(request, "station.html", {"match": match, "form": form, "players": players, "notes": notes,
                                                "config": config, "full": full_note() if len(seats) >= STATION_SEATS_MAX else ""},
                      status=status)
    if waiting:
        response["Refresh"] = str(JOIN_RETRY_S)  # ask the conductor again, as the phone's joining page does
    return response
