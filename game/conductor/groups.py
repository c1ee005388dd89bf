"""Who hears which event: one group per match, every audience's frames in one message, and the send.

Every event goes to every audience (as "hidden" where it is not theirs), so a gap in seq always
means a lost frame. Each event is projected and encoded once per audience here, and the frames of
one command go out as ONE channel-layer message per match carrying every audience's frames, keyed
by audience (the moderator, each team, the watchers). The members of a match's group are web
processes, not sockets: each process's hub writes each audience's frames to its own sockets of
that audience only (game/live/fanout.py), so a player's socket never gets the moderator's frame. Only
the conductor sends to them. (One message per audience cost four channel-layer sends per event,
each a handful of Redis round trips, and four wake-ups of every web process.)

A seat_left event is followed by a "hub.seat_left" message to the same group, so every web process
closes that seat's sockets (game/live/seat_holders.py) right after writing the event's frames.
"""
from __future__ import annotations

import asyncio
import functools
import json
import zlib

from channels.exceptions import ChannelFull
from django.conf import settings

from game.engine.api import project
from serving.redis_layer import CHANNEL, GROUP

CONDUCTOR_CHANNEL = "conductor"  # shared by every conductor, so any web process can reach one
SEAT_LEFT = "hub.seat_left"
ROSTER = "hub.roster"  # the moderator's roster: web processes write it to moderator sockets only
MODERATOR, SPECTATOR = "moderator", "spectator"


def playout_ms(code: str) -> int:
    """How long after its stamp every reader of match `code` gets an event: the web processes write
    its frames then (game/live/playout.py) and a bot's query about it leaves then (bots.py).

    EXHIBITION_PLAYOUT_MS, plus the match's own phase within EXHIBITION_PLAYOUT_SPREAD_MS: the
    matches whose words fall due at one instant of the clock's grid are written at different
    moments, not in one stretch of the web process where each waits behind the others' sockets in
    an order that changes from word to word. The phase is the same for every event of the match, in
    every process (a checksum of the code, not Python's per-process hash), so the gaps between its
    words are the clock's. 0 delay: everything at once, with no phase."""
    delay = max(0, settings.EXHIBITION_PLAYOUT_MS)  # their defaults are the settings module's, in one place
    spread = max(0, settings.EXHIBITION_PLAYOUT_SPREAD_MS)
    if not delay or not spread:
        return delay
    return delay + zlib.crc32(code.encode()) % spread


def audience_key(audience: str, team: str | None = None) -> str:
    """The audience a socket hears: the moderator, the big screen (and any watcher), or one team."""
    if audience == "moderator":
        return MODERATOR
    if audience == "player":
        return f"team-{team}"
    return SPECTATOR


def team_key(team: str) -> str:
    return audience_key("player", team)


def match_group(code: str) -> str:
    """The group of the web processes with a socket on match `code`, whatever its audience."""
    return f"m-{code}"


# One encoder for every frame: json.dumps with options builds a new JSONEncoder on each call.
encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def frames_by_audience(events: list[dict], team_ids: list[str]) -> dict[str, list]:
    """key -> [[seq, frame text], ...]: each event projected for each audience, and each different
    frame encoded once.

    The moderator and the teams come first and the watchers last: a web process writes each
    audience's frames in the order they come, and a player about to buzz should not wait behind a
    thousand watchers' copies."""
    audiences = _audiences(tuple(team_ids))
    out = {key: [] for key, _, _ in audiences}
    for event in events:
        encoded: list[tuple[dict, str]] = []  # most events look the same to every audience: encode each look once
        for key, audience, team in audiences:
            frame = project(event, audience, team)
            for seen, text in encoded:
                if seen == frame:
                    break
            else:
                text = encode(frame)
                encoded.append((frame, text))
            out[key].append([event["seq"], text])
    return out


@functools.lru_cache(maxsize=64)
def _audiences(team_ids: tuple[str, ...]) -> tuple[tuple[str, str, str | None], ...]:
    """(key, audience, team) of each audience of a match with these teams, in frames_by_audience's order."""
    return ((MODERATOR, "moderator", None), *((audience_key("player", t), "player", t) for t in team_ids),
            (SPECTATOR, "spectator", None))


def frames_message(code: str, team_ids: list[str], events: list[dict]) -> dict:
    """The one channel-layer message that carries the events to every audience of match `code`;
    "at": the last event's stamp, which the web processes write the frames after (game/live/playout.py)."""
    return {"type": "hub.frames", "match": code, "at": events[-1]["t"],
            "audiences": frames_by_audience(events, team_ids)}


def roster_message(code: str, roster: dict, now: int) -> tuple[str, dict]:
    """(group, message) carrying the moderator's roster frame, which has no seq: it is not an event."""
    frame = {"type": "roster", "data": dict(roster, server_time=now)}
    return match_group(code), {"type": ROSTER, "match": code, "frame": encode(frame)}


def seat_left_messages(code: str, events: list[dict]) -> list[dict]:
    return [{"type": SEAT_LEFT, "match": code, "seat": e["data"]["seat"], "by": e["data"]["by"]}
            for e in events if e["type"] == "seat_left"]


async def broadcast(sender, code: str, team_ids: list[str], events: list[dict]) -> None:
    """Send the events' frames, in seq order, to the match's group: one message for all audiences;
    then, for a seat given up, the message that closes its sockets. Sends asked for in one turn of
    the loop, for however many matches, go to Redis in one round trip (Sender)."""
    group = match_group(code)
    await sender.group_send(group, frames_message(code, team_ids, events))
    for message in seat_left_messages(code, events):
        await sender.group_send(group, message)


class Sender:
    """The conductor's sends: those asked for in the same turn of the event loop (the matches whose
    events were stored in one transaction, and the answers to their commands) go to Redis together,
    in one round trip and in the order asked, where the layer can (serving/redis_layer.py send_many).
    Each caller waits for its own send and gets its failure, if any."""

    def __init__(self, layer):
        self.layer = layer
        self._waiting: list[tuple[str, str, dict, asyncio.Future]] = []

    async def group_send(self, group: str, message: dict) -> None:
        """Send a message built for this send: the layer may keep it as it is (nothing here reads or
        changes it afterwards)."""
        hand_over = getattr(self.layer, "hand_over", None)
        if hand_over is not None:  # the in-process layer: no round trip to share, no copy to make
            hand_over(group, message)
        elif self.batches():
            await self._queue(GROUP, group, message)
        else:
            await self.layer.group_send(group, message)

    def queue_send(self, channel: str, message: dict) -> asyncio.Future | None:
        """Put a send to `channel` in this turn's round trip, before whatever is sent after it, and
        return what to await for it; None where the layer sends no batches (the in-process one) or
        the channel is process-local: send it yourself then."""
        return self._queue(CHANNEL, channel, message) if self.batches() and "!" not in channel else None

    def batches(self) -> bool:
        """Whether sends share round trips: on Redis (send_many), not where the in-process layer hands over."""
        return getattr(self.layer, "hand_over", None) is None and hasattr(self.layer, "send_many")

    def _queue(self, kind: str, name: str, message: dict) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._waiting.append((kind, name, message, done))
        if len(self._waiting) == 1:
            loop.call_soon(lambda: loop.create_task(self._send_waiting()))
        return done

    async def _send_waiting(self) -> None:
        waiting, self._waiting = self._waiting, []
        try:
            full = set(await self.layer.send_many([(kind, name, message) for kind, name, message, _ in waiting]))
        except Exception as exc:
            for _, _, _, done in waiting:
                if not done.done():
                    done.set_exception(exc)
            return
        for at, (_, name, _, done) in enumerate(waiting):
            if not done.done():
                done.set_exception(ChannelFull(name)) if at in full else done.set_result(None)
