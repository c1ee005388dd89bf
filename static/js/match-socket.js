// The match socket: one connection per page, kept open, that feeds the fold (match-fold.js).
//
// The server numbers every frame (seq). We apply frames strictly in order, drop the ones we have
// already applied, and ask for the missing ones when one is missing; commands are answered through promises.

import { applyFrame, applySnapshot, emptyView } from "./match-fold.js";

/** A fresh id for a command: the server answers a repeat of it with its first answer. */
export function newCommandId() {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A command with no answer is sent again (same id) after these waits, then given up with a message.
export const RETRY_AFTER_MS = [2000, 3000, 5000, 8000, 8000, 8000, 8000];
export const GIVE_UP_AFTER_MS = 40000;
// A heartbeat names the match's last stored seq, and the frames stored just before it may still be on
// their way (the play-out delay, the channel layer). Ahead of us, it asks for the missed frames only
// if we are still behind this long after it (plus the match's play-out delay).
export const BEHIND_GRACE_MS = 1000;
// A request for the missed frames or a snapshot that got no answer in this long (refused because the
// socket sent too fast) is made again at the next sign that frames are missing.
export const ASK_AGAIN_MS = 5000;
// Refusals that mean "not now" rather than "no": the command is sent again, with the same id.
const TRY_AGAIN = new Set(["busy", "slow_down", "unavailable"]);
// Closes that reconnecting cannot mend (docs/wire-protocol.md): the page says why and stays closed.
// The server's reason, when it gives one, is shown instead of these.
export const FINAL_CLOSES = {
  4403: "This page may not open the match any more.",
  4409: "This seat is now playing on another device.",
  4410: "The moderator removed you from this seat.",
  4411: "You left this match.",
  4412: "Your seat's pass has expired. Join again with the match code to keep playing.",
};

/**
 * One websocket to the match, kept open: hello with our last seq, ordered frames, resync on a gap,
 * reconnect with backoff, and commands answered through promises.
 *
 * Every command carries an id and stays pending until its ack or error arrives: across a dropped
 * connection it is sent again on reconnect, and with no answer it is sent again after a while, each
 * time with the same id, so the server applies it once whatever happens. A command that gets no
 * answer for GIVE_UP_AFTER_MS is settled with an error saying so, never left waiting.
 */
export class MatchClient {
  constructor({ path, audience, onChange = () => {}, onStatus = () => {}, onWelcome = () => {}, onEnd = () => {},
    clock = () => Date.now() }) {
    this.path = path;
    this.view = emptyView(audience);
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.onWelcome = onWelcome;
    this.onEnd = onEnd;  // ({code, reason}) once the server closed the socket for good
    this.clock = clock;
    this.clockOffset = 0;
    this.pending = new Map();
    this.nextRef = 1;
    this.attempt = 0;
    this.resyncing = false;  // false, "frames" (the missed frames are on their way) or "snapshot"
    this.askedAt = 0;  // when we last asked for either
    this.behindTimer = null;  // a heartbeat said we are behind: the check that asks for the missed frames if we still are
    this.ws = null;
    this.closed = false;
    this.parts = null;  // a snapshot arriving in parts: {seq, texts} so far
    this.clockProbe = null;  // a ClockProbe (server-clock.js) on a page whose commands say when they were pressed
  }

  /** Server time now, in ms, corrected by the offset the welcome and heartbeats told us. */
  now() { return this.clock() + this.clockOffset; }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${this.path}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.resyncing = false;
      this.raw({ type: "hello", data: { last_seq: this.view.seq } });
    };
    ws.onmessage = (e) => {
      let frame;
      try { frame = JSON.parse(e.data); } catch { return; }
      this.receive(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      const final = FINAL_CLOSES[event?.code];
      if (final && !this.closed) {
        const reason = event.reason || final;
        this.closed = true;
        this.onStatus("ended");
        this.failPending(reason, "ended");
        this.onEnd({ code: event.code, reason });
        return;
      }
      if (this.closed) { this.onStatus("closed"); this.failPending("The page was closed before the server answered."); return; }
      this.onStatus("offline");
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  close() { this.closed = true; this.ws?.close(); }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(message)); return true; }
    return false;
  }

  /** Ask for the whole picture (a snapshot): the fold cannot go on from what it has (an undo). */
  resync() { this.ask("snapshot"); }

  /** Frames after view.seq are missing: ask for them (the server sends a snapshot when we are far behind).
   * Each is then folded like any frame, so its feed line and what the page says aloud are not lost. */
  catchUp() { this.ask(this.resyncing === "snapshot" ? "snapshot" : "frames"); }

  /** Ask for a snapshot or the missed frames once; again only if that went unanswered for ASK_AGAIN_MS. */
  ask(what) {
    const waiting = this.resyncing && this.clock() - this.askedAt < ASK_AGAIN_MS;
    if (waiting && (this.resyncing === what || this.resyncing === "snapshot")) return;
    this.resyncing = what;
    this.askedAt = this.clock();
    this.raw(what === "snapshot" ? { type: "resync" } : { type: "resync", data: { last_seq: this.view.seq } });
  }

  /** The server's last stored seq is `seq`: if we are still behind it once its frames had time to come, catch up. */
  checkBehind(seq) {
    if (seq <= this.view.seq || this.behindTimer !== null) return;
    this.behindTimer = setTimeout(() => {
      this.behindTimer = null;
      if (seq > this.view.seq && this.ws?.readyState === WebSocket.OPEN) this.catchUp();
    }, BEHIND_GRACE_MS + (this.welcome?.playout_ms ?? 0));
  }

  setClock(serverTime) { if (typeof serverTime === "number") this.clockOffset = serverTime - this.clock(); }

  receive(frame) {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        clearTimeout(this.behindTimer);  // the hello's last seq brings what we missed
        this.behindTimer = null;
        this.setClock(frame.data?.server_time);
        this.welcome = frame.data;
        this.onWelcome(frame.data);
        this.onStatus("live");
        this.clockProbe?.start();
        for (const entry of this.pending.values()) this.transmit(entry);  // the same ids: applied once
        return;
      case "snapshot_part": return this.snapshotPart(frame.data || {});
      case "snapshot":
        this.parts = null;
        this.resyncing = false;
        applySnapshot(this.view, frame.data || {});
        this.onChange(this.view, frame);
        return;
      case "roster":  // the moderator's roster: outside the event sequence, so no seq to check
        this.view.roster = frame.data || null;
        this.onChange(this.view, frame);
        return;
      case "ack": return this.settle(frame.ref, true, frame.data);
      case "error": return this.settle(frame.ref, false, frame.data);
      case "pong": this.clockProbe?.pong(frame); return;  // a page that probes the server's clock (server-clock.js)
      case "heartbeat":
        this.setClock(frame.data?.server_time);
        this.checkBehind(frame.data?.seq ?? 0);
        return;
      default:
        if (typeof frame.seq !== "number") return;
        if (frame.seq <= this.view.seq) return;  // already applied
        if (frame.seq > this.view.seq + 1) { this.catchUp(); return; }
        if (this.resyncing === "snapshot") return;  // the snapshot on its way covers this frame
        this.resyncing = false;  // in order again: the missed frames came, or the frame was only late
        applyFrame(this.view, frame, this);
        this.onChange(this.view, frame);
    }
  }

  /** A long snapshot comes in parts, in order (docs/wire-protocol.md): joined, it is the snapshot frame. */
  snapshotPart({ seq, part, parts, text }) {
    if (part === 0) this.parts = { seq, texts: [] };
    if (!this.parts || this.parts.seq !== seq || this.parts.texts.length !== part) { this.parts = null; return; }
    this.parts.texts.push(text);
    if (this.parts.texts.length < parts) return;
    const joined = this.parts.texts.join("");
    this.parts = null;
    let frame;
    try { frame = JSON.parse(joined); } catch { return; }
    if (frame?.type === "snapshot") this.receive(frame);
  }

  settle(ref, ok, data) {
    const entry = this.pending.get(ref);
    if (!ref || !entry) {
      if (!ok) this.onStatus("error", data?.message);
      return;
    }
    if (!ok && TRY_AGAIN.has(data?.code) && this.clock() - entry.started < GIVE_UP_AFTER_MS) {
      this.onStatus("retrying", data?.message);
      return;  // its timer sends it again
    }
    this.finish(entry);
    if (entry.attempts > 1 && this.ws?.readyState === WebSocket.OPEN) this.onStatus("live");
    if (ok) entry.resolve(data);
    else entry.reject(Object.assign(new Error(data?.message || "The server refused that."), { code: data?.code }));
  }

  finish(entry) {
    clearTimeout(entry.timer);
    this.pending.delete(entry.ref);
  }

  failPending(message, code = "offline") {
    for (const entry of [...this.pending.values()]) {
      this.finish(entry);
      entry.reject(Object.assign(new Error(message), { code }));
    }
  }

  transmit(entry) {
    clearTimeout(entry.timer);
    const wait = RETRY_AFTER_MS[Math.min(entry.attempts, RETRY_AFTER_MS.length - 1)];
    entry.attempts += 1;
    this.raw({ type: entry.type, data: entry.data, ref: entry.ref, id: entry.id });
    entry.timer = setTimeout(() => this.unanswered(entry), wait);
  }

  unanswered(entry) {
    if (!this.pending.has(entry.ref)) return;
    if (this.clock() - entry.started >= GIVE_UP_AFTER_MS) {
      this.finish(entry);
      entry.reject(Object.assign(new Error(
        "The game server has not answered for a while; check the connection, then try again."), { code: "timeout" }));
      return;
    }
    this.onStatus("retrying", entry.attempts === 1 ? "Waiting for the game server…" : null);
    this.transmit(entry);
  }

  /**
   * Send a command; resolves with the ack's data, rejects with an Error whose message is readable.
   * It is sent again with the same id until it is answered, so it applies exactly once.
   */
  send(type, data = {}) {
    return new Promise((resolve, reject) => {
      const entry = { type, data, ref: `c${this.nextRef++}`, id: newCommandId(), resolve, reject,
        started: this.clock(), attempts: 0, timer: null };
      this.pending.set(entry.ref, entry);
      this.transmit(entry);
    });
  }
}
