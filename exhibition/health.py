"""GET /healthz on every web process: can it serve a match right now? For load balancers and compose.

Answered before Django (no host check, no HTTPS redirect), so a health check from inside the
container or from the proxy on plain HTTP gets the truth: 200 when the database answers and the
channel layer (Redis) does, 503 with a sentence naming what does not. The body also says how many
sockets and matches this process serves, so an operator can see how the watchers spread over the
web processes.
"""
from __future__ import annotations

import asyncio
import json
import os

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection

from game.live.fanout import local_counts

PATH = "/healthz"
TIMEOUT_S = 3


@database_sync_to_async
def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def _layer() -> str:
    layer = get_channel_layer()
    reach = getattr(layer, "connection", None)
    if reach is None:
        return "in-process"
    await reach(0).ping()
    return "ok"


async def report() -> tuple[int, dict]:
    body = {"ok": True, "pid": os.getpid()}
    problems = []
    try:
        await asyncio.wait_for(_database(), TIMEOUT_S)
        body["database"] = "ok"
    except Exception as exc:
        body["database"] = f"{type(exc).__name__}: {exc}"
        problems.append("the database does not answer")
    try:
        body["channel_layer"] = await asyncio.wait_for(_layer(), TIMEOUT_S)
    except Exception as exc:
        body["channel_layer"] = f"{type(exc).__name__}: {exc}"
        problems.append("Redis does not answer")
    body["sockets"], body["matches"] = local_counts()
    if problems:
        body["ok"] = False
        body["problem"] = "This web process cannot serve matches: " + " and ".join(problems) + "."
    return (200 if body["ok"] else 503), body


class HealthCheck:
    """ASGI middleware: answer GET /healthz itself, pass everything else on."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("path") == PATH:
            status, body = await report()
            data = json.dumps(body).encode()
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                                    (b"content-length", str(len(data)).encode())]})
            await send({"type": "http.response.body", "body": data})
            return
        await self.app(scope, receive, send)
