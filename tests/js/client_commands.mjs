// Runs static/js/match-socket.js's MatchClient under Node with a fake WebSocket and a fake clock,
// and prints what happened to each command as JSON lines for tests/js/test_client_commands.py.
import { pathToFileURL } from "node:url";

const root = process.argv[2];
const scenario = process.argv[3];

// -- a fake clock and timers --------------------------------------------------------------------
let now = 1_000_000;
let timers = [];
let nextTimer = 1;
globalThis.setTimeout = (fn, ms) => { const id = nextTimer++; timers.push({ id, at: now + ms, fn }); return id; };
globalThis.clearTimeout = (id) => { timers = timers.filter((t) => t.id !== id); };
function advance(ms) {
  const end = now + ms;
  for (;;) {
    timers.sort((a, b) => a.at - b.at);
    const due = timers[0];
    if (!due || due.at > end) break;
    timers.shift();
    now = due.at;
    due.fn();
  }
  now = end;
}

// -- a fake socket ------------------------------------------------------------------------------
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  open() { this.readyState = 1; this.onopen?.(); }
  deliver(frame) { this.onmessage?.({ data: JSON.stringify(frame) }); }
  drop(event = { code: 1006, reason: "" }) { this.readyState = 3; this.onclose?.(event); }
  close() { this.drop(); }
}
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "hall.local" };

const { MatchClient } = await import(pathToFileURL(`${root}/static/js/match-socket.js`).href);
const ended = [];
const client = new MatchClient({ path: "/ws/m/ABC/moderate", audience: "moderator", clock: () => now,
  onEnd: (why) => ended.push(why) });
const settled = [];
const track = (name, promise) => promise.then(
  (data) => settled.push({ name, ok: true, data, at: now }),
  (err) => settled.push({ name, ok: false, code: err.code, message: err.message, at: now }));
const commands = () => sockets.flatMap((s) => s.sent).filter((f) => !["hello", "resync", "ping"].includes(f.type));
const resyncs = () => sockets.flatMap((s) => s.sent).filter((f) => f.type === "resync").length;
const marks = [];  // resyncs so far, at points a scenario marks
const welcome = (s) => { s.open(); s.deliver({ type: "welcome", data: { server_time: now } }); };

client.connect();
welcome(sockets[0]);

if (scenario === "retry_until_answered") {
  track("adjust", client.send("adjust", { team: "t0", points: 5, reason: "x", scores_seq: 0 }));
  advance(2500);  // no answer: sent again
  advance(3500);
  const last = commands().at(-1);
  sockets[0].deliver({ type: "ack", ref: last.ref, data: { seqs: [7] } });
  advance(20000);
} else if (scenario === "resent_after_reconnect") {
  track("buzz", client.send("buzz", { seen: 3, question: 0, phase: 1 }));
  sockets[0].drop();  // the connection drops before the answer
  advance(2000);  // the client reconnects by itself
  welcome(sockets[1]);
  const again = sockets[1].sent.find((f) => f.type === "buzz");
  sockets[1].deliver({ type: "ack", ref: again.ref, data: { seqs: [9] } });
} else if (scenario === "try_again_errors") {
  track("reveal", client.send("reveal", { word: 4 }));
  const first = commands()[0];
  sockets[0].deliver({ type: "error", ref: first.ref, data: { code: "slow_down", message: "Slow down." } });
  advance(2500);
  const second = commands().at(-1);
  sockets[0].deliver({ type: "error", ref: second.ref, data: { code: "stale", message: "That word is already shown." } });
} else if (scenario === "closed_for_a_bad_frame") {
  // The server closes a socket that sent a message over its bound (1009) or broken UTF-8 (1007).
  sockets[0].drop({ code: 1009, reason: "received WebSocket message size 2000000 exceeds payload limit", wasClean: true });
  advance(2000);
  welcome(sockets[1]);
  sockets[1].drop({ code: 1007, reason: "encountered invalid UTF-8 while processing text message", wasClean: true });
  advance(4000);
  welcome(sockets[2]);
} else if (scenario === "heartbeat_ahead") {
  // A heartbeat names seq 1 while its frame is still held for the play-out delay: no resync if it comes.
  sockets[0].deliver({ type: "welcome", data: { server_time: now, playout_ms: 50 } });
  sockets[0].deliver({ type: "heartbeat", data: { server_time: now, seq: 1 } });
  advance(40);
  sockets[0].deliver({ seq: 1, t: now, type: "hidden", data: {} });
  advance(5000);
  // A heartbeat names seq 3 and nothing comes: one resync, after the grace and the delay.
  sockets[0].deliver({ type: "heartbeat", data: { server_time: now, seq: 3 } });
  sockets[0].deliver({ type: "heartbeat", data: { server_time: now, seq: 3 } });
  advance(1000);
  marks.push(resyncs());
  advance(60);
  marks.push(resyncs());
} else if (scenario === "gap_caught_up_by_frames") {
  const frame = (seq, type = "hidden") => ({ seq, t: now, type, data: {} });
  sockets[0].deliver(frame(1));
  sockets[0].deliver(frame(3));  // 2 is missing: ask for what follows 1
  sockets[0].deliver(frame(4));  // still missing: asked once
  marks.push(resyncs());
  for (const seq of [2, 3, 4]) sockets[0].deliver(frame(seq));  // the answer: each missed frame
  marks.push(client.view.seq);
  sockets[0].deliver(frame(6));  // a new gap: asked again, after 4
  marks.push(resyncs());
  sockets[0].deliver(frame(5));
  sockets[0].deliver(frame(6, "undo"));  // the fold cannot rebuild what an undo restores: a snapshot
  sockets[0].deliver(frame(7));  // covered by the snapshot on its way: not folded
  marks.push(client.view.seq);
} else if (scenario === "ask_again") {
  // The ask for the missed frames is refused (the socket sent too fast): asked again, not before 5 s.
  const frame = (seq) => ({ seq, t: now, type: "hidden", data: {} });
  sockets[0].deliver(frame(1));
  sockets[0].deliver(frame(3));
  sockets[0].deliver({ type: "error", ref: null, data: { code: "slow_down", message: "Slow down." } });
  advance(1000);
  sockets[0].deliver(frame(4));
  marks.push(resyncs());
  advance(5000);
  sockets[0].deliver(frame(5));
  marks.push(resyncs());
} else if (scenario === "gives_up") {
  track("pause", client.send("pause", { reason: "tea" }));
  advance(60000);
} else if (scenario.startsWith("snapshot_in_parts")) {  // snapshot_in_parts:<a JSON file of frame texts>
  const { readFileSync } = await import("node:fs");
  for (const text of JSON.parse(readFileSync(scenario.slice("snapshot_in_parts:".length), "utf8"))) {
    sockets[0].onmessage?.({ data: text });
    marks.push(client.view.seq);
  }
  marks.push(client.view.history.map((h) => h.text).join("|"));
} else if (scenario.startsWith("closed_for_good")) {  // closed_for_good:<code>:<reason>
  const [, code, reason] = scenario.split(":");
  track("buzz", client.send("buzz", { seen: 3, question: 0, phase: 1 }));
  sockets[0].drop({ code: Number(code), reason });
  advance(60000);
}
await new Promise((resolve) => setImmediate(resolve));  // let the promises settle
const hellos = sockets.map((s) => s.sent.filter((f) => f.type === "hello").length);
console.log(JSON.stringify({ settled, commands: commands(), hellos, ended, sockets: sockets.length, marks,
  resyncs: resyncs(), seq: client.view.seq,
  asked: sockets.flatMap((s) => s.sent).filter((f) => f.type === "resync").map((f) => f.data ?? null) }));
