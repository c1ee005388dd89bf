// The console's "Reading aloud" card: the moderator picks the hall's voice and its speed, or reads by
// hand (then the Reveal word key shows each word). Shown only when the format reads aloud (reveal
// "voice"); the choice holds from the next question the voice reads (game/engine/voice.py).

const $ = (id) => document.getElementById(id);
const HAND = "hand";

export class VoicePicker {
  constructor({ config, command }) {
    this.menu = config.voice;
    this.form = $("voice-form");
    this.filled = false;
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const voice = this.form.elements.voice.value;
      const wpm = Number(this.form.elements.wpm.value);
      command("voice", { voice, wpm }).catch(() => {});
    });
  }

  fill(current) {
    const select = this.form.elements.voice;
    for (const [name, label] of [...this.menu.voices, [HAND, "Read by hand (no voice)"]]) {
      select.append(new Option(label, name));
    }
    const wpm = this.form.elements.wpm;
    [wpm.min, wpm.max] = this.menu.wpm;
    select.value = current.voice;
    wpm.value = current.wpm;
    this.filled = true;
  }

  render(view) {
    const panel = $("voice-panel");
    panel.hidden = view.rules?.reveal !== "voice" || !this.menu;
    if (panel.hidden) return;
    const current = view.voice || this.menu.default;
    if (!this.filled) this.fill(current);
    const label = Object.fromEntries(this.menu.voices)[current.voice];
    $("voice-now").textContent = current.voice === HAND ? "Now: you read aloud; press Space for each word."
      : `Now: ${label} at ${current.wpm} words a minute.`;
  }
}
