"""Read a match's live feed (broadcast/feed.py) the way a machine does: server-sent events over HTTP,
the token in the Authorization header. Used by the feed's tests and the browser test beside the hall."""
from __future__ import annotations

import json
import threading
import urllib.request


def parse_events(lines) -> list[dict]:
    """Server-sent events from text lines: [{"event", "id", "data"}] (event "message" unless named)."""
    events, current = [], {}
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            if current:
                events.append({"event": current.get("event", "message"), "id": current.get("id"), "data": current.get("data")})
            current = {}
            continue
        field, _, value = line.partition(": ")
        current[field] = value
    return events


def open_feed(url: str, token: str | None, headers: dict | None = None, method: str = "GET", timeout: float = 30):
    request = urllib.request.Request(url, method=method,
                                     headers={**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})})
    return urllib.request.urlopen(request, timeout=timeout)


class FeedReader(threading.Thread):
    """Reads a feed in the background until it ends: .events grows as they come, .ended is set at the end."""

    def __init__(self, url: str, token: str, headers: dict | None = None):
        super().__init__(daemon=True)
        self.reply = open_feed(url, token, headers)
        self.events: list[dict] = []
        self.ended = threading.Event()
        self.start()

    def run(self):
        current = []
        try:
            for raw in self.reply:
                line = raw.decode("utf-8")
                if line.strip():
                    current.append(line)
                elif current:
                    self.events.extend(parse_events([*current, ""]))
                    current = []
        except (OSError, ValueError, AttributeError):  # closed from another thread (close()) while reading
            pass
        finally:
            self.ended.set()

    def frames(self) -> dict[int, dict]:
        """seq -> the frame (parsed), for the frames that carry an id (events and snapshots)."""
        return {int(e["id"]): json.loads(e["data"]) for e in self.events if e["event"] == "message" and e["id"]}

    def close(self):
        self.reply.close()
