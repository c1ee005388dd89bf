"""Websocket routes: one per audience of a match (see game.live.consumers and docs/wire-protocol.md)."""
from django.urls import re_path

from game.live.consumers import ModeratorSocket, PlayerSocket, SpectatorSocket, StationSocket

_CODE = r"^ws/m/(?P<code>[A-Za-z0-9]{1,12})"

websocket_urlpatterns = [
    re_path(_CODE + r"/moderate$", ModeratorSocket.as_asgi()),
    re_path(_CODE + r"/play$", PlayerSocket.as_asgi()),
    re_path(_CODE + r"/watch$", SpectatorSocket.as_asgi()),
    re_path(_CODE + r"/station/(?P<seat>s[0-9]{1,12})$", StationSocket.as_asgi()),
]
