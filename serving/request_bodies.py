"""How large a request body each page takes, declared once, and the answer to a larger one.

Every page takes a small form at most (EXHIBITION_MAX_BODY_BYTES, 1 MiB), but the host's import page,
which takes a question file (EXHIBITION_IMPORT_MAX_FILE_BYTES) and its form's other fields. A body
over its page's limit, by its Content-Length or, sent in chunks without one, as it arrives, is
answered 413 with a sentence before any of it is kept: Daphne's request asks here as its headers end
and as each piece arrives (serving/server_internals.py), so the body is never buffered, signed in or
not. nginx's client_max_body_size (deploy/nginx.conf) is just over the largest limit here.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import Resolver404, resolve

from intake.limits import FILE, KIB, Limit, LimitExceeded

BODY = Limit("body", "bytes", "EXHIBITION_MAX_BODY_BYTES")
FORM_FIELDS_BYTES = 64 * KIB  # room for the import form's other fields and the multipart framing around the file


@dataclass(frozen=True)
class BodyLimit:
    limit: Limit  # what the sentence names, and the setting that moves it
    slack: int  # bytes taken beyond the limit's value (a form's other fields)
    where: str  # the sentence's subject
    outcome: str  # what the person is told happened

    @property
    def bytes(self) -> int:
        return self.limit.value + self.slack

    def refusal(self, found: str) -> str:
        return f"{LimitExceeded(self.limit, self.where, found)} {self.outcome}"


# By the page's URL name (game/web/urls.py); every other address, known or not, takes DEFAULT.
DEFAULT = BodyLimit(BODY, 0, "This request", "None of it was kept.")
ROUTES = {"host_import": BodyLimit(FILE, FORM_FIELDS_BYTES, "The upload", "Nothing was imported.")}
LARGEST = max(route.limit.default + route.slack for route in (DEFAULT, *ROUTES.values()))


def body_limit(path: str) -> BodyLimit:
    """The limit of the page at this path (percent-decoded, without the query)."""
    try:
        name = resolve(path).url_name
    except Resolver404:
        return DEFAULT
    return ROUTES.get(name, DEFAULT)


def over_limit(path: str, length: int | None, received: int = 0) -> str | None:
    """The sentence refusing a body to `path` that declares `length` bytes (None: sent in chunks, of
    which `received` bytes came so far), or None while it is within the page's limit."""
    limit = body_limit(path)
    if length is not None and length > limit.bytes:
        return limit.refusal(f"{length:,} bytes")
    if length is None and received > limit.bytes:
        return limit.refusal(f"more than {limit.bytes:,} bytes")
    return None


def refusal_page(sentence: str, path: str) -> bytes:
    """The 413 page: the sentence, a way back to the page, in the site's own style (its <main> is what
    the import page's upload script shows)."""
    back = "/" + path.lstrip("/")  # never "//host/…", another site
    return render_to_string("413.html", {"sentence": sentence, "back": back}).encode()
