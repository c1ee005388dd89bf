"""The channel layer's Redis pool (serving/redis_layer.py WaitingConnectionPool), against the real Redis:
with every connection in use a command waits for one to come free instead of failing (300 sockets
reconnecting at once must not close any), whoever waits keeps their turn, and a connection taken
without waiting always comes back."""
import asyncio

import pytest

from serving.redis_layer import WaitingConnectionPool, connection_options
from tests.conftest import need_service
from tests.redis_dbs import fresh_redis, redis_url

REDIS_URL = redis_url("faults")
BLOCK_S = 0.4


@pytest.fixture
def pool():
    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    return WaitingConnectionPool.from_url(REDIS_URL, **dict(connection_options(), max_connections=2, timeout=5))


async def test_with_every_connection_in_use_a_command_waits_its_turn_and_then_runs(pool):
    import redis.asyncio as redis

    client = redis.Redis(connection_pool=pool)
    order = []

    async def blocked(name, seconds):
        await client.blpop([f"test-pool-{name}"], timeout=seconds)  # holds a connection that long
        order.append(name)

    async def ping(name):
        assert await client.ping()
        order.append(name)

    try:
        # One connection comes free at a time, so the order in which the waiters got one is the order
        # in which their commands ran (freed together, two pings' replies could cross on the wire).
        holders = [asyncio.create_task(blocked("first", BLOCK_S)), asyncio.create_task(blocked("second", 4 * BLOCK_S))]
        await asyncio.sleep(0.1)
        assert len(pool._in_use_connections) == 2, "both connections are in use"
        waiting = asyncio.create_task(ping("waited"))
        await asyncio.sleep(0.05)
        later = asyncio.create_task(ping("came later"))  # a connection is in use by nobody yet: it queues too
        await asyncio.gather(*holders, waiting, later)
        assert order[:2] == ["first", "waited"], "the one that waited first gets the first connection to come free"
        assert sorted(order[2:]) == ["came later", "second"], "the one that came later waits for the next to come free"
        assert not pool._in_use_connections and len(pool._available_connections) == 2
    finally:
        await client.aclose()
        await pool.disconnect()


async def test_commands_with_a_connection_free_take_it_at_once_and_give_it_back(pool):
    import redis.asyncio as redis

    client = redis.Redis(connection_pool=pool)
    try:
        results = await asyncio.gather(*(client.incr("test-pool-count") for _ in range(50)))
        assert sorted(results) == list(range(1, 51)), "every command ran once"
        assert not pool._in_use_connections, "every connection came back"
        assert 1 <= len(pool._available_connections) <= 2
        assert not pool._condition._waiters and not pool._condition.locked()
    finally:
        await client.aclose()
        await pool.disconnect()
