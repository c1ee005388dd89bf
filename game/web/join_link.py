"""The address a room types to join a match, and its QR code, for the big screen and the host page.

In hall mode a page opened on the server's own machine names the machine's LAN address instead of
127.0.0.1 (serving/hall.py), so the big screen never tells a room of phones to open an address
only the projector's computer can reach. The QR code is drawn on the server by segno as inline SVG:
no script, no image file, sharp at any size.
"""
from __future__ import annotations

from dataclasses import dataclass

import segno
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

from serving import hall
@dataclass(frozen=True)
class JoinLink:
    base: str  # scheme://host:port people reach this server at
    join: str  # the page where a code is typed
    match_join: str  # this match's own join page: what the QR code holds
    local_only: bool  # the address is this machine's loopback: no phone can reach it

    @property
    def typed(self) -> str:
        """The join page as people type it: no http:// (browsers add it)."""
        return self.join.split("://", 1)[-1]

    def qr_svg(self) -> SafeString:
        return qr_svg(self.match_join)


def qr_svg(url: str) -> SafeString:
    """url as an inline SVG QR code with a quiet zone, sized by CSS (viewBox, no width/height)."""
    code = segno.make(url, error="m", micro=False)
    # segno writes only the path of the modules and a viewBox: there is nothing typed by a person in it.
    return mark_safe(code.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True))


def join_link(request, code: str) -> JoinLink:
    base = hall.base_url(request.get_host(), request.scheme, hall=settings.EXHIBITION_HALL,
                         public_url=settings.EXHIBITION_PUBLIC_URL)
    # A loopback address reaches no phone, unless the operator named it as the public address.
    local_only = not settings.EXHIBITION_PUBLIC_URL and hall.is_local_host(base.split("://", 1)[-1])
    return JoinLink(base=base, join=f"{base}/join", match_join=f"{base}/m/{code}/join", local_only=local_only)
