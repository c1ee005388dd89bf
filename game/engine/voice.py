"""Reading a question aloud, as the rules see it: the voice's word timings pace the reveal.

With the format's reveal "voice", no word of a buzz phase is shown until the conductor reports the
voice's timings for the question (command "voice_timings", from the synthesised audio: where each word
starts in it and where it ends); from then on each word stays up exactly as long as the voice takes
to say it, so the shown word follows the spoken one. Words the voice says as one unit share a start
and are shown together. The timings enter as data: the engine never synthesises, nor reads a clock.

The moderator picks the voice and its speed ("voice"), or "hand" to read aloud themself and reveal
each word with the key; the choice holds from the next question read aloud.
"""
from __future__ import annotations

from game.engine.clock import word_ms
from game.engine.rejected import Rejected
from game.engine.stages import NOT_READ_ALOUD, Stage

# espeak-ng's English voices, by language name, with the words the console shows for them.
VOICES = {"en-us": "American English", "en-gb": "British English", "en-gb-x-rp": "Received Pronunciation",
          "en-gb-scotland": "Scottish English", "en-029": "Caribbean English"}
HAND = "hand"
WPM_RANGE = (80, 400)
DEFAULT_VOICE = {"voice": "en-us", "wpm": 175}
MAX_AUDIO_MS = 180_000  # no question is read for longer (synthesis refuses longer ones first)
MAX_KEY = 64


def menu() -> dict:
    """What the console offers: the voices, the speeds and the default."""
    return {"voices": [[name, label] for name, label in VOICES.items()], "wpm": list(WPM_RANGE), "default": DEFAULT_VOICE}


def choice(state) -> dict:
    """The voice the next question is read with: the moderator's last pick, else the default."""
    return state.voice or DEFAULT_VOICE


def paced(state) -> bool:
    """Whether words come by themselves: on the reading clock, or by the voice once its timings are in."""
    reveal = state.rules["reveal"]
    return reveal == "clock" or (reveal == "voice" and state.q is not None and state.q.voice is not None)


def word_duration(state, index: int) -> int:
    """How long word `index` of the current question stays the latest word: the voice's time for it
    when the question is read aloud, else the reading clock's."""
    timings = state.q.voice
    if timings is None:
        return word_ms(state.question.words[index], state.rules)
    starts = timings["offsets"]
    end = starts[index + 1] if index + 1 < len(starts) else timings["end"]
    return end - starts[index]


def check_timings(data: dict, words: int) -> tuple[list[int], int]:
    """The offsets (ms into the audio, one per word, never decreasing) and the end, or Rejected."""
    offsets, end = data.get("offsets"), data.get("end")
    if not isinstance(offsets, list) or len(offsets) != words:
        raise Rejected(f"Voice timings give one start per word ({words}).", "bad_shape")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in [*offsets, end]):
        raise Rejected("Voice timings are whole milliseconds.", "bad_shape")
    if offsets[0] < 0 or end > MAX_AUDIO_MS or any(b < a for a, b in zip(offsets, [*offsets[1:], end])):
        raise Rejected("Voice timings must start at 0 or later, never go back, and end within the limit.", "bad_shape")
    return offsets, end


def cmd_voice_timings(out, actor, data, now, received):
    s = out.state
    q = s.q
    if s.rules["reveal"] != "voice":  # the stage table refuses them with no question in play
        raise NOT_READ_ALOUD.rejected()
    if data.get("number") != q.number or data.get("index") != q.index:
        raise Rejected("Those timings are for another question.", "stale")
    if q.voice is not None:
        raise Rejected("This question already has its timings.", "stale")
    offsets, end = check_timings(data, len(s.question.words))
    audio = data.get("audio")
    if audio is not None and (not isinstance(audio, str) or not (audio.isascii() and audio.isalnum())
                              or len(audio) > MAX_KEY):
        raise Rejected("An audio key is a short run of letters and digits.", "bad_shape")
    start = None
    if q.stage is Stage.READING and q.next_word_at is None:  # words waiting for the voice: they start now
        base = s.paused_at if s.paused and s.paused_at is not None else now
        start = base + int(s.rules["lead_in_seconds"] * 1000)
    out.emit("voice_ready", now, number=q.number, audio=audio, offsets=offsets, end=end,
             voice=data.get("voice") if data.get("voice") in (*VOICES, None) else None, next_word_at=start)


def cmd_voice(out, actor, data, now, received):
    voice, wpm = data.get("voice"), data.get("wpm", DEFAULT_VOICE["wpm"])
    if voice != HAND and voice not in VOICES:
        raise Rejected(f"Choose one of the voices ({', '.join(VOICES)}) or read by hand.", "bad_voice")
    if isinstance(wpm, bool) or not isinstance(wpm, int) or not WPM_RANGE[0] <= wpm <= WPM_RANGE[1]:
        raise Rejected(f"The voice's speed is {WPM_RANGE[0]}–{WPM_RANGE[1]} words a minute.", "bad_wpm")
    if choice(out.state) == {"voice": voice, "wpm": wpm}:
        raise Rejected("That voice and speed are already chosen.", "no_change")
    out.emit("voice_chosen", now, voice=voice, wpm=wpm)


def fold_voice_ready(s, d, t):
    q = s.q
    q.voice = {"offsets": list(d["offsets"]), "end": d["end"], "audio": d.get("audio")}
    if d.get("next_word_at") is not None:
        q.next_word_at = d["next_word_at"]


def fold_voice_chosen(s, d, t):
    s.voice = {"voice": d["voice"], "wpm": d["wpm"]}
