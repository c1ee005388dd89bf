"""Bounded database connections: on PostgreSQL each process borrows from a pool of its own size, and
a request that finds no free connection in time is told "busy, try again" (503) with what it typed,
never a 500 (serving/busy.py)."""
import os
import threading

import pytest
from django.db import connection
from django.test import Client

from tests.conftest import need_service

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def one_connection_pool():
    """The pool cut to one connection with a short wait, then put back as it was."""
    url = os.environ.get("DATABASE_URL", "")
    need_service(url.startswith(("postgres://", "postgresql://")),
                 "these tests need DATABASE_URL=postgres://postgres@127.0.0.1:5432/exhibition (make test sets it)")
    pool = connection.settings_dict["OPTIONS"]["pool"]
    before = dict(pool)
    connection.close()
    connection.close_pool()
    pool.update(min_size=1, max_size=1, timeout=0.5)
    yield
    connection.close()
    connection.close_pool()
    pool.clear()
    pool.update(before)


def hold_the_only_connection():
    """Another thread borrows the pool's one connection and keeps it until released."""
    from django.db import connections

    taken, release = threading.Event(), threading.Event()

    def borrow():
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            taken.set()
            release.wait(20)
        connections["default"].close()

    thread = threading.Thread(target=borrow)
    thread.start()
    assert taken.wait(20)
    return release, thread


def test_production_settings_give_postgres_a_bounded_pool():
    assert connection.vendor == "postgresql"
    pool = connection.settings_dict["OPTIONS"]["pool"]
    assert pool["max_size"] >= 1 and pool["timeout"] > 0
    assert connection.settings_dict["CONN_MAX_AGE"] == 0, "the pool, not a connection kept per thread"


def test_a_request_that_finds_no_free_connection_is_told_busy_and_posts_again_with_what_was_typed(
        one_connection_pool):
    release, thread = hold_the_only_connection()
    try:
        connection.close()  # this thread gives its connection back too, as a request's start does
        response = Client(raise_request_exception=False).post("/join", {"code": "ABC123"})
        text = response.content.decode()
        assert response.status_code == 503 and response["Retry-After"] == "3"
        assert "The server is busy for a moment" in text and 'name="code" value="ABC123"' in text
        page = Client(raise_request_exception=False).get("/")
        assert page.status_code == 503 and 'href="/" data-retry-seconds="3"' in page.content.decode()
    finally:
        release.set()
        thread.join(20)
    assert Client().get("/").status_code == 200, "once a connection is free, pages answer again"
