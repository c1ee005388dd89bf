// The buzzer's sounds: a short two-tone beep made with WebAudio (no audio file) for a buzz, a falling
// one for a lockout (a team ruled out, a buzz lost: the big screen and the buzzer station), a mute
// toggle this browser remembers, and the one click browsers ask for before a page may play sound
// (until then the screen says so). It never throws: a browser without WebAudio stays silent.

const KEY = "exhibition.screen.sound";
const TONES = {  // [Hz, start in s]
  buzz: [[880, 0], [1320, 0.11]],  // up a fifth, like a quiz buzzer
  lockout: [[392, 0], [262, 0.13]],  // down, lower: out of this question
};
const TONE_S = 0.1;

export class BuzzSound {
  constructor({ button, hint }) {
    this.button = button;
    this.hint = hint;
    this.on = localStorage.getItem(KEY) !== "off";
    this.context = null;
    this.played = 0;  // beeps played (for tests and tools)
    this.playedKinds = [];  // which, in order
    const unlock = () => this.unlock();
    document.addEventListener("pointerdown", unlock, { capture: true });
    document.addEventListener("keydown", unlock, { capture: true });
    button.addEventListener("click", () => { this.toggle(); button.blur(); });
    this.unlock();  // a kiosk browser may allow sound from the start; most wait for the first click
  }

  /** Browsers let a page start its audio only from a click or a key press. */
  unlock() {
    try {
      this.context ||= new AudioContext();
      if (this.context.state === "suspended") this.context.resume().then(() => this.show(), () => {});
    } catch { this.context = null; }
    this.show();
  }

  get allowed() { return this.context?.state === "running"; }

  toggle() {
    this.on = !this.on;
    localStorage.setItem(KEY, this.on ? "on" : "off");
    this.show();
  }

  show() {
    this.button.textContent = this.on ? "sound on" : "sound off";
    this.button.setAttribute("aria-pressed", String(this.on));
    this.hint.hidden = !this.on || this.allowed;
  }

  /** A short beep ("buzz" or "lockout"), unless muted or not yet allowed; returns whether it played. */
  play(kind = "buzz") {
    if (!this.on || !this.allowed) return false;
    const now = this.context.currentTime;
    for (const [frequency, start] of TONES[kind]) {
      const tone = this.context.createOscillator();
      const gain = this.context.createGain();
      tone.type = "square";
      tone.frequency.value = frequency;
      // A quick rise and fall, so the tone starts and stops without a click.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + TONE_S);
      tone.connect(gain).connect(this.context.destination);
      tone.start(now + start);
      tone.stop(now + start + TONE_S + 0.02);
    }
    this.played += 1;
    this.playedKinds.push(kind);
    return true;
  }
}
