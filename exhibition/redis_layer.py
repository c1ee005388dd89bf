"""The Redis channel layer, with connection settings that survive a quiet room, a restart and a rush.

Why each number (review found the stack dead after 6 s of silence):
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
"""
from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, TimeoutError

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
