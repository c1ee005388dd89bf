"""The project's own "no such match" page, shown instead of Django's debug 404 even with DEBUG on.

A person who typed or scanned a wrong code should read what to do next, on a page that looks like
the rest of the site, in the demo (DEBUG on) as in production. Pages of one match are wrapped in
match_page: a missing match, or one this person may not open yet, renders templates/404.html with
status 404 and a sentence instead of raising Http404. own_404 makes such a wrapper for the pages of
anything else, and record_page one for a numbered record's pages (an event's, a tournament's).
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


def own_404(explain):
    """A decorator: the view's Http404 renders the project's 404 page with the (title, message) that
    explain(url_kwargs, reason) gives; reason is the Http404's own sentence, or ""."""
    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            try:
                return view(request, *args, **kwargs)
            except Http404 as missing:
                reason = str(missing.args[0]) if missing.args and isinstance(missing.args[0], str) else ""
                title, message = explain(kwargs, reason)
                return not_found(request, message, title=title)
        return wrapper
    return decorate


def record_page(exists, noun: str, key: str, ask: str):
    """own_404 for the pages of one numbered record (an event, a tournament): no such record (exists(number)
    is false), or what of it is not there. `ask`: what to ask the host for."""
    def explain(kwargs: dict, reason: str) -> tuple[str, str]:
        if not exists(kwargs[key]):
            return f"No such {noun}", (f"There is no {noun} number {kwargs[key]}. Check the address, or ask the "
                                       f"host for {ask}.")
        if not reason or "matches the given query" in reason:  # get_object_or_404's words name a model, not a page
            reason = f"That is not a page of this {noun}. Open the {noun}'s page and follow its links."
        return "Not found", reason
    return own_404(explain)


def _explain_match(kwargs: dict, reason: str) -> tuple[str, str]:
    if not Match.objects.filter(code=kwargs["code"]).exists():
        return "No such match", no_such_match_text(kwargs["code"])
    return "Not open yet", reason or "This page of the match is not open to you."


match_page = own_404(_explain_match)
