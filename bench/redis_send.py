"""What one send to Redis costs the process that sends it: CPU per send_many (the conductor's one round
trip for the frames of the matches stored together) through the channel layer (serving/redis_layer.py),
in blocks. Prints numbers, never pass/fail. Needs Redis (REDIS_URL, default redis://127.0.0.1:6379/13;
the database is flushed at the end).

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


def the_layer():
    from serving import redis_layer

    return redis_layer.ResilientRedisChannelLayer(hosts=[os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13")],
                                                  prefix="bench-redis-send")


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
    layer = the_layer()
    await layer.group_add("m-BENCH", "hub.bench")
    values = [await per_send(layer, sends) for _ in range(blocks)]
    print(f"CPU per send_many: median {statistics.median(values):.0f} us (blocks {', '.join(f'{v:.0f}' for v in values)}); "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    await layer.flush()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3000)
    parser.add_argument("--blocks", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.sends, args.blocks))
