"""The event report for staff: `/host/report?codes=A,B,…` shows it for those matches, and with
`&download=1` gives the same report as one self-contained HTML file to keep or show offline."""
from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse

from game.web.views_host import staff_required

from game.report.match_logs import ReportInputError, codes_from_text, logs_from_matches
from game.report.page import report_from_logs


@staff_required
def event_report(request):
    text = request.GET.get("codes", "")[:4000]
    title = (request.GET.get("title") or "Event report")[:200]
    try:
        codes = codes_from_text(text)
        logs = logs_from_matches(codes) if codes else None
    except ReportInputError as err:
        return render(request, "report/choose.html", {"codes": text, "title": title, "error": str(err)}, status=400)
    if not logs:
        return render(request, "report/choose.html", {"codes": text, "title": title})
    if request.GET.get("download"):
        response = HttpResponse(report_from_logs(logs, title, inline=True), content_type="text/html; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="event-report.html"'
        return response
    return HttpResponse(report_from_logs(logs, title, inline=False, back_url=reverse("host")))
