"""After the match: the archive of finished matches, the replay, the box score and the exports.

Anyone may open a finished match's replay, box score and public exports; staff may open any match's,
and only staff get the staff view of a replay (answer lines, judge suggestions, the buzz audit) and
the full event log. Everything public is built from the spectator's projection of the log.
"""
from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from game.archive.boxscore import box_score
from game.engine.api import describe, PRESETS, QuestionOrder
from game.archive.exports import bot_seats, boxscore_csv, buzz_csv, gameplay_csv
from game.archive.match_archive import export_lines
from game.models import Match, MatchEvent
from game.web.not_found import match_page
from game.archive.replay import Replay, load_log
from game.archive.replay_data import replay_response
from game.web.views_host import staff_required

PER_PAGE = 20
REPLAY_MODULES = ("js/replay.js", "js/replay-frames.js", "js/match-fold.js", "js/match-socket.js", "js/screen.js", "js/ui.js")


def is_staff(request) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


def finished_match(request, code) -> Match:
    """The match, if this person may look back at it: anyone once it has finished, staff always."""
    match = get_object_or_404(Match.objects.select_related("packet"), code=code)
    if match.status != Match.Status.FINISHED and not is_staff(request):
        raise Http404("This match has not finished yet; its replay opens when it ends.")
    return match


def _audience(request) -> str:
    """The staff view of a replay is asked for with ?staff=1 and only given to staff."""
    return "moderator" if request.GET.get("staff") and is_staff(request) else "spectator"


def final_scores(matches) -> dict:
    """match id -> {team id: points}: the sum of every score change in each log (what a fold gives),
    read without folding: only events that carry score changes are loaded."""
    totals: dict = {m.id: {} for m in matches}
    rows = MatchEvent.objects.filter(match__in=list(totals), data__has_key="score_changes").values_list("match_id", "data")
    for match_id, data in rows:
        for team, points in (data.get("score_changes") or {}).items():
            totals[match_id][team] = totals[match_id].get(team, 0) + points
    return totals


def archive(request):
    """Every finished match, newest first; filter by format and team name; staff also see hidden ones."""
    matches = Match.objects.filter(status=Match.Status.FINISHED).select_related("packet").prefetch_related("teams")
    if not is_staff(request):
        matches = matches.filter(hidden=False)
    fmt = request.GET.get("format", "")
    team = request.GET.get("team", "").strip()
    if fmt in PRESETS:
        matches = matches.filter(format_name=fmt)
    if team:
        matches = matches.filter(teams__name__icontains=team).distinct()
    page = Paginator(matches.order_by("-finished", "-id"), PER_PAGE).get_page(request.GET.get("page"))
    scores = final_scores(page.object_list)
    rows = []
    for m in page.object_list:
        teams = list(m.teams.all())
        points = scores.get(m.id, {})
        ranked = sorted((points.get(t.key, 0) for t in teams), reverse=True)
        top = ranked[0] if ranked else 0
        winners = [t.name for t in teams if points.get(t.key, 0) == top]
        rows.append({"match": m, "teams": [{"name": t.name, "points": points.get(t.key, 0)} for t in teams],
                     "winner": winners[0] if len(winners) == 1 else None})
    query = {k: v for k, v in (("format", fmt if fmt in PRESETS else ""), ("team", team)) if v}
    return render(request, "archive.html", {
        "rows": rows, "page": page, "formats": sorted(PRESETS), "format": fmt, "team": team,
        "query": urlencode(query), "staff": is_staff(request)})


@require_POST
@staff_required
def toggle_hidden(request, code):
    match = get_object_or_404(Match, code=code)
    match.hidden = not match.hidden
    match.save(update_fields=["hidden"])
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return redirect(back if back and safe else reverse("archive"))


@match_page
def replay_page(request, code):
    match = finished_match(request, code)
    audience = _audience(request)
    data_url = reverse("replay_data", args=[code]) + ("?staff=1" if audience == "moderator" else "")
    config = {"code": code, "title": match.title, "audience": audience, "data": data_url,
              "boxscore": reverse("boxscore", args=[code])}
    return render(request, "replay.html", {"match": match, "config": config, "staff_view": audience == "moderator",
                                           "staff": is_staff(request), "modules": REPLAY_MODULES})


def replay_data(request, code):
    return replay_response(request, finished_match(request, code), _audience(request))


def _box(match: Match) -> tuple[dict, Replay]:
    replay = Replay(load_log(match))
    return box_score(replay.final, replay.frames("spectator")), replay


@match_page
def boxscore_page(request, code):
    match = finished_match(request, code)
    box, replay = _box(match)
    bots = [{"seat": s["id"], "name": s["name"]} for s in bot_seats(replay.final)]
    order = describe(QuestionOrder.from_dict(match.question_order), seed=is_staff(request))  # the seed is staff's
    return render(request, "boxscore.html", {"match": match, "box": box, "bots": bots, "staff": is_staff(request),
                                             "multi_phase": box["phases"] > 1, "question_order": order})


def export(request, code, name):
    """The files: events.jsonl (staff), gameplay.csv, boxscore.csv and <seat>.buzz.csv per bot."""
    match = finished_match(request, code)
    stem = f"{match.code}-{match.format_name}"
    if name == "events.jsonl":
        if not is_staff(request):
            return redirect_to_login(request)
        response = StreamingHttpResponse(export_lines(match, load_log(match)), content_type="application/x-ndjson")
        return _attachment(response, f"{stem}.events.jsonl")
    if name == "boxscore.csv":
        box, _ = _box(match)
        return _attachment(HttpResponse(boxscore_csv(box), content_type="text/csv"), f"{stem}.boxscore.csv")
    replay = Replay(load_log(match))
    frames = replay.frames("moderator" if request.GET.get("staff") and is_staff(request) else "spectator")
    if name == "gameplay.csv":
        return _attachment(HttpResponse(gameplay_csv(replay.final, frames), content_type="text/csv"),
                           f"{stem}.gameplay.csv")
    if name.endswith(".buzz.csv"):
        seat = name.removesuffix(".buzz.csv")
        if seat not in {s["id"] for s in bot_seats(replay.final)}:
            raise Http404("That match has no bot in that seat.")
        return _attachment(HttpResponse(buzz_csv(replay.final, frames, seat), content_type="text/csv"),
                           f"{stem}.{seat}.buzz.csv")
    raise Http404("There is no such export; see the box score page for the files.")


def redirect_to_login(request):
    from django.contrib.auth.views import redirect_to_login as to_login

    return to_login(request.get_full_path())


def _attachment(response, filename: str):
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
