"""docker-compose.yml kept honest: no Docker engine runs here, so each service's command is run by
hand against the local Redis, and each process must do its job: migrate the database, serve pages,
answer as the conductor, and answer bot queries on its tier's queue.
"""
import asyncio
import os
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest
import yaml

from tests.conftest import need_service
from tests.redis_dbs import fresh_redis, redis_url
from tests.servers import ROOT, Processes, free_port, wait_for_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REDIS_URL = redis_url("compose")
BIN = Path(sys.executable).parent


def compose_services() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def local_command(command: list[str], port: int) -> list[str]:
    """The service's command as it runs here: our venv's programs, and the web port on loopback."""
    program, *args = command
    program = sys.executable if program == "python" else str(BIN / program)
    args = ["127.0.0.1" if a == "0.0.0.0" else a for a in args]
    if "-p" in args:
        args[args.index("-p") + 1] = str(port)
    return [program, *args]


def test_compose_wires_every_process_to_postgres_and_redis():
    services = compose_services()
    app = {name: s for name, s in services.items() if "command" in s}
    assert set(app) == {"migrate", "web-1", "web-2", "conductor", "bots-500mib", "bots-6gib", "bots-unlimited"}
    for name, service in app.items():
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:" in env["DATABASE_URL"], name
        assert env["REDIS_URL"].startswith("redis://redis:"), name
    queues = {s["command"][s["command"].index("-Q") + 1] for n, s in app.items() if n.startswith("bots-")}
    assert queues == {"bots.500mib", "bots.6gib", "bots.unlimited"}


def test_compose_puts_the_web_processes_behind_the_proxy_with_health_checks():
    services = compose_services()
    webs = sorted(n for n in services if n.startswith("web-"))
    assert len(webs) >= 2 and all(services[n]["command"] == services["web-1"]["command"] for n in webs)
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert all(f"server {n}:8000" in conf for n in webs), "every web process is in the proxy's upstream"
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in services["proxy"]["volumes"]
    assert set(services["proxy"]["depends_on"]) == set(webs)
    for name in (*webs, "conductor", "proxy"):
        assert services[name]["healthcheck"]["test"][0] == "CMD", name
    assert services["conductor"]["deploy"]["replicas"] >= 2, "conductors share the matches"
    assert services["web-1"]["environment"]["LOG_FORMAT"] == "json"


@pytest.fixture
def stack(tmp_path):
    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    prefix = f"compose-{uuid.uuid4().hex[:8]}:"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'compose.sqlite3'}", "REDIS_URL": REDIS_URL,
           "SECRET_KEY": "compose-check-" + "k" * 40, "DEBUG": "false", "HTTPS": "off", "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "EXHIBITION_BOT_DIR": str(tmp_path / "bots"), "CELERY_BROKER_KEY_PREFIX": prefix,
           "DJANGO_SETTINGS_MODULE": "exhibition.settings", "LOG_LEVEL": "WARNING"}
    procs = Processes(env, tmp_path)
    try:
        yield procs, env, prefix
    finally:
        procs.stop_all()


async def reply_on(layer, channel: str, timeout: float = 60) -> dict:
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def test_each_compose_command_runs_and_does_its_job(stack):
    from celery import Celery
    from serving.redis_layer import ResilientRedisChannelLayer

    procs, env, prefix = stack
    services = compose_services()
    port = free_port()
    migrate = subprocess.run(local_command(services["migrate"]["command"], port), cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
    assert migrate.returncode == 0, migrate.stderr[-2000:]

    for name in ("web-1", "conductor", "bots-500mib", "bots-6gib", "bots-unlimited"):
        procs.start(name, *local_command(services[name]["command"], port))

    # web: Daphne serves the home page, and its health check (run as compose runs it) passes.
    await wait_for_port(port)
    page = await asyncio.to_thread(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read())
    assert b"Matches" in page
    check = [a.replace(":8000/", f":{port}/") for a in local_command(services["web-1"]["healthcheck"]["test"][1:], port)]
    web_health = await asyncio.to_thread(subprocess.run, check, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert web_health.returncode == 0, web_health.stderr[-2000:]

    # conductor: answers a command on the shared "conductor" channel.
    layer = ResilientRedisChannelLayer(hosts=[REDIS_URL])
    inbox = await layer.new_channel()
    await layer.send("conductor", {"type": "command", "match": "NOSUCH", "reply_to": inbox, "ref": "r1",
                                   "command": {"type": "start", "actor": {"role": "moderator"}}})
    reply = await reply_on(layer, inbox)
    assert reply["ok"] is False and reply["error"]["code"] == "no_match", procs.log("conductor")
    health = await asyncio.to_thread(subprocess.run, local_command(services["conductor"]["healthcheck"]["test"][1:], port),
                                     cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert health.returncode == 0 and "is alive" in health.stdout, health.stderr[-2000:]

    # bot workers: each tier's worker answers a query put on its own queue.
    client = Celery("compose-check", broker=REDIS_URL)
    client.conf.broker_transport_options = {"global_keyprefix": prefix}
    for tier in ("500mib", "6gib", "unlimited"):
        queue = f"bots.{tier}"
        payload = {"reply_to": inbox, "match": "M", "seat": f"s-{tier}", "query_id": f"q-{tier}",
                   "bot": {"kind": "simulated", "accuracy": 1.0}, "time_limit_ms": 5000,
                   "private": {"answer": "Mars", "length_words": 4},
                   "query": {"text": "Which planet is red", "word_index": 4, "phase": 1, "mode": "buzz",
                             "final": True, "tier": tier}}
        client.send_task("bots.act", args=[payload], queue=queue, exchange=queue, routing_key=queue)
        act = await reply_on(layer, inbox)
        assert act["query_id"] == f"q-{tier}" and act["error"] is None, procs.log(f"bots-{tier}")
        assert act["act"]["guess"] == "Mars" and act["act"]["buzz"] is True
    for proc in procs.running:
        assert proc.poll() is None, "a compose service exited early"
    await layer.flush()
