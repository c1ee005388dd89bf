// The buzzer station's key map: which key of the keyboard, or which button of which gamepad, buzzes for
// whom. The host sets it on the station page; this browser keeps it (localStorage, per match), so a
// reload keeps it. A binding is "key:<KeyboardEvent.code>" (the physical key, whatever the layout) or
// "pad:<gamepad index>:<button index>". Its target says what a press does: {kind: "seat", seat} buzzes
// for that seated player; {kind: "bot", seat, bot} presses the buzzer of `bot`, a semi AI teammate, as
// that seated player (their own buzz_for: docs/bots.md "AI teammates").

const STORE = "exhibition.station.";
export const MAX_BINDINGS = 64;
// Keys a player cannot have: they move the focus or leave the mapping.
export const RESERVED = new Set(["Tab", "Escape", "Enter", "NumpadEnter", "F5", "MetaLeft", "MetaRight"]);

export function keyBinding(event) { return `key:${event.code}`; }
export function padBinding(pad, button) { return `pad:${pad}:${button}`; }

/** What a binding is called on the page: "key A", "gamepad 1 button 3". */
export function bindingLabel(binding) {
  const [kind, a, b] = binding.split(":");
  if (kind === "pad") return `gamepad ${Number(a) + 1} button ${Number(b) + 1}`;
  const code = a.replace(/^Key/, "").replace(/^Digit/, "").replace(/^Numpad/, "keypad ");
  return `key ${code === "Space" ? "space bar" : code}`;
}

/** Whether two targets press the same buzzer: the same player's own, or the same bot's for the same player. */
const sameTarget = (a, b) => a.seat === b.seat && (a.bot ?? null) === (b.bot ?? null);

export class KeyMap {
  constructor(code, storage = globalThis.localStorage) {
    this.key = STORE + code;
    this.storage = storage;
    this.bindings = this.load();  // binding -> target
  }

  load() {
    try {
      const data = JSON.parse(this.storage?.getItem(this.key) || "{}");
      const out = {};
      for (const [binding, target] of Object.entries(data).slice(0, MAX_BINDINGS)) {
        if (!/^(key:[A-Za-z0-9]{1,24}|pad:\d{1,2}:\d{1,2})$/.test(binding) || typeof target?.seat !== "string") continue;
        if (target.kind === "seat") out[binding] = { kind: "seat", seat: target.seat };
        else if (target.kind === "bot" && typeof target.bot === "string") out[binding] = { kind: "bot", seat: target.seat, bot: target.bot };
      }
      return out;
    } catch { return {}; }
  }

  save() { try { this.storage?.setItem(this.key, JSON.stringify(this.bindings)); } catch { /* private mode: kept for this page */ } }

  target(binding) { return this.bindings[binding] ?? null; }

  /** The bindings of a seat's player, keys first: their own buzzer's, or (bot given) the ones they press a bot's with. */
  of(seat, bot = null) {
    return Object.keys(this.bindings).filter((b) => sameTarget(this.bindings[b], { seat, bot })).sort();
  }

  /**
   * Give `binding` to `target`, replacing the target's earlier binding of the same kind (key or pad).
   * Returns null, or a sentence why not (the binding is someone else's, or reserved); nothing changes then.
   * names: seat -> the player's (or the bot's) name, for the sentence.
   */
  assign(binding, target, names = {}) {
    const owner = this.bindings[binding];
    const label = bindingLabel(binding);
    if (binding.startsWith("key:") && RESERVED.has(binding.slice(4))) {
      return `The ${label.slice(4)} key cannot buzz (it moves around the page); press another key.`;
    }
    if (owner && !sameTarget(owner, target)) {
      const name = names[owner.seat] ?? "another player";
      const what = owner.kind === "bot" ? `presses ${names[owner.bot] ?? "a bot"}'s buzzer for ${name}` : `buzzes for ${name}`;
      return `The ${label} already ${what}; press another, or clear ${name}'s first.`;
    }
    const kind = binding.split(":")[0];
    for (const other of this.of(target.seat, target.bot ?? null)) if (other.split(":")[0] === kind) delete this.bindings[other];
    if (Object.keys(this.bindings).length >= MAX_BINDINGS) return "This station has as many buzzers as it can keep.";
    this.bindings[binding] = target;
    this.save();
    return null;
  }

  /** Forget every binding of a seat's player, their bots' buzzers too. */
  clear(seat) {
    for (const [b, t] of Object.entries(this.bindings)) if (t.seat === seat) delete this.bindings[b];
    this.save();
  }

  /** Forget the bindings of seats no longer at the station. */
  keepOnly(seats) {
    const keep = new Set(seats);
    for (const [b, t] of Object.entries(this.bindings)) if (!keep.has(t.seat)) delete this.bindings[b];
    this.save();
  }
}
