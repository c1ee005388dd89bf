"""The replay data as it is sent: frames packed in columns come back exactly (in Python and in the
page's own JavaScript), a finished match's data is built once and then served from the cache until
anything it is built from changes, the ETag gives a 304, and the public data never holds the staff
view's audit, whichever was asked for first."""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from game.archive import replay_data
from game.demo import ensure_demo_packet
from game.engine.api import AUDIENCES
from game.management.commands.simulate import play_simulated_match
from game.models import Match, MatchEvent
from game.archive.replay import Replay
from game.archive.replay_data import pack_frames, unpack_frames
from tests.conftest import need_service
from tests.engine.played import PLAYED
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "replay_frames.mjs"
AUDIENCE_TEAMS = [(a, t) for a in AUDIENCES for t in (("t0", "t1") if a == "player" else (None,))]


def stored(events):
    return json.loads(json.dumps([dict(e, seq=i) for i, e in enumerate(events, 1)]))


def all_frames() -> list[list[dict]]:
    """Every audience's frames of every played match (undo, override, throw-out, held guesses in them)."""
    out = []
    for name in sorted(PLAYED):
        replay = Replay(stored(PLAYED[name]().events))
        out += [replay.frames(audience, team) for audience, team in AUDIENCE_TEAMS]
    return out


def test_packed_frames_unpack_to_the_same_frames_after_json():
    for frames in all_frames():
        packed = json.loads(json.dumps(pack_frames(frames)))
        assert unpack_frames(packed) == frames
        assert len(packed["types"]) == len(set(f["type"] for f in frames))  # each type named once


def test_a_frame_whose_data_has_other_keys_than_its_type_keeps_them():
    frames = [{"seq": 1, "t": 100, "type": "ruling", "data": {"id": 1, "verdict": "accept"}},
              {"seq": 2, "t": 90, "type": "ruling", "data": {"id": 2, "verdict": "reject", "resume_at": 5}},
              {"seq": 4, "t": 130, "type": "ruling", "data": {"verdict": "prompt", "id": 3}},
              {"seq": 5, "t": 130, "type": "hidden", "data": {}}]
    packed = pack_frames(frames)
    assert packed["data"][0] == [1, "accept"] and packed["data"][1] == frames[1]["data"]
    assert unpack_frames(json.loads(json.dumps(packed))) == frames
    with pytest.raises(ValueError):
        pack_frames([{"seq": 1, "t": 0, "type": "x", "data": None}])


def test_the_page_unpacks_the_frames_the_server_packed(tmp_path):
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the replay page's unpacking in tests)")
    runs = all_frames()
    path = tmp_path / "packed.json"
    path.write_text(json.dumps([pack_frames(frames) for frames in runs]))
    done = subprocess.run([node, str(HARNESS), str(ROOT), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(runs))


@pytest.fixture
def match(db):
    cache.clear()
    yield play_simulated_match(ensure_demo_packet(), "quizbowl", seed=5, questions=3)[1]
    cache.clear()


@pytest.fixture
def builds(monkeypatch):
    """How many times replay data was built (not taken from the cache), per match code and audience."""
    counted: list[tuple[str, str]] = []
    build = replay_data.replay_json

    def counting(match, audience):
        counted.append((match.code, audience))
        return build(match, audience)

    monkeypatch.setattr(replay_data, "replay_json", counting)
    return counted


@pytest.fixture
def staff(db):
    c = Client()
    c.force_login(get_user_model().objects.create_user("host", password="x", is_staff=True))
    return c


def body(response) -> bytes:
    content = response.content
    return gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content


def test_a_second_request_is_served_from_the_cache_and_is_identical(client, match, builds):
    url = f"/m/{match.code}/replay.json"
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200
    assert builds == [(match.code, "spectator")]
    assert first.content == second.content and first["ETag"] == second["ETag"]
    data = json.loads(first.content)
    assert unpack_frames(data["frames"]) == Replay(replay_data.load_log(match)).frames("spectator")


def test_a_browser_that_accepts_gzip_gets_the_same_data_compressed(client, match):
    url = f"/m/{match.code}/replay.json"
    plain, packed = client.get(url), client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3


def test_the_etag_gives_a_304_until_the_match_changes(client, match, builds):
    url = f"/m/{match.code}/replay.json"
    etag = client.get(url)["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert len(builds) == 1
    MatchEvent.objects.create(match=match, seq=MatchEvent.objects.filter(match=match).count() + 1,
                              t_ms=0, type="chat", data={"team": "t0", "seat": "s1", "text": "gg"})
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and len(builds) == 2
    frames = unpack_frames(json.loads(body(changed))["frames"])
    assert frames[-1]["type"] == "hidden"  # the new event is there, as the hall saw it: a team's chat stays hidden


def test_hiding_or_renaming_the_match_or_a_later_event_builds_it_again(client, staff, match, builds):
    url = f"/m/{match.code}/replay.json"
    first = client.get(url)
    staff.post(f"/host/m/{match.code}/hide")
    hidden = client.get(url)
    assert len(builds) == 2 and hidden.status_code == 200
    staff.post(f"/host/m/{match.code}/hide")
    shown = client.get(url)  # shown again: what was built for it before is still right
    assert len(builds) == 2 and shown.content == first.content
    Match.objects.filter(pk=match.pk).update(title="Renamed final")
    renamed = json.loads(body(client.get(url)))
    assert renamed["match"]["title"] == "Renamed final" and len(builds) == 3
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    MatchEvent.objects.create(match=match, seq=last.seq + 1, t_ms=last.t_ms + 1, type="match_ended", data=last.data)
    later = json.loads(body(client.get(url)))
    assert later["last_seq"] == last.seq + 1 and len(builds) == 4


def test_an_imported_match_gets_its_own_replay_data_equal_to_the_original(client, staff, match, builds, tmp_path):
    archive = tmp_path / "match.jsonl"
    archive.write_bytes(b"".join(staff.get(f"/m/{match.code}/export/events.jsonl").streaming_content))
    original = json.loads(body(client.get(f"/m/{match.code}/replay.json")))
    call_command("import_match", str(archive), stdout=open("/dev/null", "w"))
    imported = Match.objects.exclude(pk=match.pk).get()
    copy = json.loads(body(client.get(f"/m/{imported.code}/replay.json")))
    assert [code for code, _ in builds] == [match.code, imported.code]
    assert copy["frames"] == original["frames"] and copy["questions"] == original["questions"]
    assert copy["match"]["code"] == imported.code


def test_the_public_data_never_holds_the_staff_view_whichever_was_asked_first(client, staff, match, builds):
    url = f"/m/{match.code}/replay.json"
    staff_view = json.loads(body(staff.get(url + "?staff=1")))
    public = json.loads(body(client.get(url + "?staff=1")))  # asking is not enough
    assert staff_view["audience"] == "moderator" and public["audience"] == "spectator"
    assert builds == [(match.code, "moderator"), (match.code, "spectator")]
    assert "judge_suggested" in staff_view["frames"]["types"] and "judge_suggested" not in public["frames"]["types"]
    assert unpack_frames(public["frames"]) == Replay(replay_data.load_log(match)).frames("spectator")
    assert json.loads(body(staff.get(url))) == public  # staff asking for the public view get the public view
