"""The insides of Daphne, Twisted, autobahn and channels-redis that Exhibition reads are all in two
adapters (serving/server_internals.py, serving/redis_layer.py). An upgrade of any of those
libraries fails here until the adapters are read again against it; what they read is checked
against the installed versions so a change that breaks them is named."""
from __future__ import annotations

import inspect
from functools import partial
from importlib.metadata import version

import pytest

from serving import server_internals
from serving.server_internals import CHECKED_WITH, can_write_through, daphne_protocol, unsent_bytes


@pytest.mark.parametrize("distribution", sorted(CHECKED_WITH))
def test_the_installed_version_is_the_one_the_adapters_were_read_against(distribution):
    assert version(distribution) == CHECKED_WITH[distribution], (
        f"{distribution} is {version(distribution)}, the adapters were read against {CHECKED_WITH[distribution]}: "
        f"read serving/server_internals.py and serving/redis_layer.py against it, run the Daphne and "
        f"Redis tests, then update CHECKED_WITH")


def test_requirements_pin_every_checked_library():
    from pathlib import Path

    pins = {line.split("==")[0].strip().lower(): line.split("==")[1].split()[0]
            for line in (Path(__file__).resolve().parents[1] / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    assert {name: pins.get(name) for name in CHECKED_WITH} == CHECKED_WITH


def test_daphne_hands_each_connection_its_protocol_in_send():
    import daphne.server

    source = inspect.getsource(daphne.server.Server.create_application).replace(" ", "")
    assert "send=partial(self.handle_reply,protocol)" in source


def test_the_protocol_is_found_behind_daphnes_send_and_nowhere_else():
    from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol

    protocol = WebSocketServerProtocol()
    protocol.factory = WebSocketServerFactory()
    assert daphne_protocol(partial(print, protocol)) is protocol
    assert daphne_protocol(print) is None and daphne_protocol(None) is None
    assert daphne_protocol(partial(print, object())) is None


def test_twisted_counts_what_it_still_holds_for_a_socket():
    from twisted.internet import abstract

    class Quiet(abstract.FileDescriptor):  # a descriptor with no reactor behind it: writes stay queued
        def startWriting(self):
            pass

    transport = Quiet()
    transport.connected = True
    assert unsent_bytes(transport) == 0
    transport.write(b"x" * 300)
    transport.write(b"y" * 200)
    assert unsent_bytes(transport) == 500
    assert unsent_bytes(object()) == 0  # not Twisted: nothing known to be held


def test_a_plain_connection_without_compression_is_written_through():
    from autobahn.twisted.websocket import WebSocketServerProtocol
    from autobahn.websocket.protocol import WebSocketProtocol
    from twisted.internet import abstract

    class Socket(abstract.FileDescriptor):
        TLS = False

        def getHandle(self):
            return None

    protocol = WebSocketServerProtocol()
    protocol.transport = Socket()
    # autobahn says "no compression" with None, set as each connection is made (read there, not guessed).
    assert "self._perMessageCompress = None" in inspect.getsource(WebSocketProtocol._connectionMade)
    protocol._perMessageCompress = None
    assert can_write_through(protocol)
    protocol._perMessageCompress = object()  # permessage-deflate negotiated
    assert not can_write_through(protocol)
    protocol._perMessageCompress = None
    protocol.transport.TLS = True
    assert not can_write_through(protocol)
    assert "self.send_queue = deque()" in inspect.getsource(WebSocketProtocol._connectionMade)
    from collections import deque

    protocol.send_queue = deque()
    assert not server_internals.writes_pending(protocol)
    protocol.send_queue.append(b"a frame autobahn queued")
    assert server_internals.writes_pending(protocol)


def test_channels_redis_still_has_what_the_layer_builds_on():
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:6379/0"])  # no connection is made
    for name in ("prefix", "expiry", "group_expiry", "capacity", "channel_capacity", "hosts", "brpop_timeout"):
        assert hasattr(layer, name), name
    for name, params in {"_group_key": ["group"], "_map_channel_keys_to_connection": ["channel_names", "message"],
                         "connection": ["index"], "non_local_name": ["name"], "serialize": ["message"],
                         "deserialize": ["message"], "create_pool": ["index"]}.items():
        assert list(inspect.signature(getattr(layer, name)).parameters) == params, name
    by_connection, messages, capacities = layer._map_channel_keys_to_connection(["a.b!c"], {"type": "x"})
    assert list(by_connection) == [0] and set(messages) == set(capacities) == set(by_connection[0])


def test_daphne_and_twisted_ask_the_request_about_its_body_where_the_body_limit_listens():
    """bound_request_bodies relies on: Daphne building each request from its module's WebRequest, the
    channel keeping the request line's path (_path) and telling the request the length as the headers
    end, before it answers Expect: 100-continue, and handing it the body piece by piece."""
    import daphne.http_protocol
    from twisted.web import http

    build = inspect.getsource(daphne.http_protocol.HTTPFactory.buildProtocol).replace(" ", "")
    assert "protocol.requestFactory=WebRequest" in build
    first_line = inspect.getsource(http.HTTPChannel.lineReceived).replace(" ", "")
    assert "self._path=request" in first_line
    headers_done = inspect.getsource(http.HTTPChannel.allHeadersReceived).replace(" ", "")
    assert headers_done.index("req.gotLength(self.length)") < headers_done.index("self._send100Continue()")
    chooser = inspect.getsource(http.HTTPChannel._maybeChooseTransferDecoder).replace(" ", "")
    assert chooser.count("self.requests[-1].handleContentChunk") == 2, "both the identity and the chunked decoder"


def test_the_bounded_request_is_installed_once_over_daphnes_own():
    from pathlib import Path

    import daphne.http_protocol
    from serving.request_bodies import body_limit, refusal_page

    entry = (Path(__file__).resolve().parents[1] / "exhibition" / "asgi.py").read_text()
    assert "\nbound_request_bodies(body_limit, refusal_page)" in entry, "the ASGI entry point installs it as it loads"
    server_internals.bound_request_bodies(body_limit, refusal_page)
    installed = daphne.http_protocol.WebRequest
    assert installed.bounds_bodies and installed.__mro__[1].__module__ == "daphne.http_protocol"
    server_internals.bound_request_bodies(body_limit, refusal_page)
    assert daphne.http_protocol.WebRequest is installed, "not a subclass of a subclass"
