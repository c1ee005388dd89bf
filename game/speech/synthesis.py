"""One question's speech: a WAV and where each shown word starts in it, made once and cached.

The voice reads the question's spoken words (pronunciation guides in place of the words they follow,
game/engine/questions.spoken_words) as SSML with a <mark name="wN"/> before each word; the child process
(espeak.py) reports each mark's position in the audio. Some short pairs ("of the") are said as one unit:
their marks share a position, and so do the words' offsets. A mark the voice skipped gets the offset of
the word before it, and offsets never go back, so the engine's checks (game/engine/voice.py) hold.

Limits are checked before any work: the words, the characters, the voice and its speed; the child
gets a time limit and a length limit for the audio, and the cache is kept under a total size, its
oldest files dropped first. Everything here blocks: the conductor calls it on a worker thread.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from game.engine.api import HAND, MAX_AUDIO_MS, spoken_words, VOICES, WPM_RANGE

MAX_WORDS = 400
MAX_CHARS = 4000
TIMEOUT_S = 20
MAX_CACHE_BYTES = 200 * 1024 * 1024
VERSION = "1"  # part of each file's key: bump it when the way speech is made changes


class SpeechError(Exception):
    """Speech could not be made; the sentence says why (the question is then read on the clock)."""


@dataclass(frozen=True)
class Speech:
    key: str  # the cache file's name without .wav: letters and digits only
    offsets: tuple[int, ...]  # ms into the audio where each shown word starts
    end: int  # ms: the audio's length

    def to_command(self, number: int, index: int, voice: str) -> dict:
        return {"number": number, "index": index, "audio": self.key, "offsets": list(self.offsets),
                "end": self.end, "voice": voice}


def cache_dir() -> Path:
    from django.conf import settings

    return Path(settings.EXHIBITION_SPEECH_DIR)


def audio_path(key: str, folder: Path | None = None) -> Path | None:
    """The WAV for a key, or None if the key is malformed or the file is not (or no longer) there."""
    if not (isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)):
        return None
    path = (folder or cache_dir()) / f"{key}.wav"
    return path if path.is_file() else None


def check_request(text: str, voice: str, wpm: int) -> list[tuple[str, str]]:
    if voice == HAND or voice not in VOICES:
        raise SpeechError(f"There is no voice {voice!r} to read with.")
    if isinstance(wpm, bool) or not isinstance(wpm, int) or not WPM_RANGE[0] <= wpm <= WPM_RANGE[1]:
        raise SpeechError(f"The voice's speed must be {WPM_RANGE[0]}–{WPM_RANGE[1]} words a minute.")
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        raise SpeechError(f"The question is longer than {MAX_CHARS} characters; it is read on the clock.")
    pairs = spoken_words(text)
    if not pairs or len(pairs) > MAX_WORDS:
        raise SpeechError(f"A question read aloud has 1 to {MAX_WORDS} words.")
    return pairs


def ssml(pairs: list[tuple[str, str]]) -> str:
    parts = [f'<mark name="w{i}"/>{escape(said)}' for i, (_, said) in enumerate(pairs)]
    return "<speak>" + " ".join(parts) + "</speak>"


def offsets_from(marks: dict, count: int) -> tuple[int, ...]:
    """One offset per word from the marks the voice reported: a missing one takes the word before's,
    and none goes back (a unit said as one shares its start)."""
    out, last = [], 0
    for i in range(count):
        at = marks.get(f"w{i}")
        last = max(last, at) if isinstance(at, int) and at >= 0 else last
        out.append(last)
    return tuple(out)


def synthesise(text: str, voice: str, wpm: int, folder: Path | None = None) -> Speech:
    """The speech for a question's text, from the cache or made now (blocking: call it off the loop)."""
    pairs = check_request(text, voice, wpm)
    folder = folder or cache_dir()
    key = hashlib.sha256(json.dumps([VERSION, voice, wpm, pairs]).encode()).hexdigest()
    wav, meta = folder / f"{key}.wav", folder / f"{key}.json"
    if wav.is_file() and meta.is_file():
        try:
            known = json.loads(meta.read_text())
            return Speech(key, tuple(known["offsets"]), known["end"])
        except (ValueError, KeyError, OSError):
            pass  # a damaged entry is made again
    folder.mkdir(parents=True, exist_ok=True)
    made = _run_child(ssml(pairs), voice, wpm, folder)
    end = int(made["samples"] * 1000 / made["rate"])
    if end > MAX_AUDIO_MS:
        os.unlink(made["wav"])
        raise SpeechError("The question takes longer to say than the limit.")
    speech = Speech(key, offsets_from(made["marks"], len(pairs)), end)
    os.replace(made["wav"], wav)
    _write_atomic(meta, json.dumps({"offsets": list(speech.offsets), "end": speech.end}))
    _trim(folder)
    return speech


def _run_child(text: str, voice: str, wpm: int, folder: Path) -> dict:
    handle, tmp = tempfile.mkstemp(suffix=".part", dir=folder)
    os.close(handle)
    request = json.dumps({"ssml": text, "voice": voice, "wpm": wpm, "wav": tmp})
    try:
        done = subprocess.run([sys.executable, "-m", "game.speech.espeak"], input=request, capture_output=True,
                              text=True, timeout=TIMEOUT_S, cwd=Path(__file__).resolve().parents[2])
        result = json.loads(done.stdout or "{}")
    except subprocess.TimeoutExpired:
        os.unlink(tmp)
        raise SpeechError(f"espeak-ng took more than {TIMEOUT_S} s.") from None
    except (OSError, ValueError) as exc:
        os.unlink(tmp)
        raise SpeechError(f"espeak-ng could not run: {exc}") from None
    if done.returncode != 0 or "error" in result or "marks" not in result:
        os.unlink(tmp)
        raise SpeechError(result.get("error") or f"espeak-ng failed: {done.stderr.strip()[-300:]}")
    return dict(result, wav=tmp)


def _write_atomic(path: Path, text: str) -> None:
    part = path.with_suffix(".json.part")
    part.write_text(text)
    os.replace(part, path)


def _trim(folder: Path, limit: int = MAX_CACHE_BYTES) -> None:
    """Drop the oldest entries until the cache is under `limit` bytes."""
    files = [(p.stat().st_mtime, p) for p in folder.glob("*.wav")]
    total = sum(p.stat().st_size for _, p in files)
    for _, path in sorted(files):
        if total <= limit:
            return
        total -= path.stat().st_size
        path.unlink(missing_ok=True)
        path.with_suffix(".json").unlink(missing_ok=True)


def wav_ms(path: Path) -> int:
    with wave.open(str(path), "rb") as w:
        return int(w.getnframes() * 1000 / w.getframerate())
