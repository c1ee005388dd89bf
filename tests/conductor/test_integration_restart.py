"""A whole match over real websockets: Daphne, the Redis channel layer and `manage.py conduct` as
separate processes, with the conductor killed (SIGKILL) mid-question and started again.

It needs Redis at 127.0.0.1:6379 (db 14 is flushed) and skips without it (fails under CI=true).
"""
import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from game.conductor.host import RESTART_REASON
from tests.conftest import LIVE_WORDS, LiveSocket, need_service
from tests.redis_dbs import fresh_redis, redis_url
from tests.servers import ROOT, Processes, free_port, wait_for_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REDIS_URL = redis_url("restart")
SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.live.seat_tokens import make_seat_token
from game.match_setup import SeatSpec, TeamSpec, create_match_record
packet = Packet.objects.create(slug="restart", title="Restart")
for i in range(4):
    Question.objects.create(packet=packet, position=i, kind="tossup", text=WORDS + f" Number {i}?", answer=f"Answer {i}")
rules = {"reveal": "clock", "words_per_minute": 240, "lead_in_seconds": 0.5, "questions": 2, "tiebreakers": 0,
         "answer_seconds": 0, "prompt_seconds": 0}
match = create_match_record(title="Restart", packet=packet, format_name="quizbowl", overrides=rules,
                            teams=[TeamSpec("Humans", [SeatSpec("Ann", captain=True)]), TeamSpec("Others", [SeatSpec("Zed")])])
ann = match.teams.get(position=0).seats.get()
client = Client()
client.force_login(get_user_model().objects.create_user("mod", password="x", is_staff=True))
print(json.dumps({"code": match.code, "id": match.id, "token": make_seat_token(ann), "session": client.cookies["sessionid"].value}))
"""


@pytest.fixture
def servers(tmp_path):
    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}", "REDIS_URL": REDIS_URL,
           "DJANGO_SETTINGS_MODULE": "exhibition.settings", "LOG_LEVEL": "WARNING"}
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True)
    setup = subprocess.run([*manage, "shell", "-c", f"WORDS = {LIVE_WORDS!r}\n{SETUP}"], cwd=ROOT, env=env,
                           check=True, capture_output=True, text=True)
    info = json.loads(setup.stdout.strip().splitlines()[-1])
    procs = Processes(env, tmp_path)
    port = free_port()
    procs.start("daphne", str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                "exhibition.asgi:application")
    info.update(port=port, db=tmp_path / "live.sqlite3", procs=procs, conduct=[*manage, "conduct"])
    try:
        yield info
    finally:
        procs.stop_all()


class RealSocket:
    """The websockets client behind LiveSocket's communicator interface."""

    def __init__(self, ws):
        self.ws = ws

    async def receive_json_from(self, timeout):
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))

    async def send_json_to(self, data):
        await self.ws.send(json.dumps(data))

    async def disconnect(self):
        await self.ws.close()


async def open_socket(info, path: str, cookie: str | None = None, seat_token: str | None = None) -> LiveSocket:
    import websockets

    headers = {"Cookie": cookie} if cookie else {}
    if seat_token:
        headers["X-Seat-Token"] = seat_token
    ws = await websockets.connect(f"ws://127.0.0.1:{info['port']}{path}", origin=f"http://127.0.0.1:{info['port']}",
                                  additional_headers=headers)
    live = LiveSocket(RealSocket(ws), timeout=30)
    await live.hello()
    return live


async def win_question(mod: LiveSocket, ann: LiveSocket, number: int):
    await ann.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] >= 1)
    assert (await ann.command("buzz", {"seen": ann.frames[-1]["data"]["index"] + 1}))["type"] == "ack"
    answered = await ann.command("answer", {"text": f"Answer {number}"})
    assert answered["type"] == "ack"
    assert (await mod.command("rule", {"verdict": "accept", "answer": answered["data"]["seqs"][-1]}))["type"] == "ack"
    await ann.event("question_closed")


def stored(info) -> list[tuple[int, str, dict]]:
    with sqlite3.connect(info["db"]) as db:
        rows = db.execute("SELECT seq, type, data FROM game_matchevent WHERE match_id = ? ORDER BY seq", (info["id"],))
        return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


async def test_a_match_survives_the_conductor_being_killed_mid_question(servers):
    info = servers
    conductor = info["procs"].start("conductor-1", *info["conduct"])
    await wait_for_port(info["port"])
    mod = await open_socket(info, f"/ws/m/{info['code']}/moderate", cookie=f"sessionid={info['session']}")
    ann = await open_socket(info, f"/ws/m/{info['code']}/play", seat_token=info['token'])
    assert (await mod.command("start"))["type"] == "ack"
    await ann.until(lambda f: f.get("type") == "word_revealed" and f["data"]["index"] == 2)

    os.kill(conductor.pid, signal.SIGKILL)  # mid-question, with words still to read
    conductor.wait(10)
    info["procs"].start("conductor-2", *info["conduct"])
    paused = await mod.event("paused")
    assert paused["data"]["reason"] == RESTART_REASON
    assert (await ann.event("paused"))["seq"] == paused["seq"]
    assert (await mod.command("resume"))["type"] == "ack"

    await win_question(mod, ann, 0)
    assert (await mod.command("next"))["type"] == "ack"
    await win_question(mod, ann, 1)
    assert (await mod.command("next"))["type"] == "ack"
    ended = await mod.event("match_ended")
    assert ended["data"]["winner"] == "t0"

    events = stored(info)
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    assert [f["seq"] for f in mod.frames] == list(range(2, ended["seq"] + 1))  # seq 1 was in the snapshot
    kinds = [kind for _, kind, _ in events]
    assert kinds.count("paused") == 1 and kinds.count("resumed") == 1 and kinds.count("buzz") == 2
    words_before_kill = [d["index"] for _, kind, d in events[: paused["seq"] - 1] if kind == "word_revealed"]
    words_after_resume = [d["index"] for _, kind, d in events[paused["seq"]:] if kind == "word_revealed"]
    assert words_before_kill == list(range(len(words_before_kill)))
    assert words_after_resume[0] == words_before_kill[-1] + 1  # reading picks up at the next word
    await mod.close()
    await ann.close()
