"""Speak one text with libespeak-ng and report where each marked word starts in the audio.

It runs in a child process (python -m game.speech.espeak), never inside the server: the library keeps
global state, is not thread-safe and is C code reading our input, so a crash or a hang costs only the
child, which the parent times out (synthesis.py). Standard library only.

Input on stdin, one JSON object: {"ssml", "voice", "wpm", "wav"}; "ssml" has <mark name="wN"/> before
each word. It writes a 16-bit mono WAV to "wav" and prints {"rate", "samples", "marks": {name: ms}}:
the library's mark events carry each mark's position in the audio (ms). Words the voice says as one
unit (it joins some short pairs) give their marks the same position.
"""
from __future__ import annotations

import ctypes
import json
import sys
import wave

AUDIO_OUTPUT_SYNCHRONOUS = 2
espeakCHARS_UTF8, espeakSSML = 1, 0x10
EVENT_LIST_TERMINATED, EVENT_MARK = 0, 3
MAX_SAMPLES = 22050 * 180  # three minutes at the voices' rate: the parent asks far less


class _Id(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", _Id)]


class _Voice(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("languages", ctypes.c_char_p), ("identifier", ctypes.c_char_p),
                ("gender", ctypes.c_ubyte), ("age", ctypes.c_ubyte), ("variant", ctypes.c_ubyte),
                ("xx1", ctypes.c_ubyte), ("score", ctypes.c_int), ("spare", ctypes.c_void_p)]


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


def speak(ssml: str, voice: str, wpm: int, wav_path: str) -> dict:
    lib = ctypes.CDLL("libespeak-ng.so.1")
    rate = lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, None, 0)
    if rate <= 0:
        raise RuntimeError("espeak-ng did not start (its data files may be missing).")
    wanted = _Voice(languages=voice.encode())  # by language: "en-gb" is a language, not a voice's name
    if lib.espeak_SetVoiceByProperties(ctypes.byref(wanted)) != 0:
        raise RuntimeError(f"espeak-ng has no voice {voice!r}.")
    lib.espeak_SetParameter(1, int(wpm), 0)  # espeakRATE, absolute
    chunks: list[bytes] = []
    marks: dict[str, int] = {}
    total = [0]

    def on_audio(samples, count, events):
        if count > 0 and samples:
            total[0] += count
            if total[0] > MAX_SAMPLES:
                return 1  # stop: longer than any question may take
            chunks.append(ctypes.string_at(samples, count * 2))
        i = 0
        while events[i].type != EVENT_LIST_TERMINATED:
            event = events[i]
            if event.type == EVENT_MARK and event.id.name:
                marks.setdefault(event.id.name.decode(), event.audio_position)
            i += 1
        return 0

    callback = _CALLBACK(on_audio)
    lib.espeak_SetSynthCallback(callback)
    data = ssml.encode()
    lib.espeak_Synth.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                 ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
    if lib.espeak_Synth(data, len(data) + 1, 0, 1, 0, espeakCHARS_UTF8 | espeakSSML, None, None) != 0:
        raise RuntimeError("espeak-ng refused the text.")
    lib.espeak_Synchronize()
    if total[0] > MAX_SAMPLES:
        raise RuntimeError("The spoken question is longer than the limit.")
    with wave.open(wav_path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(chunks))
    return {"rate": rate, "samples": total[0], "marks": marks}


def main() -> int:
    request = json.loads(sys.stdin.read(1_000_000))
    try:
        result = speak(request["ssml"], request["voice"], request["wpm"], request["wav"])
    except RuntimeError as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
