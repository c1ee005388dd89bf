"""Fixtures for the bot tests: a private artefact folder, small data sets written by the tests,
and a check for the Redis server the integration tests talk to."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import signal
import socket
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager

import pytest

from django.conf import settings as django_settings

from bots.registry import forget_loaded
from exhibition.celery import app as celery_app
from tests.conftest import need_service
from tests.redis_dbs import redis_url

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379

# Quizbowl-style clues, three per answer, for the answer-document guesser.
TOSSUPS = {
    "Mount Everest": [
        "Tenzing Norgay and Edmund Hillary first reached the summit of this peak in 1953",
        "Sherpa guides lead climbers through the Khumbu Icefall on the way up this mountain",
        "This highest mountain on Earth stands on the border of Nepal and Tibet in the Himalaya",
    ],
    "Photosynthesis": [
        "Chloroplasts carry out this process that turns light energy into chemical energy",
        "The Calvin cycle is the light-independent stage of this process in plants",
        "Chlorophyll absorbs sunlight for this process that releases oxygen and makes glucose",
    ],
    "Hamlet": [
        "This Danish prince speaks the soliloquy beginning To be or not to be",
        "Ophelia drowns in this Shakespeare tragedy about a prince of Denmark",
        "Claudius summons Rosencrantz and Guildenstern to spy on the title prince of this play",
    ],
    "Jupiter": [
        "The Great Red Spot is an enormous storm on this largest planet",
        "Galileo discovered four moons of this gas giant including Io Europa and Ganymede",
        "This fifth planet from the Sun is the biggest planet of the solar system",
    ],
    "Ludwig van Beethoven": [
        "This deaf composer wrote a Ninth Symphony whose finale sets the Ode to Joy",
        "This German composer wrote the Moonlight Sonata and the bagatelle Fur Elise",
        "This composer first dedicated his Eroica symphony to Napoleon before scratching out the name",
    ],
    "Napoleon": [
        "This emperor of the French lost the battle of Waterloo to Wellington",
        "This Corsican general crowned himself emperor in Notre Dame cathedral",
        "Exiled first to Elba and finally to Saint Helena this French emperor died in 1821",
    ],
}

PAIRS = [
    {"question": "who wrote the novel pride and prejudice", "answer": "Jane Austen"},
    {"question": "what is the capital city of france", "answer": ["Paris"]},
    {"question": "when did apollo 11 land on the moon", "answer": ["20 July 1969", "1969"]},
    {"question": "which planet is known as the red planet", "answer": "Mars"},
    {"question": "who painted the mona lisa", "answer": "Leonardo da Vinci"},
    {"question": "what is the largest ocean on earth", "answer": "Pacific Ocean"},
    {"question": "how many sides does a hexagon have", "answer": "six"},
    {"question": "what gas do plants absorb from the air for photosynthesis", "answer": "carbon dioxide"},
    {"question": "who was the first president of the united states", "answer": "George Washington"},
    {"question": "what is the chemical symbol for gold", "answer": "Au"},
]

PASSAGES = [
    {"title": "Apollo 11", "text": "Apollo 11 was the spaceflight that first landed humans on the Moon. "
     "Neil Armstrong and Buzz Aldrin landed the lunar module Eagle on July 20, 1969."},
    {"title": "Jane Austen", "text": "Jane Austen was an English novelist known for Pride and Prejudice, "
     "which was published in 1813, and for Emma."},
    {"title": "Eiffel Tower", "text": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in "
     "Paris. It was designed by the engineering company of Gustave Eiffel and completed in 1889."},
    {"title": "Mount Everest", "text": "Mount Everest is the highest mountain above sea level, in the Himalayas "
     "on the border between Nepal and China. Its summit is 8,849 metres high."},
    {"title": "Pacific Ocean", "text": "The Pacific Ocean is the largest and deepest of the five oceans of the "
     "Earth, stretching from the Arctic in the north to the Southern Ocean."},
    {"title": "Hexagon", "text": "In geometry a hexagon is a polygon with six sides and six angles; "
     "honeycomb cells are hexagons."},
]


def write_jsonl(path, records) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


@pytest.fixture
def bot_root(tmp_path, settings):
    """A fresh EXHIBITION_BOT_DIR, and no bot left loaded from another test."""
    settings.EXHIBITION_BOT_DIR = tmp_path / "bots"
    forget_loaded()
    yield settings.EXHIBITION_BOT_DIR
    forget_loaded()


@pytest.fixture
def pairs_file(tmp_path) -> str:
    return write_jsonl(tmp_path / "pairs.jsonl", PAIRS)


@pytest.fixture
def passages_file(tmp_path) -> str:
    return write_jsonl(tmp_path / "passages.jsonl", PASSAGES)


@pytest.fixture
def tossups_file(tmp_path) -> str:
    """The tossups as a QANTA JSON file (answers are page names, as in the real data)."""
    questions = [
        {"qanta_id": i, "text": text, "page": answer.replace(" ", "_"), "tokenizations": [[0, len(text)]]}
        for i, (answer, text) in enumerate((a, t) for a, ts in TOSSUPS.items() for t in ts)
    ]
    path = tmp_path / "tossups.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    return str(path)


def redis_available() -> bool:
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


# -- a real Redis broker and real Celery bot workers ------------------------------------------

REDIS_URL = redis_url("bots")
QUEUE = "bots.500mib"
# Another test run on this machine may have its own worker on the same Redis: keep our queue apart.
KEY_PREFIX = f"test-{uuid.uuid4().hex[:8]}:"


def purge_broker_keys(url: str = REDIS_URL):
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=KEY_PREFIX + "*"):
        client.delete(key)


@contextmanager
def running_worker(log_path, queue: str = QUEUE, env: dict | None = None):
    """A bot worker for one tier's queue, in its own process group; ended on exit."""
    env = {
        **os.environ, "REDIS_URL": REDIS_URL, "CELERY_BROKER_KEY_PREFIX": KEY_PREFIX,
        "DJANGO_SETTINGS_MODULE": "exhibition.settings", **(env or {}),
    }
    command = [
        sys.executable, "-m", "celery", "-A", "exhibition", "worker", "-Q", queue, "--pool", "prefork",
        "--concurrency", "1", "--loglevel", "info", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "--hostname", f"bots-test-{uuid.uuid4().hex[:8]}@%h",
    ]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command, cwd=django_settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while b" ready." not in log_path.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Celery worker did not start:\n{log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def broker_at(settings, url: str):
    """This process talks to Redis at url as the production web/conductor processes do (start the
    workers with env={"REDIS_URL": url} to match)."""
    need_service(redis_available(), "Redis is not running on 127.0.0.1:6379 (start redis-server to run this test)")
    purge_broker_keys(url)
    settings.REDIS_URL = url
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "serving.redis_layer.ResilientRedisChannelLayer", "CONFIG": {"hosts": [url]}}
    }
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager", "broker_transport_options")}
    celery_app.conf.update(
        broker_url=url, task_always_eager=False, broker_transport_options={"global_keyprefix": KEY_PREFIX}
    )
    forget_connections()
    try:
        yield
    finally:
        forget_connections()
        celery_app.conf.update(saved)
        purge_broker_keys(url)


def forget_connections():
    """Drop the connections made to the last broker: Celery keeps its producers' pool past close(), and
    would go on sending to the broker a test before this one used."""
    celery_app.close()
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker(settings):
    with broker_at(settings, REDIS_URL):
        yield


# -- remote bots: real HTTP servers on this machine ---------------------------------------------------

class BotServer(ThreadingHTTPServer):
    """Answers each request with reply(method, path, body) -> (status, JSON value or raw bytes)."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, reply):
        self.reply = reply
        self.received = []
        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    def _answer(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        self.server.received.append((method, self.path, body))
        status, value = self.server.reply(method, self.path, body)
        data = value if isinstance(value, bytes) else json.dumps(value).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped waiting (the time-out test)

    def do_GET(self):
        self._answer("GET")

    def do_POST(self):
        self._answer("POST")

    def log_message(self, *args):
        pass


@pytest.fixture
def serve():
    servers = []

    def start(reply):
        server = BotServer(reply)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


