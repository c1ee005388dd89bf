"""ASGI entry point: HTTP through Django, websockets through the Channels consumers.

Websockets are bounded in what they may send (serving/websocket_limits.py), then pass the Origin
check (ALLOWED_HOSTS), the door that turns away what a seat's budget refuses (game/live/door.py)
and the session login before a consumer sees them. GET /m/<code>/feed (a match's live feed for
machines, server-sent events) is routed to broadcast/feed.py, every other request to Django. In the embedded default
(no REDIS_URL) the application also starts the conductor inside this process on the first request;
with Redis, `manage.py conduct` runs it separately. GET /healthz is answered before all of that
(exhibition/health.py). Before any of it, a request body over its page's limit is answered 413 by
Daphne's request itself, before the body is read (serving/request_bodies.py).
"""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from exhibition.health import HealthCheck  # noqa: E402
from serving.long_lived import hold_heap_thresholds, keep_out_of_collection  # noqa: E402
from serving.request_bodies import body_limit, refusal_page  # noqa: E402
from serving.server_internals import bound_request_bodies  # noqa: E402
from serving.websocket_limits import BoundedMessages  # noqa: E402
from game.conductor.embedded import ConductorStarter, embedded_enabled  # noqa: E402
from game.live.door import SocketDoor  # noqa: E402
from game.live.routing import websocket_urlpatterns  # noqa: E402
from broadcast.feed_routes import http_urlpatterns  # noqa: E402
from django.urls import re_path  # noqa: E402


class KeepServerSend:
    """Outermost: keep the server's own `send` in the scope (scope["exhibition.send"]), before the
    session and auth middleware wrap it, so the fan-out can write prepared frames straight to
    Daphne's websocket protocol (game/live/fanout.py)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope = dict(scope, **{"exhibition.send": send})
        return await self.app(scope, receive, send)


websocket_application = BoundedMessages(KeepServerSend(
    AllowedHostsOriginValidator(SocketDoor(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))))))

http_application = URLRouter([*http_urlpatterns, re_path(r"", django_asgi_app)])
application = ProtocolTypeRouter({"http": http_application, "websocket": websocket_application})
if embedded_enabled():
    application = ConductorStarter(application)
application = HealthCheck(application)  # GET /healthz, for load balancers and compose
bound_request_bodies(body_limit, refusal_page)  # before Daphne, which imported this module, opens its port

keep_out_of_collection("The web process")  # no full garbage collection pass walks start-up's objects in play
hold_heap_thresholds()  # what play frees goes back to the system, not kept as the heap's high-water mark
