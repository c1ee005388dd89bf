"""What a socket that (re)connects is sent: the events it missed, or a snapshot of the match.

A snapshot is the fold of the whole event log. A thousand watchers opening the big-screen link at
once would fold it a thousand times, so each web process keeps the latest folded state of each
match it serves and folds only the events added since (StateCache), and encodes each audience's
snapshot of a given seq once.

A snapshot's text longer than PART_CHARS (the moderator's, of a long match with the longest questions
the limits allow, passes 1 MiB: every question's text and answer, and every one played again in the
history) is sent as "snapshot_part" frames the page joins back into the snapshot frame
(static/js/match-socket.js): each part under the bound on what a socket may have waiting
(fanout.SLOW_SOCKET_BYTES), and the consumer sends the next one only once the last one has gone out
(docs/wire-protocol.md).
"""
from __future__ import annotations

import asyncio
import collections
import json

from channels.db import database_sync_to_async
from django.db.models import Max

from game.engine.api import apply, project, snapshot
from game.models import MatchEvent

CATCH_UP_LIMIT = 300  # further behind than this, a snapshot is cheaper than replaying events
PART_CHARS = 128 * 1024  # a part's characters: at most 6 bytes each in JSON (\uXXXX), so a part is under 1 MiB
MATCHES_KEPT = 64


def encode(frame: dict) -> str:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


@database_sync_to_async
def last_seq(match_id: int) -> int:
    return MatchEvent.objects.filter(match_id=match_id).aggregate(last=Max("seq"))["last"] or 0


@database_sync_to_async
def _events_after(match_id: int, after: int) -> list[dict]:
    return [e.as_engine_event() for e in MatchEvent.objects.filter(match_id=match_id, seq__gt=after).order_by("seq")]


@database_sync_to_async
def _fold_onto(state, match_id: int):
    after = state.seq if state is not None else 0
    for event in MatchEvent.objects.filter(match_id=match_id, seq__gt=after).order_by("seq"):
        state = apply(state, event.as_engine_event())
    return state


class StateCache:
    """The latest folded state of each match this process serves; brought up to date incrementally."""

    def __init__(self):
        self.states: collections.OrderedDict = collections.OrderedDict()
        self.snapshots: dict = {}  # (match_id, audience, team) -> (seq, text)
        self.reading: dict[int, asyncio.Task] = {}  # match -> the read under way
        self.next_read: dict[int, asyncio.Future] = {}  # match -> the read that starts after it, and its callers

    async def state(self, match_id: int):
        """The match's state as stored now. Everyone who asks while a read is under way shares the one
        read that starts after it (so it misses nothing stored before they asked): a thousand sockets
        resyncing at once after a Redis restart cost two reads of the log, not a thousand."""
        waiting = self.next_read.get(match_id)
        if waiting is None:
            waiting = self.next_read[match_id] = asyncio.get_running_loop().create_future()
            if match_id not in self.reading:
                self._start_read(match_id)
        return await asyncio.shield(waiting)

    def _start_read(self, match_id: int) -> None:
        future = self.next_read.pop(match_id)
        self.reading[match_id] = asyncio.get_running_loop().create_task(self._read(match_id, future))

    async def _read(self, match_id: int, future: asyncio.Future) -> None:
        try:
            state = await _fold_onto(self.states.get(match_id), match_id)  # apply() never changes what it is given
            self.states[match_id] = state
            self.states.move_to_end(match_id)
            while len(self.states) > MATCHES_KEPT:
                old, _ = self.states.popitem(last=False)
                self.snapshots = {k: v for k, v in self.snapshots.items() if k[0] != old}
            future.set_result(state)
        except Exception as problem:
            future.set_exception(problem)
            future.exception()  # retrieved here too: every caller may have gone
        finally:
            del self.reading[match_id]
            if match_id in self.next_read:
                self._start_read(match_id)

    async def snapshot_texts(self, match_id: int, audience: str, team: str | None) -> tuple[list[str], int]:
        """The snapshot frame's text (or its parts' texts) for an audience, and its seq."""
        state = await self.state(match_id)
        seq = state.seq if state is not None else 0
        cached = self.snapshots.get((match_id, audience, team))
        if cached is None or cached[0] != seq:
            cached = (seq, in_parts(encode({"type": "snapshot", "data": snapshot(state, audience, team)}), seq))
            self.snapshots[(match_id, audience, team)] = cached
        return cached[1], seq


def in_parts(text: str, seq: int) -> list[str]:
    """A frame's text as it goes out: whole if it is short, else as snapshot_part frames to be joined."""
    if len(text) <= PART_CHARS:
        return [text]
    pieces = [text[at:at + PART_CHARS] for at in range(0, len(text), PART_CHARS)]
    return [encode({"type": "snapshot_part", "data": {"seq": seq, "part": n, "parts": len(pieces), "text": piece}})
            for n, piece in enumerate(pieces)]


_caches: dict = {}


def cache() -> StateCache:
    loop = asyncio.get_running_loop()
    found = _caches.get(loop)
    if found is None:
        for stale in [l for l in _caches if l.is_closed()]:
            del _caches[stale]
        found = _caches[loop] = StateCache()
    return found


async def catch_up(match_id: int, after: int, audience: str, team: str | None, force_snapshot: bool = False):
    """The frame texts that bring a client from seq `after` to now, and the seq they end at."""
    if force_snapshot or after <= 0:  # a snapshot in any case: no need to ask how far the log goes
        return await cache().snapshot_texts(match_id, audience, team)
    latest = await last_seq(match_id)
    if after > latest or latest - after > CATCH_UP_LIMIT:
        return await cache().snapshot_texts(match_id, audience, team)
    events = await _events_after(match_id, after)
    return [encode(project(e, audience, team)) for e in events], (events[-1]["seq"] if events else after)
