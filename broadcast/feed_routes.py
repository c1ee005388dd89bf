"""HTTP routes served outside Django's views: the live feed (broadcast/feed.py), a stream per request."""
from django.urls import re_path

from broadcast.feed import FeedStream

http_urlpatterns = [
    re_path(r"^m/(?P<code>[A-Za-z0-9]{1,12})/feed$", FeedStream.as_asgi()),
]
