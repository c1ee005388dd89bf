"""Fan-out in each web process: one subscription per match, written to local sockets here.

The conductor projects and encodes each event once per audience (conductor/groups.py) and sends
every audience's frames in one message to the match's group. The members of the group are web
processes (each process's Hub channel), not sockets, so a process receives each frame once however
many of its sockets watch, and writes each audience's frames to its own sockets of that audience
only: a player's socket gets its team's frame, never the moderator's. (The hub holds frames it has
no socket for only for the moment it takes to look.) It writes them itself because the
per-socket path, a channel-layer message, a thread hop and a JSON encoding per socket per frame,
took 12-18 s to reach 1,000 watchers.

On Daphne the frame is also framed once: autobahn's prepareMessage builds the websocket frame
bytes, and each socket gets the same bytes, all the frames of one delivery in one write. Where the
socket's send buffer in Twisted is empty (the usual case), the bytes go straight to the kernel with
one non-blocking send(); only what the kernel does not take is left to Twisted to write later. The
profiler found a 1,000-socket room spending most of Daphne's time in Twisted's deferred write of
every frame to every socket (registering the socket for writing, waking for it, unregistering) and
in autobahn's per-send debug-log arguments; writing through skips both and keeps frames in order,
since it is only taken when nothing is queued before it.

A socket that cannot keep up (its unsent bytes pass SLOW_SOCKET_BYTES, or on other servers
SLOW_SOCKET_FRAMES queued frames) is closed with 4008 and a reason; reconnecting brings it up to
date from the event log, with a snapshot if it is far behind. It never slows the other sockets:
nothing waits for it.

Commands go to the conductor with this hub's channel to answer on, so a socket's ack comes the same
way as its frames: the sockets need no channel (or channel-layer reader) of their own.

The hub also keeps one live socket per seat (game/live/seat_holders.py): it hears the seat claims of
the other processes and the seats given up through the same group.

The hub also tells the conductor which seats it holds a socket for and how many screens watch
(game/live/presence.py), and writes the moderator's roster, which the conductor sends to the group as
"hub.roster", to its moderator sockets only; it keeps the last one, so a moderator socket that
connects gets it at once.

The hub also closes the feeds (broadcast/feed.py) of a token the host revoked, in whichever process
holds them: the revocation is a FEED_REVOKED message to the match's group.

The hub also renews its group memberships (they survive a Redis restart; members of a dead
process age out) and sends every local socket a heartbeat with its match's last seq. After Redis
was out of reach or restarted, it joins its groups again and sends the heartbeat at once, so each
socket catches up on what was sent meanwhile within a probe (PROBE_S), not at the next beat.
"""
from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import time
import uuid

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import Max

from serving.receiving import receive_waiting
from serving.server_internals import can_write_through, unsent_bytes, writes_pending

from game.command_budgets import Budgets
from game.conductor.groups import CONDUCTOR_CHANNEL, MODERATOR, ROSTER, SEAT_LEFT, SPECTATOR, match_group, playout_ms
from game.models import MatchEvent
from game.live.playout import Playout
from game.live.presence import PresenceReports
from game.live.seat_holders import CLAIM, SeatHolders

log = logging.getLogger(__name__)

SLOW_SOCKET_BYTES = 1 << 20  # unsent bytes a socket may hold before it is closed as too slow
SLOW_SOCKET_FRAMES = 2000  # the same bound where frames are queued by us (servers other than Daphne)
CLOSE_TOO_SLOW = 4008
SLICE = 200  # sockets written in one turn of the event loop
TOO_SLOW = "Your connection fell too far behind; reconnecting brings you up to date."
PROBE_S = 2.0  # how often the hub asks Redis whether it restarted (and lost the hub's groups)
RECEIVE_BACKOFF_S = (0.1, 5.0)
FEED_REVOKED = "hub.feed_revoked"  # {"match", "token": a FeedToken's id}: its open feeds close (broadcast/feed.py)


def heartbeat_seconds() -> float:
    return settings.EXHIBITION_HEARTBEAT_SECONDS


def now_ms() -> int:
    return int(time.time() * 1000)


class DaphneWriter:
    """Writes prepared frames straight to a Daphne websocket; closes it if it falls too far behind."""

    def __init__(self, protocol, on_slow):
        self.protocol = protocol
        self.on_slow = on_slow
        self.through = can_write_through(protocol)

    def write(self, frames: list, prepared: dict) -> None:
        """Write frames ([seq, text], in order) as one piece of bytes."""
        protocol = self.protocol
        if protocol.state != protocol.STATE_OPEN:
            return
        transport = protocol.transport
        waiting = unsent_bytes(transport)
        if waiting > SLOW_SOCKET_BYTES:
            self.on_slow()
            return
        messages = [self._prepared(seq, text, prepared) for seq, text in frames]
        if self.through:
            self._send(transport, b"".join(m.payloadHybi for m in messages), waiting)
        else:
            for message in messages:
                protocol.sendPreparedMessage(message)

    def _prepared(self, seq: int, text: str, prepared: dict):
        """The frame's websocket bytes, built once per delivery for every socket of the process."""
        message = prepared.get(seq)
        if message is None:
            message = prepared[seq] = self.protocol.factory.prepareMessage(text.encode("utf-8"), False)
        return message

    def _send(self, transport, data: bytes, waiting: int) -> None:
        if waiting or writes_pending(self.protocol) or not transport.connected or transport.disconnecting:
            transport.write(data)  # behind bytes already queued: in order, through Twisted
            return
        try:
            sent = transport.getHandle().send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            sent = 0  # the connection is failing; Twisted's own write finds out and closes it
        if sent < len(data):
            transport.write(data[sent:])

    def write_text(self, text: str) -> None:
        protocol = self.protocol
        if protocol.state == protocol.STATE_OPEN and unsent_bytes(protocol.transport) <= SLOW_SOCKET_BYTES:
            protocol.sendMessage(text.encode("utf-8"), False)

    def close(self):
        pass

    def finish(self, last) -> None:
        """Run `last` (a coroutine function: the socket's close); what was written went out already."""
        asyncio.get_running_loop().create_task(last())


class QueuedWriter:
    """A bounded queue of frames per socket, sent in order by one task (any ASGI server)."""

    def __init__(self, send_text, on_slow, limit: int = SLOW_SOCKET_FRAMES):
        self.send_text = send_text
        self.on_slow = on_slow
        self.limit = limit
        self.queue: collections.deque = collections.deque()
        self.ready = asyncio.Event()
        self.last = None  # set by finish(): run once the queue is empty, then stop
        self.task = asyncio.get_running_loop().create_task(self._run())

    def write(self, frames: list, prepared: dict) -> None:
        for _, text in frames:
            if not self.write_text(text):
                return

    def write_text(self, text: str) -> bool:
        """Queue a frame; False if the socket fell too far behind (it is being closed)."""
        if len(self.queue) >= self.limit:
            self.queue.clear()
            self.on_slow()
            return False
        self.queue.append(text)
        self.ready.set()
        return True

    async def _run(self):
        while True:
            await self.ready.wait()
            self.ready.clear()
            while self.queue:
                await self.send_text(self.queue.popleft())
            if self.last is not None:
                await self.last()
                return

    def close(self):
        self.task.cancel()

    def finish(self, last) -> None:
        """Send what is queued (an ack, say), then run `last` (a coroutine function: the socket's close)."""
        self.last = last
        self.ready.set()


class Hub:
    """This process's subscriptions: (match, audience key) -> the local sockets watching it."""

    def __init__(self, layer):
        self.layer = layer
        self.channel: str | None = None
        self.rooms: dict[tuple[str, str], set] = {}
        self.sockets: dict[str, object] = {}  # socket id -> socket, for the conductor's answers to commands
        self.match_ids: dict[str, int] = {}
        self.joined: dict[str, asyncio.Future] = {}  # match -> done once this process is in its group
        self.leaving: dict[str, asyncio.Task] = {}  # match -> leaving its group (no local socket left)
        self._tasks: list[asyncio.Task] = []
        self._starting: asyncio.Lock = asyncio.Lock()
        self._redis_run_id = None
        self._lost = False  # Redis failed us since the last good probe: our groups may be gone
        self.pending: dict[tuple[str, str], collections.deque] = {}  # deliveries still being written, per room
        self.budgets = Budgets()  # commands of this process's sockets, per seat and per match (game/command_budgets.py)
        self.frames_in = 0  # frames received from the layer for an audience with a local socket
        self.writes = 0  # frames written to sockets
        self.seats = SeatHolders()
        self.presence = PresenceReports()
        self.rosters: dict[str, str] = {}  # match -> the last roster frame (text) for its moderator sockets
        self.playout = Playout(playout_ms)  # frames are written at their stamp plus the delay (playout.py)

    async def _start(self):
        async with self._starting:
            if self.channel is None:
                try:  # the run id a restart is told by, even one the client's retries hid from every call
                    await self._redis_restarted()
                except Exception:
                    log.info("Could not ask Redis for its run id; the first good probe joins the groups again")
                # A channel of its own, read with its own blocking pop: not one of channels-redis's
                # process-local channels, whose shared reader stopped delivering anything to the
                # process (frames or replies) after a Redis restart under load.
                self.channel = f"hub.{uuid.uuid4().hex}"
                loop = asyncio.get_running_loop()
                self._tasks = [loop.create_task(self._receive(), name="hub-receive"),
                               loop.create_task(self._keep(), name="hub-keep")]

    async def join(self, socket, code: str, match_id: int, key: str) -> None:
        """Add a socket to (match, audience); the process joins the match's group on its first socket
        of the match. Returns once the process is in the group, so a log read afterwards misses no
        frame (a second socket that comes while the first one's join is under way waits for it too)."""
        if self.channel is None:
            await self._start()
        self.sockets[socket.socket_id] = socket
        self.rooms.setdefault((code, key), set()).add(socket)
        self.match_ids[code] = match_id
        joined = self.joined.get(code)
        if joined is None:
            leaving = self.leaving.get(code)
            if leaving is not None:  # the last socket of the match just left: its group_discard goes first
                await asyncio.shield(leaving)
                joined = self.joined.get(code)
        if joined is None:
            joined = self.joined[code] = asyncio.ensure_future(self.layer.group_add(match_group(code), self.channel))
        try:
            await asyncio.shield(joined)
        except Exception:
            if self.joined.get(code) is joined:
                del self.joined[code]  # the next socket tries again
            raise

    def leave(self, socket, code: str, key: str) -> None:
        self.sockets.pop(socket.socket_id, None)
        self.seats.release(socket, code, getattr(socket, "seat", None))
        room = self.rooms.get((code, key))
        if room is None:
            return
        room.discard(socket)
        self.report_soon(code)
        if not room:
            del self.rooms[(code, key)]
            if not any(c == code for c, _ in self.rooms):
                self.match_ids.pop(code, None)
                self.joined.pop(code, None)
                self.rosters.pop(code, None)
                self.leaving[code] = asyncio.get_running_loop().create_task(self._discard(code))

    async def _discard(self, code: str):
        try:
            await self.layer.group_discard(match_group(code), self.channel)
        except Exception:
            log.info("Could not leave the group of %s; the membership expires by itself", code)
        finally:
            if self.leaving.get(code) is asyncio.current_task():
                del self.leaving[code]

    def deliver_match(self, code: str, audiences: dict) -> None:
        """One message of the conductor's: each audience's frames to this process's sockets of that audience."""
        for key, frames in audiences.items():
            if (code, key) in self.rooms:
                self.deliver(code, key, frames)

    def deliver(self, code: str, key: str, frames: list) -> None:
        """Write frames ([seq, text], in seq order) to every local socket of (match, audience).

        A big room is written SLICE sockets at a time, one slice per turn of the event loop, so a
        player's ack or a moderator's frame waiting behind a thousand watchers' copies goes out
        between two slices instead of after all of them. Deliveries to one room stay in order: a
        new one waits until the one before has reached every socket."""
        self.frames_in += len(frames)
        room = self.rooms.get((code, key))
        if not room:
            return
        pending = self.pending.setdefault((code, key), collections.deque())
        pending.append([frames, {}, list(room), 0])  # prepared: seq -> the websocket frame, built once here
        if len(pending) == 1:
            self._write_slice((code, key))

    def _write_slice(self, where: tuple) -> None:
        pending = self.pending.get(where)
        while pending:
            delivery = pending[0]
            frames, prepared, sockets, start = delivery
            end = start + SLICE
            for socket in sockets[start:end]:
                self.writes += socket.push(frames, prepared)
            if end < len(sockets):
                delivery[3] = end
                asyncio.get_running_loop().call_soon(self._write_slice, where)
                return
            pending.popleft()
        self.pending.pop(where, None)

    async def _receive(self):
        wait = RECEIVE_BACKOFF_S[0]
        while True:
            try:
                messages = await receive_waiting(self.layer, self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                self._lost = True
                log.warning("The fan-out could not receive; trying again in %.1f s", wait, exc_info=True)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECEIVE_BACKOFF_S[1])
                continue
            wait = RECEIVE_BACKOFF_S[0]
            for message in messages:
                try:
                    if message.get("type") == "hub.frames":
                        self.playout.hold(message["match"], message.get("at"),
                                          functools.partial(self.deliver_match, message["match"], message["audiences"]))
                    elif message.get("type") == "conductor.reply":
                        self.answer(message)
                    elif message.get("type") == CLAIM:
                        await self._tell(self.seats.heard(message["match"], message["seat"], tuple(message["claim"])))
                        await self.report(message["match"])
                    elif message.get("type") == SEAT_LEFT:  # after the frames held before it, its seat_left event's among them
                        self.playout.hold(message["match"], None, functools.partial(self._seat_given_up, message))
                    elif message.get("type") == ROSTER:
                        self.roster(message["match"], message["frame"])
                    elif message.get("type") == FEED_REVOKED:
                        self.revoke_feeds(message["match"], message["token"])
                except Exception:
                    log.exception("The fan-out could not pass on a %r message", message.get("type"))

    def _seat_given_up(self, message: dict) -> None:
        self.seats.given_up(message["match"], message["seat"], message["by"])
        asyncio.get_running_loop().create_task(self.report(message["match"]))

    async def claim_seat(self, socket, code: str, seat: str) -> None:
        """`socket` plays `seat` from now on, here and in every other process (it is in the match's group)."""
        await self._tell(self.seats.claim(socket, code, seat))
        await self.report(code)

    # -- the moderator's roster -------------------------------------------------------------------

    async def report(self, code: str, force: bool = False, seats_only: bool = False) -> None:
        """Tell the conductor the seats of `code` held here and the screens watching here, if that
        changed (or `force`). With `seats_only` a change of the watcher count alone waits for the next
        probe. Lost while Redis is away: the next heartbeat's report says it again."""
        if self.channel is None:
            return
        seats = {seat for (c, seat) in self.seats.holders if c == code}
        watchers = len(self.rooms.get((code, SPECTATOR), ()))
        if seats_only:
            last = self.presence.sent.get(code)
            watchers = last[1] if last is not None else watchers
        message = self.presence.report(code, self.channel, seats, watchers, force)
        if message is None:
            return
        if not any(c == code for c, _ in self.rooms):
            self.presence.forget(code)  # the last socket here left: this report says so, then nothing more
        try:
            await self.layer.send(CONDUCTOR_CHANNEL, message)
        except Exception:
            log.info("Could not tell the conductor who is connected to %s; the next heartbeat does", code, exc_info=True)

    def report_soon(self, code: str) -> None:
        """report(), from code that cannot wait (a socket leaving): its seats at once, watchers later."""
        asyncio.get_running_loop().create_task(self.report(code, seats_only=True))

    def roster(self, code: str, text: str) -> None:
        """The conductor's roster frame for `code`: kept, and written to this process's moderator sockets.
        One that comes after the match's last socket here left (its group is being left) is not kept."""
        if code not in self.match_ids:
            return
        self.rosters[code] = text
        for socket in list(self.rooms.get((code, MODERATOR), ())):
            socket.send_now(text)

    async def ask_roster(self, socket, code: str) -> None:
        """A moderator socket has caught up: the roster kept here now, and a fresh one from the conductor."""
        if code in self.rosters:
            socket.send_now(self.rosters[code])
        try:
            await self.layer.send(CONDUCTOR_CHANNEL, {"type": "roster.ask", "match": code})
        except Exception:
            log.info("Could not ask the conductor for the roster of %s", code, exc_info=True)

    def revoke_feeds(self, code: str, token: int) -> None:
        """Close this process's feeds of match `code` read with feed token `token` (revoked by the host)."""
        for (room_code, _), sockets in list(self.rooms.items()):
            if room_code == code:
                for socket in list(sockets):
                    if getattr(socket, "feed_token", None) == token:
                        socket.revoked()

    async def _tell(self, message: dict | None) -> None:
        """Send a seat claim to the match's group. Lost while Redis is away: the two sockets then play
        on until the next claim, and the engine still takes each command once."""
        if message is None:
            return
        try:
            await self.layer.group_send(match_group(message["match"]), message)
        except Exception:
            log.info("Could not tell the other web processes of a seat's new socket", exc_info=True)

    def answer(self, message: dict) -> None:
        """The conductor's answer to a command: to the socket that sent it, with the client's own ref.
        (A socket sends commands with ref [its id here, the client's ref] and this hub's channel.)"""
        ref = message.get("ref")
        if not (isinstance(ref, list) and len(ref) == 2):
            return
        socket = self.sockets.get(ref[0])
        if socket is not None:
            socket.answer(dict(message, ref=ref[1]))

    async def _keep(self):
        """Renew group memberships and send heartbeats every heartbeat; re-join at once after a Redis restart."""
        beat = heartbeat_seconds()
        next_beat = asyncio.get_running_loop().time() + beat
        while True:
            await asyncio.sleep(min(PROBE_S, beat))
            try:
                restarted = await self._redis_restarted()
                loop_now = asyncio.get_running_loop().time()
                due = loop_now >= next_beat
                if restarted or due:
                    for code in list(self.match_ids):
                        await self.layer.group_add(match_group(code), self.channel)
                    if due:  # a fixed rate, so a beat found a probe late does not delay the rest; after a
                        # long outage (Redis out of reach) the rate starts again from now
                        next_beat = next_beat + beat if next_beat + beat > loop_now else loop_now + beat
                    await self._heartbeat()  # after a restart: every socket catches up now
                for code in list(self.match_ids):  # every probe what changed (watchers), every beat all
                    await self.report(code, force=due or restarted)
            except asyncio.CancelledError:
                raise
            except Exception:
                self._lost = True  # try the whole round again at the next probe
                log.info("The fan-out could not renew its groups or send heartbeats; trying again", exc_info=True)

    async def _redis_restarted(self) -> bool:
        """Whether Redis may have lost our groups since the last good probe: it failed us meanwhile
        (this probe or a receive; a restart before our first probe is caught this way) or its run id changed."""
        connection = getattr(self.layer, "connection", None)
        if connection is None:
            return False
        try:
            run_id = (await connection(0).info("server")).get("run_id")
        except Exception:
            self._lost = True
            raise
        restarted = self._lost or (self._redis_run_id is not None and run_id != self._redis_run_id)
        self._redis_run_id, self._lost = run_id, False
        return restarted

    async def _heartbeat(self):
        codes = list(self.match_ids.items())
        last = await _last_seqs([match_id for _, match_id in codes])
        for code, match_id in codes:
            # Behind the match's frames held for the play-out delay, as they are stored before it ends:
            # a beat ahead of them would name a seq the socket has not been sent yet, and send the
            # client to ask for frames already on their way.
            self.playout.hold(code, None, functools.partial(self._beat, code, last.get(match_id, 0)))

    def _beat(self, code: str, seq: int) -> None:
        text = json.dumps({"type": "heartbeat", "data": {"server_time": now_ms(), "seq": seq}})
        for (room_code, _), sockets in list(self.rooms.items()):
            if room_code == code:
                for socket in list(sockets):
                    socket.send_now(text)


@database_sync_to_async
def _last_seqs(match_ids: list[int]) -> dict[int, int]:
    rows = MatchEvent.objects.filter(match_id__in=match_ids).values("match_id").annotate(last=Max("seq"))
    return {row["match_id"]: row["last"] for row in rows}


_hubs: dict = {}


def hub() -> Hub:
    """This event loop's hub (one per process in production: Daphne runs one loop)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None or found.layer is not get_channel_layer():
        for stale in [l for l in _hubs if l.is_closed()]:
            del _hubs[stale]
        found = _hubs[loop] = Hub(get_channel_layer())
    return found


def local_counts() -> tuple[int, int]:
    """(sockets, matches) this event loop's hub serves now (0, 0 before the first socket)."""
    try:
        found = _hubs.get(asyncio.get_running_loop())
    except RuntimeError:
        return 0, 0
    if found is None:
        return 0, 0
    return sum(len(room) for room in found.rooms.values()), len(found.match_ids)
