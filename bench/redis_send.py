"""What one send to Redis costs the process that sends it: CPU per send_many (the conductor's one round
trip for a match's frames) through the channel layer's pool (serving/redis_layer.py
WaitingConnectionPool) beside redis-py's own waiting pool, in alternated blocks of the same run.
Prints numbers, never pass/fail. Needs Redis (REDIS_URL, default redis://127.0.0.1:6379/13; the
database is flushed at the end).

Run: .venv/bin/python bench/redis_send.py [--sends 3000] [--blocks 6]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

import bench.environment  # noqa: E402,F401  (a key and settings for a run that is not a server)

MESSAGE = {"type": "hub.frames", "match": "BENCH", "at": 1,
           "audiences": {"moderator": [[1, '{"seq":1,"type":"word_revealed","data":{"word":"Macbeth"}}']],
                         "spectator": [[1, '{"seq":1,"type":"word_revealed","data":{"word":"Macbeth"}}']]}}


def layer_with(pool_class):
    from serving import redis_layer

    class Layer(redis_layer.ResilientRedisChannelLayer):
        def create_pool(self, index):
            return pool_class.from_url(self.hosts[index]["address"], **redis_layer.connection_options())

    return Layer(hosts=[os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13")], prefix="bench-redis-send")


async def per_send(layer, sends: int) -> float:
    from serving.redis_layer import GROUP

    for _ in range(100):  # connections made, scripts loaded
        await layer.send_many([(GROUP, "m-BENCH", MESSAGE)])
    started = time.process_time()
    for _ in range(sends):
        await layer.send_many([(GROUP, "m-BENCH", MESSAGE)])
    return (time.process_time() - started) / sends * 1e6


async def main(sends: int, blocks: int) -> None:
    import django

    django.setup()
    from redis.asyncio import BlockingConnectionPool

    from serving.redis_layer import WaitingConnectionPool

    layers = {"the layer's pool": layer_with(WaitingConnectionPool), "redis-py's waiting pool": layer_with(BlockingConnectionPool)}
    for layer in layers.values():
        await layer.group_add("m-BENCH", "hub.bench")
    figures = {name: [] for name in layers}
    for block in range(blocks):
        for name, layer in (layers.items() if block % 2 == 0 else reversed(layers.items())):
            figures[name].append(await per_send(layer, sends))
    for name, values in figures.items():
        print(f"{name:24}  CPU per send_many: median {statistics.median(values):.0f} us "
              f"(blocks {', '.join(f'{v:.0f}' for v in values)})")
    ours, theirs = (statistics.median(v) for v in figures.values())
    print(f"the layer's pool / redis-py's: x{ours / theirs:.2f}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    await layers["the layer's pool"].flush()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3000)
    parser.add_argument("--blocks", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.sends, args.blocks))
