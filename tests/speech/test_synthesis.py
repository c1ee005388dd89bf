"""Speech per question: a WAV and each shown word's start in it, from espeak-ng's mark events; shared
starts for words said as one unit; pronunciation guides said, never shown; limits checked first."""
from __future__ import annotations

import wave

import pytest

from game.engine.questions import split_words, spoken_words
from game.importers.parsed_rows import check_question
from game.speech import synthesis
from game.speech.synthesis import SpeechError, audio_path, offsets_from, ssml, synthesise

TUDOR = "Who was the last monarch of the House of Tudor, reigning from 1558 to 1603?"


def test_each_word_gets_its_start_in_the_audio_and_the_starts_never_go_back(espeak, speech_dir):
    speech = synthesise(TUDOR, "en-us", 175)
    words, _ = split_words(TUDOR)
    assert len(speech.offsets) == len(words)
    assert speech.offsets[0] < 200 and all(b >= a for a, b in zip(speech.offsets, speech.offsets[1:]))
    assert speech.offsets[-1] < speech.end
    with wave.open(str(audio_path(speech.key)), "rb") as wav:
        assert abs(wav.getnframes() * 1000 / wav.getframerate() - speech.end) <= 1
    # the voice says "the" with the word after it as one unit ("the last", "the House"): they share a start
    shared = [i for i in range(len(words) - 1) if speech.offsets[i] == speech.offsets[i + 1]]
    assert shared and {words[i] for i in shared} == {"the"}


def test_a_slower_voice_takes_longer_and_the_cache_answers_the_second_time(espeak, speech_dir):
    fast, slow = synthesise(TUDOR, "en-us", 300), synthesise(TUDOR, "en-us", 120)
    assert slow.end > fast.end * 1.5
    for path in speech_dir.glob("*.wav"):
        path.write_bytes(b"")  # a cached entry is read, not made again
    assert synthesise(TUDOR, "en-us", 120) == slow and audio_path(slow.key).stat().st_size == 0


def test_pronunciation_guides_are_spoken_and_not_shown(espeak, speech_dir):
    raw = 'This thinker, Nietzsche ("NEE-chuh"), wrote (*) of a prophet [in 1883].'
    question, error = check_question({"text": raw, "answer": "Zarathustra"})
    text = question["text"]
    words, power = split_words(text)
    assert words == ("This", "thinker,", "Nietzsche,", "wrote", "of", "a", "prophet", "[in", "1883].") and power == 4
    assert ("Nietzsche,", "nee chuh,") in spoken_words(text)
    assert "nee chuh," in ssml(spoken_words(text)) and "NEE" not in " ".join(words)
    with_guide, without = synthesise(text, "en-us", 175), synthesise(raw.replace(' ("NEE-chuh")', ""), "en-us", 175)
    assert len(with_guide.offsets) == len(words) and with_guide.key != without.key


def test_marks_the_voice_skipped_share_the_word_before_and_never_go_back():
    assert offsets_from({"w0": 0, "w1": 300, "w3": 250, "w4": 900}, 5) == (0, 300, 300, 300, 900)


def test_text_for_the_voice_is_escaped():
    assert ssml([("<b>&", "<b>&")]) == '<speak><mark name="w0"/>&lt;b&gt;&amp;</speak>'


@pytest.mark.parametrize("text, voice, wpm, says", [
    (TUDOR, "hand", 175, "no voice"),
    (TUDOR, "klingon", 175, "no voice"),
    (TUDOR, "en-us", 5000, "speed"),
    (TUDOR, "en-us", True, "speed"),
    ("word " * (synthesis.MAX_WORDS + 1), "en-us", 175, "words"),
    ("x" * (synthesis.MAX_CHARS + 1), "en-us", 175, "characters"),
    ("   ", "en-us", 175, "words"),
])
def test_limits_are_checked_before_any_work(text, voice, wpm, says, speech_dir, monkeypatch):
    monkeypatch.setattr(synthesis, "_run_child", lambda *a: pytest.fail("work started"))
    with pytest.raises(SpeechError, match=says):
        synthesise(text, voice, wpm)


def test_audio_that_runs_too_long_is_refused_and_not_cached(speech_dir, monkeypatch):
    def too_long(text, voice, wpm, folder):
        part = folder / "x.part"
        part.write_bytes(b"")
        return {"rate": 1000, "samples": synthesis.MAX_AUDIO_MS + 1000, "marks": {}, "wav": str(part)}

    monkeypatch.setattr(synthesis, "_run_child", too_long)
    with pytest.raises(SpeechError, match="longer"):
        synthesise(TUDOR, "en-us", 175)
    assert not list(speech_dir.iterdir())


def test_the_cache_drops_its_oldest_entries_over_its_size(tmp_path):
    for i, name in enumerate(("a", "b", "c")):
        wav = tmp_path / f"{name}.wav"
        wav.write_bytes(b"x" * 100)
        (tmp_path / f"{name}.json").write_text("{}")
        import os
        os.utime(wav, (i, i))
    synthesis._trim(tmp_path, limit=250)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json", "b.wav", "c.json", "c.wav"]


def test_a_malformed_key_never_reaches_the_file_system(speech_dir):
    for key in ("../../etc/passwd", "A" * 64, "0" * 63, None):
        assert audio_path(key) is None
