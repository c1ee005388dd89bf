"""The conductor's reader hands in the timings of the question and voice it was asked for, never stale
ones: speech that finishes after the moderator switched to reading by hand, or after the question
moved on, is dropped."""
from __future__ import annotations

import asyncio
import threading

from game.speech.reader import VoiceReader
from game.speech.synthesis import Speech
from tests.engine.support import MOD, Match, question


class Host:
    def __init__(self, match: Match):
        self.match, self.code, self.put_messages = match, "TEST01", []

    @property
    def state(self):
        return self.match.state

    def put(self, message):
        self.put_messages.append(message)


def voice_match() -> Match:
    m = Match("quizbowl", {"questions": 1, "reveal": "voice"}, questions=[question("One two three."), question("Four.", qid="r")])
    m.start(at=0)
    return m


async def test_speech_is_handed_in_for_the_question_it_was_made_for():
    m = voice_match()
    host = Host(m)
    reader = VoiceReader(host, make=lambda text, voice, wpm: Speech("abc", (0, 200, 400), 700))
    reader.refresh()
    reader.refresh()  # asked once only
    await asyncio.gather(*reader.tasks)
    [message] = host.put_messages
    assert message["command"]["data"] == {"number": 1, "index": 0, "audio": "abc", "offsets": [0, 200, 400],
                                          "end": 700, "voice": "en-us"}


async def test_speech_finished_after_the_moderator_chose_to_read_by_hand_is_dropped():
    m = voice_match()
    host = Host(m)
    release = threading.Event()

    def slow(text, voice, wpm):
        release.wait(10)
        return Speech("abc", (0, 200, 400), 700)

    reader = VoiceReader(host, make=slow)
    reader.refresh()
    m.send("voice", MOD, {"voice": "hand", "wpm": 175})
    release.set()
    await asyncio.gather(*reader.tasks)
    assert host.put_messages == []
