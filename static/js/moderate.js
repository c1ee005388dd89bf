// The moderator console: the full question and answer line, the floor, one-key rulings and the
// controls of the match, and during a tossup's bonus its parts, each part's answer line and result.
// Keys: A accept, P prompt, R reject (in a bonus: the answer to the part in play), N next (in a bonus:
// read the next part), Space reveal, U undo, H pause/resume. Keys never fire while the moderator is
// typing in a field.

import { bonusTotal, decisionButtons, mayDecide, renderBonus } from "./bonus-parts.js";
import { possessive, seatName, teamName } from "./match-fold.js";
import { renderProtests } from "./protest-panel.js";
import { floorAnswer, ruleData, ruleLabel } from "./ruling-target.js";
import { VoicePicker } from "./voice-picker.js";
import { answerLineNodes, botLabel, buzzModeText, calledScores, correctionText, el, openScreen, phaseText, renderBots, renderFinal, renderQuestion, renderScores, renderSnippets, showEnded, teamClass } from "./ui.js";

const $ = (id) => document.getElementById(id);
const { config, client, command } = openScreen({ audience: "moderator", render, onEnd: () => {
  const back = `${location.pathname}${location.search}`;
  showEnded("Your staff sign-in has ended; sign in again, then come back to this console.",
    [[`/accounts/login/?next=${encodeURIComponent(back)}`, "Sign in"]]);
} });
const voicePicker = new VoicePicker({ config, command });

// -- state of the controls --------------------------------------------------------------------

let shown = null;  // the answer the ruling buttons name as last drawn ({team, seq}): what A / P / R rule

function canReveal(view) {
  const q = view.question;
  return !!q && !q.closed && q.mode === "buzz" && !q.possession && !view.paused && q.revealed < q.words.length;
}

/** The bonus part the moderator may read now (its index), or null: the previous part is over and one is left. */
function partToRead(view) {
  const b = view.question?.bonus;
  if (!b || b.ended || view.status !== "live" || view.paused || b.answering !== null) return null;
  const k = b.part + 1;
  return k < b.parts.length && (k === 0 || b.parts[b.part].rulings.length) ? k : null;
}

function canNext(view) {
  return view.status === "setup" || (view.status === "live" && !view.paused && (!view.question || view.question.closed));
}

// Every command names what it was pressed for (the answer ruled on, the ruling undone, the question
// thrown out, the scores adjusted): a double press or a late retry is then refused, never applied twice.
// A ruling names the answer shown when the key was pressed; if another reached the floor meanwhile the
// engine refuses it and the toast says what the floor holds now.
function rule(verdict) {
  if (!shown) return;
  const heard = $("heard").value.trim();
  const data = { ...ruleData(verdict, shown), ...reasonOf($("rule-reason"), $("rule-public")) };
  if (heard) data.heard = heard;
  command("rule", data).then(() => { $("heard").value = ""; $("rule-reason").value = ""; $("rule-public").checked = false; }).catch(() => {});
}

/** {reason, public} from a reason field and its "show to the room" box: the reason stays the moderator's unless ticked. */
function reasonOf(input, box) {
  const reason = input.value.trim();
  return reason ? { reason, public: !!box?.checked } : {};
}

/** The controlling team's decision on the bonus part in play, as its captain tells the moderator. */
function decide(view, decision) {
  command("decide_part", { decision, part: view.question.bonus.part }).catch(() => {});
}

function next() {
  const view = client.view;
  const part = partToRead(view);
  if (part !== null) { command("read_part", { part }).catch(() => {}); return; }
  if (!canNext(view)) return;
  command(view.status === "setup" ? "start" : "next").catch(() => {});
}

function togglePause() {
  const view = client.view;
  if (view.status !== "live") return;
  command(view.paused ? "resume" : "pause").catch(() => {});
}

const KEYS = {
  a: () => rule("accept"),
  p: () => rule("prompt"),
  r: () => rule("reject"),
  n: next,
  " ": () => { if (canReveal(client.view)) command("reveal", { word: client.view.question.revealed }).catch(() => {}); },
  u: () => {
    const q = client.view.question;
    if (q?.can_undo && q.last_ruling && client.view.status === "live") command("undo", { ruling: q.last_ruling }).catch(() => {});
  },
  h: togglePause,
};

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typing(e.target)) return;
  const action = KEYS[e.key.toLowerCase()];
  if (!action) return;
  e.preventDefault();
  action();
});

for (const button of document.querySelectorAll("[data-rule]")) button.addEventListener("click", () => rule(button.dataset.rule));
$("btn-next").addEventListener("click", next);
$("btn-read-part").addEventListener("click", next);
$("btn-reveal").addEventListener("click", () => KEYS[" "]());
$("btn-undo").addEventListener("click", () => KEYS.u());
$("btn-pause").addEventListener("click", togglePause);
$("btn-end").addEventListener("click", () => {
  if (confirm("End the match now? The scores as they stand become final.")) command("end").catch(() => {});
});
// The heard and reason fields: Enter rules "accept" would be surprising; Escape hands the keys back instead.
for (const id of ["heard", "rule-reason"]) $(id).addEventListener("keydown", (e) => { if (e.key === "Escape") e.target.blur(); });

$("adjust-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = e.target;
  const points = Number.parseInt(form.points.value, 10);
  const data = { team: form.team.value, points, ...reasonOf(form.reason, form.public), scores_seq: client.view.scores_seq };
  const done = () => form.reset();
  if (client.view.status === "finished") {  // a correction after the final: asked first, then marked as one
    const sign = points > 0 ? "+" : "";
    askCorrection({ kind: "adjust", data, done,
      what: `${teamName(client.view, data.team)} ${sign}${Number.isFinite(points) ? points : "?"} points${data.reason ? ` (${data.reason})` : ""}` });
    return;
  }
  command("adjust", data).then(done).catch(() => {});
});
$("throw-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = e.target;
  const q = client.view.question;
  if (!q) return;
  command("throw_out", { ...reasonOf(form.reason, form.public), question: q.index }).then(() => form.reset()).catch(() => {});
});

// -- corrections after the final: one step more ---------------------------------------------------
// Once the match is final an override or a score adjustment changes its result: the console asks
// first, then sends it with confirm: true, and the engine marks the event as a correction.

let correcting = null;  // {kind: "override" | "adjust", data, what, done?} waiting for the confirmation

function askCorrection(pending) {
  correcting = pending;
  render(client.view);
  $("correction-confirm")?.querySelector("button.danger")?.focus();
}

function confirmCorrection() {
  const pending = correcting;
  if (!pending) return;
  const extra = pending.kind === "override" ? reasonOf($("correction-reason"), $("correction-public")) : {};
  correcting = null;
  render(client.view);
  command(pending.kind, { ...pending.data, ...extra, confirm: true }).then(() => pending.done?.()).catch(() => {});
}

function renderCorrection(view) {
  const box = $("correction-confirm");
  if (view.status !== "finished") correcting = null;
  box.hidden = !correcting;
  if (!correcting) { box.replaceChildren(); return; }
  const reasonFields = correcting.kind === "override" ? [
    el("label", { class: "field" }, el("span", { class: "label", text: "Reason (optional)" }),
      el("input", { id: "correction-reason", type: "text", maxlength: "200", autocomplete: "off" })),
    el("label", { class: "check" }, el("input", { id: "correction-public", type: "checkbox" }), " Show the reason to the room")] : [];
  box.replaceChildren(
    el("h2", { text: "Correction after the final" }),
    el("p", { class: "correction-what" }, el("strong", { text: correcting.what })),
    el("p", { class: "small", text: "The match is final. This changes its result and is marked as a correction after the final in the log, the box score and the replay." }),
    ...reasonFields,
    el("p", { class: "confirm-actions" },
      el("button", { type: "button", class: "danger", text: "Confirm correction", onclick: confirmCorrection }),
      el("button", { type: "button", text: "Cancel", onclick: () => { correcting = null; render(client.view); } })));
}

function renderCorrections(view) {
  const list = view.corrections || [];
  $("corrections-panel").hidden = !list.length;
  if (!list.length) return;
  const called = calledScores(view);
  $("corrections").replaceChildren(
    el("p", { class: "small muted", text: `As called at the final whistle: ${view.teams.map((t) => `${t.name} ${called[t.id] ?? 0}`).join(" — ")}` }),
    el("ol", { class: "corrections" }, list.map((c) => el("li", {}, correctionText(view, c),
      c.reason ? el("span", { class: "muted" }, ` — ${c.reason} `, el("span", { class: `pill${c.public ? "" : " private"}`, text: c.public ? "shown to the room" : "private" })) : null))));
}

// -- drawing ----------------------------------------------------------------------------------

function render(view) {
  document.body.classList.toggle("is-paused", view.paused);
  $("phase").textContent = phaseText(view);
  $("paused").hidden = !view.paused;
  renderQuestion($("question"), view, { showUnread: true });
  renderAnswerLine(view);
  renderBonusPanel(view);
  renderFloor(view);
  renderSnippets($("snippets"), view);
  renderScores($("scores"), view);
  renderRoom(view);
  renderBots($("bots"), view);
  $("bots-panel").hidden = $("bots").hidden;
  renderChat(view);
  renderNotices(view);
  renderHistory(view);
  renderCorrection(view);
  renderCorrections(view);
  renderProtests($("protests-panel"), $("protests"), view, { command, askCorrection });
  renderControls(view);
  voicePicker.render(view);
  renderTeams(view);
  renderFinal($("final"), view, { links: [[`/m/${config.code}/replay?staff=1`, "Replay (staff view)"],
    [`/m/${config.code}/boxscore`, "Box score"], ["/archive/", "Archive"]] });
}

function renderAnswerLine(view) {
  const q = view.question;
  $("answer").replaceChildren(...(q?.answer ? answerLineNodes(q.answer) : ["—"]));
  const full = q && view.questions?.[q.index];
  const accepted = (full?.accepted || []).filter((a) => a !== q.answer);
  $("accepted").textContent = accepted.length ? `also accept: ${accepted.join(" · ")}` : "";
  $("category").textContent = [q?.category, full?.subcategory].filter(Boolean).join(" / ");
}

/** The bonus in play: every part with its whole answer line and its rulings, the part to read next, and how many bonuses the packet has left. */
function renderBonusPanel(view) {
  const b = view.question?.bonus;
  $("bonus-panel").hidden = !b;
  renderBonus($("bonus"), view, { moderator: true });
  if (!b) return;
  const left = view.bonuses_left;
  $("bonuses-left").textContent = left == null ? "" : left ? `${left} more bonus${left === 1 ? "" : "es"} in the packet after this one.` : "The packet's last bonus: tossups go on without bonuses after it.";
  const k = partToRead(view);
  const button = $("btn-read-part");
  button.hidden = b.ended || b.part + 1 >= b.parts.length;  // the last part is read: nothing more to read
  button.disabled = k === null;
  button.querySelector(".read-label").textContent = `Read part ${Math.min(b.part + 2, b.parts.length)}`;
}

/** The floor during a bonus: the team's typed answer waiting for a ruling, or who confers on the part in play. */
function bonusFloor(view, b) {
  if (b.ended) return el("p", { class: "floor-result", text: `Bonus over: ${teamName(view, b.team)} ${b.points[b.team] ?? 0}.` });
  if (b.typed) {
    const t = b.typed;
    return el("div", { class: `possession ${teamClass(view, t.team)}` },
      el("p", { class: "who" }, el("strong", { text: seatName(view, t.seat) }), ` (${teamName(view, t.team)}) answered part ${b.part + 1}`,
        b.bounce ? el("span", { class: "pill warn", text: "bounceback" }) : null),
      el("p", { class: "typed", text: t.text }));
  }
  const decided = b.part >= 0 && !b.bounce ? b.parts[b.part].decision?.decision : null;
  if (b.answering && decided === "abstain") {
    return el("div", { class: `possession ${teamClass(view, b.answering)}` },
      el("p", { class: "who" }, el("strong", { text: teamName(view, b.answering) }), ` abstained on part ${b.part + 1}`),
      el("p", { class: "typed pending", text: "Read the answer, then rule whether anybody, human or AI, was right: if nobody was, the abstention scores." }),
      mayDecide(view, b) ? decisionButtons(b, (decision) => decide(view, decision)) : null);
  }
  if (b.answering) {
    return el("div", { class: `possession ${teamClass(view, b.answering)}` },
      el("p", { class: "who" }, el("strong", { text: teamName(view, b.answering) }), ` confer on part ${b.part + 1}`,
        b.bounce ? el("span", { class: "pill warn", text: "bounceback" }) : null),
      el("p", { class: "typed pending", text: "waiting for the captain's answer… (rule a spoken answer any time)" }),
      mayDecide(view, b) ? decisionButtons(b, (decision) => decide(view, decision)) : null);
  }
  return el("p", { class: "muted", text: `Read part ${b.part + 2} when the room is ready (N).` });
}

function renderFloor(view) {
  const box = $("floor");
  const q = view.question;
  box.replaceChildren();
  if (!q) { box.append(el("p", { class: "muted", text: "No question is open." })); return; }
  if (q.bonus) {
    box.append(bonusFloor(view, q.bonus));
  } else if (q.closed) {
    const r = q.result;
    const where = r && (view.rules?.phases?.length || 1) > 1 ? ` in phase ${r.phase}` : "";
    box.append(el("p", { class: "floor-result", text: r ? `${teamName(view, r.team)} scored ${r.points}${where}.` : "Dead: nobody got it." }));
    if (r && !q.tiebreaker && view.bonuses_left === 0) box.append(el("p", { class: "muted", text: "No bonus: the packet's bonuses are all heard; tossups go on without them." }));
  } else if (q.mode === "buzz") {
    const p = q.possession;
    if (!p) {
      const out = q.locked.map((t) => teamName(view, t));
      box.append(el("p", { class: "muted", text: out.length ? `Locked out: ${out.join(", ")}. Waiting for a buzz…` : "Waiting for a buzz…" }));
    } else {
      box.append(el("div", { class: `possession ${teamClass(view, p.team)}` },
        el("p", { class: "who" }, el("strong", { text: seatName(view, p.seat) }), ` (${teamName(view, p.team)}) buzzed at word ${p.word} of ${q.words.length}${p.seen != null && p.seen !== p.word ? ` (saw ${p.seen})` : ""}`,
          p.prompted ? el("span", { class: "pill warn", text: "prompted" }) : null),
        p.answer != null ? el("p", { class: "typed", text: p.answer }) : el("p", { class: "typed pending", text: "waiting for the answer… (rule a spoken answer any time)" })));
    }
  } else {
    for (const team of view.teams) {
      const sub = q.submissions[team.id];
      const state = q.locked.includes(team.id) ? "out" : q.passed.includes(team.id) ? "passed" : sub ? "submitted" : "discussing";
      box.append(el("div", { class: `possession ${teamClass(view, team.id)}${q.floor === team.id ? " has-floor" : ""}` },
        el("p", { class: "who" }, el("strong", { text: team.name }), ` · ${state}`, q.floor === team.id ? el("span", { class: "pill", text: "floor" }) : null),
        sub ? el("p", { class: "typed", text: sub.text }) : null));
    }
  }
  const race = q.possession ? raceWon(q.buzz_log) : null;
  if (race) box.append(el("p", { class: "race muted small" }, el("strong", { text: seatName(view, race.won.seat) }),
    ` took the floor from ${seatName(view, race.lost.seat)}: pressed ${race.won.margin} ms earlier, arrived ` +
    `${race.won.received - race.lost.received} ms later${clampText(race.won)}`));
  if (view.lost.length) {
    box.append(el("ul", { class: "lost-buzzes muted small" }, view.lost.map((b) => el("li", {},
      el("strong", { text: seatName(view, b.seat) }), ` (${teamName(view, b.team)}) also buzzed at word ${b.word}`,
      b.seen != null ? `, saw ${b.seen}` : "",
      b.margin != null ? `, pressed ${b.margin} ms after ${seatName(view, b.holder)}` : "",
      b.holder_received != null ? `, arrived ${b.received - b.holder_received} ms after` : "", clampText(b),
      ` — ${b.outcome === "locked_out" ? "locked out" : "too late"}`))));
  }
  // Every answer still waiting for a ruling has its suggestion, labelled by team; ruling one team's
  // answer leaves the other's in place (the server's snapshot carries them, so a reload keeps them).
  // Once the question has closed nothing is left to rule: the other side's answer is not offered.
  for (const s of q.closed ? [] : view.suggestions) {
    const pct = typeof s.confidence === "number" ? ` (${Math.round(s.confidence * 100)}%)` : "";
    box.append(el("p", { class: `judge ${s.verdict} ${teamClass(view, s.team)}`, "data-team": s.team },
      el("span", { class: "label", text: "Judge suggests " }), el("strong", { class: "judge-team", text: teamName(view, s.team) }), " ",
      el("q", { text: s.text }), ": ", el("strong", { text: `${s.verdict}${pct}` }), s.reason ? ` — ${s.reason}` : ""));
  }
}

function renderChat(view) {
  const box = $("chat");
  const chat = view.question?.chat || {};
  box.replaceChildren();
  for (const team of view.teams) {
    const lines = chat[team.id] || [];
    if (!lines.length) continue;
    box.append(el("h3", { class: teamClass(view, team.id), text: team.name }),
      el("ul", { class: "chat-log" }, lines.slice(-12).map((m) => el("li", {}, el("strong", { text: `${m.name}: ` }), m.text))));
  }
  $("chat-panel").hidden = !box.childElementCount;
}

const MISSED_TEXT = { timed_out: "timed out", failed: "failed" };

/** Bots stopped for the rest of the match, and bots whose last act on this question came to nothing,
 * each with why (from the snapshot: a reload keeps them). */
function renderNotices(view) {
  const box = $("notices");
  const stopped = Object.values(view.seats).filter((seat) => seat.stopped);
  const missed = Object.entries(view.question?.bot_missed || {}).filter(([seat]) => !view.seats[seat]?.stopped);
  box.replaceChildren(
    ...stopped.map((seat) => el("li", { class: "stopped" }, el("strong", { text: seat.name }),
      ` stopped for the rest of the match (from question ${seat.stopped.number ?? "?"}): ${seat.stopped.reason || "no reason given"}`)),
    ...missed.map(([seat, m]) =>
      el("li", {}, el("strong", { text: seatName(view, seat) }), ` ${MISSED_TEXT[m.status] || m.status}: ${m.reason || "no answer in time"}`)));
  $("notices-panel").hidden = !box.childElementCount;
}

function renderHistory(view) {
  const box = $("history");
  const byNumber = new Map();
  for (const r of Object.values(view.rulings)) {
    if (!byNumber.has(r.number)) byNumber.set(r.number, []);
    byNumber.get(r.number).push(r);
  }
  const open = view.question && !view.question.closed ? view.question.number : null;
  const entries = [...view.history].reverse();
  // A tossup whose bonus is in play is in the history already (it closed before its bonus began).
  if (open !== null && !view.question.bonus) entries.unshift({ number: open, answer: view.question.answer, current: true });
  box.replaceChildren(...entries.map((h) => {
    const rulings = h.thrown_out ? [] : (byNumber.get(h.number) || []);
    const result = h.current ? "in play" : h.thrown_out ? `thrown out${h.reason ? `: ${h.reason}` : ""}` : h.result ? `${teamName(view, h.result.team)} +${h.result.points}${h.bonus ? `; bonus: ${bonusTotal(view, h.bonus)}` : ""}` : "dead";
    return el("li", { class: "history-item" },
      el("p", {}, el("strong", { text: `Q${h.number}` }), " ", el("span", { class: "muted" }, answerLineNodes(h.answer || "")), " · ", result),
      rulings.length ? el("ul", { class: "rulings" }, rulings.map((r) => rulingRow(view, r, h.number !== open))) : null,
      h.buzzes?.length > 1 ? buzzAuditLine(view, h.buzzes) : null);
  }));
}

// Why a phone's claimed press time was not taken as it came (game/engine/buzzrace.py).
const CLAMPS = {
  before_word: "its claimed press came before its word reached the phone, so it went by arrival",
  unsent_word: "it named a word not yet shown, so it went by arrival",
  no_clock: "its round trip was not measured yet, so it went by arrival",
  window: "its claimed press was earlier than the grace window allows, so it counted from the window's edge",
};
const clampText = (b) => (b.clamp && CLAMPS[b.clamp] ? ` (${CLAMPS[b.clamp]})` : "");

/** The race behind the floor now: the buzz that took it from an earlier-arriving one, and that one. */
function raceWon(log) {
  const won = log.filter((b) => b.outcome === "won");
  const last = won[won.length - 1];
  return last && last.margin != null && won.length > 1 ? { won: last, lost: won[won.length - 2] } : null;
}

/** The buzzes of a question in the order the server got them: word revealed, word on screen, gap. */
function buzzAuditLine(view, buzzes) {
  const first = buzzes[0].received;
  return el("p", { class: "buzz-audit muted small" }, "Buzzes: ", buzzes.flatMap((b, i) => [i ? " · " : "",
    el("strong", { text: seatName(view, b.seat) }), ` w${b.word}`, b.seen != null ? ` (saw ${b.seen})` : "",
    i ? ` +${b.received - first} ms` : "", b.claimed != null ? ` (pressed ${b.pressed - b.received} ms)` : "",
    b.outcome === "won" ? "" : b.outcome === "locked_out" ? " locked out" : " too late"]));
}

function rulingRow(view, r, overridable) {
  const who = r.seat ? seatName(view, r.seat) : teamName(view, r.team);
  const other = r.verdict === "accept" ? "reject" : "accept";
  return el("li", { class: `ruling-row ${r.verdict}` },
    el("span", { class: "who", text: `${who}: ` }), el("q", { text: r.text || "(no answer)" }), " ",
    el("span", { class: `verdict ${r.verdict}`, text: `${r.verdict}${r.points ? ` ${r.points > 0 ? "+" : ""}${r.points}` : ""}${r.overridden ? " (overridden)" : ""}${r.withdrawn ? " (withdrawn: an earlier answer was right)" : ""}` }),
    r.reason ? el("span", { class: "ruling-reason muted small" }, ` — ${r.reason} `,
      el("span", { class: `pill${r.public ? "" : " private"}`, text: r.public ? "shown to the room" : "private" })) : null,
    overridable && r.verdict !== "prompt"
      ? el("button", { class: "small", type: "button", onclick: () => override(view, r, who, other), text: `→ ${other}` })
      : null);
}

function override(view, r, who, verdict) {
  if (view.status !== "finished") { command("override", { ruling: r.id, verdict }).catch(() => {}); return; }
  askCorrection({ kind: "override", data: { ruling: r.id, verdict },
    what: `Question ${r.number}: ${possessive(who)} ${r.text ? `“${r.text}”` : "answer"} becomes ${verdict}` });
}

// The room, by team: every seat, a person's with whether a device is connected (and since when), a
// bot's with its tier, its measured size and how its acts go. It comes from the roster frame (not the
// event log): the conductor sends it to moderators only, live. Removing a person asks first; it gives
// the seat up for good (its device is disconnected, its name is free), answered only by joining again.
let removing = null;  // the seat whose removal is being confirmed

function renderRoom(view) {
  const seats = Object.values(view.seats);
  $("players-panel").hidden = !seats.length;
  const live = view.status !== "finished";
  const roster = new Map((view.roster?.seats || []).map((r) => [r.seat, r]));
  const watchers = view.roster?.watchers;
  const teams = view.teams.filter((t) => seats.some((s) => s.team === t.id)).map((team) => el("div", {},
    el("h3", { class: teamClass(view, team.id), text: team.name }),
    el("ul", { class: "players" }, seats.filter((s) => s.team === team.id).map((s) =>
      s.kind === "bot" ? botRow(s, roster.get(s.id)?.bot) : playerRow(s, live, view.roster ? roster.get(s.id) : undefined)))));
  const foot = typeof watchers === "number" ? [el("p", { class: "muted small room-foot", text: `${watchers} screen${watchers === 1 ? "" : "s"} watching` })] : [];
  $("players").replaceChildren(...teams, ...foot);
}

const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** A person's connection: online, offline since when, or not known yet (no roster yet). */
function presence(seat, entry) {
  if (seat.left) return null;
  if (!entry) return el("span", { class: "presence unknown", title: "connection not known yet", text: "…" });
  const state = entry.connected ? "online" : "offline";
  const since = entry.since ? ` since ${clock(entry.since)}` : "";
  return el("span", { class: `presence ${state}`, "data-presence": state, title: `${state}${since}` },
    el("span", { class: "dot", "aria-hidden": "true" }), entry.connected ? "online" : `offline${since}`);
}

const HEALTH = { unknown: "not asked yet", waiting: "thinking…", ok: "healthy", late: "late", failing: "failing" };

function size(bytes) {
  if (typeof bytes !== "number") return null;
  const units = [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]];
  const [unit, scale] = units.find(([, n]) => bytes >= n) || ["bytes", 1];
  return `${(bytes / scale).toFixed(scale === 1 ? 0 : 1).replace(/\.0$/, "")} ${unit}`;
}

/** A bot: its tier, how its acts go (health, the last answer's time, counts) and its measured size. */
function botRow(seat, bot) {
  const health = bot?.health || "unknown";
  const counts = bot ? [bot.asked ? `${bot.answered} of ${bot.asked} answered` : null, bot.timed_out ? `${bot.timed_out} timed out` : null,
    bot.failed ? `${bot.failed} failed` : null, typeof bot.last_ms === "number" ? `last in ${bot.last_ms} ms` : null] : [];
  const measured = size(bot?.measured_bytes);
  const sized = measured ? `${measured}${bot.limit_bytes ? ` of ${size(bot.limit_bytes)}` : " (no limit)"}` : null;
  return el("li", { class: `bot-row health-${health}`, "data-seat": seat.id, "data-health": health },
    el("span", { class: "player-name", text: botLabel(seat) }),
    seat.tier ? el("span", { class: "pill", text: seat.tier }) : null,
    el("span", { class: "pill bot-mode", text: `${buzzModeText(seat)}${seat.weight_class ? ` · ${seat.weight_class}` : ""}` }),
    el("span", { class: `pill health ${health}`, text: HEALTH[health] || health }),
    el("span", { class: "bot-facts muted small", text: [...counts, sized, bot?.kind].filter(Boolean).join(" · ") || "no acts yet" }),
    bot?.reason && health !== "ok" ? el("span", { class: "bot-reason small", text: bot.reason }) : null,
    bot?.problem ? el("span", { class: "bot-reason small", text: bot.problem }) : null);
}

function playerRow(seat, live, entry) {
  const gone = seat.left ? (seat.left === "player" ? "left" : "removed") : null;
  const row = el("li", { class: gone ? "gone" : "", "data-seat": seat.id },
    presence(seat, entry),
    el("span", { class: "player-name", text: seat.name }),
    seat.captain ? el("span", { class: "pill", text: "captain" }) : null,
    gone ? el("span", { class: "muted small", text: gone }) : null,
    !gone && live && removing !== seat.id
      ? el("button", { type: "button", class: "small danger", text: "Remove…", onclick: () => { removing = seat.id; render(client.view); } })
      : null);
  if (!gone && live && removing === seat.id) {
    row.append(el("span", { class: "confirm" }, `Remove ${seat.name}? Their device is disconnected and the name freed.`,
      el("button", { type: "button", class: "small danger", text: "Remove", onclick: () => {
        removing = null;
        command("kick", { seat: seat.id }).catch(() => {}).finally(() => render(client.view));
      } }),
      el("button", { type: "button", class: "small", text: "Cancel", onclick: () => { removing = null; render(client.view); } })));
  }
  return row;
}

function renderControls(view) {
  shown = floorAnswer(view);
  for (const b of document.querySelectorAll("[data-rule]")) {
    b.disabled = !shown;
    b.querySelector(".rule-label").textContent = ruleLabel(view, b.dataset.rule, shown);
    b.dataset.answer = shown ? shown.seq : "";
  }
  $("btn-next").disabled = !canNext(view);
  $("btn-next").hidden = !!view.question?.bonus && !view.question.bonus.ended;  // the bonus panel's Read part has N meanwhile
  $("btn-next").firstChild.textContent = view.status === "setup" ? "Start match " : "Next question ";
  $("btn-reveal").hidden = !["moderator", "voice"].includes(view.rules?.reveal);  // by hand, also when reading aloud
  $("btn-reveal").disabled = !canReveal(view);
  $("btn-undo").disabled = !view.question?.can_undo || !view.question?.last_ruling || view.status !== "live";
  $("btn-pause").disabled = view.status !== "live";
  $("btn-pause").firstChild.textContent = view.paused ? "Resume " : "Pause ";
  $("btn-end").disabled = view.status !== "live" || (view.question && !view.question.closed);
  $("throw-form").querySelector("button").disabled = !view.question || view.status !== "live";
  $("adjust-form").querySelector("button").textContent = view.status === "finished" ? "Correct the final score…" : "Adjust";
}

function renderTeams(view) {
  const select = $("adjust-form").team;
  if (select.options.length === view.teams.length) return;
  select.replaceChildren(...view.teams.map((t) => el("option", { value: t.id, text: t.name })));
}

client.connect();
