"""Login throttling's two locks (django-axes' handler, ours) and the page a refused sign-in gets.

The pair lock is axes' own: EXHIBITION_LOGIN_FAILURES wrong passwords for one username from one
client address refuse that pair for EXHIBITION_LOGIN_COOLOFF_MINUTES after the last of them. The
username lock is ours: EXHIBITION_LOGIN_USERNAME_FAILURES wrong passwords for one username from any
addresses within one stretch of EXHIBITION_LOGIN_USERNAME_SECONDS refuse that username from everywhere
until the stretch ends. So a guesser with many addresses gets that many guesses a stretch, and a
stranger's wrong passwords lock the host out for one stretch at most (a minute by default). The count
lives in the cache every web process shares (Redis in production; the process's own memory in the
embedded default, which has one web process). A refused try tests no password, and counts for neither
lock (settings: AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off).
"""
import hashlib
import math
import time

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.utils import timezone


def clock() -> float:
    """Seconds since the epoch (a test moves it on)."""
    return time.time()


def _stretch(username: str) -> tuple[str, float]:
    """The cache key of this username's current stretch, and the seconds left in it."""
    length = settings.EXHIBITION_LOGIN_USERNAME_SECONDS
    now = clock()
    digest = hashlib.sha256(username.encode()).hexdigest()[:32]
    return f"login-username:{digest}:{int(now // length)}", length - now % length


def username_wait(username: str | None) -> float:
    """Seconds the username is still refused from everywhere; 0 when it is not."""
    if username is None:
        return 0.0
    key, left = _stretch(username)
    return left if (cache.get(key) or 0) >= settings.EXHIBITION_LOGIN_USERNAME_FAILURES else 0.0


def pair_wait(username: str | None, address: str | None) -> float:
    """Seconds this username is still refused from this address; 0 when it is not."""
    attempts = AccessAttempt.objects.filter(username=username, ip_address=address,
                                            attempt_time__gte=timezone.now() - get_cool_off())
    if sum(attempts.values_list("failures_since_start", flat=True)) < settings.AXES_FAILURE_LIMIT:
        return 0.0
    last = max(attempts.values_list("attempt_time", flat=True))
    return max(0.0, (last + get_cool_off() - timezone.now()).total_seconds())


class LoginLockout(AxesDatabaseHandler):
    """Axes' database handler (the pair lock) with the username lock beside it."""

    def is_locked(self, request, credentials=None) -> bool:
        return (super().is_locked(request, credentials)
                or username_wait(get_client_username(request, credentials)) > 0)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        refused = request is not None and getattr(request, "axes_locked_out", False)  # set by axes: no password tested
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        username = get_client_username(request, credentials) if request is not None else None
        if refused or username is None:
            return
        key, left = _stretch(username)
        cache.add(key, 0, timeout=math.ceil(left) + 1)
        try:
            cache.incr(key)
        except ValueError:  # the stretch ended between the two calls: this failure opens the next one
            cache.add(_stretch(username)[0], 1, timeout=settings.EXHIBITION_LOGIN_USERNAME_SECONDS + 1)


def lockout_page(request, original_response=None, credentials=None):
    """429 "Too many failed sign-ins", saying how long the longer of the two locks still holds."""
    username = get_client_username(request, credentials)
    wait = max(pair_wait(username, getattr(request, "axes_ip_address", None)), username_wait(username))
    seconds = max(1, math.ceil(wait))
    minutes = max(1, math.ceil(seconds / 60))
    response = render(request, "registration/locked_out.html", {"minutes": minutes},
                      status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(seconds)
    return response
