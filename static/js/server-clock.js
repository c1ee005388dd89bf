/**
 * The server's clock as this page can know it, so a buzz can say when it was pressed in server time.
 *
 * A probe is a ping and its pong: the round trip is the time between them, and the server's time
 * was read about halfway, so offset = server_time - (sent + got) / 2. The sample with the least round
 * trip among the last SAMPLES is the one least disturbed by queueing, and its offset is used. Right
 * after each pong the page pings again with that pong's server_time as `echo`: the server measures
 * the round trip itself from that (game/live/socket_clock.py), and only believes a press time within it.
 */
export const SAMPLES = 8;
export const PROBE_EVERY_MS = 3000;

export class ServerClock {
  constructor(clock = () => performance.now()) {
    this.clock = clock;
    this.samples = [];
  }

  add(sent, serverTime, got) {
    if (typeof serverTime !== "number" || got < sent) return;
    this.samples.push({ rtt: got - sent, offset: serverTime - (sent + got) / 2 });
    if (this.samples.length > SAMPLES) this.samples.shift();
  }

  best() {
    let best = null;
    for (const s of this.samples) if (!best || s.rtt < best.rtt) best = s;
    return best;
  }

  /** Server time now (whole ms), or null before the first sample. */
  now() { return this.at(this.clock()); }

  /** Server time (whole ms) at `local`, a moment on this page's clock (performance.now()'s, as an event's
   * timeStamp and a gamepad's timestamp are), or null before the first sample. */
  at(local) {
    const best = this.best();
    return best ? Math.round(local + best.offset) : null;
  }
}

/** Keeps a ServerClock fed through a MatchClient's socket: a probe on connect and every PROBE_EVERY_MS. */
export class ClockProbe {
  constructor(send, clock = new ServerClock()) {
    this.send = send;  // (frame) => boolean, the socket's raw send
    this.clock = clock;
    this.pending = null;
    this.timer = null;
    this.count = 0;
  }

  start() {
    clearInterval(this.timer);
    this.probe();
    this.timer = setInterval(() => this.probe(), PROBE_EVERY_MS);
  }

  stop() { clearInterval(this.timer); this.pending = null; }

  probe(echo = undefined) {
    this.pending = { ref: `clock${++this.count}`, sent: this.clock.clock(), echoing: echo !== undefined };
    const data = echo === undefined ? {} : { echo };
    if (!this.send({ type: "ping", ref: this.pending.ref, data })) this.pending = null;
  }

  /** A pong: a sample for us; if it answered a first ping, ping again at once echoing it (the server's sample). */
  pong(frame) {
    const p = this.pending;
    if (!p || frame.ref !== p.ref) return;
    this.pending = null;
    this.clock.add(p.sent, frame.data?.server_time, this.clock.clock());
    if (!p.echoing && typeof frame.data?.server_time === "number") this.probe(frame.data.server_time);
  }
}
