"""The shape of frames a browser may send, checked before anything reaches the conductor.

The web layer never judges whether a command is allowed by the rules (the engine does that); it
only makes sure a frame is small, is JSON, names a known type, carries fields of the right types,
carries an id when it is a command, and is sent by an audience that may send it. Unknown fields
are dropped, so nothing a client adds (a "seat" in a buzz, say) can reach the engine.

parse() never raises anything but FrameError, whatever it is given: deep nesting, huge numbers,
lone surrogates, NUL bytes and wrong types all become an error frame with a sentence, and the
socket stays open. See docs/wire-protocol.md.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from game.engine.api import socket_commands

MAX_FRAME_BYTES = 4096  # up to serving/websocket_limits.py's bound a larger frame gets too_big; beyond it, 1009
MAX_REF = 64
MAX_STRING = 500
MAX_INT = 2**31 - 1
MAX_TIME = 2**53 - 1  # fields that are times in ms since the epoch: past 2**31, within what JSON numbers hold exactly
TIMES = frozenset({"pressed", "echo"})
COMMAND_ID = re.compile(r"[A-Za-z0-9_.:-]{8,64}")
# NUL and the other C0 controls but tab and newline; lone surrogates cannot be stored or sent on.
_BAD_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")

# The session frames any socket may send; the commands come from the engine's one table of who sends
# what. A resync with the client's last seq asks for the frames after it (a snapshot when it is far
# behind), one without it for a snapshot. A ping's "echo" is the server_time of the pong just
# received: the server measures the round trip (socket_clock.py).
SESSION = {"hello": {"last_seq": int}, "resync": {"last_seq": int}, "ping": {"echo": int}}
MODERATOR = socket_commands("moderator")
PLAYER = socket_commands("player")
KNOWN = {**SESSION, **MODERATOR, **PLAYER}
# What a moderator command was pressed for (field -> how to say it is missing): without it a double
# click or a retry could apply twice, and a stale console could rule on another buzz than it showed.
TARGETS = {
    "rule": {"answer": "the answer it rules (answer: the seq of the event that put it on the floor)"},
    "undo": {"ruling": "the ruling"},
    "override": {"ruling": "the ruling"},
    "adjust": {"scores_seq": "the scores it saw (scores_seq)"},
    "throw_out": {"question": "the question"},
    "kick": {"seat": "the seat"},
    "protest": {"ruling": "the ruling"},
    "resolve_protest": {"protest": "the protest"},
    "read_part": {"part": "the bonus part it reads (part, counted from 0)"},
}


class FrameError(Exception):
    """A frame that cannot be forwarded; code and message go back to the client in an error frame."""

    def __init__(self, code: str, message: str, ref: str | None = None):
        super().__init__(message)
        self.code, self.message, self.ref = code, message, ref


@dataclass(frozen=True)
class Frame:
    type: str
    data: dict
    ref: str | None
    id: str | None = None  # a command's id: a repeat gets the first answer


def error_frame(code: str, message: str, ref: str | None = None) -> dict:
    return {"type": "error", "ref": ref, "data": {"code": code, "message": message}}


def peek_ref(text) -> str | None:
    """The ref of a frame we will not process (rate limit), so the client can settle that command."""
    if not isinstance(text, str) or len(text) > MAX_FRAME_BYTES:
        return None
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ref = body.get("ref") if isinstance(body, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= MAX_REF and not _BAD_TEXT.search(ref) else None


def parse(text: str | None, raw: bytes | None = None) -> Frame:
    """Check one incoming websocket message and return it as a Frame, or raise FrameError."""
    if text is None:
        raise FrameError("bad_frame", "Send frames as JSON text, not binary.")
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise FrameError("too_big", f"That message is over {MAX_FRAME_BYTES} bytes; send something shorter.")
    try:
        body = json.loads(text)
    except RecursionError:
        raise FrameError("bad_json", "That message is nested too deeply; send a flat JSON object.") from None
    except ValueError:
        raise FrameError("bad_json", "That message is not valid JSON; send an object like {\"type\": \"ping\"}.") from None
    if not isinstance(body, dict):
        raise FrameError("bad_frame", "A frame must be a JSON object with a type.")
    ref = body.get("ref")
    if ref is not None and (not isinstance(ref, str) or len(ref) > MAX_REF or _BAD_TEXT.search(ref)):
        raise FrameError("bad_ref", f"ref must be plain text of at most {MAX_REF} characters.")
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in KNOWN:
        shown = kind if isinstance(kind, str) and not _BAD_TEXT.search(kind) else str(type(kind).__name__)
        raise FrameError("unknown_type", f"Unknown frame type {shown[:40]!r}; see the wire protocol for the list.", ref)
    data = body.get("data", {})
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrameError("bad_shape", "data must be a JSON object.", ref)
    command_id = None
    if kind not in SESSION:
        command_id = body.get("id")
        if not isinstance(command_id, str) or not COMMAND_ID.fullmatch(command_id):
            raise FrameError("bad_id", "Every command needs an id: 8 to 64 letters, digits or - _ . : "
                                       "(a new one per command; a retry repeats it).", ref)
    clean = _clean(kind, data, ref)
    missing = [what for name, what in TARGETS.get(kind, {}).items() if name not in clean]
    if missing:
        raise FrameError("bad_shape", f"{kind} must say what it was pressed for: {' and '.join(missing)}.", ref)
    return Frame(kind, clean, ref, command_id)


def _clean(kind: str, data: dict, ref: str | None) -> dict:
    clean = {}
    for name, expected in KNOWN[kind].items():
        if name not in data or data[name] is None:
            continue
        value = data[name]
        if isinstance(value, bool) != (expected is bool) or not isinstance(value, expected):
            what = {int: "a whole number", bool: "true or false"}.get(expected, "text")
            raise FrameError("bad_shape", f"{name} must be {what}.", ref)
        if expected is int and abs(value) > (MAX_TIME if name in TIMES else MAX_INT):
            raise FrameError("bad_shape", f"{name} is out of range.", ref)
        if expected is str:
            if len(value) > MAX_STRING:
                raise FrameError("too_long", f"{name} is too long; keep it under {MAX_STRING} characters.", ref)
            if _BAD_TEXT.search(value):
                raise FrameError("bad_text", f"{name} has characters that cannot be stored (control characters or "
                                             "broken Unicode); type it again.", ref)
        clean[name] = value
    return clean


class TokenBucket:
    """Per-socket rate limit: `burst` frames at once, refilled at `rate` per second."""

    def __init__(self, burst: float = 20, rate: float = 10, clock=time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
