"""The conductor reads a question aloud: it makes the speech off its loop, the big screen gets the
audio's key and timings, the words are revealed at the voice's own times, the audio is served to
that match only, and a voice that fails leaves the question read silently on the clock."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from game.conductor.groups import MODERATOR, SPECTATOR, team_key
from game.speech import synthesis

pytestmark = pytest.mark.django_db(transaction=True)

MOD = {"role": "moderator"}
VOICE = {"reveal": "voice", "lead_in_seconds": 0}


async def test_the_words_come_when_the_voice_says_them(espeak, speech_dir, conductor, conduct, live_match, listen):
    match = await sync_to_async(live_match)(overrides=VOICE)
    screen, phones = await listen(match.code, SPECTATOR), await listen(match.code, team_key("t0"))
    assert (await conduct(match.code, "voice", MOD, {"voice": "en-gb", "wpm": 400}))["ok"]
    await conduct(match.code, "start", MOD)
    ready = (await screen.next("voice_ready"))["data"]
    assert ready["voice"] == "en-gb" and synthesis.audio_path(ready["audio"]) is not None
    words = [await screen.next("word_revealed") for _ in range(len(ready["offsets"]))]
    shown = [w["t"] - words[0]["t"] for w in words]
    assert shown == [at - ready["offsets"][0] for at in ready["offsets"]]  # the voice's own schedule
    # the phones learn when the first word is due, never the audio or the timings
    assert (await phones.next("voice_ready"))["data"] == {"number": 1, "next_word_at": ready["next_word_at"]}

    client = Client()  # not signed in: a phone on the public spectator page never hears ahead of the room
    assert (await sync_to_async(client.get)(f"/m/{match.code}/speech/{ready['audio']}.wav")).status_code == 404
    host = await sync_to_async(get_user_model().objects.create_user)("host", password="x", is_staff=True)
    await sync_to_async(client.force_login)(host)
    heard = await sync_to_async(client.get)(f"/m/{match.code}/speech/{ready['audio']}.wav")
    assert heard.status_code == 200 and heard["Content-Type"] == "audio/wav"
    assert b"".join(heard.streaming_content)[:4] == b"RIFF"
    other = await sync_to_async(live_match)(overrides=VOICE, title="Another")
    assert (await sync_to_async(client.get)(f"/m/{other.code}/speech/{ready['audio']}.wav")).status_code == 404


async def test_a_voice_that_fails_leaves_the_question_on_the_clock(speech_dir, conductor, conduct, live_match, listen,
                                                                  monkeypatch):
    def broken(*args):
        raise synthesis.SpeechError("espeak-ng is not installed")

    monkeypatch.setattr("game.speech.reader.synthesise", broken)
    from game.speech.reader import VoiceReader
    monkeypatch.setattr(VoiceReader.__init__, "__defaults__", (broken,))
    match = await sync_to_async(live_match)(overrides=dict(VOICE, words_per_minute=600))
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "start", MOD)
    ready = (await mod.next("voice_ready"))["data"]
    assert ready["audio"] is None and ready["offsets"][:3] == [0, 100, 200]
    assert (await mod.next("word_revealed"))["data"]["word"] == "One"


async def test_reading_by_hand_makes_no_speech(speech_dir, conductor, conduct, live_match, listen):
    match = await sync_to_async(live_match)(overrides=VOICE)
    mod = await listen(match.code, MODERATOR)
    await conduct(match.code, "voice", MOD, {"voice": "hand", "wpm": 175})
    await conduct(match.code, "start", MOD)
    await conduct(match.code, "reveal", MOD, {"word": 0})
    assert (await mod.next("word_revealed"))["data"]["next_at"] is None
    assert "voice_ready" not in [f["type"] for f in mod.frames] and not speech_dir.exists()
