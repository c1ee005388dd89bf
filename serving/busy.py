"""The answer when the database cannot be reached in time: "busy, try again", never a 500.

Under a storm (two hundred phones joining in the same seconds) a request may wait for a database
connection from the bounded pool longer than DATABASE_POOL_TIMEOUT, or PostgreSQL may refuse a
connection. That is the server being busy, not broken: the person gets a 503 page that says so and
tries again by itself (a form is posted again with what was typed), with Retry-After for scripts.
Any other failure keeps the ordinary 500 page. Registered as Django's handler500, so it also
answers failures outside the view (the session saved on the way out).

The page is rendered without the request's context: anything that reads the database (the user
behind the session) could fail again. If the request already stored its session (a join stores
the seat's token with the seat, in one transaction), the session cookie is set on this answer too,
so the retry finds the seat instead of taking a second one.
"""
from __future__ import annotations

import sys

from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse, HttpResponseServerError
from django.template import loader

RETRY_S = 3
BUSY_STATUS = 503


def is_busy(exc: BaseException | None) -> bool:
    """A database that did not answer in time or refused a connection: no connection free in the
    pool in time (psycopg_pool's PoolTimeout), "too many clients", unreachable, or SQLite locked."""
    return isinstance(exc, OperationalError)


def server_error(request, template_name: str = "500.html"):
    exc = sys.exc_info()[1]
    if not is_busy(exc):
        return HttpResponseServerError(loader.get_template(template_name).render())
    fields = []
    if request.method == "POST":
        fields = [(name, value) for name, values in request.POST.lists() for value in values]
    page = loader.get_template("busy.html").render({"retry_seconds": RETRY_S, "post": request.method == "POST",
                                                    "fields": fields, "action": request.get_full_path()})
    response = HttpResponse(page, status=BUSY_STATUS)
    response["Retry-After"] = str(RETRY_S)
    _keep_stored_session(request, response)
    return response


def _keep_stored_session(request, response) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key and getattr(session, "modified", False):
        response.set_cookie(settings.SESSION_COOKIE_NAME, key, max_age=settings.SESSION_COOKIE_AGE,
                            domain=settings.SESSION_COOKIE_DOMAIN, path=settings.SESSION_COOKIE_PATH,
                            secure=settings.SESSION_COOKIE_SECURE or None, httponly=settings.SESSION_COOKIE_HTTPONLY or None,
                            samesite=settings.SESSION_COOKIE_SAMESITE)
