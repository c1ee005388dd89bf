"""GET /m/<code>/feed: the hall's frames of one match as server-sent events, for a machine with a token.

Each frame is the spectator socket's own text (game/live/catchup.py, the conductor's projection for the
hall, encoded once for every spectator), written as one event: `id:` its seq, `data:` the text. So a
scoreboard, a stream's graphics or an archive reads exactly what the hall's big screen reads, no more.
The feed joins this process's fan-out hub (game/live/fanout.py) as one more spectator before it reads
the event log, as a socket does, so nothing falls between the catch-up and the live frames; a
reconnect with Last-Event-ID gets the frames after that seq (or a snapshot if it is far behind).

The token travels in the Authorization header (Bearer); a token in the query string is refused, since
proxies log URLs. Everything the request carries is checked for size and shape before any work, and a
flood has budgets: feeds opened per address and per token (game/command_budgets.py buckets), and feeds
open at once per token and per address in this process. Heartbeats go out as `event: heartbeat`, and at
each one the feed asks whether its token still stands. A revoked token's feeds end with an
`event: closed` whose data says why (feed_tokens.py). docs/broadcast.md is the reader's guide.
"""
from __future__ import annotations

import asyncio
import collections
import json
import logging
import re
import uuid
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from game.conductor.groups import SPECTATOR
from game.live.catchup import catch_up
from game.live.door import counted_address, header
from game.live.fanout import QueuedWriter, hub
from game.models import Match

from broadcast.feed_tokens import live_token, still_live

log = logging.getLogger(__name__)

# Opens: (burst, refilled a second), per token and per address (a loopback address is not counted).
OPENS_PER_TOKEN = (10.0, 0.5)
OPENS_PER_ADDRESS = (30.0, 1.0)
OPEN_PER_TOKEN = 4  # feeds of one token open at once in a web process
OPEN_PER_ADDRESS = 16  # feeds from one address open at once in a web process
AUTHORIZATION_MAX = 64  # "Bearer " and a 43-character token, with room for spaces
LAST_ID = re.compile(rb"^[0-9]{1,12}$")
EVENT_SEQ = re.compile(r'^\{"seq":([0-9]+),')  # an event frame's text begins with its seq (catchup.encode)
BEARER = re.compile(r"^Bearer +([^ ]+) *$")

REVOKED = "The host revoked this feed's token; ask the host for a new one."
TOO_SLOW = "This feed fell too far behind; connect again with Last-Event-ID to catch up."
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]  # nginx passes each event on at once


@database_sync_to_async
def _match_id(code: str) -> int | None:
    return Match.objects.filter(code=code).values_list("id", flat=True).first()


_find_token = database_sync_to_async(live_token)
_still_live = database_sync_to_async(still_live)

_open: collections.Counter = collections.Counter()  # ("token", id) / ("address", address) -> feeds open here


def event(text: str, seq: int | None = None, kind: str | None = None) -> bytes:
    """One server-sent event. The frame's text is one line of JSON (no raw newline can be in it)."""
    lines = ([f"event: {kind}"] if kind else []) + ([f"id: {seq}"] if seq is not None else []) + [f"data: {text}"]
    return ("\n".join(lines) + "\n\n").encode("utf-8")


async def _refuse(send, status: int, sentence: str, extra: list | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *(extra or [])]})
    await send({"type": "http.response.body", "body": json.dumps({"error": sentence}).encode("utf-8")})


async def _read_body(receive) -> bool:
    """Read the request to its end (a GET has no body; any body is dropped unread); False if the client left."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return False
        if not message.get("more_body"):
            return True


class FeedStream:
    """One machine's feed of one match: an ASGI application per request (FeedStream.as_asgi())."""

    @classmethod
    def as_asgi(cls):
        async def app(scope, receive, send):
            await cls(scope, receive, send).run()
        return app

    def __init__(self, scope, receive, send):
        self.scope, self.receive, self.send = scope, receive, send
        self.code = scope["url_route"]["kwargs"]["code"]
        self.socket_id = uuid.uuid4().hex  # what the hub knows a member by
        self.seat = None
        self.feed_token = None  # the FeedToken's id, once read: the hub closes the feeds of a revoked one
        self.writer = self.last_sent = self.holding = None
        self.joined = False
        self.done = asyncio.Event()
        self.counted: list = []

    async def run(self):
        if not await _read_body(self.receive):
            return
        try:
            refused = await self.admit()
            if refused is not None:
                return await _refuse(self.send, *refused)
            await self.stream()
        finally:
            self.leave()

    async def admit(self) -> tuple | None:
        """(status, sentence[, headers]) to refuse the request with, or None; checks cheapest first."""
        if self.scope["method"] not in ("GET", "HEAD"):
            return 405, "The feed is read with GET.", [(b"allow", b"GET")]
        if "token" in parse_qs(self.scope.get("query_string", b"").decode("latin-1")):
            return 400, "Send the token in the Authorization header (Bearer), never in the address: proxies log addresses."
        raw = header(self.scope, b"authorization") or b""
        found = BEARER.match(raw.decode("latin-1")) if len(raw) <= AUTHORIZATION_MAX else None
        if found is None:
            return 401, "Send the feed token in the header Authorization: Bearer TOKEN.", [(b"www-authenticate", b"Bearer")]
        last_id = header(self.scope, b"last-event-id")
        if last_id is not None and not LAST_ID.match(last_id):
            return 400, "Last-Event-ID is the seq of the last frame you read: digits only."
        self.after = int(last_id) if last_id is not None else 0
        budgets = hub().budgets
        address = counted_address(self.scope)
        if address is not None:
            if budgets.opens_refused(self.code, ("feed", address), OPENS_PER_ADDRESS) \
                    or _open[("address", address)] >= OPEN_PER_ADDRESS:
                return 429, "Too many feeds from this address; wait a minute and connect again.", [(b"retry-after", b"60")]
        record = await _find_token(self.code, found[1])
        if record is None:
            return 403, "This token does not open this match's feed (mistyped, revoked, or for another match)."
        if budgets.opens_refused(self.code, ("feed-token", record.pk), OPENS_PER_TOKEN) \
                or _open[("token", record.pk)] >= OPEN_PER_TOKEN:
            return 429, "This token opened too many feeds; close one or wait a minute.", [(b"retry-after", b"60")]
        self.feed_token, self.match_id = record.pk, record.match_id
        self.counted = [("token", record.pk)] + ([("address", address)] if address is not None else [])
        for key in self.counted:
            _open[key] += 1
        return None

    async def stream(self):
        await self.send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        if self.scope["method"] == "HEAD":
            return await self.send({"type": "http.response.body", "body": b""})
        self.writer = QueuedWriter(self._write, self.too_slow)
        watching = asyncio.get_running_loop().create_task(self._watch_disconnect())
        try:
            self.joined = True
            await hub().join(self, self.code, self.match_id, SPECTATOR)  # before reading the log
            await self.catch_up()
            await self.done.wait()
        finally:
            watching.cancel()

    async def _write(self, data: bytes) -> None:
        await self.send({"type": "http.response.body", "body": data, "more_body": True})

    async def _watch_disconnect(self):
        while (await self.receive())["type"] != "http.disconnect":
            pass
        self.done.set()

    async def catch_up(self):
        self.holding = []
        try:
            texts, seq = await catch_up(self.match_id, self.after, SPECTATOR, None, self.after <= 0)
            for n, text in enumerate(texts):  # an event carries its own seq; a snapshot (in parts) the last part only
                own = EVENT_SEQ.match(text)
                await self._write(event(text, int(own[1]) if own else seq if n == len(texts) - 1 else None))
            self.last_sent = seq
        finally:
            held, self.holding = self.holding, None
            if held and self.last_sent is not None:
                self.push(held, {})

    # -- from the hub ---------------------------------------------------------------------------------

    def push(self, frames: list, prepared: dict) -> int:
        """The hall's frames ([seq, text] in order); those this feed has are skipped. Returns the count written."""
        if self.holding is not None:
            self.holding.extend(frames)
            return 0
        frames = [f for f in frames if self.last_sent is not None and f[0] > self.last_sent]
        if not frames or self.writer is None:
            return 0
        self.last_sent = frames[-1][0]
        for seq, text in frames:
            if not self.writer.write_text(event(text, seq)):
                break
        return len(frames)

    def send_now(self, text: str) -> None:
        """A frame outside the sequence: the hub's heartbeat. The token is asked about again at each one."""
        if self.writer is not None and self.last_sent is not None:
            self.writer.write_text(event(text, kind="heartbeat"))
            asyncio.get_running_loop().create_task(self._check_token())

    async def _check_token(self):
        try:
            live = await _still_live(self.feed_token)
        except Exception:
            log.info("Match %s: could not ask whether a feed's token stands; the next heartbeat asks again", self.code)
            return
        if not live:
            self.revoked()

    def revoked(self) -> None:
        self.end("revoked", REVOKED)

    def too_slow(self) -> None:
        self.end("too_slow", TOO_SLOW, flush=False)

    def end(self, code: str, sentence: str, flush: bool = True) -> None:
        """Close the feed with a last `closed` event saying why (after what was written, with `flush`)."""
        writer, self.writer = self.writer, None
        self.leave()
        if writer is None:
            return
        closing = event(json.dumps({"code": code, "reason": sentence}), kind="closed")

        async def last():
            try:
                await self.send({"type": "http.response.body", "body": closing, "more_body": False})
            finally:
                self.done.set()

        if flush:
            writer.finish(last)
        else:
            writer.close()
            asyncio.get_running_loop().create_task(last())

    def leave(self) -> None:
        if self.joined:
            self.joined = False
            hub().leave(self, self.code, SPECTATOR)
        for key in self.counted:
            _open[key] -= 1
            if _open[key] <= 0:
                del _open[key]
        self.counted = []
        if self.done.is_set() and self.writer is not None:
            self.writer.close()
            self.writer = None
