// Runs static/js/server-clock.js under Node on a simulated link (a fake clock, a server whose clock is
// OFFSET ms ahead of the page's, each message delayed as listed) and prints, as one JSON line for
// tests/js/test_server_clock.py, what the probe sent and what the page concluded.
import { pathToFileURL } from "node:url";

const root = process.argv[2];
const { ClockProbe, ServerClock, SAMPLES } = await import(pathToFileURL(`${root}/static/js/server-clock.js`).href);

const OFFSET = 123456;
let now = 5000;  // the page's clock
globalThis.setInterval = () => 1;
globalThis.clearInterval = () => {};
// One-way delays in ms, up then down, per ping in order: probe 3 is the quick one (20 ms round trip).
const delays = [[80, 90], [85, 85], [60, 70], [70, 60], [10, 10], [12, 10], [150, 30], [30, 150], [90, 90], [90, 90]];
const sent = [];
let probe;
const send = (frame) => {
  sent.push(frame);
  const [up, down] = delays[(sent.length - 1) % delays.length];
  const serverTime = now + up + OFFSET;
  now += up + down;
  queueMicrotask(() => probe.pong({ type: "pong", ref: frame.ref, data: { server_time: serverTime } }));
  return true;
};
probe = new ClockProbe(send, new ServerClock(() => now));
const before = probe.clock.now();
for (let i = 0; i < 5; i++) {
  probe.probe();
  await new Promise((r) => setTimeout(r, 0));
  now += 3000;
}
const best = probe.clock.best();
console.log(JSON.stringify({ before, sent, samples: probe.clock.samples.length, max: SAMPLES, best,
  error: probe.clock.now() - (now + OFFSET),
  // A press 20 ms before now (a key's event time, a gamepad's timestamp), in server time.
  earlier: probe.clock.now() - probe.clock.at(now - 20) }));
