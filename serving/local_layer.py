"""The channel layer of the embedded default: in memory, shared by the threads of one process.

Channels' InMemoryChannelLayer belongs to one event loop. The embedded conductor runs on an event
loop of its own, in its own thread (game/conductor/embedded.py), so that a busy web loop (a
thousand sockets to write to) can never delay the game clock; the web loop and the conductor loop
talk through this layer. A message is handed straight to a waiting receiver on that receiver's
loop (call_soon_threadsafe; plain call_soon when that is the sender's own loop, which needs no
wake-up), or queued until one comes. It also fixes two costs of the in-memory layer that grew with
the number of sockets: expiry is checked per channel touched (not over every channel on every
call), and one channel may have several readers. Each receiver gets its own copy of a message by a
pickle round trip (a group message is pickled once), several times cheaper than deepcopy; a
message its sender gives up (hand_over: the conductor's frames, built for that one send) goes to a
lone member as it is, with no copy at all.
"""
from __future__ import annotations

import asyncio
import collections
import random
import string
import threading
import time
import pickle

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer


class LocalChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]

    def __init__(self, expiry=60, group_expiry=86400, capacity=100, channel_capacity=None, **kwargs):
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity, **kwargs)
        self.group_expiry = group_expiry
        self._lock = threading.Lock()
        self._queues: dict[str, collections.deque] = {}  # channel -> deque of (expires, message)
        self._waiters: dict[str, collections.deque] = {}  # channel -> deque of futures (each on its own loop)
        self._groups: dict[str, dict[str, float]] = {}  # group -> {channel: joined at}

    # -- channels ---------------------------------------------------------------------------------

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        self._deliver(channel, _copy(message), raise_full=True)

    def _deliver(self, channel: str, message: dict, raise_full: bool, first: bool = False) -> None:
        with self._lock:
            waiters = self._waiters.get(channel)
            while waiters:
                waiter = waiters.popleft()
                loop = waiter.get_loop()
                if not waiter.done() and not loop.is_closed():
                    if loop is _running_loop():
                        loop.call_soon(_resolve, waiter, message, self, channel)  # no wake-up of our own loop
                    else:
                        loop.call_soon_threadsafe(_resolve, waiter, message, self, channel)
                    return
            queue = self._queues.setdefault(channel, collections.deque())
            self._drop_expired(queue)
            if len(queue) >= self.get_capacity(channel) and not first:
                if raise_full:
                    raise ChannelFull(channel)
                return
            item = (time.time() + self.expiry, message)
            queue.appendleft(item) if first else queue.append(item)

    async def receive(self, channel):
        self.require_valid_channel_name(channel)
        loop = asyncio.get_running_loop()
        with self._lock:
            queue = self._queues.get(channel)
            if queue:
                self._drop_expired(queue)
                if queue:
                    message = queue.popleft()[1]
                    if not queue:
                        del self._queues[channel]
                    return message
            waiter = loop.create_future()
            self._waiters.setdefault(channel, collections.deque()).append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            with self._lock:
                waiting = self._waiters.get(channel)
                if waiting and waiter in waiting:
                    waiting.remove(waiter)
            raise

    def _requeue(self, channel: str, message: dict) -> None:
        """A receiver was cancelled just as a message reached it: the message goes back, first in line."""
        self._deliver(channel, message, raise_full=False, first=True)

    @staticmethod
    def _drop_expired(queue: collections.deque) -> None:
        now = time.time()
        while queue and queue[0][0] < now:
            queue.popleft()

    async def new_channel(self, prefix="specific."):
        return "%s.local!%s" % (prefix, "".join(random.choice(string.ascii_letters) for _ in range(12)))

    # -- groups -----------------------------------------------------------------------------------

    async def group_add(self, group, channel):
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        with self._lock:
            self._groups.setdefault(group, {})[channel] = time.time()

    async def group_discard(self, group, channel):
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        with self._lock:
            members = self._groups.get(group)
            if members:
                members.pop(channel, None)
                if not members:
                    del self._groups[group]

    async def group_send(self, group, message):
        assert isinstance(message, dict), "message is not a dict"
        self._to_members(group, message, handed_over=False)

    def hand_over(self, group: str, message: dict) -> None:
        """group_send of a message the sender gives up: it never reads or changes it again (the
        conductor's frames, built fresh for each send). A group of one member, the usual case (the
        embedded default has one web process), gets the message itself, with no copy; each further
        member gets a copy of its own."""
        self._to_members(group, message, handed_over=True)

    def _to_members(self, group: str, message: dict, handed_over: bool) -> None:
        """Each member its own copy (a pickle made once), but the first of a message handed over gets
        the message itself. A full member misses it, as on Redis."""
        channels = self._members(group)
        copies = len(channels) - handed_over
        packed = pickle.dumps(message, pickle.HIGHEST_PROTOCOL) if copies > 0 else b""
        for number, channel in enumerate(channels):
            self._deliver(channel, message if handed_over and number == 0 else pickle.loads(packed), raise_full=False)

    def _members(self, group: str) -> list[str]:
        """The group's channels, after dropping those that joined longer than group_expiry ago."""
        self.require_valid_group_name(group)
        oldest = time.time() - self.group_expiry
        with self._lock:
            members = self._groups.get(group, {})
            for name in [n for n, joined in members.items() if joined < oldest]:
                del members[name]
            return list(members)

    # -- flush extension --------------------------------------------------------------------------

    async def flush(self):
        with self._lock:
            self._queues.clear()
            self._groups.clear()

    async def close(self):
        pass


def _resolve(waiter: asyncio.Future, message: dict, layer: LocalChannelLayer, channel: str) -> None:
    if waiter.done():  # cancelled meanwhile: keep the message for the next receiver
        layer._requeue(channel, message)
    else:
        waiter.set_result(message)


def _copy(message: dict) -> dict:
    """Each receiver gets its own copy, as from a layer that serialises (a pickle round trip: several
    times faster than deepcopy for the nested lists of frames the conductor sends)."""
    return pickle.loads(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
