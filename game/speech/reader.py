"""The conductor's reader: makes each question's speech off the event loop and hands its timings in.

When a match reads aloud (the format's reveal "voice") and a question starts without timings, the
reader synthesises it on a worker thread (synthesis.py, which runs espeak-ng in a child process) and
puts a voice_timings command into the match's inbox, so it is decided, stored and broadcast like any
other. If speech cannot be made, the timings come from the reading clock and carry no audio: the
words still appear and the hall shows them silently; the log says why. The moderator's "hand" voice
makes nothing: the moderator reveals each word.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from itertools import accumulate

from game.engine.api import voice, word_ms

from game.speech.synthesis import SpeechError, synthesise

log = logging.getLogger(__name__)

SYSTEM = {"role": "system"}
AT_ONCE = threading.BoundedSemaphore(2)  # children speaking at the same time, across matches and loops


def clock_timings(state) -> dict:
    """Timings from the reading clock, for when no voice can be had: the same words, no audio."""
    durations = [word_ms(w, state.rules) for w in state.question.words]
    starts = [0, *accumulate(durations)]
    q = state.q
    return {"number": q.number, "index": q.index, "audio": None, "offsets": starts[:-1], "end": starts[-1]}


class VoiceReader:
    MESSAGE = "voice.ready"

    def __init__(self, host, make=synthesise):
        self.host = host
        self.make = make
        self.asked = None  # (number, index, voice, wpm) of the last speech started
        self.tasks: set[asyncio.Task] = set()

    def wanted(self):
        s = self.host.state
        if s is None or s.status != "live" or s.rules["reveal"] != "voice":
            return None
        q = s.q
        pick = voice.choice(s)
        if q is None or q.closed or q.voice is not None or pick["voice"] == voice.HAND:
            return None
        return (q.number, q.index, pick["voice"], pick["wpm"])

    def refresh(self) -> None:
        """After every message: start the current question's speech if it is due and not started."""
        about = self.wanted()
        if about is None or about == self.asked:
            return
        self.asked = about
        task = asyncio.get_running_loop().create_task(self._speak(about, self.host.state.question.text))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _speak(self, about, text: str) -> None:
        number, index, name, wpm = about
        try:
            speech = await asyncio.to_thread(self._make_one, text, name, wpm)
            data = speech.to_command(number, index, name)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a voice that fails must not stop the question
            level = logging.WARNING if isinstance(exc, SpeechError) else logging.ERROR
            log.log(level, "Match %s: question %s is read on the clock: %s", self.host.code, number, exc,
                    exc_info=not isinstance(exc, SpeechError))
            data = None
        if self.wanted() != about:
            return  # the question moved on, or the moderator chose another voice (refresh starts that one)
        data = data or clock_timings(self.host.state)
        self.host.put({"type": self.MESSAGE, "command": {"type": "voice_timings", "actor": SYSTEM, "data": data}})

    def _make_one(self, text: str, name: str, wpm: int):
        with AT_ONCE:
            return self.make(text, name, wpm)

    async def handle(self, message: dict) -> None:
        await self.host.execute(message["command"])  # refused as stale if the question moved on meanwhile

    def cancel(self) -> None:
        for task in list(self.tasks):
            task.cancel()
