"""The one place Exhibition reads the insides of Daphne, Twisted and autobahn.

Two things need them. A body over its page's limit must be refused before it is read
(serving/request_bodies.py), but Twisted keeps a request's whole body (in a temporary file past
100 KB) and Daphne puts all of it in the application's queue at once before the application hears of
the request; so Daphne's request class is given a subclass that asks the limit as the headers end
and as each piece of the body arrives (bound_request_bodies). And a web process writes each
broadcast frame once per process, not once per socket (game/live/fanout.py),
which ASGI's public interface cannot do: it needs the autobahn protocol behind Daphne's `send`,
that protocol's prepared-message API, and how many bytes Twisted still holds for the socket. None of
that is public API, so all of it is here, checked against the versions named in CHECKED_WITH by
tests/test_server_internals.py: an upgrade of any of them fails that test until this module has
been read again against the new version. Without Daphne (another ASGI server) every function
here answers "not available" and the fan-out falls back to a queue per socket; the body limits then
hold only where a page checks them itself (the import page, game/web/views_import.py).

channels-redis is the other library whose insides we use; its adapter is serving/redis_layer.py
(a subclass of its layer), checked by the same test.
"""
from __future__ import annotations

import logging
from urllib.parse import unquote, urlsplit

logger = logging.getLogger(__name__)

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


# A refused body's rest is read and dropped (never kept) for this long or this much at most, so a client
# that sends it all before reading (most do, browsers included) still reads the 413; then the connection closes.
LINGER_S = 10.0
LINGER_BYTES = 64 * 1024 * 1024


def bound_request_bodies(body_limit, refusal_page) -> None:
    """From now on, Daphne answers a request whose body is over its page's limit with 413 and the
    page refusal_page(sentence, path) as soon as that is known: at the end of the headers from the
    Content-Length, or for a body sent in chunks without one as the pieces arrive; what was received
    of it is not kept. body_limit(path) gives the page's limit: its `bytes` and `refusal(found)`, the
    sentence. Daphne builds its request objects from its module's WebRequest as each connection
    opens (HTTPFactory.buildProtocol), so this is called before the server starts (exhibition/asgi.py)."""
    from daphne import http_protocol

    if not getattr(http_protocol.WebRequest, "bounds_bodies", False):
        http_protocol.WebRequest = _bounded(http_protocol.WebRequest, body_limit, refusal_page)


def _bounded(base, body_limit, refusal_page):
    class BoundedRequest(base):
        bounds_bodies = True
        refused = False
        received = 0

        def gotLength(self, length):
            """Twisted: the headers ended; length is the Content-Length, None for a chunked body."""
            if length == 0:  # no body (most requests): nothing to look up
                return super().gotLength(length)
            # The channel has read the request line (the request's own path is set once the body is in).
            self.page_path = unquote(urlsplit(self.channel._path).path.decode("ascii", "replace"))
            self.page_limit = body_limit(self.page_path)
            if length is not None and length > self.page_limit.bytes:
                return self._refuse(self.page_limit.refusal(f"{length:,} bytes"))
            super().gotLength(length)

        def handleContentChunk(self, data):
            """Twisted: a piece of the body (dechunked)."""
            self.received += len(data)
            if self.refused:
                if self.received > LINGER_BYTES:
                    self.channel.transport.abortConnection()
                return
            if self.received > self.page_limit.bytes:
                return self._refuse(self.page_limit.refusal(f"more than {self.page_limit.bytes:,} bytes"))
            super().handleContentChunk(data)

        def requestReceived(self, command, path, version):
            """Twisted: the whole body is in. A refused one was answered already: close."""
            if self.refused:
                self.channel.transport.loseConnection()
                return
            super().requestReceived(command, path, version)

        def _refuse(self, sentence: str):
            self.refused, self.received = True, 0
            if self.content is not None:  # what came of a chunked body so far
                self.content.close()
                self.content = None
            self.requestHeaders.removeHeader(b"Expect")  # a client waiting to send gets our answer, not "continue"
            page = refusal_page(sentence, self.page_path)
            self.channel.transport.write(
                b"HTTP/1.1 413 Content Too Large\r\nContent-Type: text/html; charset=utf-8\r\n"
                b"Content-Length: %d\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n%s" % (len(page), page))
            self.linger = self.channel.callLater(LINGER_S, self.channel.transport.abortConnection)
            peer = self.channel.transport.getPeer()
            logger.warning("Refused a request body to %s from %s before reading it: %s", self.page_path,
                           getattr(peer, "host", peer), sentence)

        def connectionLost(self, reason):
            if self.refused and self.linger.active():
                self.linger.cancel()
            super().connectionLost(reason)

    return BoundedRequest
