"""The suite's Redis databases: configurable, and never emptied while they hold someone else's keys."""
import pytest

from tests.conftest import need_service
from tests.redis_dbs import MARK, NotOurs, fresh_redis, redis_url

pytestmark = pytest.mark.integration


def test_each_kind_of_test_has_a_database_the_environment_can_move(monkeypatch):
    monkeypatch.delenv("EXHIBITION_TEST_REDIS_DBS", raising=False)
    monkeypatch.delenv("EXHIBITION_TEST_REDIS", raising=False)
    assert redis_url("faults") == "redis://127.0.0.1:6379/10"  # the defaults, as docs/development.md says
    monkeypatch.setenv("EXHIBITION_TEST_REDIS_DBS", "faults=3,bots=4")
    monkeypatch.setenv("EXHIBITION_TEST_REDIS", "redis://cache.local:6380")
    assert (redis_url("faults"), redis_url("bots"), redis_url("compose")) == \
        ("redis://cache.local:6380/3", "redis://cache.local:6380/4", "redis://cache.local:6380/12")
    monkeypatch.setenv("EXHIBITION_TEST_REDIS_DBS", "faults=three")
    with pytest.raises(ValueError, match="faults=N"):
        redis_url("faults")


def test_a_database_holding_someone_elses_keys_is_left_as_it_was():
    import redis

    url = redis_url("guard")  # stands in for a developer's own database
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError:
        need_service(False, "Redis is not reachable at 127.0.0.1:6379 (start redis-server)")
    if client.dbsize() and not client.exists(MARK):
        pytest.fail(f"{url} holds data; this test needs it empty to stand in for yours (EXHIBITION_TEST_REDIS_DBS)")
    client.flushdb()
    try:
        client.set("my:own:work", "precious")
        with pytest.raises(NotOurs, match="holds 1 keys the test suite did not put there"):
            fresh_redis(url)
        assert client.get("my:own:work") == b"precious"
        client.delete("my:own:work")
        assert fresh_redis(url) and client.exists(MARK)  # empty: now the suite's, marked
        client.set("left:by:a:test", "1")
        assert fresh_redis(url) and not client.exists("left:by:a:test")  # the suite's own: emptied
    finally:
        client.flushdb()
