// The broadcast overlay (docs/broadcast.md): an OBS browser source drawn from the hall's own spectator
// socket and fold (match-socket.js, match-fold.js), so it shows exactly what the hall's screen may show.
// A lower third: each team's score, the question as read (its last two lines), and the latest thing that
// happened (a buzz, an answer, a ruling, the answer at the close). Every text goes in as text, never markup.

import { MatchClient } from "./match-socket.js";
import { phaseText, statusText, teamClass, el } from "./ui.js";

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("page-config").textContent);
const VERDICT = { accept: "correct", reject: "wrong", prompt: "prompt" };
const SHOWN = new Set(["buzz", "answer", "ruling", "closed", "pass", "info"]);  // feed lines the overlay tells

const said = (text) => el("span", { class: "said", text: `“${text}”` });  // in the text itself: a stream's capture shows what it reads

/** The sentence for the latest feed line the overlay tells, as nodes; null when there is none. */
export function happening(view) {
  const f = [...view.feed].reverse().find((item) => SHOWN.has(item.kind));
  if (!f) return null;
  if (f.kind === "ruling") {
    const points = f.points ? ` ${f.points > 0 ? "+" : ""}${f.points}` : "";
    return [el("span", { class: "who", text: f.who }), " ", said(f.text), " ",
      el("span", { class: `verdict ${f.verdict}`, text: (VERDICT[f.verdict] || f.verdict) + points })];
  }
  if (f.kind === "answer") {
    return [el("span", { class: "who", text: f.who }), f.text == null ? " has answered" : " answers ", f.text == null ? null : said(f.text)];
  }
  if (f.kind === "closed") return ["Answer: ", el("strong", { class: "answer", text: f.text || "" })];
  return [f.text];
}

function drawScores(view) {
  const q = view.question;
  const buzzing = q && !q.closed ? q.possession?.team ?? null : null;  // the side that holds the floor after a buzz
  $("scores").replaceChildren(...view.teams.map((t) => el("div", {
    class: `overlay-score ${teamClass(view, t.id)}${t.id === buzzing ? " buzzed" : ""}`, "data-team": t.id,
  }, el("span", { class: "team-name", title: t.name, text: t.name }), el("span", { class: "points", text: String(view.scores[t.id] ?? 0) }))));
}

function drawQuestion(view) {
  const box = $("question");
  const q = view.question;
  box.className = "overlay-words";
  if (!q || q.bonus) {
    box.classList.add("waiting");
    box.textContent = q?.bonus ? phaseText(view) : view.status === "finished" ? "" : "Waiting for the next question";
    return;
  }
  const count = q.closed ? q.words.length : Math.min(q.revealed, q.words.length);
  const current = !q.closed && q.mode === "buzz" ? q.revealed - 1 : -1;
  const buzzedAt = new Set(view.buzzes.filter((b) => b.word > 0).map((b) => b.word - 1));
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push(el("span", { class: `word${i === current ? " current" : ""}`, text: q.words[i] }), " ");
    if (buzzedAt.has(i)) parts.push(el("span", { class: "buzz-mark", title: "buzz", text: "◆" }), " ");
  }
  box.replaceChildren(...parts);
}

function draw(view) {
  $("phase").textContent = view.paused ? `${phaseText(view)} · paused` : phaseText(view);
  drawScores(view);
  drawQuestion(view);
  const line = happening(view);
  $("happening").replaceChildren(...(line || []));
  $("happening").hidden = !line;
}

const client = new MatchClient({
  path: config.socket,
  audience: "spectator",
  onChange: (view) => draw(view),
  onStatus: (status) => {  // said only while the overlay is not live: a stream shows no "connected"
    $("conn").textContent = statusText(status);
    $("conn").hidden = ["live", "error"].includes(status);
  },
});
window.exhibitionOverlay = { view: () => client.view };
client.connect();
