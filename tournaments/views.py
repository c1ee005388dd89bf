"""The tournament pages: the host's (create a tournament, see the schedule with every room's moderator
and hall links, start rounds and the playoffs, download the files), and the public standings and room
screens, which read themselves again every few seconds."""
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from game.models import Match
from game.web.not_found import record_page
from game.web.views import wake_conductor
from game.web.views_host import create_or_list, staff_required

from .files import tournament_json, tournament_qbj_text
from .forms import TournamentForm
from .games import TournamentError, round_robin_done, start_playoffs, start_round, waiting_for
from .models import Tournament, TournamentRound
from .results import games_of, playoff_results, round_robin_standings
from .rooms import next_in_room, room_numbers
from .quizbowl_standings import TIEBREAKS

REFRESH_SECONDS = 10


tournament_page = record_page(lambda pk: Tournament.objects.filter(pk=pk).exists(), "tournament", "tournament_id",
                              "the link to the standings")


@staff_required
def tournaments_home(request):
    return create_or_list(request, TournamentForm(request.POST or None), "tournaments/tournaments.html",
                          {"tournaments": Tournament.objects.order_by("-created")[:100]},
                          lambda tournament: redirect("tournament_host", tournament_id=tournament.pk))


def _board(tournament) -> dict:
    """What the standings show: the round robin's standings by pool, the playoff results and the champion."""
    board = round_robin_standings(tournament)
    results = playoff_results(tournament)
    return {"board": board, "pools": [(pool, board.pool(pool)) for pool in board.pools],
            "playoffs": results, "champion": results["Final"][0] if "Final" in results else None,
            "tiebreaks": TIEBREAKS}


def _schedule(tournament) -> list[dict]:
    games = list(games_of(tournament))
    teams = [t.name for t in tournament.teams.order_by("position")]
    out = []
    for r in tournament.rounds.order_by("number"):
        mine = [g for g in games if g.round_id == r.pk]
        playing = {n for g in mine for n in (g.team_a.name, g.team_b.name)}
        out.append({"round": r, "games": mine, "started": any(g.match_id for g in mine),
                    "byes": [n for n in teams if n not in playing] if r.stage == "round robin" else []})
    return out


@staff_required
@tournament_page
def tournament_host(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    schedule = _schedule(tournament)
    unstarted = next((s for s in schedule if not s["started"]), None)
    last = schedule[-1]["round"].number if schedule else 0
    return render(request, "tournaments/host.html", {
        "tournament": tournament, "schedule": schedule, "rooms": room_numbers(tournament), "next_round": unstarted,
        "next_round_waits": bool(unstarted and waiting_for(tournament, unstarted["round"].number)),
        "playoffs_ready": (tournament.playoff_size and unstarted is None and round_robin_done(tournament)
                           and not waiting_for(tournament, last + 1) and "Final" not in playoff_results(tournament)),
        "teams": tournament.teams.order_by("position"), **_board(tournament)})


def _woken(matches: list[Match]):
    for match in matches:
        wake_conductor(match.code)


@require_POST
@staff_required
@tournament_page
def start_next_round(request, tournament_id, round_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    round_ = get_object_or_404(TournamentRound, pk=round_id, tournament=tournament)
    try:
        _woken(start_round(tournament, round_))
        messages.success(request, f"{round_.name} has started: each room's moderator opens the room's console.")
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("tournament_host", tournament_id=tournament.pk)


@require_POST
@staff_required
@tournament_page
def next_playoff_round(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        round_ = start_playoffs(tournament)
        _woken([g.match for g in round_.games.all()])
        messages.success(request, f"The {round_.name.lower()} have started." if round_.name != "Final"
                         else "The final has started.")
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("tournament_host", tournament_id=tournament.pk)


@staff_required
@tournament_page
def tournament_download(request, tournament_id, kind):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if kind == "qbj":
        body, ctype, name = tournament_qbj_text(tournament), "application/json; charset=utf-8", "tournament.qbj"
    else:
        body, ctype, name = tournament_json(tournament), "application/json; charset=utf-8", "tournament.json"
    response = HttpResponse(body, content_type=ctype)
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-{name}"'
    return response


@tournament_page
def tournament_standings(request, tournament_id):
    """The standings, for anyone, and which teams play in which room in the round being played or next;
    they read themselves again every few seconds."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    upcoming = next((item for item in _schedule(tournament)
                     if any(g.match is None or g.match.status != Match.Status.FINISHED for g in item["games"])), None)
    return render(request, "tournaments/standings.html", {
        "tournament": tournament, "refresh": REFRESH_SECONDS, "upcoming": upcoming, **_board(tournament)})


@tournament_page
def tournament_room(request, tournament_id, room):
    """A room's screen: the standings and the room's next game; it goes on to that game's spectator screen
    once its match exists (opened with ?hall=1, see event-board.js)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    rooms = room_numbers(tournament)
    if room not in rooms:
        raise Http404(f"{tournament.name} has no room {room}; its rooms are {', '.join(map(str, rooms)) or 'none yet'}.")
    game = next_in_room(tournament, room)
    return render(request, "tournaments/room.html", {
        "tournament": tournament, "room": room, "game": game, "refresh": REFRESH_SECONDS,
        "next_screen": reverse("watch", args=[game.match.code]) if game is not None and game.match is not None else None,
        **_board(tournament)})
