"""The channel layer's Redis pool (serving/redis_layer.py: redis-py's waiting pool), against the real Redis:
with every connection in use a command waits for one to come free instead of failing (300 sockets
reconnecting at once must not close any), and every connection comes back."""
import asyncio

import pytest

from serving.redis_layer import POOL_WAIT_S, ResilientRedisChannelLayer
from tests.conftest import need_service
from tests.redis_dbs import fresh_redis, redis_url

REDIS_URL = redis_url("faults")
BLOCK_S = 0.4


@pytest.fixture
def pool():
    need_service(fresh_redis(REDIS_URL), f"Redis is not reachable at {REDIS_URL} (start redis-server)")
    layer = ResilientRedisChannelLayer(hosts=[{"address": REDIS_URL, "max_connections": 2}])
    made = layer.create_pool(0)
    assert made.max_connections == 2 and made.timeout == POOL_WAIT_S, "the layer's own pool, made smaller"
    return made


async def test_with_every_connection_in_use_a_command_waits_for_one_and_then_runs(pool):
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
        # One connection comes free at a time, so a waiter's ping runs before the second holder lets go.
        holders = [asyncio.create_task(blocked("first", BLOCK_S)), asyncio.create_task(blocked("second", 4 * BLOCK_S))]
        await asyncio.sleep(0.1)
        assert len(pool._in_use_connections) == 2, "both connections are in use"
        waiting = asyncio.create_task(ping("waited"))
        await asyncio.sleep(0.05)
        later = asyncio.create_task(ping("came later"))
        await asyncio.gather(*holders, waiting, later)
        assert order[0] == "first" and order[1] in ("waited", "came later"), \
            "a waiting command takes the first connection to come free"
        assert sorted(order[2:]) == sorted({"second", "waited", "came later"} - {order[1]}), "none failed"
        assert not pool._in_use_connections and len(pool._available_connections) == 2
    finally:
        await client.aclose()
        await pool.disconnect()


async def test_commands_with_a_connection_free_run_once_each_and_give_it_back(pool):
    import redis.asyncio as redis

    client = redis.Redis(connection_pool=pool)
    try:
        results = await asyncio.gather(*(client.incr("test-pool-count") for _ in range(50)))
        assert sorted(results) == list(range(1, 51)), "every command ran once"
        assert not pool._in_use_connections, "every connection came back"
        assert 1 <= len(pool._available_connections) <= 2
    finally:
        await client.aclose()
        await pool.disconnect()
