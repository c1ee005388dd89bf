"""The pages of one match: join, play (phone), moderate (staff console) and watch (big screen).

Each live page is a shell: the script on it opens the match socket and draws from the events.
A player's seat lives in their session as a signed token, so a reload keeps the seat; the page never
shows the token (its socket reads it from the session), and a token that stopped working (expired,
or its seat was given up) is forgotten, so the player lands on the join page.
"""
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.shortcuts import get_object_or_404, redirect, render

from serving.client_address import client_address

from events.hall_screen import board_url
from tournaments.rooms import room_screen_url
from game.engine.api import voice
from game.web.forms import JoinCodeForm, JoinForm, normalise_code
from game.models import COMPUTER_TEAMS, Match, Seat
from game.live.seat_tokens import SESSION_SEATS, make_seat_token, seat_for_token
from game.match_setup import seat_data
from game.web.views import ask_conductor
from game.web.views_host import staff_required
from game.web.join_link import join_link
from game.web.not_found import match_page

JOIN_RETRY_S = 2  # the "taking your seat" page asks again after this long
RETRIED = {None, "unavailable", "busy", "server_error"}  # answers that mean "not now", not "no"
SOCKET_ROLE = {"moderator": "moderate", "player": "play", "spectator": "watch"}


def page_config(match: Match, audience: str, **extra) -> dict:
    return {"code": match.code, "title": match.title, "audience": audience,
            "socket": f"/ws/m/{match.code}/{SOCKET_ROLE[audience]}",
            **extra}


def seat_in_session(request, match: Match) -> Seat | None:
    """The seat this browser holds in the match, if its token still works; a token that no longer
    does is forgotten."""
    seats = request.session.get(SESSION_SEATS, {})
    if match.code not in seats:
        return None
    seat = seat_for_token(seats[match.code], match.code)
    if seat is None:
        _forget_seat(request, match.code)
    return seat


def join_code(request):
    form = JoinCodeForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        return redirect("join", code=form.cleaned_data["code"])
    return render(request, "join_code.html", {"form": form}, status=400 if form.errors else 200)


def join(request, code):
    wanted = normalise_code(code)
    if wanted != code:
        return redirect("join", code=wanted)
    match = Match.objects.filter(code=code).first()
    if match is None or match.status == Match.Status.FINISHED:
        form = JoinCodeForm({"code": code})
        form.is_valid()
        return render(request, "join_code.html", {"form": form}, status=404)
    seat = seat_in_session(request, match)
    if seat is not None:
        return _seat_in_the_match(request, match, seat) or redirect("play", code=code)
    form = JoinForm(match, request.POST or None)
    if request.method == "POST":
        if not join_allowed(request):
            form.add_error(None, "Too many joins from this device in the last minute; wait a minute and try again.")
            return render(request, "join.html", join_page(match, form), status=429)
        if form.is_valid():
            with transaction.atomic():  # a seat is stored only with the session that holds its token
                seat = take_seat(match, form)
                if seat is not None:
                    seats = dict(request.session.get(SESSION_SEATS, {}))
                    seats[code] = make_seat_token(seat)
                    request.session[SESSION_SEATS] = seats
                    request.session.save()
            if seat is not None:
                return _seat_in_the_match(request, match, seat, form) or redirect("play", code=code)
    return render(request, "join.html", join_page(match, form), status=400 if form.errors else 200)


JOINED, REFUSED, NOT_YET = "joined", "refused", "not_yet"


def confirm_join(match: Match, seat: Seat) -> tuple[str, str | None]:
    """Ask the conductor to put the seat in the match's event log: (JOINED, None); (REFUSED, why), the
    rules refused it; or (NOT_YET, why or None), no answer yet (asking again is safe: a join the log
    has already is answered ok and stores nothing)."""
    # One message, no re-reading of the event log: the conductor folds the join into the live state.
    command = {"type": "join", "actor": {"role": "system"}, "data": {"seat": seat_data(seat)}}
    connection.close()  # hold no database connection (of a bounded pool) while the conductor works
    reply = ask_conductor({"type": "command", "match": match.code, "command": command, "ref": None},
                          settings.EXHIBITION_JOIN_CONFIRM_SECONDS)
    if reply is not None and reply.get("ok"):
        return JOINED, None
    error = (reply or {}).get("error") or {}
    if reply is not None and error.get("code") not in RETRIED:
        return REFUSED, error.get("message") or "The match refused that seat; pick another."
    return NOT_YET, error.get("message")


def _seat_in_the_match(request, match: Match, seat: Seat, form: JoinForm | None = None):
    """Have the conductor put the seat in the match's event log and wait for its answer: only a
    join that was stored sends the phone to the play page (None: go there). Without an answer the
    phone is told so and asks again by itself: the seat is kept in its session, and a join of a
    seat the log has already is answered ok and stores nothing, so asking twice is safe. A join
    the rules refuse gives the seat back and says why."""
    outcome, message = confirm_join(match, seat)
    if outcome == JOINED:
        return None
    if outcome == REFUSED:
        seat.delete()  # not in the log: nobody holds it
        _forget_seat(request, match.code)
        form = form or JoinForm(match)
        form.add_error(None, message)
        return render(request, "join.html", join_page(match, form), status=409)
    response = render(request, "joining.html", {"match": match, "seat": seat, "retry_seconds": JOIN_RETRY_S,
                                                "reason": message},
                      status=202)  # accepted, not done yet (a 5xx would not keep the session that holds the seat)
    response["Retry-After"] = str(JOIN_RETRY_S)
    return response


def _forget_seat(request, code: str) -> None:
    seats = dict(request.session.get(SESSION_SEATS, {}))
    if seats.pop(code, None) is not None:
        request.session[SESSION_SEATS] = seats


def join_page(match: Match, form: JoinForm) -> dict:
    computer = match.teams.filter(COMPUTER_TEAMS).distinct().order_by("position")
    return {"match": match, "form": form, "computer_teams": list(computer)}


def join_allowed(request) -> bool:
    """At most EXHIBITION_JOINS_PER_MINUTE joins a minute from one address (a fixed window)."""
    key = f"joins:{client_address(request)}"
    cache.add(key, 0, timeout=60)
    try:
        return cache.incr(key) <= settings.EXHIBITION_JOINS_PER_MINUTE
    except ValueError:  # the window ran out between add and incr
        cache.add(key, 1, timeout=60)
        return True


def same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


@transaction.atomic
def take_seat(match: Match, form: JoinForm) -> Seat | None:
    """A human seat on the chosen team, or None with the reason added to the form.

    The match row is locked, so two people joining at once cannot both take the last place or the
    same name. The first human on a team without a captain becomes its captain.
    """
    Match.objects.select_for_update().filter(pk=match.pk).first()
    name, team = form.cleaned_data["name"], form.cleaned_data["team"]
    seats = Seat.objects.filter(team__match=match, left__isnull=True)  # a seat given up frees its name and place
    if match.teams.filter(COMPUTER_TEAMS, pk=team.pk).exists():  # a person never sits on the computer's team
        form.add_error("team", "That team is the computer's; pick one of the human teams.")
        return None
    if any(same_name(name, taken) for taken in seats.values_list("name", flat=True)):
        form.add_error("name", f"Someone in this match is already called {name}; add an initial or pick another name.")
        return None
    if seats.filter(kind=Seat.Kind.HUMAN).count() >= settings.EXHIBITION_MAX_PLAYERS:
        form.add_error(None, f"This match is full ({settings.EXHIBITION_MAX_PLAYERS} players); you can still watch it.")
        return None
    captain = not team.seats.filter(kind=Seat.Kind.HUMAN, captain=True).exists()  # one who left is no captain
    return Seat.objects.create(team=team, name=name, kind=Seat.Kind.HUMAN, captain=captain)


@match_page
def play(request, code):
    match = get_object_or_404(Match, code=code)
    seat = seat_in_session(request, match)
    if seat is None:
        return redirect("join", code=code)
    config = page_config(match, "player", seat=seat.key, team=seat.team.key, captain=seat.captain)
    return render(request, "play.html", {"match": match, "seat": seat, "config": config})


@match_page
@staff_required
def moderate(request, code):
    match = get_object_or_404(Match, code=code)
    return render(request, "moderate.html", {"match": match, "config": page_config(match, "moderator", voice=voice.menu())})


@match_page
def watch(request, code):
    match = get_object_or_404(Match, code=code)
    # A match of an event: the hall's screen goes back to the event's leaderboard once it ends (events/hall_screen.py);
    # a tournament's game, to its room's screen (tournaments/rooms.py).
    config = page_config(match, "spectator", event_board=board_url(match) or room_screen_url(match),
                          board_after_ms=int(settings.EXHIBITION_HALL_RETURN_SECONDS * 1000))
    return render(request, "watch.html", {"match": match, "config": config,
                                          "join": join_link(request, code)})
