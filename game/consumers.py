"""Websocket consumers: authenticate a socket, check each frame, stamp it and pass it on.

They never change a match. A command goes to the conductor with the actor taken from the socket
(never from the frame) and the time it arrived; the conductor's reply comes back as an ack or an
error, and the match's events come from the audience's group as match.frame. Catch-up after
(re)connect reads the event log directly, after joining the group, so nothing falls between the
two; frames the client already has are dropped by seq. Every frame is in docs/wire-protocol.md.

Nothing a client sends can close its socket with an internal error: a frame that cannot be parsed,
or any failure while handling one, is answered with an error frame carrying its ref. A socket whose
channel layer fails is closed with 4503 (try again later) after leaving its groups, so it never
stays behind as a dead group member; the heartbeat also renews the socket's group membership, so
a group survives a Redis restart and dead members age out within GROUP_EXPIRY_S.
"""
from __future__ import annotations

import asyncio
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db.models import Max

from .conductor.groups import CONDUCTOR_CHANNEL, groups_for
from .engine.api import project, snapshot
from .models import Match, MatchEvent, Seat
from .protocol import MODERATOR, PLAYER, FrameError, TokenBucket, error_frame, parse, peek_ref
from .seat_tokens import read_seat_token
from .store import load_events, load_state, now_ms

CATCH_UP_LIMIT = 300  # further behind than this, a snapshot is cheaper than replaying events
CLOSE_FORBIDDEN = 4403
CLOSE_NO_MATCH = 4404
CLOSE_TRY_AGAIN = 4503  # "try again later": Daphne (Autobahn) lets an application close only with 1000 or 3000-4999
log = logging.getLogger(__name__)


def _heartbeat_seconds() -> float:
    return float(getattr(settings, "EXHIBITION_HEARTBEAT_SECONDS", 15))


@database_sync_to_async
def _match_info(code: str) -> dict | None:
    return Match.objects.filter(code=code).values("id", "title").first()


@database_sync_to_async
def _seat_keys(match_id: int, seat_pk: int) -> tuple[str, str] | None:
    seat = Seat.objects.filter(pk=seat_pk, team__match_id=match_id, kind=Seat.Kind.HUMAN).select_related("team").first()
    return (seat.key, seat.team.key) if seat else None


@database_sync_to_async
def _last_seq(match_id: int) -> int:
    return MatchEvent.objects.filter(match_id=match_id).aggregate(last=Max("seq"))["last"] or 0


@database_sync_to_async
def _catch_up(match_id: int, last_seq: int, audience: str, team: str | None, force_snapshot: bool):
    """The frames that bring a client from last_seq to now, and the seq they end at."""
    match = Match.objects.get(pk=match_id)
    latest = MatchEvent.objects.filter(match=match).aggregate(last=Max("seq"))["last"] or 0
    if force_snapshot or last_seq <= 0 or last_seq > latest or latest - last_seq > CATCH_UP_LIMIT:
        view = snapshot(load_state(match), audience, team)
        return [{"type": "snapshot", "data": view}], view["seq"]
    return [project(event, audience, team) for event in load_events(match, after=last_seq)], latest


class MatchSocket(AsyncJsonWebsocketConsumer):
    """One browser's connection to one match, for one audience (a subclass each)."""

    audience = "spectator"
    commands: frozenset = frozenset()
    refusal = "Spectators can only watch."
    rate = (20, 10)  # burst, frames per second

    async def identify(self, match: dict) -> bool:
        """Whether this socket may open; a subclass sets self.seat and self.team as it needs."""
        return True

    def actor(self) -> dict:
        raise NotImplementedError

    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.seat = self.team = None
        self.last_sent = None  # the highest seq this client has; None until its hello
        self.groups_joined: list[str] = []
        self.bucket = TokenBucket(*self.rate)
        self.heartbeat_task = None
        self.open = False  # stays False for a socket that is closed for lack of a match or a right
        await self.accept()  # accept first, so the browser sees why in the close code
        self.match = await _match_info(self.code)
        if self.match is None:
            await self.close(code=CLOSE_NO_MATCH)
        elif not await self.identify(self.match):
            await self.close(code=CLOSE_FORBIDDEN)
        else:
            self.open = True

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The channel layer failed under us (Redis restarting, say). Leave cleanly and let the
            # browser reconnect, rather than dying with 1011 and leaving a dead group member behind.
            log.warning("A %s socket of match %s failed; closing it with %s", self.audience,
                        getattr(self, "code", "?"), CLOSE_TRY_AGAIN, exc_info=True)
            await self._leave()
            try:
                await self.close(code=CLOSE_TRY_AGAIN)
            except Exception:
                pass

    async def disconnect(self, code):
        await self._leave()

    async def _leave(self):
        if getattr(self, "heartbeat_task", None) is not None:
            self.heartbeat_task.cancel()
            self.heartbeat_task = None
        groups, self.groups_joined = getattr(self, "groups_joined", []), []
        for group in groups:
            try:
                await asyncio.wait_for(self.channel_layer.group_discard(group, self.channel_name), 5)
            except Exception:
                log.info("Could not leave group %s; the membership expires by itself", group)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.open:
            return
        try:
            await self._receive(text_data, bytes_data)
        except Exception:
            log.exception("Match %s: a %s frame could not be handled", self.code, self.audience)
            await self.send_json(error_frame("server_error", "The server could not handle that; try again.",
                                             peek_ref(text_data)))

    async def _receive(self, text_data, bytes_data):
        if not self.bucket.take():
            return await self.send_json(error_frame("slow_down", "Slow down: you are sending too fast; wait a moment.",
                                                    peek_ref(text_data)))
        try:
            frame = parse(text_data, bytes_data)
        except FrameError as problem:
            return await self.send_json(error_frame(problem.code, problem.message, problem.ref))
        if frame.type == "ping":
            await self.send_json({"type": "pong", "ref": frame.ref, "data": {"server_time": now_ms()}})
        elif frame.type == "hello":
            await self.hello(frame.data.get("last_seq", 0))
        elif self.last_sent is None:
            await self.send_json(error_frame("hello_first", "Send hello with your last seq first.", frame.ref))
        elif frame.type == "resync":
            await self.catch_up(0, force_snapshot=True)
        elif frame.type in self.commands:
            await self.forward(frame)
        else:
            await self.send_json(error_frame("forbidden", self.refusal, frame.ref))

    async def hello(self, last_seq: int):
        for group in groups_for(self.code, self.audience, self.team):
            if group not in self.groups_joined:
                await self.channel_layer.group_add(group, self.channel_name)  # before reading the log
                self.groups_joined.append(group)
        await self.send_json({"type": "welcome", "data": {
            "audience": self.audience, "seat": self.seat, "team": self.team, "server_time": now_ms(),
            "match": {"code": self.code, "title": self.match["title"]}}})
        await self.catch_up(last_seq)
        if self.heartbeat_task is None:
            self.heartbeat_task = asyncio.get_running_loop().create_task(self.beat())

    async def catch_up(self, last_seq: int, force_snapshot: bool = False):
        frames, seq = await _catch_up(self.match["id"], last_seq, self.audience, self.team, force_snapshot)
        for frame in frames:
            await self.send_json(frame)
        self.last_sent = seq

    async def forward(self, frame):
        command = {"type": frame.type, "data": frame.data, "actor": self.actor(), "received": now_ms()}
        try:
            await self.channel_layer.send(CONDUCTOR_CHANNEL, {
                "type": "command", "match": self.code, "command": command, "id": frame.id,
                "reply_to": self.channel_name, "ref": frame.ref})
        except ChannelFull:
            await self.send_json(error_frame("busy", "The game server is busy; try again in a moment.", frame.ref))
        except Exception:
            log.warning("Match %s: could not reach the conductor", self.code, exc_info=True)
            await self.send_json(error_frame("unavailable", "The game server cannot be reached just now; "
                                                            "your command is retried by itself.", frame.ref))

    async def beat(self):
        while True:
            await asyncio.sleep(_heartbeat_seconds())
            try:
                for group in self.groups_joined:  # renew: survives a Redis restart, and dead members age out
                    await self.channel_layer.group_add(group, self.channel_name)
                seq = await _last_seq(self.match["id"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.info("Match %s: a heartbeat could not be sent; trying at the next one", self.code, exc_info=True)
                continue
            await self.send_json({"type": "heartbeat", "data": {"server_time": now_ms(), "seq": seq}})

    # -- messages from the channel layer ----------------------------------------------------------

    async def match_frame(self, message):
        frame = message["frame"]
        if self.last_sent is None or frame["seq"] <= self.last_sent:
            return  # before hello, or already sent during catch-up
        self.last_sent = frame["seq"]
        await self.send_json(frame)

    async def conductor_reply(self, message):
        if message.get("ok"):
            await self.send_json({"type": "ack", "ref": message.get("ref"), "data": {"seqs": message.get("seqs", [])}})
        else:
            error = message.get("error") or {}
            await self.send_json(error_frame(error.get("code", "rejected"), error.get("message", "Refused."),
                                             message.get("ref")))


class SpectatorSocket(MatchSocket):
    """ws/m/<code>/watch: anyone, read-only."""


class ModeratorSocket(MatchSocket):
    """ws/m/<code>/moderate: staff only."""

    audience = "moderator"
    commands = frozenset(MODERATOR)
    refusal = "Only a seated player can do that."
    rate = (60, 30)  # moderator-paced reading: a key press a word

    async def identify(self, match):
        user = self.scope.get("user")
        return bool(user is not None and user.is_authenticated and user.is_staff)

    def actor(self):
        return {"role": "moderator"}


class PlayerSocket(MatchSocket):
    """ws/m/<code>/play?seat=<token>: the human seat the signed token names."""

    audience = "player"
    commands = frozenset(PLAYER)
    refusal = "Only the moderator can do that."

    async def identify(self, match):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        seat_pk = read_seat_token((query.get("seat") or [""])[0], self.code)
        keys = await _seat_keys(match["id"], seat_pk) if seat_pk is not None else None
        if keys is None:
            return False
        self.seat, self.team = keys
        return True

    def actor(self):
        return {"role": "player", "seat": self.seat, "team": self.team}
