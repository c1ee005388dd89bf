"""GET /healthz (exhibition/health.py) and LOG_FORMAT=json (serving/logs.py): what an operator's
load balancer, compose and log collector read."""
import json
import logging
import sys

import pytest
from channels.testing import HttpCommunicator

from exhibition import health
from serving.logs import JsonFormatter

pytestmark = pytest.mark.django_db(transaction=True)


async def get(path: str, host: bytes = b"127.0.0.1"):
    from exhibition.asgi import application

    response = await HttpCommunicator(application, "GET", path, headers=[(b"host", host)]).get_response(timeout=10)
    return response["status"], response["body"]


async def test_health_says_ok_with_what_it_checked_whatever_the_host_name(channel_layer):
    status, body = await get("/healthz", host=b"internal-probe.local")  # not in ALLOWED_HOSTS
    data = json.loads(body)
    assert status == 200 and data["ok"] is True
    assert data["database"] == "ok" and data["channel_layer"] == "in-process"
    assert data["sockets"] == 0 and isinstance(data["pid"], int)


async def test_health_names_what_is_down_with_503(channel_layer, monkeypatch):
    async def down():
        raise ConnectionError("connection refused")

    monkeypatch.setattr(health, "_database", down)
    status, body = await get("/healthz")
    data = json.loads(body)
    assert status == 503 and data["ok"] is False
    assert data["problem"] == "This web process cannot serve matches: the database does not answer."


def test_json_logs_are_one_object_a_line_with_the_exception():
    try:
        raise ValueError("bad thing")
    except ValueError:
        record = logging.LogRecord("game.conductor.core", logging.ERROR, __file__, 1, "Match %s failed", ("ABC",),
                                   sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line.replace("\\n", "")
    data = json.loads(line)
    assert data["message"] == "Match ABC failed" and data["level"] == "ERROR"
    assert data["logger"] == "game.conductor.core" and "ValueError: bad thing" in data["exception"]
