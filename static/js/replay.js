// The replay of a finished match: the frames one audience received (projected on the server, as they
// were live), folded by the same fold as the live screens (match-fold.js) and drawn by the same code
// as the spectator screen (screen.js). Around it: play/pause, speed, a timeline to click or drag,
// keys, jump to the next buzz, the question list, and each bot's confidence chart (uPlot).
//
// Keys: Space play/pause · ←/→ 5 s back/on · Shift+←/→ previous/next question · 1–9, 0 question 1–10 ·
// B next buzz.

import { applyFrame, applySnapshot, emptyView, seatName, teamName } from "./match-fold.js";
import { flashBuzz, keepFitted, renderScreen } from "./screen.js";
import { botLabel, correctionText, el, renderTimer, teamClass } from "./ui.js";
import { unpackFrames } from "./replay-frames.js";

const uPlot = globalThis.uPlot;  // vendor/uplot/uPlot.iife.min.js, a deferred script that runs before this module

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("page-config").textContent);
const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 5000;

async function load() {
  try {
    const response = await fetch(config.data, { credentials: "same-origin" });
    if (response.ok) return await response.json();
  } catch { /* shown below */ }
  $("phase").textContent = "The replay could not be loaded; reload the page to try again.";
  throw new Error("The replay could not be loaded.");
}
const data = await load();
const frames = unpackFrames(data.frames);
const questions = data.questions;

// Replay time: match time with the dead air between events cut to at most max_gap_ms.
const at = [];
{
  let clock = 0;
  for (let i = 0; i < frames.length; i++) {
    if (i) clock += Math.min(Math.max(0, frames[i].t - frames[i - 1].t), data.max_gap_ms);
    at.push(clock);
  }
}
const duration = at.length ? at[at.length - 1] : 0;

let view = emptyView(data.audience);
let applied = 0;  // frames[0 .. applied) are folded into view
let clock = 0;
let speed = 1;
let playing = false;
let resyncAsked = false;
const resyncer = { resync() { resyncAsked = true; } };  // the fold asks for the snapshot a live screen got

function applyNext() {
  const frame = frames[applied++];
  resyncAsked = false;
  applyFrame(view, frame, resyncer);
  if (resyncAsked && data.resync[frame.seq]) applySnapshot(view, data.resync[frame.seq]);
}

/** Fold up to (not including) frames[index]; going back starts again from the beginning. */
function foldTo(index) {
  if (index < applied) {
    view = emptyView(data.audience);
    applied = 0;
  }
  while (applied < index) applyNext();
}

function indexAt(time) {  // how many frames happened by replay time `time`
  let lo = 0, hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid] <= time) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** The match's own clock at the replay moment (for the timers on screen). */
function matchNow() {
  if (!applied) return frames[0]?.t ?? 0;
  return frames[applied - 1].t + Math.max(0, clock - at[applied - 1]);
}

function seekTo(time) {
  clock = Math.max(0, Math.min(duration, time));
  foldTo(indexAt(clock));
  draw();
}

function currentQuestion() {
  let current = null;
  for (const q of questions) if (q.start_seq <= view.seq) current = q;
  return current;
}

// -- drawing ----------------------------------------------------------------------------------

function draw() {
  renderScreen(view, { links: [[config.boxscore, "Box score"], ["/archive/", "More matches"]] });
  renderTimer($("timer"), view, matchNow());
  $("timeline").value = String(Math.round(clock));
  $("clock").textContent = `${fmt(clock)} / ${fmt(duration)}`;
  $("play").textContent = playing ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(playing));
  const current = currentQuestion();
  for (const item of $("question-list").children) item.classList.toggle("current", current !== null && Number(item.dataset.start) === current.start_seq);
  drawCharts(current);
  if (data.audience === "moderator") drawStaff(current);
}

function fmt(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// -- charts: each bot's confidence over the words of the question, against its threshold ------------

const charts = new Map();  // seat -> {plot, box}

function chartFor(seat) {
  let chart = charts.get(seat);
  if (chart) return chart;
  const box = el("figure", { class: `chart ${teamClass(view, view.seats[seat]?.team)}`, "data-seat": seat },
    el("figcaption", { text: botLabel(view.seats[seat]) }));
  $("charts").append(box);
  const width = Math.max(260, Math.min(760, $("charts").clientWidth - 24));
  const plot = new uPlot({
    width, height: 170,
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [{ label: "words read", stroke: "#555", incrs: [1, 2, 5, 10, 20, 50, 100] }, { label: "confidence", stroke: "#555", values: (u, ticks) => ticks.map((v) => `${Math.round(v * 100)}%`) }],
    legend: { show: true },
    series: [
      { label: "word" },
      { label: "confidence", stroke: "#1f5fbf", width: 2, points: { show: true, size: 5 } },
      { label: "buzz threshold", stroke: "#b25e09", dash: [6, 4], width: 2, points: { show: false } },
      { label: "bot buzz", stroke: "#127a3a", fill: "#127a3a", paths: () => null, points: { show: true, size: 11, fill: "#127a3a" } },
      { label: "human buzz", stroke: "#d4461f", fill: "#d4461f", paths: () => null, points: { show: true, size: 11, fill: "#d4461f" } },
    ],
  }, [[], [], [], [], []], box);
  chart = { plot, box };
  charts.set(seat, chart);
  return chart;
}

function drawCharts(current) {
  const bots = Object.values(view.seats).filter((s) => s.kind === "bot");
  const section = $("charts-section");
  section.hidden = !bots.length;
  if (!bots.length) return;
  const q = view.question;
  const words = q ? (q.closed ? q.words.length : q.revealed) : 0;
  const humanBuzzes = (current?.buzzes || []).filter((b) => b.seq <= view.seq && b.kind !== "bot");
  for (const seat of bots) {
    const { plot, box } = chartFor(seat.id);
    const guesses = (current?.guesses?.[seat.id] || []).filter((g) => g.seq <= view.seq);
    // One x per word; a word with several reports keeps the last one.
    const byWord = new Map();
    for (const g of guesses) byWord.set(g.word, g);
    const xs = [...new Set([0, words, ...byWord.keys(), ...humanBuzzes.map((b) => b.word)])].sort((a, b) => a - b);
    const series = [xs, [], [], [], []];
    for (const x of xs) {
      const g = byWord.get(x);
      series[1].push(g ? g.confidence : null);
      series[2].push(g && typeof g.threshold === "number" ? g.threshold : null);
      series[3].push(g && g.buzz ? g.confidence : null);
      series[4].push(humanBuzzes.some((b) => b.word === x) ? 1 : null);
    }
    plot.setData(series);
    plot.setScale("x", { min: 0, max: Math.max(1, words) });
    box.dataset.points = String(guesses.length);
    box.dataset.human = String(humanBuzzes.length);
    const names = humanBuzzes.map((b) => `${b.name} at word ${b.word}`).join(", ");
    box.querySelector("figcaption").textContent = `${botLabel(seat)}${guesses.length ? "" : " · no guesses on this question yet"}${names ? ` · human buzzes: ${names}` : ""}`;
  }
}

// -- the staff view: answer line, judge suggestions, the buzz audit --------------------------------

function drawStaff(current) {
  const box = $("staff");
  box.replaceChildren();
  if (!current) { box.append(el("p", { class: "muted", text: "No question yet." })); return; }
  const full = view.question && view.questions?.[view.question.index];
  box.append(el("p", {}, el("span", { class: "label", text: "Answer line " }), el("strong", { text: full?.answer || current.answer || "—" })));
  const suggestions = current.suggestions.filter((s) => s.seq <= view.seq);
  if (suggestions.length) {
    box.append(el("h3", { text: "Judge suggestions" }), el("ul", { class: "suggestions" }, suggestions.map((s) =>
      el("li", {}, el("q", { text: s.text || "" }), ` → ${s.verdict}`, s.reason ? el("span", { class: "muted", text: ` (${s.reason})` }) : null))));
  }
  const first = current.first_word_t;
  const rows = [...current.buzzes.map((b) => ({ ...b, outcome: b.verdict || "pending" })),
    ...current.refused.map((b) => ({ ...b, outcome: `refused: ${b.reason || b.code}` }))]
    .filter((b) => b.seq <= view.seq).sort((a, b) => (a.received ?? a.t) - (b.received ?? b.t));
  box.append(el("h3", { text: "Buzz audit" }));
  if (!rows.length) { box.append(el("p", { class: "muted", text: "No buzz on this question yet." })); return; }
  const cell = (text) => el("td", { text: text === null || text === undefined ? "—" : String(text) });
  box.append(el("table", { class: "audit" },
    el("thead", {}, el("tr", {}, ["who", "received", "pressed", "word on their screen", "word revealed", "outcome"].map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((b) => el("tr", { class: b.outcome.startsWith("refused") ? "refused" : "" },
      cell(`${b.name} (${teamName(view, b.team)})`),
      cell(b.received != null && first != null ? `+${((b.received - first) / 1000).toFixed(3)} s` : null),
      cell(b.pressed != null && first != null ? `+${((b.pressed - first) / 1000).toFixed(3)} s${b.clamp ? ` (${b.clamp})` : ""}` : null),
      cell(b.seen), cell(b.word), cell(b.outcome))))));
}

// -- the question list, the timeline and the controls -------------------------------------------

function outcome(q) {
  if (q.thrown_out) return `thrown out${q.reason ? `: ${q.reason}` : ""}`;
  if (q.end_seq === null) return "not finished";
  if (!q.result) return "dead";
  return `${teamName(view, q.result.team)} +${q.result.points}${(view.rules?.phases?.length || 1) > 1 ? ` in phase ${q.result.phase}` : ""}`;
}

function timeOfSeq(seq) { return at[Math.max(0, seq - 1)] ?? 0; }

function buildLists() {
  const marks = $("timeline-marks");
  marks.replaceChildren();
  $("question-list").replaceChildren(...questions.map((q) => {
    const start = timeOfSeq(q.start_seq);
    marks.append(el("span", { class: "mark question-mark", style: `left:${(100 * start) / (duration || 1)}%`, title: `Question ${q.number}` }));
    for (const b of q.buzzes) {
      marks.append(el("span", { class: `mark buzz-mark ${teamClass(view, b.team)}`, style: `left:${(100 * timeOfSeq(b.seq)) / (duration || 1)}%`,
        title: `${b.name} buzzed at word ${b.word}` }));
    }
    for (const p of q.protests || []) {  // a protest at its seq, and its resolution at its own
      for (const [seq, what] of [[p.seq, "filed"], [p.resolved_seq, p.outcome]]) {
        if (seq != null) marks.append(el("span", { class: "mark correction-mark protest-mark", style: `left:${(100 * timeOfSeq(seq)) / (duration || 1)}%`,
          title: `Q${q.number}: protest by ${teamName(view, p.team)} ${what}` }));
      }
    }
    const protests = (q.protests || []).map((p) => `protest ${p.outcome || "open"}`).join(", ");
    return el("li", { "data-start": q.start_seq },
      el("button", { type: "button", class: "link", onclick: () => seekTo(start) },
        el("strong", { text: `Q${q.number}${q.tiebreaker ? " (tiebreaker)" : ""}` }), " ",
        el("span", { text: outcome(q) }), " ",
        el("span", { class: "muted", text: q.buzzes.length ? `· ${q.buzzes.length} buzz${q.buzzes.length === 1 ? "" : "es"}` : "" }),
        protests ? el("span", { class: "muted", text: ` · ${protests}` }) : null));
  }));
  buildCorrections(marks);
}

// A change of score after the final whistle: a marker of its own on the timeline and a line in the list
// (its moment shows the final panel "corrected after the final").
function buildCorrections(marks) {
  const list = data.corrections || [];
  $("corrections-section").hidden = !list.length;
  $("correction-list").replaceChildren(...list.map((c) => {
    const moment = timeOfSeq(c.seq);
    const title = `Correction after the final: ${correctionText(view, c)}`;
    marks.append(el("span", { class: "mark correction-mark", style: `left:${(100 * moment) / (duration || 1)}%`, title }));
    return el("li", { "data-seq": c.seq }, el("button", { type: "button", class: "link", onclick: () => seekTo(moment) },
      el("span", { class: "pill warn", text: "correction" }), " ", correctionText(view, c), c.reason ? el("span", { class: "muted", text: ` — ${c.reason}` }) : null));
  }));
}

function nextBuzz() {
  const later = frames.findIndex((f, i) => i >= applied && f.type === "buzz");
  if (later >= 0) seekTo(at[later]);
}

function jumpQuestion(delta) {
  const current = currentQuestion();
  const index = current ? questions.indexOf(current) : -1;
  const target = questions[Math.max(0, Math.min(questions.length - 1, index + delta))];
  if (target) seekTo(timeOfSeq(target.start_seq));
}

function setPlaying(on) {
  playing = on && clock < duration;
  last = performance.now();
  draw();
  if (playing) requestAnimationFrame(step);
}

let last = 0;
function step(now) {
  if (!playing) return;
  clock = Math.min(duration, clock + (now - last) * speed);
  last = now;
  const from = applied;
  foldTo(indexAt(clock));
  // While it plays, a buzz flashes the buzzer's name as it did in the hall (not when jumping about).
  for (let i = from; i < applied; i++) flashBuzz(view, frames[i]);
  if (clock >= duration) playing = false;
  draw();
  if (playing) requestAnimationFrame(step);
}

$("play").addEventListener("click", () => setPlaying(!playing));
$("next-buzz").addEventListener("click", nextBuzz);
$("speed").replaceChildren(...SPEEDS.map((s) => el("option", { value: s, text: `${s}×`, selected: s === 1 })));
$("speed").addEventListener("change", (e) => { speed = Number(e.target.value); });
$("timeline").max = String(duration);
$("timeline").addEventListener("input", (e) => seekTo(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.id !== "timeline") return;
  if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
  else if (e.key === "ArrowRight") { e.preventDefault(); e.shiftKey ? jumpQuestion(1) : seekTo(clock + STEP_MS); }
  else if (e.key === "ArrowLeft") { e.preventDefault(); e.shiftKey ? jumpQuestion(-1) : seekTo(clock - STEP_MS); }
  else if (/^[0-9]$/.test(e.key)) {
    const number = e.key === "0" ? 10 : Number(e.key);
    const q = questions.find((x) => x.number === number && !x.thrown_out) || questions.find((x) => x.number === number);
    if (q) seekTo(timeOfSeq(q.start_seq));
  } else if (e.key.toLowerCase() === "b") nextBuzz();
});

keepFitted(() => view);

// The first frame: the match with its first question about to be read.
foldTo(frames.length ? 1 : 0);
buildLists();
const firstQuestion = frames.findIndex((f) => f.type === "question_started");
seekTo(firstQuestion >= 0 ? at[firstQuestion] : 0);
performance.mark("replay-first-frame");
document.body.dataset.ready = "1";

// For tools, tests and the benchmark: the same controls a person has.
window.exhibitionReplay = {
  seekTo, draw, duration: () => duration, moments: () => [...new Set(at)], view: () => view, play: () => setPlaying(true), pause: () => setPlaying(false),
  setSpeed: (s) => { speed = s; $("speed").value = String(s); }, speed: () => speed, clock: () => clock, seatName: (id) => seatName(view, id),
};
