"""The project's own "no such match" page, shown instead of Django's debug 404 even with DEBUG on.

A person who typed or scanned a wrong code should read what to do next, on a page that looks like
the rest of the site, in the demo (DEBUG on) as in production. Pages of one match are wrapped in
match_page: a missing match, or one this person may not open yet, renders templates/404.html with
status 404 and a sentence instead of raising Http404.
"""
from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import render

from game.models import Match


def no_such_match_text(code: str) -> str:
    return (f"There is no match with the code {code}. Check the code on the big screen and type it again, "
            "or ask the host for the link.")


def not_found(request, message: str, title: str = "No such match"):
    return render(request, "404.html", {"title": title, "message": message}, status=404)


def match_page(view):
    """Render the project's 404 page (with what to do next) when view raises Http404 for its match."""
    @wraps(view)
    def wrapper(request, code, *args, **kwargs):
        try:
            return view(request, code, *args, **kwargs)
        except Http404 as missing:
            if not Match.objects.filter(code=code).exists():
                return not_found(request, no_such_match_text(code))
            reason = str(missing.args[0]) if missing.args and isinstance(missing.args[0], str) else ""
            return not_found(request, reason or "This page of the match is not open to you.", title="Not open yet")
    return wrapper
