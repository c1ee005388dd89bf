"""The live feed on a real Daphne (broadcast/feed.py): the documented curl command prints the hall's
frames, every malformed or unauthorised request is refused with a sentence before any work, a token
opens only so many feeds, a reconnect with Last-Event-ID resumes after that seq, and a revoked token's
open feed ends with a sentence (here found at a heartbeat; the host's revoke button, which also tells
the hub at once, is driven in tests/browser/test_broadcast.py)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import time
import urllib.error

import pytest

from broadcast.feed import OPEN_PER_TOKEN, REVOKED
from tests.browser.conftest import ROOT, _server_env, seeded_server
from tests.broadcast.feed_reader import FeedReader, open_feed, parse_events
from tests.test_documented_commands import as_run, documented

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CURL = 'curl -N -H "Authorization: Bearer TOKEN" http://127.0.0.1:8000/m/CODE/feed'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feed")
    with seeded_server(folder, _server_env(folder / "db.sqlite3")) as running:
        yield running


def make_token(server, code: str, label: str = "scoreboard") -> str:
    """A token made the way the host's page makes one (feed_tokens.create_token), in the server's database."""
    made = subprocess.run(
        [".venv/bin/python", "-c", "import django, sys; django.setup(); from game.models import Match; "
         "from broadcast.feed_tokens import create_token; print(create_token(Match.objects.get(code=sys.argv[1]), sys.argv[2])[1])",
         code, label], env=_server_env(server["db"]), cwd=ROOT, capture_output=True, text=True, check=True)
    return made.stdout.strip().splitlines()[-1]


def feed_url(server, code):
    return f"{server['url']}/m/{code}/feed"


def refusal(url, token=None, headers=None, method="GET"):
    """(status, the sentence) of a refused feed request."""
    try:
        open_feed(url, token, headers, method)
        pytest.fail(f"{url} was not refused")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())["error"]


def test_the_documented_curl_command_prints_the_hall_frames(server):
    assert CURL in documented(), "docs/broadcast.md no longer shows the curl command this test runs"
    code = server["matches"]["finished_quizbowl"]
    token = make_token(server, code)
    port = server["url"].rsplit(":", 1)[1]
    command = as_run(CURL, {"TOKEN": token, "CODE": code, "8000": port}, {})
    assert command == f'curl -N -H "Authorization: Bearer {token}" http://127.0.0.1:{port}/m/{code}/feed'
    curl = subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for line in curl.stdout:  # the snapshot, then heartbeats (every second in these tests)
            lines.append(line)
            if line.startswith("event: heartbeat"):
                break
    finally:
        curl.kill()
        curl.wait()
    first = parse_events(lines)[0]
    snapshot = json.loads(first["data"])
    assert first["event"] == "message" and snapshot["type"] == "snapshot"
    assert int(first["id"]) == snapshot["data"]["seq"]
    assert snapshot["data"]["status"] == "finished"


def test_a_reconnect_with_last_event_id_gets_the_frames_after_it_each_with_its_seq(server):
    code = server["matches"]["finished_efficientqa"]
    token = make_token(server, code)
    whole = FeedReader(feed_url(server, code), token)
    _wait(lambda: whole.events)
    last = int(whole.events[0]["id"])
    whole.close()
    resumed = FeedReader(feed_url(server, code), token, {"Last-Event-ID": str(last - 3)})
    _wait(lambda: len(resumed.frames()) >= 3)
    resumed.close()
    frames = resumed.frames()
    assert sorted(frames)[:3] == [last - 2, last - 1, last]
    assert all(frame["seq"] == seq for seq, frame in frames.items())
    assert frames[last]["type"] == "match_ended"


@pytest.mark.parametrize("how, status, says", [
    ({}, 401, "Authorization: Bearer"),
    ({"Authorization": "Basic bW9kZXJhdG9yOnB3"}, 401, "Authorization: Bearer"),
    ({"Authorization": "Bearer " + "x" * 200}, 401, "Authorization: Bearer"),
    ({"Authorization": "Bearer " + "A" * 43}, 403, "does not open this match's feed"),
    ({"Last-Event-ID": "12; DROP"}, 400, "digits only"),
])
def test_a_request_without_a_good_token_is_refused_with_a_sentence(server, how, status, says):
    code = server["matches"]["finished_quizbowl"]
    headers = dict(how)
    if "Last-Event-ID" in how:
        headers["Authorization"] = f"Bearer {make_token(server, code)}"
    assert refusal(feed_url(server, code), headers=headers)[0] == status
    assert says in refusal(feed_url(server, code), headers=headers)[1]


def test_a_token_in_the_address_is_refused_and_a_token_opens_only_its_own_match(server):
    code, other = server["matches"]["finished_quizbowl"], server["matches"]["finished_efficientqa"]
    token = make_token(server, code)
    status, says = refusal(f"{feed_url(server, code)}?token={token}")
    assert status == 400 and "never in the address" in says
    assert refusal(feed_url(server, other), token)[0] == 403
    assert refusal(feed_url(server, code), method="POST")[0] == 405


def test_a_token_opens_only_so_many_feeds_at_once(server):
    code = server["matches"]["finished_quizbowl"]
    token = make_token(server, code)
    feeds = [FeedReader(feed_url(server, code), token) for _ in range(OPEN_PER_TOKEN)]
    status, says = refusal(feed_url(server, code), token)
    assert status == 429 and "too many feeds" in says
    feeds.pop().close()
    time.sleep(0.5)  # the server hears the close
    again = FeedReader(feed_url(server, code), token)
    _wait(lambda: again.events)
    for feed in [*feeds, again]:
        feed.close()


def test_a_revoked_tokens_open_feed_ends_with_a_sentence(server):
    code = server["matches"]["finished_quizbowl"]
    token = make_token(server, code, "to revoke")
    feed = FeedReader(feed_url(server, code), token)
    _wait(lambda: feed.events)
    with sqlite3.connect(server["db"]) as db:  # revoked behind the hub's back: the next heartbeat finds it
        db.execute("UPDATE broadcast_feedtoken SET revoked_at = CURRENT_TIMESTAMP WHERE label = 'to revoke'")
    assert feed.ended.wait(15), "the feed of a revoked token stayed open"
    closing = feed.events[-1]
    assert closing["event"] == "closed" and json.loads(closing["data"]) == {"code": "revoked", "reason": REVOKED}
    assert refusal(feed_url(server, code), token)[0] == 403


def _wait(ready, seconds: float = 15):
    give_up = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < give_up, "the feed sent nothing"
        time.sleep(0.05)


HEALTH = "curl http://HOST:8000/healthz"


def test_the_documented_health_probe_answers(server):
    """docs/production.md's probe of a web process, run as written on this server (curl is on the path here)."""
    assert HEALTH in documented()
    port = server["url"].rsplit(":", 1)[1]
    done = subprocess.run(as_run(HEALTH, {"HOST": "127.0.0.1", "8000": port}, {}), shell=True,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and json.loads(done.stdout)["ok"] is True
