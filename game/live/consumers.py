"""Websocket consumers: authenticate a socket, check each frame, stamp it and pass it on.

They never change a match. A command goes to the conductor with the actor taken from the socket
(never from the frame) and the time it arrived. The match's events, and the conductor's answer to
a command (an ack or an error), come through this process's fan-out hub (game/live/fanout.py), which
holds one subscription per audience for all local sockets and one channel for answers: a socket
has no channel of its own. A socket joins the hub before it reads the event log, so nothing falls
between catch-up and live frames, and frames that arrive while it catches up wait until it has.
Every frame is in docs/wire-protocol.md.

Nothing a client sends can close its socket with an internal error: a frame that cannot be parsed,
or any failure while handling one, is answered with an error frame carrying its ref. A socket that
fails for another reason, or whose hello fails (it would stay open showing nothing), is closed with
4503 (try again later), so the browser reconnects.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.generic.websocket import AsyncWebsocketConsumer

from serving.server_internals import daphne_protocol, unsent_bytes

from game.live.catchup import catch_up
from game.live.door import ADDRESS, TOKEN_HEADER, CLOSE_FORBIDDEN, CLOSE_TOO_OFTEN, SEAT_PASS, header
from game.conductor.groups import CONDUCTOR_CHANNEL, audience_key
from game.live.fanout import CLOSE_TOO_SLOW, TOO_SLOW, DaphneWriter, QueuedWriter, hub
from game.models import Match
from game.live.client_frames import MODERATOR, PLAYER, FrameError, TokenBucket, error_frame, parse, peek_ref
from game.live.seat_tokens import CLOSE_EXPIRED, EXPIRED, SESSION_SEATS, read_seat_token, seat_for_token
from game.live.socket_clock import SocketClock
from game.live.station_seats import station_token
from game.event_log import now_ms
from game.engine.api import BUZZES

CLOSE_NO_MATCH = 4404
CLOSE_TRY_AGAIN = 4503  # "try again later": Daphne (Autobahn) lets an application close only with 1000 or 3000-4999
JOIN_FAILED = "The server could not join you to the match just now; reconnecting."
REFUSED_BEFORE_CLOSE = 40  # frames refused in a row (a page waits seconds after one) before the socket is closed
TOO_FAST = "This connection sent too fast for too long; reconnecting in a moment."
SENT_OUT_S = 30.0  # a snapshot part waits at most this long for the one before it to go out
NO_CHANNEL = "exhibition.no-channel"  # an alias no layer is configured under: the consumer gets no channel
log = logging.getLogger(__name__)


@database_sync_to_async
def _match_info(code: str) -> dict | None:
    return Match.objects.filter(code=code).values("id", "title").first()


@database_sync_to_async
def _session_token(session, code: str) -> str | None:
    """The seat token the browser's session holds for match `code` (the session loads from the database)."""
    return session.get(SESSION_SEATS, {}).get(code) if session is not None else None


@database_sync_to_async
def _station_token(session, code: str, seat: str) -> str | None:
    """The token a buzzer station's session holds for `seat` of match `code`."""
    return station_token(session, code, seat)


@database_sync_to_async
def _seat_keys(code: str, token: str | None) -> tuple[str, str] | None:
    """(seat, team) of the seat the token holds now (not given up since the token was made)."""
    seat = seat_for_token(token, code)
    return (seat.key, seat.team.key) if seat else None


class MatchSocket(AsyncWebsocketConsumer):
    """One browser's connection to one match, for one audience (a subclass each)."""

    audience = "spectator"
    channel_layer_alias = NO_CHANNEL  # no channel of its own: frames and answers come through the hub
    commands: frozenset = frozenset()
    refusal = "Spectators can only watch."
    rate = (20, 10)  # burst, frames per second

    async def admit(self) -> int | None:
        """Checks before any work for this socket (no database yet): the close code to refuse it with, or None."""
        return None

    async def identify(self, match: dict) -> bool:
        """Whether this socket may open; a subclass sets self.seat and self.team as it needs."""
        return True

    def actor(self) -> dict:
        raise NotImplementedError

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.clock = SocketClock()  # round trip and word times, measured here: a buzz's press time is checked by them

    async def __call__(self, scope, receive, send):
        self.key = self.writer = None
        self.socket_id = uuid.uuid4().hex
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The channel layer failed under us (Redis restarting, say). Leave cleanly and let the
            # browser reconnect, rather than dying with 1011.
            log.warning("A %s socket of match %s failed; closing it with %s", self.audience,
                        getattr(self, "code", "?"), CLOSE_TRY_AGAIN, exc_info=True)
            self._leave()
            try:
                await self.close(code=CLOSE_TRY_AGAIN)
            except Exception:
                pass

    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.seat = self.team = None
        self.last_sent = None  # the highest seq this client has; None until its hello
        self.holding = None  # live frames that arrived while the socket catches up
        self.bucket = TokenBucket(*self.rate)
        self.refused_in_a_row = 0  # frames refused by a budget since the last one read
        self.open = False  # stays False for a socket that is closed for lack of a match or a right
        await self.accept()  # accept first, so the browser sees why in the close code
        refused = await self.admit()
        if refused is not None:
            await self.close(code=refused)
            return
        self.match = await _match_info(self.code)
        if self.match is None:
            await self.close(code=CLOSE_NO_MATCH)
        elif not await self.identify(self.match):
            await self.close(code=CLOSE_FORBIDDEN)
        else:
            self.open = True

    async def disconnect(self, code):
        self._leave()

    async def dispatch(self, message):
        """As Channels does, but a frame from the client skips its thread hop to close stale database
        connections before the handler: forwarding a command does not touch the database, and the
        reads a hello or resync makes (database_sync_to_async) close stale connections themselves.
        A hop per buzz was a tenth of the web process's time with a hundred matches playing."""
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    def _leave(self):
        if self.key is not None:
            hub().leave(self, self.code, self.key)
            self.key = None
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content))

    async def receive(self, text_data=None, bytes_data=None):
        if not self.open:
            return
        try:
            await self._receive(text_data, bytes_data)
        except Exception:
            log.exception("Match %s: a %s frame could not be handled", self.code, self.audience)
            if self.last_sent is None:  # its hello failed (Redis or the database away as it joined): a socket
                self.open = False       # without its match shows nothing, so the browser reconnects instead
                return self.shut(CLOSE_TRY_AGAIN, JOIN_FAILED, flush=False)
            await self.send_json(error_frame("server_error", "The server could not handle that; try again.",
                                             peek_ref(text_data)))

    async def _receive(self, text_data, bytes_data):
        if not self.bucket.take() or not self.may_read():
            self.refused_in_a_row += 1
            if self.refused_in_a_row >= REFUSED_BEFORE_CLOSE:  # no page sends like this: the door paces it now
                self.open = False
                return self.shut(CLOSE_TOO_OFTEN, TOO_FAST)
            return await self.send_json(error_frame("slow_down", "Slow down: you are sending too fast; wait a moment.",
                                                    peek_ref(text_data)))
        self.refused_in_a_row = 0
        try:
            frame = parse(text_data, bytes_data)
        except FrameError as problem:
            return await self.send_json(error_frame(problem.code, problem.message, problem.ref))
        if frame.type == "ping":
            now = now_ms()
            self.clock.pong(now, frame.data.get("echo"))
            await self.send_json({"type": "pong", "ref": frame.ref, "data": {"server_time": now}})
        elif frame.type == "hello":
            await self.hello(frame.data.get("last_seq", 0))
        elif self.last_sent is None:
            await self.send_json(error_frame("hello_first", "Send hello with your last seq first.", frame.ref))
        elif frame.type == "resync":  # after its last seq: the frames it missed, each folded with its feed line
            if not self.may_catch_up():
                return await self.send_json(error_frame("slow_down", "Many screens are catching up at once; "
                                                                     "this one tries again in a moment.", frame.ref))
            last_seq = frame.data.get("last_seq") or 0
            await self.catch_up(last_seq, force_snapshot=last_seq <= 0)
        elif frame.type in self.commands:
            await self.forward(frame)
        else:
            await self.send_json(error_frame("forbidden", self.refusal, frame.ref))

    async def hello(self, last_seq: int):
        if self.key is None:
            self.writer = self._writer()
            self.key = audience_key(self.audience, self.team)
            await hub().join(self, self.code, self.match["id"], self.key)  # before reading the log
        await self.send_json({"type": "welcome", "data": {
            "audience": self.audience, "seat": self.seat, "team": self.team, "server_time": now_ms(),
            "playout_ms": hub().playout.delay_ms(self.code),  # frames are written this long after their stamp
            "match": {"code": self.code, "title": self.match["title"]}}})
        await self.catch_up(last_seq)

    def _writer(self):
        protocol = daphne_protocol(self.scope.get("exhibition.send"))
        if protocol is not None:
            return DaphneWriter(protocol, self._too_slow)
        return QueuedWriter(lambda text: self.send(text_data=text), self._too_slow)

    def _too_slow(self):
        log.info("Match %s: a %s socket fell too far behind; closing it", self.code, self.audience)
        self.shut(CLOSE_TOO_SLOW, TOO_SLOW, flush=False)  # what waits for it is dropped: it catches up on reconnect

    def shut(self, code: int, reason: str, flush: bool = True) -> None:
        """Close the socket from outside its own frames (the hub): it stops hearing the match at once,
        and with `flush` closes once what was already written for it (an ack) has gone out."""
        writer, self.writer = self.writer, None
        self._leave()
        last = lambda: self._close_with(code, reason)  # noqa: E731
        if writer is not None and flush:
            writer.finish(last)
            return
        if writer is not None:
            writer.close()
        asyncio.get_running_loop().create_task(last())

    async def _close_with(self, code: int, reason: str):
        protocol = daphne_protocol(self.scope.get("exhibition.send"))
        if protocol is not None:
            protocol.sendClose(code=code, reason=reason)
        else:
            await self.close(code=code, reason=reason)

    async def catch_up(self, last_seq: int, force_snapshot: bool = False):
        self.clock.caught_up(now_ms())
        self.holding = [] if self.holding is None else self.holding
        try:
            texts, seq = await catch_up(self.match["id"], last_seq, self.audience, self.team, force_snapshot)
            for text in texts:
                await self.send(text_data=text)
                if len(texts) > 1:  # a snapshot in parts: the next once this one has gone out
                    await self._sent_out()
            self.last_sent = seq
        finally:
            held, self.holding = self.holding, None
            if held and self.last_sent is not None:
                self.push(held, {})

    async def _sent_out(self) -> None:
        """Wait (up to SENT_OUT_S) until what was written to the socket has gone to the kernel, so a
        snapshot's parts never wait in the server together past the slow-socket bound (fanout.py)."""
        protocol = daphne_protocol(self.scope.get("exhibition.send"))
        if protocol is None:
            return
        loop = asyncio.get_running_loop()
        until = loop.time() + SENT_OUT_S
        while unsent_bytes(protocol.transport) and loop.time() < until and protocol.state == protocol.STATE_OPEN:
            await asyncio.sleep(0.02)

    # -- from the hub -------------------------------------------------------------------------------

    def push(self, frames: list, prepared: dict) -> int:
        """Frames of this socket's audience ([seq, text] in order); those it has are skipped. Returns the count sent."""
        if self.holding is not None:
            self.holding.extend(frames)
            return 0
        if self.last_sent is None or self.writer is None or not frames:
            return 0
        if frames[0][0] <= self.last_sent:  # some of them came by catch-up already
            frames = [f for f in frames if f[0] > self.last_sent]
            if not frames:
                return 0
        self.last_sent = frames[-1][0]
        self.writer.write(frames, prepared)
        if self.audience == "player":  # only a player's buzz is checked against when its words went out
            self.clock.written(frames, now_ms())
        return len(frames)

    def send_now(self, text: str) -> None:
        """A frame outside the event sequence (a heartbeat, an ack)."""
        if self.writer is not None and self.last_sent is not None:
            self.writer.write_text(text)

    # -- commands ---------------------------------------------------------------------------------

    def budget_key(self) -> str | None:
        """Whose budget this socket's commands spend (game/command_budgets.py): a seat's or the moderator's."""
        return None

    def may_read(self) -> bool:
        """Whether the next frame may be read at all (before it is parsed), beside this socket's own bucket."""
        return True

    def may_catch_up(self) -> bool:
        """Whether a resync may be answered now."""
        return True

    async def forward(self, frame):
        here = hub()
        refusal = here.budgets.refusal(self.code, self.budget_key(), frame.type)
        if refusal is not None:
            return await self.send_json(error_frame("slow_down", refusal, frame.ref))
        command = {"type": frame.type, "data": frame.data, "actor": self.actor(), "received": now_ms()}
        if frame.type in BUZZES:  # a press the server stamps: a seat's own, or one for a semi bot teammate
            command["clock"] = self.clock.measured(frame.data.get("seen"))
        try:
            await here.layer.send(CONDUCTOR_CHANNEL, {
                "type": "command", "match": self.code, "command": command, "id": frame.id,
                "reply_to": here.channel, "ref": [self.socket_id, frame.ref]})
        except ChannelFull:
            await self.send_json(error_frame("busy", "The game server is busy; try again in a moment.", frame.ref))
        except Exception:
            log.warning("Match %s: could not reach the conductor", self.code, exc_info=True)
            await self.send_json(error_frame("unavailable", "The game server cannot be reached just now; "
                                                            "your command is retried by itself.", frame.ref))

    def answer(self, message: dict) -> None:
        """The conductor's answer to one of this socket's commands (through the hub): an ack or an error."""
        if message.get("ok"):
            frame = {"type": "ack", "ref": message.get("ref"), "data": {"seqs": message.get("seqs", [])}}
        else:
            error = message.get("error") or {}
            frame = error_frame(error.get("code", "rejected"), error.get("message", "Refused."), message.get("ref"))
        self.send_now(json.dumps(frame))


class SpectatorSocket(MatchSocket):
    """ws/m/<code>/watch: anyone, read-only. Its address's spectator sockets share one budget of frames,
    and the match's spectators one of resyncs (game/command_budgets.py; the door counts its opens)."""

    def may_read(self):
        address = self.scope.get(ADDRESS)
        return address is None or hub().budgets.may_read_watching(self.code, address)

    def may_catch_up(self):
        return hub().budgets.may_catch_up(self.code)


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

    async def hello(self, last_seq: int):
        await super().hello(last_seq)
        await hub().ask_roster(self, self.code)  # who is connected: not in the log, so asked for (moderator only)

    def budget_key(self):
        return "moderator"


class PlayerSocket(MatchSocket):
    """ws/m/<code>/play: the person's seat whose token comes with the handshake (game/live/seat_tokens.py):
    in the X-Seat-Token header, or else in the browser's session. Its newest socket plays the seat."""

    audience = "player"
    commands = frozenset(PLAYER)
    refusal = "Only the moderator can do that."

    async def admit(self):
        if "seat" in parse_qs(self.scope.get("query_string", b"").decode("latin-1")):
            return CLOSE_FORBIDDEN  # a credential in a URL is in every proxy's log: refused, so nothing keeps sending one
        sent = header(self.scope, TOKEN_HEADER)
        if sent is not None:  # the door read it and spent the seat's budget (game/live/door.py)
            self.token, self.held = sent.decode("latin-1"), self.scope.get(SEAT_PASS)
            return None if self.held is not None else CLOSE_FORBIDDEN
        return self.admit_token(await _session_token(self.scope.get("session"), self.code))

    def admit_token(self, token: str | None) -> int | None:
        """A token the browser's session holds: refused unless genuine, or when its seat's sockets opened too often."""
        self.token = token
        self.held = read_seat_token(self.token, self.code)
        if self.held is None:
            return CLOSE_FORBIDDEN
        if not hub().budgets.may_open(self.code, self.held.seat):
            return CLOSE_TOO_OFTEN  # before the seat is read and the log is sent: the browser tries again later
        return None

    async def identify(self, match):
        keys = await _seat_keys(self.code, self.token)
        if keys is None:
            return False
        self.seat, self.team = keys
        wait = max(0.0, self.held.expires - time.time())
        self.expiry = asyncio.get_running_loop().call_later(wait, self.shut, CLOSE_EXPIRED, EXPIRED)
        return True

    def _leave(self):
        expiry, self.expiry = getattr(self, "expiry", None), None
        if expiry is not None:
            expiry.cancel()
        super()._leave()

    async def hello(self, last_seq: int):
        first = self.key is None
        await super().hello(last_seq)
        if first and self.key is not None:  # in the match's group now, so it hears any newer claim
            await hub().claim_seat(self, self.code, self.seat)

    def actor(self):
        return {"role": "player", "seat": self.seat, "team": self.team}

    def budget_key(self):
        return self.seat

    def may_read(self):
        return hub().budgets.may_read(self.code, self.seat)  # the seat's sockets together


class StationSocket(PlayerSocket):
    """ws/m/<code>/station/<seat>: one of the seats a buzzer station holds (game/live/station_seats.py).
    The token is the one the station's session keeps for that seat; the seat key in the path only says
    which. From there on it is that seat's player socket: its own commands, budgets and clock."""

    async def admit(self):
        if self.scope.get("query_string"):
            return CLOSE_FORBIDDEN  # as the phone's socket: nothing rides in a URL's query
        seat = self.scope["url_route"]["kwargs"]["seat"]
        return self.admit_token(await _station_token(self.scope.get("session"), self.code, seat))

    async def identify(self, match):
        return await super().identify(match) and self.seat == self.scope["url_route"]["kwargs"]["seat"]
