"""The embedded default: with no REDIS_URL the web process runs the conductor itself, on its own thread.

The conductor gets an event loop of its own in a thread of its own, so the game clock never waits
for the web loop: a thousand sockets to write to (or a slow page) cannot make a word late or a
buzz arrive after the question closed. The two loops talk through the in-process channel layer
(serving/local_layer.py), which is safe across threads. It starts the first time any HTTP
request or websocket arrives (Daphne has no startup hook); ConductorStarter wraps the ASGI
application to do that. At exit it stops cleanly and gives its leases back. With REDIS_URL set,
`manage.py conduct` runs the conductor instead and nothing starts here.
"""
from __future__ import annotations

import asyncio
import atexit
import logging
import sys
import threading

from django.conf import settings

from game.conductor.core import Conductor
from game.conductor.threadname import name_this_thread

log = logging.getLogger(__name__)

SWITCH_INTERVAL_S = 0.001  # how long a thread may hold the GIL while the other waits (CPython's default: 5 ms)
_lock = threading.Lock()
_running: dict = {"thread": None, "conductor": None, "loop": None, "task": None}


def embedded_enabled() -> bool:
    return settings.EXHIBITION_EMBEDDED_CONDUCTOR


def ensure_started() -> Conductor:
    """Start the conductor on its own thread unless it already runs."""
    with _lock:
        thread = _running["thread"]
        if thread is not None and thread.is_alive():
            return _running["conductor"]
        sys.setswitchinterval(SWITCH_INTERVAL_S)  # the clock thread gets the GIL back within a millisecond
        conductor = Conductor()
        started = threading.Event()
        thread = threading.Thread(target=_run, args=(conductor, started), name="conductor", daemon=True)
        _running.update(thread=thread, conductor=conductor)
        thread.start()
    started.wait(10)
    log.info("Started the embedded conductor on its own thread.")
    return conductor


def _run(conductor: Conductor, started: threading.Event) -> None:
    name_this_thread("conductor")
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    task = loop.create_task(conductor.run(), name="conductor")
    _running.update(loop=loop, task=task)
    started.set()
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        pass
    except Exception:
        log.exception("The embedded conductor stopped with an error")
    finally:
        loop.close()


def stop(timeout: float = 10) -> None:
    """Stop the embedded conductor (it gives its leases back) and wait for its thread."""
    with _lock:
        thread, loop, task = _running["thread"], _running["loop"], _running["task"]
        _running.update(thread=None, conductor=None, loop=None, task=None)
    if thread is None or not thread.is_alive():
        return
    if loop is not None and task is not None and not loop.is_closed():
        loop.call_soon_threadsafe(task.cancel)
    thread.join(timeout)


atexit.register(stop)


class ConductorStarter:
    """ASGI middleware: make sure the embedded conductor runs before serving anything."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await self.app(scope, receive, send)
