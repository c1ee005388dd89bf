"""A whole event over real HTTP and real websockets: the host makes the event and its teams on the
host pages, starts each preliminary, a player of each team joins from the join page and plays on a
socket until the preliminary stops at its question limit; the server is restarted; the public
leaderboard shows the tie and its words; the host starts the final with the top team, which plays
it, and the leaderboard says the event is closed.

The server is Daphne with the embedded conductor and bot worker, on SQLite (the embedded default) and,
marked postgres, on PostgreSQL (DATABASE_URL names the server; the test uses a database of its own
beside it, made fresh and dropped after).
"""
import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import LIVE_WORDS, LiveSocket, need_service
from tests.conductor.test_integration_restart import RealSocket
from tests.servers import ROOT, Processes, free_port, wait_for_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
packet = Packet.objects.create(slug="live-event", title="Live event")
for i in range(6):
    Question.objects.create(packet=packet, position=i, kind="tossup", text=WORDS + f" Number {i}?", answer=f"Answer {i}")
client = Client()
client.force_login(get_user_model().objects.create_user("host", password="x", is_staff=True))
print(json.dumps({"packet": packet.pk, "session": client.cookies["sessionid"].value}))
"""
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Server:
    """Daphne serving the embedded default on one database, restartable."""

    def __init__(self, folder: Path, database_url: str):
        self.env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        self.env.update(DATABASE_URL=database_url, DEBUG="1", DJANGO_SETTINGS_MODULE="exhibition.settings",
                        LOG_LEVEL="WARNING")
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=self.env, check=True, capture_output=True)
        made = subprocess.run([*manage, "shell", "-c", f"WORDS = {LIVE_WORDS!r}\n{SETUP}"], cwd=ROOT, env=self.env,
                              check=True, capture_output=True, text=True)
        self.info = json.loads(made.stdout.strip().splitlines()[-1])
        self.procs = Processes(self.env, folder)
        self.port = free_port()
        self.daphne = None

    async def start(self):
        self.daphne = self.procs.start("daphne", str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1",
                                       "-p", str(self.port), "exhibition.asgi:application")
        await wait_for_port(self.port)

    def stop(self):
        self.daphne.kill()
        self.daphne.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve(tmp_path, database_url):
    server = Server(tmp_path, database_url)
    try:
        yield server
    finally:
        server.procs.stop_all()


@pytest.fixture
def embedded(tmp_path):
    yield from serve(tmp_path, f"sqlite:///{tmp_path / 'event.sqlite3'}")


@pytest.fixture
def on_postgres(tmp_path):
    base = os.environ.get("DATABASE_URL", "")
    need_service(base.startswith(("postgres://", "postgresql://")),
                 "this test needs DATABASE_URL=postgres://… (make test sets it for the postgres run)")
    import psycopg

    parts = urlsplit(base)
    name = f"{parts.path.lstrip('/') or 'exhibition'}_live_event"
    admin = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')
            db.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        need_service(False, f"PostgreSQL at {base} did not let the test make a database: {error}")
    try:
        yield from serve(tmp_path, urlunsplit(parts._replace(path=f"/{name}")))
    finally:
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def post_form(client, page: str, url: str, data: dict):
    """POST a host form as a browser would: with the CSRF token of the page it is on."""
    token = TOKEN.search((await client.get(page)).text).group(1)
    return await client.post(url, data={**data, "csrfmiddlewaretoken": token})


async def socket(server: Server, path: str, cookie: str) -> LiveSocket:
    import websockets

    ws = await websockets.connect(f"ws://127.0.0.1:{server.port}{path}", origin=server.url,
                                  additional_headers={"Cookie": cookie})
    live = LiveSocket(RealSocket(ws), timeout=30)
    await live.hello()
    return live


async def join(server: Server, code: str, name: str) -> str:
    """Take a seat from the join page, as a phone does; return the player's session cookie."""
    import httpx

    async with httpx.AsyncClient(base_url=server.url) as phone:
        page = (await phone.get(f"/m/{code}/join")).text
        team = re.search(r'name="team" value="(\d+)"', page).group(1)
        reply = await phone.post(f"/m/{code}/join", data={
            "name": name, "team": team, "csrfmiddlewaretoken": TOKEN.search(page).group(1)})
        for _ in range(20):  # "taking your seat": the page asks again until the conductor has stored it
            if reply.status_code == 302:
                break
            await asyncio.sleep(0.5)
            reply = await phone.get(f"/m/{code}/join")
        assert reply.status_code == 302 and reply.headers["location"] == f"/m/{code}/play", reply.text[:500]
        return f"sessionid={phone.cookies['sessionid']}"


async def play_match(server: Server, code: str, player: str, host_cookie: str) -> dict:
    """The moderator reads one word, the player buzzes and is ruled right, on every question; returns
    match_ended."""
    mod = await socket(server, f"/ws/m/{code}/moderate", host_cookie)
    ann = await socket(server, f"/ws/m/{code}/play", await join(server, code, player))
    assert (await mod.command("start"))["type"] == "ack"
    while True:
        started = await mod.event("question_started")
        assert started["data"]["tiebreaker"] is False
        assert (await mod.command("reveal"))["type"] == "ack"
        await ann.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] == 0)
        assert (await ann.command("buzz", {"seen": 1}))["type"] == "ack"
        answered = await ann.command("answer", {"text": "My answer"})
        assert answered["type"] == "ack"
        assert (await mod.command("rule", {"verdict": "accept", "answer": answered["data"]["seqs"][-1]}))["type"] == "ack"
        await mod.event("question_closed")
        assert (await mod.command("next"))["type"] == "ack"
        await mod.until(lambda f: f.get("type") in ("question_started", "match_ended") and "seq" in f)
        if mod.frames[-1]["type"] == "match_ended":
            ended = mod.frames[-1]
            break
        mod.looked = len(mod.frames) - 1  # the question just started is the loop's next one
    await mod.close()
    await ann.close()
    return ended


PLAY_TIMEOUT_S = 90  # a two-question match takes seconds; a frame that never comes fails here, with the server's log


async def played(server: Server, code: str, player: str, host_cookie: str) -> dict:
    try:
        return await asyncio.wait_for(play_match(server, code, player, host_cookie), PLAY_TIMEOUT_S)
    except asyncio.TimeoutError:
        pytest.fail(f"match {code} did not end within {PLAY_TIMEOUT_S} s; Daphne's log ends:\n{server.procs.log('daphne')}")


async def run_event(server: Server):
    import httpx

    await server.start()
    host_cookie = f"sessionid={server.info['session']}"
    async with httpx.AsyncClient(base_url=server.url, cookies={"sessionid": server.info["session"]}) as host:
        made = await post_form(host, "/host/events/", "/host/events/", {
            "name": "Live event", "format_name": "quizbowl", "packets": [server.info["packet"]],
            "prelim_questions": 2, "final_questions": 2, "team_size_cap": 8, "draw": "fresh", "seed": 3,
            "reveal": "moderator", "words_per_minute": 200})
        assert made.status_code == 302, made.text[:2000]
        event = made.headers["location"]
        number = int(event.rstrip("/").rsplit("/", 1)[1])
        for name in ("Owls", "Foxes"):
            added = await post_form(host, event, f"{event}teams", {"name": name, "players": "Ann"})
            assert added.status_code == 302
        teams = re.findall(rf'action="{event}teams/(\d+)/start"', (await host.get(event)).text)
        assert len(teams) == 2
        for team in teams:
            started = await post_form(host, event, f"{event}teams/{team}/start", {"bot_500mib": "simulated"})
            code = started.headers["location"].rstrip("/").rsplit("/", 1)[1]
            ended = await played(server, code, "Ann", host_cookie)
            assert ended["data"]["reason"] == "question_limit"

    server.stop()  # everything is in the database and the logs: a new server carries on
    await server.start()
    async with httpx.AsyncClient(base_url=server.url, cookies={"sessionid": server.info["session"]}) as host:
        board = (await host.get(f"/events/{number}/")).text
        assert board.count("<td>2</td>") >= 2  # each team played its two questions
        assert "level with Owls in every figure: they share the place (listed by name)" in board
        assert board.index("Foxes") < board.index("Owls")  # level in every figure: by name
        final = await post_form(host, event, f"{event}final", {"bot_500mib": "simulated"})
        code = final.headers["location"].rstrip("/").rsplit("/", 1)[1]
        ended = await played(server, code, "Bea", host_cookie)
        assert ended["data"]["winner"] == "t0"
        board = (await host.get(f"/events/{number}/")).text
        assert "Foxes won" in board and "the event is closed" in board


def test_an_event_played_over_websockets_on_the_embedded_default(embedded):
    asyncio.run(run_event(embedded))


@pytest.mark.postgres
def test_an_event_played_over_websockets_on_postgres(on_postgres):
    asyncio.run(run_event(on_postgres))
