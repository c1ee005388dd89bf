"""A bound on each websocket message, and a clean close for a message that breaks the rules.

Daphne fixes autobahn's options as it starts (a 1 MiB limit) and has no setting for how a bad frame
ends a connection; autobahn's default drops the TCP connection, so a 2 MB message or a text frame
that is not UTF-8 left the browser a bare 1006. No useful frame is over 4096 bytes (game/live/client_frames.py),
so each connection is set up here, before it is accepted, through the protocol behind Daphne's
`send` (serving/server_internals.py): it reads at most 64 KiB of a message, and ends with a close
frame, 1009 over that and 1007 for broken UTF-8, with autobahn's reason. Set by the application, it
holds under `daphne`, `manage.py runserver` and the tests' servers alike. See docs/wire-protocol.md.
"""
from serving.server_internals import bound_messages, daphne_protocol

MAX_MESSAGE_BYTES = 64 * 1024  # sixteen times the largest useful frame


class BoundedMessages:
    """Outermost websocket middleware: bound the messages of this connection and close it cleanly."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        protocol = daphne_protocol(send) if scope["type"] == "websocket" else None
        if protocol is not None:  # None under other servers and the test communicator
            bound_messages(protocol, MAX_MESSAGE_BYTES)
        return await self.app(scope, receive, send)
