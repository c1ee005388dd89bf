"""The replay page's data as it is sent: one audience's bundle (game/archive/replay.py) with its frames packed
in columns, written as JSON and gzip-compressed once, kept in the cache for a finished match, and
answered with an ETag so a browser that has it already gets a 304.

Packing: 10,000 frames repeat the same four keys and, per type, the same data keys; the packed form
names each type and its data keys once and sends per frame only a type number, the seq and the time
as differences from the frame before, and the data's values in the type's key order (a frame whose
data has other keys keeps its data as it is). unpack_frames() and static/js/replay-frames.js give
back exactly the frames.

The cache key holds everything the bundle is built from: the match (its id, code, title, format,
status, finished time, hidden flag), the last seq of its log (an override after the final whistle or
any later event changes it; the log is append-only) and the audience. An imported match is a new match
with a key of its own. Only finished matches are kept: a match still being played changes every second.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import re

from django.core.cache import cache
from django.db.models import Max
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers

from game.models import Match, MatchEvent
from game.archive.replay import Replay, load_log

PACK_VERSION = 3  # part of the cache key: raise it when the packed form or the bundle changes
CACHE_SECONDS = 7 * 24 * 3600
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def pack_frames(frames: list[dict]) -> dict:
    """Frames ({seq, t, type, data}, seq and t whole numbers, data a dict) as columns."""
    types: list[str] = []
    keys: list[list[str]] = []
    number: dict[str, int] = {}
    type_col, seq_col, t_col, data_col = [], [], [], []
    seq = t = 0
    for frame in frames:
        kind, data = frame["type"], frame["data"]
        if set(frame) != {"seq", "t", "type", "data"} or not isinstance(data, dict):
            raise ValueError(f"Not a frame that can be packed: {frame!r:.200}")
        if kind not in number:
            number[kind] = len(types)
            types.append(kind)
            keys.append(list(data))
        n = number[kind]
        type_col.append(n)
        seq_col.append(frame["seq"] - seq)
        t_col.append(frame["t"] - t)
        seq, t = frame["seq"], frame["t"]
        data_col.append([data[k] for k in keys[n]] if list(data) == keys[n] else data)
    return {"types": types, "keys": keys, "type": type_col, "seq": seq_col, "t": t_col, "data": data_col}


def unpack_frames(packed: dict) -> list[dict]:
    frames, seq, t = [], 0, 0
    for n, ds, dt, data in zip(packed["type"], packed["seq"], packed["t"], packed["data"]):
        seq, t = seq + ds, t + dt
        if isinstance(data, list):
            data = dict(zip(packed["keys"][n], data))
        frames.append({"seq": seq, "t": t, "type": packed["types"][n], "data": data})
    return frames


def replay_json(match: Match, audience: str) -> bytes:
    """The bundle as the page reads it: frames packed, the match's name on it, compact JSON."""
    bundle = Replay(load_log(match)).bundle(audience)
    bundle["frames"] = pack_frames(bundle["frames"])
    bundle["match"] = {"code": match.code, "title": match.title, "format_name": match.format_name}
    return json.dumps(bundle, separators=(",", ":"), ensure_ascii=False).encode()


def cache_key(match: Match, audience: str) -> str:
    last_seq = MatchEvent.objects.filter(match=match).aggregate(last=Max("seq"))["last"] or 0
    what = [PACK_VERSION, match.pk, match.code, match.title, match.format_name, match.status,
            match.finished.isoformat() if match.finished else None, match.hidden, last_seq, audience]
    return "replay:" + hashlib.sha256(json.dumps(what).encode()).hexdigest()


def compressed(match: Match, audience: str) -> tuple[str, bytes]:
    """(ETag, gzip-compressed JSON) of this audience's replay, from the cache when it is there."""
    key = cache_key(match, audience) if match.status == Match.Status.FINISHED else None
    kept = cache.get(key) if key else None
    if kept is None:
        body = replay_json(match, audience)
        kept = (f'W/"{hashlib.sha256(body).hexdigest()[:32]}"', gzip.compress(body, compresslevel=6, mtime=0))
        if key:
            cache.set(key, kept, CACHE_SECONDS)
    return kept


def replay_response(request, match: Match, audience: str) -> HttpResponse:
    """The replay data with an ETag (a 304 when the browser's copy is current), compressed when the
    browser accepts gzip."""
    etag, body = compressed(match, audience)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(body, content_type="application/json")
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(gzip.decompress(body), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, max-age=60"
    patch_vary_headers(response, ("Accept-Encoding", "Cookie"))
    return response
