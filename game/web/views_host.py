"""The host's pages: every match at a glance, the new-match form with every rule of the format, the
remote bots' registration, and the links to hand out."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import user_passes_test
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from bots.models import Bot
from bots.remote_registration import RegistrationRefused, register_remote
from game.engine.api import Rejected
from game.web.forms_host import HostMatchForm, RemoteBotForm, preset_values
from game.web.join_link import join_link
from game.models import Match
from game.web.not_found import match_page
from game.question_order import question_plan
from game.match_setup import RESERVE_QUESTIONS, create_match_record
from game.web.views import wake_conductor

staff_required = user_passes_test(lambda u: u.is_active and u.is_staff, login_url=settings.LOGIN_URL)


def create_or_list(request, form, template: str, context: dict, made):
    """A host's page that lists records and makes one: a valid POST saves the form and goes to
    made(the record); otherwise the page with the form (400 after a POST it refused)."""
    if request.method == "POST" and form.is_valid():
        return made(form.save())
    return render(request, template, {"form": form, **context}, status=400 if request.method == "POST" else 200)


def _host_page(request, form, remote_form, status=200):
    matches = Match.objects.select_related("packet").order_by("-created")[:100]
    remote = Bot.objects.filter(kind__in=Bot.REMOTE_KINDS).order_by("name")
    return render(request, "host.html", {"form": form, "remote_form": remote_form, "matches": matches,
                                         "remote_bots": remote, "presets": preset_values(),
                                         "outlines": {"packets": form.outlines, "reserve": RESERVE_QUESTIONS}},
                  status=status)


@staff_required
def host_home(request):
    form = HostMatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match = create_match_record(title=data["title"], packet=data["packet"], format_name=data["format_name"],
                                        overrides=data["overrides"], teams=form.teams(), order=data["question_order"])
        except Rejected as exc:  # a question-order refusal names its setting; the others are the packet's
            form.add_error(getattr(exc, "setting", "packet"), str(exc))
        else:
            wake_conductor(match.code)
            plan = question_plan(match)
            if plan.short:
                messages.warning(request, plan.warning())
            return redirect("host_match", code=match.code)
    return _host_page(request, form, RemoteBotForm())


@require_POST
@staff_required
def register_remote_bot(request):
    """Register a remote bot once it has answered: then it can be seated in the unlimited tier."""
    remote_form = RemoteBotForm(request.POST)
    if remote_form.is_valid():
        data = remote_form.cleaned_data
        try:
            build, found = register_remote(data["name"], data["protocol"], data["url"])
        except RegistrationRefused as refusal:
            remote_form.add_error(None, str(refusal))
        else:
            messages.success(request, f"Remote bot {build.bot.name} registered ({found}); it can now take the "
                                      "unlimited tier's seat in a new match.")
            return redirect("host")
    return _host_page(request, HostMatchForm(), remote_form, status=400)


@match_page
@staff_required
def host_match(request, code):
    match = get_object_or_404(Match.objects.select_related("packet"), code=code)
    teams = match.teams.prefetch_related("seats")
    room = join_link(request, code)
    links = {
        "moderate": request.build_absolute_uri(f"/m/{match.code}/moderate"),
        "join": room.match_join,
        "join_any": room.join,
        "watch": request.build_absolute_uri(f"/m/{match.code}/watch"),
        "station": request.build_absolute_uri(f"/m/{match.code}/station"),
    }
    return render(request, "host_match.html", {"match": match, "teams": teams, "links": links, "join": room,
                                               "plan": question_plan(match)})
