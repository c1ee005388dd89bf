"""The production stack, started by hand for a test: Daphne, `manage.py conduct` (one or more), a
Redis of the test's own when it needs to restart one, and PostgreSQL or SQLite; and a websocket
client that behaves as the browser's does (reconnects with its last seq, retries a command with the
same id until it is answered).

Used by the integration tests that leave the stack idle, kill its parts and restart them.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

from tests.servers import ROOT, Processes, free_port, wait_for_port

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
SESSION_FRAMES = ("hello", "resync", "ping")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=2):
            return True
    except Exception:
        return False


class PrivateRedis:
    """A redis-server of the test's own, on its own port, that the test may kill and start again."""

    def __init__(self, directory: Path):
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        log = open(self.directory / f"redis-{self.port}.log", "ab")
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=log, stderr=subprocess.STDOUT)

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    @staticmethod
    def installed() -> bool:
        return shutil.which("redis-server") is not None


class Stack:
    """Processes of the production stack for one test, with a database of their own."""

    def __init__(self, tmp_path: Path, redis_url: str, db: str = "sqlite"):
        self.tmp = tmp_path
        self.pg_name = None
        if db == "postgres":
            self.pg_name = f"exhibition_stack_{uuid.uuid4().hex[:10]}"
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{self.pg_name}"')
            database_url = f"postgres://postgres@127.0.0.1:5432/{self.pg_name}"
        else:
            database_url = f"sqlite:///{tmp_path / 'stack.sqlite3'}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                    "DJANGO_SETTINGS_MODULE": "exhibition.settings", "LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1"}
        self.procs = Processes(self.env, tmp_path)
        self.port = free_port()
        self.conductors: dict[str, subprocess.Popen] = {}

    def manage(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=timeout)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def setup(self, script: str) -> dict:
        """Migrate, run a setup script in `manage.py shell`, and return the JSON its last line prints."""
        self.manage("migrate", "--noinput")
        return json.loads(self.manage("shell", "-c", script).strip().splitlines()[-1])

    def start_daphne(self, name: str = "daphne", port: int | None = None) -> subprocess.Popen:
        proc = self.procs.start(name, str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1",
                                "-p", str(port or self.port), "exhibition.asgi:application")
        if name == "daphne":
            self.daphne = proc
        return proc

    def start_proxy(self, web_ports: list[int]) -> int:
        """nginx with deploy/nginx.conf, its `web-N` upstreams pointed at our Daphnes; returns its port."""
        port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        for n, web in enumerate(web_ports, 1):
            conf = conf.replace(f"server web-{n}:8000", f"server 127.0.0.1:{web}")
        assert "server web-" not in conf, "as many Daphnes as deploy/nginx.conf has web processes"
        conf = (conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
                .replace("pid /tmp/nginx.pid;", f"pid {self.tmp / 'nginx.pid'};")
                .replace("/dev/stdout", str(self.tmp / "nginx-access.log"))
                .replace("/dev/stderr", str(self.tmp / "nginx-error.log")))
        (self.tmp / "nginx.conf").write_text(conf)
        self.procs.start("nginx", shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(self.tmp),
                         "-c", str(self.tmp / "nginx.conf"), "-g", "daemon off;")
        return port

    def start_conductor(self, name: str) -> subprocess.Popen:
        proc = self.procs.start(name, sys.executable, "manage.py", "conduct")
        self.conductors[name] = proc
        return proc

    def kill(self, proc: subprocess.Popen):
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    async def ready(self):
        await wait_for_port(self.port)

    def stop(self):
        self.procs.stop_all()
        if self.pg_name:
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


class Client:
    """A websocket client that behaves like static/js/match-socket.js.

    It keeps the event frames it applied (in seq order, none twice), reconnects when the socket
    closes and sends hello with its last seq, and retries a command with the same id until it gets
    an ack or an error that is not "try again". Every close code it saw is kept in `closes`.
    """

    RETRY_S = 2.0
    TRY_AGAIN = ("busy", "slow_down", "unavailable")

    def __init__(self, port: int, path: str, cookie: str | None = None, seat_token: str | None = None):
        self.port, self.path, self.cookie, self.seat_token = port, path, cookie, seat_token
        self.frames: list[dict] = []
        self.other: list[dict] = []
        self.last_seq = 0
        self.closes: list[int] = []
        self.answers: dict[str, list[dict]] = {}  # command id -> every ack/error that came for it
        self.ws = None
        self._reader: asyncio.Task | None = None
        self._arrived = asyncio.Event()
        self._refs: dict[str, str] = {}  # ref -> command id
        self.gaps = 0

    async def open(self):
        import websockets

        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.seat_token:  # a player's seat token goes in a header, never in the URL (game/live/seat_tokens.py)
            headers["X-Seat-Token"] = self.seat_token
        for _ in range(100):
            try:
                self.ws = await websockets.connect(f"ws://127.0.0.1:{self.port}{self.path}",
                                                   origin=f"http://127.0.0.1:{self.port}",
                                                   additional_headers=headers, open_timeout=10)
                break
            except (OSError, asyncio.TimeoutError, websockets.exceptions.InvalidStatus,
                    websockets.exceptions.InvalidHandshake):
                await asyncio.sleep(0.3)
        else:
            raise AssertionError(f"could not open {self.path}")
        await self.ws.send(json.dumps({"type": "hello", "data": {"last_seq": self.last_seq}}))
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self):
        import websockets

        try:
            async for text in self.ws:
                self._take(json.loads(text))
        except websockets.exceptions.ConnectionClosed:
            pass
        self.closes.append(self.ws.close_code)
        self._arrived.set()

    def _take(self, frame: dict):
        if "seq" in frame and frame.get("type") not in ("ack", "error"):
            if frame["seq"] == self.last_seq + 1:
                self.frames.append(frame)
                self.last_seq = frame["seq"]
            elif frame["seq"] > self.last_seq + 1:
                self.gaps += 1
                self._catch_up()
        elif frame.get("type") == "snapshot":
            self.last_seq = frame["data"]["seq"]
            self.other.append(frame)
        else:
            if frame.get("type") in ("ack", "error") and frame.get("ref") in self._refs:
                self.answers.setdefault(self._refs[frame["ref"]], []).append(frame)
            if frame.get("type") == "heartbeat" and frame["data"]["seq"] > self.last_seq:
                self._catch_up()
            self.other.append(frame)
        self._arrived.set()

    def _catch_up(self):
        """Behind the server: hello again with our last seq, which brings every missed event (the
        browser asks for a snapshot instead; the tests want each event frame)."""
        asyncio.get_running_loop().create_task(self._send({"type": "hello", "data": {"last_seq": self.last_seq}}))

    async def _send(self, frame: dict) -> bool:
        try:
            await self.ws.send(json.dumps(frame))
            return True
        except Exception:
            return False

    @property
    def alive(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def keep_open(self):
        if not self.alive:
            await self.open()

    async def wait(self, test, timeout: float = 60):
        """Wait until test() is true, reconnecting whenever the socket closed."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not test():
            if loop.time() > end:
                raise AssertionError(f"{self.path}: timed out; last seq {self.last_seq}, closes {self.closes}")
            await self.keep_open()
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), 0.5)
            except asyncio.TimeoutError:
                pass

    async def event(self, kind: str, after: int = 0, timeout: float = 60) -> dict:
        def found():
            return next((f for f in self.frames if f["type"] == kind and f["seq"] > after), None)

        await self.wait(lambda: found() is not None, timeout)
        return found()

    def start_command(self, kind: str, data: dict | None = None, command_id: str | None = None) -> str:
        """Send a command (not waiting for its answer); returns its id."""
        command_id = command_id or f"stack-{uuid.uuid4().hex}"
        ref = f"r{len(self._refs) + 1}"
        self._refs[ref] = command_id
        self._pending_frames = getattr(self, "_pending_frames", {})
        self._pending_frames[command_id] = {"type": kind, "data": data or {}, "ref": ref, "id": command_id}
        asyncio.get_running_loop().create_task(self._send(self._pending_frames[command_id]))
        return command_id

    def final_answer(self, command_id: str) -> dict | None:
        for frame in self.answers.get(command_id, []):
            if frame["type"] == "ack" or frame["data"]["code"] not in self.TRY_AGAIN:
                return frame
        return None

    async def settle(self, command_id: str, timeout: float = 90) -> dict:
        """Wait for the command's answer, sending it again (same id, new ref) as the browser does."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        next_try = loop.time() + self.RETRY_S
        while self.final_answer(command_id) is None:
            if loop.time() > end:
                raise AssertionError(f"{command_id} was never answered: {self.answers.get(command_id)}")
            reopened = not self.alive
            await self.keep_open()
            if reopened or loop.time() >= next_try:
                frame = dict(self._pending_frames[command_id], ref=f"r{len(self._refs) + 1}")
                self._refs[frame["ref"]] = command_id
                await self._send(frame)
                next_try = loop.time() + self.RETRY_S
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), 0.3)
            except asyncio.TimeoutError:
                pass
        return self.final_answer(command_id)

    async def command(self, kind: str, data: dict | None = None, timeout: float = 90) -> dict:
        return await self.settle(self.start_command(kind, data), timeout)

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
