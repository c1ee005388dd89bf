"""The Redis channel layer, with connection settings that survive a quiet room, a restart and a rush.

Why each number (with the defaults the stack went dead after 6 s of silence):
- channels-redis waits for messages with a blocking pop of up to 5 s (brpop_timeout). redis-py 8
  gives every socket a 5 s read time-out by default, so a quiet channel raised TimeoutError: the
  conductor exited and idle websockets closed with 1011. SOCKET_TIMEOUT_S is three times the pop,
  so only a Redis that really stopped answering times out.
- A Redis restart drops every connection. Commands are retried on a fresh connection (RETRIES with
  jittered back-off up to 1 s: about 2 s in all), so a quick restart is a pause, not a crash;
  longer outages surface as errors the conductor and the consumers handle (see their modules).
  HEALTH_CHECK_S pings a connection that sat idle before reusing it, and TCP keep-alive finds a
  peer that vanished without closing.
- The default pool raises MaxConnectionsError at 100 connections: 300 sockets reconnecting at once
  closed up to a hundred of them. Here the pool waits up to POOL_WAIT_S for a free connection
  instead, and holds up to POOL_SIZE per process and event loop (Redis serves 10,000 clients by
  default, so a dozen web processes fit with room to spare).

Sending: channels-redis's group_send takes four round trips to Redis per message (drop expired
members, read the members, drop expired messages, add the message), and its send four as well;
send here is one script run (a command and its ack each cross Redis once). group_send_many sends
any number of messages, each to its group, in ONE script run: Redis reads the members and adds the
message to each member's channel itself, with the same expiry and capacity rules; send_many mixes
sends to channels in (a command's answer goes out with its events). The conductor
sends the frames of all the matches whose events were stored together this way (a hundred matches
at the same tick: one round trip, not four hundred). Messages keep the order they were sent in: each
gets a later score than the one before it from this layer. Members that are process-local channels
(a "!" in the name) and layers with several Redis hosts or per-channel capacities go through
channels-redis's own group_send.
"""
from __future__ import annotations

import time

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, ResponseError, TimeoutError

BLOCKING_POP_S = RedisChannelLayer.brpop_timeout
SOCKET_TIMEOUT_S = 3 * BLOCKING_POP_S
CONNECT_TIMEOUT_S = 5
HEALTH_CHECK_S = 25
RETRIES = 3
POOL_SIZE = 200
POOL_WAIT_S = 10


def connection_options() -> dict:
    return {
        "socket_timeout": SOCKET_TIMEOUT_S,
        "socket_connect_timeout": CONNECT_TIMEOUT_S,
        "socket_keepalive": True,
        "health_check_interval": HEALTH_CHECK_S,
        "retry": Retry(ExponentialWithJitterBackoff(cap=1.0, base=0.1), RETRIES),
        "retry_on_error": [ConnectionError, TimeoutError],
        "max_connections": POOL_SIZE,
        "timeout": POOL_WAIT_S,
    }


class ResilientRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer whose pools wait for a free connection and outlive the blocking pop."""

    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address", None)
        options = {**connection_options(), **host}
        if address is None:
            return BlockingConnectionPool(**options)
        return BlockingConnectionPool.from_url(address, **options)

    _last_score = 0.0
    _blocking_pop_of_many = True  # receive_many uses BZMPOP, until a Redis says it has none

    def _score(self) -> float:
        """time.time(), but always later than the last message this layer added (a sorted set keeps
        equal scores in the order of their bytes, not of their sending)."""
        self._last_score = max(time.time(), self._last_score + SCORE_STEP)
        return self._last_score

    async def send(self, channel, message):
        """channels-redis's send (drop expired messages, check capacity, add, set expiry) in one
        round trip instead of four: a command and its ack each cross Redis this way."""
        if len(self.hosts) > 1 or self.channel_capacity:
            return await super().send(channel, message)
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        name = channel
        if "!" in channel:
            message = dict(message.items())
            message["__asgi_channel__"] = channel
            name = self.non_local_name(channel)
        now = time.time()
        added = await self.connection(0).eval(SEND_ONE, 1, self.prefix + name, int(now) - int(self.expiry),
                                              self.capacity, self._score(), self.serialize(message),
                                              int(self.expiry))
        if not added:
            raise ChannelFull()

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """group_send of each (group, message), in one round trip to Redis."""
        await self.send_many([(GROUP, group, message) for group, message in messages])

    async def send_many(self, items: list[tuple[str, str, dict]]) -> list[int]:
        """Each (GROUP, group, message) as group_send and each (CHANNEL, channel, message) as send, in
        one round trip to Redis and in this order. Returns the positions of the channel sends that
        found their channel full (send raises ChannelFull for those). Process-local channels ("!")
        are sent one by one: they are not for a batch."""
        if not items:
            return []
        if len(self.hosts) > 1 or self.channel_capacity:
            full = []
            for at, (kind, name, message) in enumerate(items):
                try:
                    await (RedisChannelLayer.group_send if kind == GROUP else RedisChannelLayer.send)(self, name, message)
                except ChannelFull:
                    full.append(at)
            return full
        keys = []
        for kind, name, message in items:
            if kind == GROUP:
                assert self.require_valid_group_name(name), "Group name not valid"
                keys.append(self._group_key(name))
            else:
                assert kind == CHANNEL and "!" not in name and self.require_valid_channel_name(name), "Channel name not valid"
                keys.append(self.prefix + name)
        now = time.time()
        args = [now - self.group_expiry, int(now) - int(self.expiry), int(self.expiry), self.capacity, self.prefix]
        args += [self._score() for _ in items]
        args += [self.serialize(message) for _, _, message in items]
        args += [kind for kind, _, _ in items]
        local, full = await self.connection(0).eval(SEND_MANY, len(keys), *keys, *args)
        # Process-local members (tests, or a consumer with a channel of its own) take channels-redis's path.
        for index in sorted({int(i) for i in local[::2]}):
            message = items[index - 1][2]
            names = [n.decode() if isinstance(n, bytes) else n for i, n in zip(local[::2], local[1::2]) if int(i) == index]
            await self._send_to_local(names, message)
        return [int(i) - 1 for i in full]

    async def _send_to_local(self, channel_names: list[str], message: dict) -> None:
        by_connection, key_messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
        for index, channel_keys in by_connection.items():
            connection = self.connection(index)
            for key in channel_keys:
                await connection.zremrangebyscore(key, min=0, max=int(time.time()) - int(self.expiry))
                if await connection.zcount(key, "-inf", "+inf") < capacities[key]:
                    await connection.zadd(key, {key_messages[key]: self._score()})
                    await connection.expire(key, int(self.expiry))


    async def receive_many(self, channel: str, limit: int) -> list[dict]:
        """Up to `limit` messages of a channel that is not process-local, oldest first, in one round
        trip: whatever waits, or else the first to come (Redis 7's BZMPOP, a blocking pop of several).

        A web process's hub reads its channel this way: channels-redis's receive takes four round
        trips per message (move back what a cancelled receive left, pop, back the message up, drop
        the backup), so one reader of a channel that a hundred matches write to fell behind by
        seconds. What the pop skips is the backup of a message being received when the reader is
        cancelled or its connection breaks; such a frame is lost like those sent while Redis
        restarts, and the sockets resync as they do then. A Redis older than 7 has no BZMPOP: there
        it takes what waits with a script and, when nothing does, waits for one with BZPOPMIN (two
        round trips when the reader was waiting)."""
        assert "!" not in channel, "receive_many reads channels that are not process-local"
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        key = self.prefix + channel
        found = None
        while not found:
            if self._blocking_pop_of_many:
                try:
                    popped = await self.connection(0).bzmpop(BLOCKING_POP_S, 1, [key], min=True, count=limit)
                except ResponseError as exc:
                    if "unknown command" not in str(exc).lower():
                        raise
                    self._blocking_pop_of_many = False  # Redis 6 or older
                    continue
                found = [member for member, _ in popped[1]] if popped else None
            else:
                found = await self.connection(0).eval(POP_MANY, 1, key, limit)
                if not found:
                    popped = await self.connection(0).bzpopmin(key, timeout=BLOCKING_POP_S)
                    found = [popped[1]] if popped else None
        messages = [self.deserialize(content) for content in found]
        for message in messages:
            message.pop("__asgi_channel__", None)
        return messages


SEND_ONE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
if redis.call('ZCOUNT', KEYS[1], '-inf', '+inf') >= tonumber(ARGV[2]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

POP_MANY = """
local found = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #found > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #found - 1)
end
return found
"""

SCORE_STEP = 1e-5  # well above a double's resolution at today's epoch seconds (about 2e-7)

GROUP, CHANNEL = "g", "c"

# KEYS: per item, a group's key or a channel's; ARGV: group cutoff, message cutoff, expiry s,
# capacity, channel key prefix, then a score per item, a payload per item and a kind per item (GROUP
# or CHANNEL). Returns {[item index, member, ...] for the groups' process-local members, left to the
# caller; [item index, ...] of the channels that were full}.
SEND_MANY = """
local n = #KEYS
local group_cutoff, cutoff, expiry, capacity, prefix = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local left, full = {}, {}
local function add(key, i)
    redis.call('ZREMRANGEBYSCORE', key, 0, cutoff)
    if redis.call('ZCOUNT', key, '-inf', '+inf') < capacity then
        redis.call('ZADD', key, ARGV[5 + i], ARGV[5 + n + i])
        redis.call('EXPIRE', key, expiry)
        return true
    end
    return false
end
for i = 1, n do
    if ARGV[5 + 2 * n + i] == 'c' then
        if not add(KEYS[i], i) then
            table.insert(full, i)
        end
    else
        redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, group_cutoff)
        local members = redis.call('ZRANGE', KEYS[i], 0, -1)
        for _, member in ipairs(members) do
            if string.find(member, '!', 1, true) then
                table.insert(left, i)
                table.insert(left, member)
            else
                add(prefix .. member, i)
            end
        end
    end
end
return {left, full}
"""
