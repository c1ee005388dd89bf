"""The event pages: the host's (create an event, add teams, start preliminaries and the final) and the
leaderboard, which is public like the spectator screen and made for the hall between preliminaries."""
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from game.web.not_found import record_page
from game.web.views import wake_conductor
from game.web.views_host import create_or_list, staff_required

from .event_files import event_qbj, event_report_html, played_matches
from .forms import BotsForm, EventForm, TeamForm
from .hall_screen import next_screen
from .matches import start_final, start_preliminary
from .models import Event, EventTeam
from .pool import EventError
from .standings import final_result, leaderboard

HALL_REFRESH_SECONDS = 10


event_page = record_page(lambda pk: Event.objects.filter(pk=pk).exists(), "event", "event_id",
                         "the link to the event's leaderboard")


@staff_required
def events_home(request):
    return create_or_list(request, EventForm(request.POST or None), "events/events.html",
                          {"events": Event.objects.order_by("-created")[:100]},
                          lambda event: redirect("event_host", event_id=event.pk))


def _event_page(request, event, team_form=None, status=200):
    teams = event.teams.select_related("preliminary").order_by("id")
    return render(request, "events/event_host.html", {
        "event": event, "teams": teams, "team_form": team_form or TeamForm(event), "bots_form": BotsForm(),
        "board": leaderboard(event), "final": final_result(event), "report_url": _report_url(event)}, status=status)


def _report_url(event) -> str | None:
    """The report page over the matches played so far (None before the first preliminary starts)."""
    codes = [m.code for _, m in played_matches(event)]
    return f"/host/report?{urlencode({'codes': ','.join(codes), 'title': event.name})}" if codes else None


@staff_required
@event_page
def event_download(request, event_id, kind):
    """The event's QBJ Tournament, or its report as one HTML file that opens offline."""
    event = get_object_or_404(Event, pk=event_id)
    if not played_matches(event):
        raise Http404("No match of this event has started yet.")
    if kind == "qbj":
        body, ctype, name = event_qbj(event), "application/json; charset=utf-8", "event.qbj"
    else:
        body, ctype, name = event_report_html(event), "text/html; charset=utf-8", "report.html"
    response = HttpResponse(body, content_type=ctype)
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{name}"'
    return response


@staff_required
@event_page
def event_host(request, event_id):
    return _event_page(request, get_object_or_404(Event, pk=event_id))


@require_POST
@staff_required
@event_page
def add_team(request, event_id):
    event = get_object_or_404(Event, pk=event_id)
    form = TeamForm(event, request.POST)
    if not form.is_valid():
        return _event_page(request, event, team_form=form, status=400)
    team = form.save()
    messages.success(request, f"Team {team.name} added.")
    return redirect("event_host", event_id=event.pk)


def _start(request, event, start):
    """Run start(bot seats) with the bots the host chose; say what went wrong in a sentence."""
    bots = BotsForm(request.POST)
    seats = bots.seats() if bots.is_valid() else []
    if not bots.is_valid():
        messages.error(request, " ".join(str(e) for errors in bots.errors.values() for e in errors))
        return redirect("event_host", event_id=event.pk)
    try:
        match = start(seats)
    except EventError as error:
        messages.error(request, str(error))
        return redirect("event_host", event_id=event.pk)
    wake_conductor(match.code)
    return redirect("host_match", code=match.code)


@require_POST
@staff_required
@event_page
def start_team_preliminary(request, event_id, team_id):
    event = get_object_or_404(Event, pk=event_id)
    team = get_object_or_404(EventTeam, pk=team_id, event=event)
    return _start(request, event, lambda seats: start_preliminary(event, team, seats))


@require_POST
@staff_required
@event_page
def start_event_final(request, event_id):
    event = get_object_or_404(Event, pk=event_id)
    return _start(request, event, lambda seats: start_final(event, seats))


@event_page
def event_board(request, event_id):
    """The leaderboard, for anyone: the hall screen shows it between preliminaries (it refreshes itself)."""
    event = get_object_or_404(Event, pk=event_id)
    return render(request, "events/leaderboard.html", {
        "event": event, "board": leaderboard(event), "final": final_result(event),
        "refresh": HALL_REFRESH_SECONDS, "next_screen": next_screen(event)})
