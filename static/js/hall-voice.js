// The big screen reads the question aloud: it plays the question's audio (made on the server by
// espeak-ng, game/speech/) in step with the words. The server reveals each word at the time the voice
// says it, so the screen starts the audio at the first revealed word and, at every later word, checks
// that the audio is where that word starts, give or take the time since the server revealed it; past
// a small tolerance it jumps there. A buzz, a pause or the question's end stops it; after a wrong
// answer the next revealed word starts it again from that word. Muted with the buzzer sound's toggle;
// the words still appear when the sound is off or not yet allowed.
//
// Every reveal is logged with where the audio was (window.exhibitionScreen.voice.log): bench/speech.py
// measures the drift between the spoken and the shown word from it.

const TOLERANCE_S = 0.06;  // re-align the audio when it is further than this from the word shown
const LOG_KEPT = 20000;  // a whole packet of tossups, for bench/speech.py

export class HallVoice {
  constructor({ sound, code, now, playout = () => 0 }) {
    this.sound = sound;  // the BuzzSound: its AudioContext, its on/off toggle and its unlock
    this.code = code;
    this.now = now;  // the server's clock as this page estimates it (ms)
    this.playout = playout;  // ms from a frame's stamp to when the web process writes it (welcome's playout_ms)
    this.buffers = new Map();  // audio key -> Promise<AudioBuffer | null>
    this.source = null;
    this.playing = null;  // {key, at: context time it started, from: s into the audio}
    this.log = [];
  }

  /** After each frame: start, re-align or stop the audio for the question in view. */
  update(view, frame) {
    const q = view.question;
    const key = q?.voice?.audio;
    if (key && !this.buffers.has(key)) this.buffers.set(key, this.load(key));
    const reading = key && !q.closed && !q.answer_shown && q.mode === "buzz" && !q.possession && !view.paused;
    if (!reading || (this.playing && this.playing.key !== key)) this.stop();
    if (!reading || frame?.type !== "word_revealed") return;
    const index = frame.data.index;
    // The word was shown this long ago: every screen shows it the play-out delay after its stamp.
    const since = Math.max(0, this.now() - frame.t - this.playout()) / 1000;
    const want = q.voice.offsets[index] / 1000 + since;
    const at = this.position();
    this.log.push({ key, index, word_s: q.voice.offsets[index] / 1000, since_s: since, audio_s: at });
    if (this.log.length > LOG_KEPT) this.log.shift();
    if (at === null || Math.abs(at - want) > TOLERANCE_S) this.buffers.get(key).then((buffer) => this.play(key, buffer, want));
  }

  async load(key) {
    try {
      const response = await fetch(`/m/${encodeURIComponent(this.code)}/speech/${encodeURIComponent(key)}.wav`);
      if (!response.ok || !this.sound.context) return null;
      return await this.sound.context.decodeAudioData(await response.arrayBuffer());
    } catch {
      return null;  // no audio: the words still appear
    }
  }

  /** Seconds into the question's audio being heard now, or null when nothing plays. */
  position() {
    const context = this.sound.context;
    if (!this.playing || !context) return null;
    return context.currentTime - this.playing.at + this.playing.from - (context.outputLatency || 0);
  }

  play(key, buffer, from) {
    const context = this.sound.context;
    if (!buffer || !context || !this.sound.on || !this.sound.allowed || from >= buffer.duration) return;
    this.stop();
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const at = context.currentTime;
    source.start(at, from + (context.outputLatency || 0));
    source.onended = () => { if (this.source === source) this.stop(); };
    this.source = source;
    this.playing = { key, at, from: from + (context.outputLatency || 0) };
  }

  stop() {
    if (this.source) {
      try { this.source.stop(); } catch { /* already stopped */ }
    }
    this.source = null;
    this.playing = null;
  }
}
