"""The page a locked-out sign-in gets (django-axes calls it): in our style, saying how long to wait."""
import math

from axes.helpers import get_cool_off
from django.conf import settings
from django.shortcuts import render


def lockout_page(request, original_response=None, credentials=None):
    wait = get_cool_off(request)
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    response = render(request, "registration/locked_out.html", {"minutes": minutes},
                      status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(minutes * 60)
    return response
