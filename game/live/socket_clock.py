"""What the server itself measures of one player's socket, so a buzz's claimed press time can be checked.

A phone says when it pressed (in server time, by its own estimate); the engine believes that only
within bounds the server measured (game/engine/buzzrace.py):

- the round trip: each ping that echoes the server_time of the pong just sent on this socket is one
  sample (now - that time). A phone can only make it longer by waiting to echo, never shorter, and
  the engine caps the window by the match's buzz_grace_ms anyway. The median of the last SAMPLES;
- when each word of the question in play was written to this socket (and when the socket last
  caught up: a word it got in a catch-up reached it no earlier than that), so a claim to have
  pressed before the word it names was even sent is caught.
"""
from __future__ import annotations

import collections
import json
import statistics

SAMPLES = 8
_WORD, _QUESTION = '"word_revealed"', '"question_started"'


class SocketClock:
    def __init__(self):
        self.samples: collections.deque[int] = collections.deque(maxlen=SAMPLES)
        self.pong_at: int | None = None  # server_time of the last pong, until it is echoed
        self.words: dict[int, int] = {}  # words revealed (1-based count; 0: the question started) -> written at
        self.caught_up_at: int | None = None

    # -- the round trip ---------------------------------------------------------------------------

    def pong(self, now: int, echo) -> None:
        """A ping came in at `now` (echoing `echo`) and is answered with server_time `now`."""
        if echo is not None and echo == self.pong_at and now >= echo:
            self.samples.append(now - echo)
        self.pong_at = now

    def rtt(self) -> int | None:
        return int(statistics.median(self.samples)) if self.samples else None

    # -- the words ----------------------------------------------------------------------------------

    def caught_up(self, now: int) -> None:
        """The socket is being sent the match from the log (hello, resync): what it knows dates from now."""
        self.caught_up_at, self.words = now, {}

    def written(self, frames: list, now: int) -> None:
        """Event frames ([seq, text]) written to the socket at `now`: note a new question and each word."""
        for _seq, text in frames:
            if _WORD not in text and _QUESTION not in text:
                continue  # the cheap test first: most frames are neither
            frame = json.loads(text)
            if frame.get("type") == "question_started":
                self.words = {0: now}
            elif frame.get("type") == "word_revealed":
                index = (frame.get("data") or {}).get("index")
                if isinstance(index, int):
                    self.words[index + 1] = now

    def seen_at(self, seen) -> int | None:
        """When word `seen` (a count) was written to this socket: a word it got live, or one that came in
        its last catch-up; None for a word beyond any it was sent."""
        if not isinstance(seen, int) or isinstance(seen, bool):
            return None
        if seen in self.words:
            return self.words[seen]
        if self.words and seen > max(self.words):
            return None
        return self.caught_up_at

    def measured(self, seen) -> dict:
        return {"rtt": self.rtt(), "seen_at": self.seen_at(seen)}
