"""The one place Exhibition reads the insides of Daphne, Twisted and autobahn.

A web process writes each broadcast frame once per process, not once per socket (game/live/fanout.py),
which ASGI's public interface cannot do: it needs the autobahn protocol behind Daphne's `send`,
that protocol's prepared-message API, and how many bytes Twisted still holds for the socket. None of
that is public API, so all of it is here, checked against the versions named in CHECKED_WITH by
tests/test_server_internals.py: an upgrade of any of them fails that test until this module has
been read again against the new version. Without Daphne (another ASGI server) every function
here answers "not available" and the fan-out falls back to a queue per socket.

channels-redis is the other library whose insides we use; its adapter is serving/redis_layer.py
(a subclass of its layer), checked by the same test.
"""
from __future__ import annotations

# The versions this module (and serving/redis_layer.py) was last read against; pinned in requirements.txt.
CHECKED_WITH = {"daphne": "4.2.3", "twisted": "26.10.0", "autobahn": "26.10.2", "channels-redis": "4.3.0"}


def daphne_protocol(send):
    """The autobahn protocol behind Daphne's ASGI `send` (Daphne passes partial(handle_reply, protocol)),
    or None when the server is not Daphne."""
    protocol = (getattr(send, "args", None) or (None,))[0]
    return protocol if hasattr(protocol, "sendPreparedMessage") and hasattr(protocol, "factory") else None


def bound_messages(protocol, max_bytes: int) -> None:
    """Make this connection read at most max_bytes of a message and end a bad one with a close frame
    saying why (autobahn's options, which Daphne fixes for the whole server as it starts)."""
    protocol.maxMessagePayloadSize = protocol.maxFramePayloadSize = max_bytes
    protocol.failByDrop = False


def unsent_bytes(transport) -> int:
    """Bytes Twisted holds for a socket that the peer has not taken yet (its send buffer in user space)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except AttributeError:
        return 0


def can_write_through(protocol) -> bool:
    """Whether prepared frames may go straight to the socket: a plain TCP connection (not TLS, where
    the bytes must go through Twisted) with no per-message compression negotiated."""
    transport = protocol.transport
    return (getattr(protocol, "_perMessageCompress", None) is None and hasattr(transport, "getHandle")
            and not getattr(transport, "TLS", False) and hasattr(transport, "_tempDataLen"))


def writes_pending(protocol) -> bool:
    """Whether autobahn still queues frames of its own for this socket (they go out before ours)."""
    return bool(protocol.send_queue)
