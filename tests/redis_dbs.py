"""The Redis databases the suite uses: one per kind of test, its own, never someone else's.

EXHIBITION_TEST_REDIS (default redis://127.0.0.1:6379) names the server and EXHIBITION_TEST_REDIS_DBS
(default "guard=9,faults=10,memory=11,compose=12,restart=14,bots=15") the database of each kind. The suite empties a
database only if it is empty already, carries the suite's mark (set when it first empties it), or
holds only keys the suite's own services write (the channel layer's, the test brokers' prefixed
ones, say after an interrupted run): a database holding anyone else's keys fails the test with a sentence saying which and how to choose
another, and is left as it was.
"""
from __future__ import annotations

import os

DEFAULT_DBS = {"guard": 9, "faults": 10, "memory": 11, "compose": 12, "restart": 14, "bots": 15}
MARK = "exhibition:test-suite-database"
# Keys the suite's own services write: the channel layer's (messages and groups that expire on their
# own) and the Celery brokers' of the bot and compose tests, under their test-/compose- prefixes.
SUITES_OWN = (b"asgi", b"test-", b"compose-")


def _dbs() -> dict[str, int]:
    dbs = dict(DEFAULT_DBS)
    for item in filter(None, os.environ.get("EXHIBITION_TEST_REDIS_DBS", "").split(",")):
        kind, _, number = item.partition("=")
        if kind.strip() not in DEFAULT_DBS or not number.strip().isdigit():
            raise ValueError(f"EXHIBITION_TEST_REDIS_DBS: {item!r} is not one of "
                             f"{', '.join(f'{k}=N' for k in DEFAULT_DBS)}")
        dbs[kind.strip()] = int(number)
    return dbs


def redis_url(kind: str) -> str:
    """The URL of the suite's database for this kind of test."""
    server = os.environ.get("EXHIBITION_TEST_REDIS", "redis://127.0.0.1:6379").rstrip("/")
    return f"{server}/{_dbs()[kind]}"


class NotOurs(AssertionError):
    """The database holds keys the suite did not put there."""


def fresh_redis(url: str) -> bool:
    """Whether Redis answers at url; if it does, the test's own database is emptied first (see above)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        size, ours = client.dbsize(), client.exists(MARK)
        if size and not ours:
            ours = all(key.startswith(SUITES_OWN) for key in client.scan_iter(count=1000))
    except redis.RedisError:
        return False
    if size and not ours:
        raise NotOurs(f"Redis database {url} holds {size} keys the test suite did not put there; it is left "
                      f"as it was. Choose free databases with EXHIBITION_TEST_REDIS_DBS "
                      f"(default {','.join(f'{k}={v}' for k, v in DEFAULT_DBS.items())}).")
    client.flushdb()
    client.set(MARK, "1")
    return True
