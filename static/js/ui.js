// Drawing helpers the three live screens share: the question text with its markers, the
// scoreboard, the phase banner, timers, the feed of answers and rulings, and bot guesses.
// Everything a person typed goes in through textContent, never as HTML.

import { MatchClient } from "./match-socket.js";
import { seatName, teamName } from "./match-fold.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function teamIndex(view, team) { return Math.max(0, view.teams.findIndex((t) => t.id === team)); }
export function teamClass(view, team) { return `team-${teamIndex(view, team) % 4}`; }

export function botLabel(seat) {
  if (!seat) return "bot";
  return seat.simulated && !seat.name.includes("(simulated)") ? `${seat.name} (simulated)` : seat.name;
}

const VERDICT_MARK = { accept: "✓", reject: "✗", prompt: "?" };
const VERDICT_WORDS = { accept: "ruled right", reject: "ruled wrong", prompt: "prompted" };

/**
 * The question as far as this screen may see it. The moderator sees unread words greyed. The words
 * stay together, as they are read: where each buzz came is marked beside them, not among them (the
 * last word heard is underlined in the buzzer's colour, and a line under the text says who buzzed
 * at which word and how it was ruled). The power mark keeps its place in the text, as packets print it.
 */
export function renderQuestion(box, view, { showUnread = false } = {}) {
  const q = view.question;
  box.replaceChildren();
  if (!q) {
    box.append(el("p", { class: "waiting", text: waitingText(view) }));
    return;
  }
  const count = showUnread || q.closed ? q.words.length : Math.min(q.revealed, q.words.length);
  const current = !q.closed && q.mode === "buzz" ? q.revealed - 1 : -1;
  const buzzedAt = new Map();  // word index -> the first buzz after it (a buzz at word N came after the Nth word)
  for (const b of view.buzzes) if (b.word > 0 && !buzzedAt.has(b.word - 1)) buzzedAt.set(b.word - 1, b);
  const text = el("p", { class: "question-words" });
  for (let i = 0; i < count; i++) {
    if (q.power_index === i) text.append(powerMark(), " ");
    const b = buzzedAt.get(i);
    const cls = ["word", i < q.revealed ? "read" : "unread", i === current ? "current" : "", b ? `buzzed ${teamClass(view, b.team)}` : ""];
    text.append(el("span", { class: cls.join(" ").replace(/\s+/g, " ").trim(), text: q.words[i] }), " ");
  }
  if (q.power_index === count) text.append(powerMark());
  if (!q.closed && q.revealed === 0 && q.mode === "buzz") box.append(el("p", { class: "waiting", text: "Get ready…" }));
  box.append(text);
  if (view.buzzes.length) box.append(buzzLine(view, q));
}

const powerMark = () => el("span", { class: "power-mark", title: "power mark", text: "(*)" });

/** Who buzzed at which word, and how each buzz was ruled: one mark each, in the order they came. */
function buzzLine(view, q) {
  return el("ol", { class: "buzz-line", "aria-label": "Buzzes" }, view.buzzes.map((b) => {
    const who = seatName(view, b.seat);
    const heard = b.word > 0 ? q.words[b.word - 1] : null;
    const where = heard ? `at word ${b.word} (“${heard}”)` : "before the first word";
    return el("li", { class: `buzz-marker ${teamClass(view, b.team)} ${b.verdict || "open"}`, "data-word": b.word,
      title: `${who} buzzed ${where}${VERDICT_WORDS[b.verdict] ? `: ${VERDICT_WORDS[b.verdict]}` : ""}` },
    el("span", { class: "buzz-name" }, el("span", { class: "buzz-who", text: who }), ` ${VERDICT_MARK[b.verdict] || "⚡"}`),
    el("span", { class: "buzz-at", text: b.word > 0 ? ` word ${b.word}` : " before word 1" }));
  }));
}

export function waitingText(view) {
  if (view.status === "finished") return "The match is over.";
  if (view.status === "live") return "Waiting for the next question…";
  if (view.status === "none") return "Connecting…";
  return "Waiting for the moderator to start the match…";
}

export function renderScores(box, view, { mine = null } = {}) {
  box.replaceChildren(...view.teams.map((t) => el("div", {
    class: `score ${teamClass(view, t.id)}${t.id === mine ? " mine" : ""}${view.winner === t.id ? " winner" : ""}`,
    "data-team": t.id,
  }, el("span", { class: "team-name", title: t.name, text: t.name }), el("span", { class: "points", text: String(view.scores[t.id] ?? 0) }),
  teamMatesLine(view, t))));
}

/** How a bot buzzes (game/engine/seat_table.py BUZZ_MODES), in a few words: "semi", "after 4 words". */
export function buzzModeText(seat) {
  const mode = seat.buzz_mode || "autonomous";
  return mode === "after_k" ? `autonomous after ${seat.buzz_after} words` : mode;
}

/** The bots sitting on a human team beside its people (AI teammates), in seat order. */
export function teamMates(view, teamId) {
  const team = view.teams.find((t) => t.id === teamId);
  if (team?.kind !== "human") return [];
  return Object.values(view.seats).filter((s) => s.kind === "bot" && s.team === teamId);
}

/** A human team's AI teammates on its score card: each marked as a bot, with its buzz mode. */
function teamMatesLine(view, team) {
  const mates = teamMates(view, team.id);
  if (!mates.length) return null;
  return el("span", { class: "team-mates" }, mates.map((s) => el("span", { class: "team-mate", "data-seat": s.id },
    el("span", { class: "bot-mark", text: "AI" }), ` ${botLabel(s)} · ${buzzModeText(s)}`)));
}

const MODE_TEXT = { buzz: "buzz in", team: "team discussion" };

export function phaseText(view) {
  const q = view.question;
  if (view.status === "finished") {
    return view.winner ? `Final · ${teamName(view, view.winner)} win` : "Final · a tie";
  }
  if (!q) return view.status === "live" ? `After question ${view.number}` : "Before the match";
  const total = view.rules?.questions;
  const parts = [q.tiebreaker ? `Tiebreaker` : `Question ${q.number}${total ? ` of ${total}` : ""}`];
  if (q.bonus) return [...parts, bonusPhase(view, q.bonus)].join(" · ");
  const phases = view.rules?.phases?.length || 1;
  if (phases > 1) parts.push(`Phase ${q.phase} of ${phases}`);
  parts.push(MODE_TEXT[q.mode] || q.mode);
  if (q.points != null) parts.push(`${q.points} point${q.points === 1 ? "" : "s"}`);
  if (q.closed) parts.push("closed");
  return parts.join(" · ");
}

/** Where a bonus stands, for the phase banner: "bonus for Humans · part 2 of 3", "… · bounceback", "… · over". */
function bonusPhase(view, b) {
  const where = b.ended ? "over" : b.part < 0 ? "first part next" : `part ${b.part + 1} of ${b.parts.length}${b.bounce ? " · bounceback" : ""}`;
  return `bonus for ${teamName(view, b.team)} · ${where}`;
}

const DEADLINE_TEXT = { answer: "to answer", prompt: "to answer the prompt", dead: "to buzz", discussion: "to discuss",
  confer: "to confer", bounce: "for the bounceback" };

/** {text, kind, seconds} for the running deadline, or null. */
export function timer(view, now) {
  const q = view.question;
  if (!q || q.closed || !q.deadline) return null;
  const left = Math.max(0, q.deadline.at - (view.paused ? view.t : now));
  const seconds = Math.ceil(left / 1000);
  const shown = seconds >= 60 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` : `${seconds}s`;
  return { kind: q.deadline.kind, seconds, text: `${shown} ${DEADLINE_TEXT[q.deadline.kind] || ""}`.trim() };
}

export function renderTimer(box, view, now) {
  const t = timer(view, now);
  box.hidden = !t;
  if (!t) return;
  box.className = `timer ${t.kind}${t.seconds <= 5 ? " urgent" : ""}`;
  box.textContent = view.paused ? `paused · ${t.text}` : t.text;
}

/** Redraw timers several times a second without re-rendering everything else. */
export function tick(fn) {
  fn();
  return setInterval(fn, 200);
}

const FEED_VERDICT = { accept: "correct", reject: "wrong", prompt: "prompt" };

export function renderFeed(box, view, { limit = 8, omit = [] } = {}) {
  const items = view.feed.filter((f) => f.kind !== "buzz" && !omit.includes(f.kind)).slice(-limit).reverse();
  keepUnchanged(box, items.map((f) => {
    if (f.kind === "ruling") {
      return el("li", { class: `feed-item ruling ${f.verdict} ${teamClass(view, f.team)}` },
        el("span", { class: "who", text: f.who }), " ", el("q", { class: "said", text: f.text }), " ",
        el("span", { class: `verdict ${f.verdict}`, text: FEED_VERDICT[f.verdict] + (f.points ? ` ${f.points > 0 ? "+" : ""}${f.points}` : "") }),
        f.reason ? el("span", { class: "feed-reason", text: ` — ${f.reason}` }) : null);
    }
    if (f.kind === "answer") {  // text null: the team answered, and this screen is not told what yet
      return el("li", { class: `feed-item answer ${teamClass(view, f.team)}` },
        el("span", { class: "who", text: f.who }), " ",
        f.text == null ? el("span", { class: "said unread", text: "has answered" }) : el("q", { class: "said", text: f.text }));
    }
    if (f.kind === "closed") {
      return el("li", { class: "feed-item closed" }, el("span", { class: "label", text: "Answer: " }), el("strong", { text: f.text }));
    }
    return el("li", { class: `feed-item ${f.kind}`, text: f.text });
  }));
}

/** Put these items in the list, keeping each one already there unchanged: a live region (role=log)
 * then announces only what is new, not the whole list on every redraw. */
function keepUnchanged(box, items) {
  const key = (li) => `${li.className}|${li.textContent}`;
  const wanted = new Set(items.map(key));
  for (const li of [...box.children]) if (!wanted.has(key(li))) li.remove();
  let at = box.firstElementChild;
  for (const item of items) {
    if (at && key(at) === key(item)) at = at.nextElementSibling;
    else box.insertBefore(item, at);
  }
  while (at) { const next = at.nextElementSibling; at.remove(); at = next; }
}

/**
 * Each bot's card for the question on screen, drawn from question.bot_cards (docs/wire-protocol.md
 * "Bot cards": one scale, [0, 1], for every bot's confidence and its buzz threshold).
 */
export function renderBots(box, view) {
  const bots = Object.values(view.seats).filter((s) => s.kind === "bot");
  box.replaceChildren(...bots.map((seat) => botCard(view, seat)));
  box.hidden = bots.length === 0;
}

const pct = (x) => `${Math.round(x * 100)}%`;

/** 1.5 GiB, 612.4 MiB, 12 KiB, 900 bytes: as bots/tiers.py human_bytes says a size. */
export function humanBytes(n) {
  for (const [unit, size] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024]]) {
    if (n >= size) return `${(n / size).toFixed(1).replace(/\.0$/, "")} ${unit}`;
  }
  return `${n} bytes`;
}

/** A bot's size as measured when the match started (artefacts, code, packages), for its card. */
function sizeOf(seat) {
  const s = seat.size;
  if (!s || typeof s.bytes !== "number") return { size: null, sizeParts: null };
  const parts = [["artefacts", s.artefacts], ["code", s.code], ["packages", s.packages]]
    .filter(([, n]) => typeof n === "number").map(([name, n]) => `${name} ${humanBytes(n)}`);
  return { size: humanBytes(s.bytes), sizeParts: parts.join(" + ") };
}
const unit = (x) => (typeof x === "number" && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : null);

const BUZZ_VERDICT = { accept: ", ruled right", reject: ", ruled wrong" };

/**
 * What a bot's card says, from its card c (question.bot_cards[seat]; none before the question):
 * its own confidence in its top guess with its threshold on the same bar, its other top guesses with
 * their scores ([[text, score], ...]), "no guess yet" rather than a blank, settled once the question
 * closes, a miss said as one.
 */
export function botCardState(view, seat) {
  const q = view.question;
  const c = q?.bot_cards?.[seat.id] || null;
  const settled = view.status === "finished" || !!q?.closed || c?.state === "settled";
  const guess = typeof c?.guess === "string" && c.guess.trim() ? c.guess.trim() : null;
  // Its other top guesses (the card has at most MAX_GUESSES in all), each with its score on the card's scale.
  const others = guess ? (c.guesses || []).map(([text, score]) => [String(text ?? "").trim(), unit(score) ?? 0])
    .filter(([text]) => text && text !== guess) : [];
  const state = { guess, confidence: guess ? unit(c.confidence) : null, threshold: unit(c?.threshold), word: c?.word ?? null,
    buzz: !!c?.buzz, settled, others, note: "", buzzedAt: c?.buzzed_at ?? null, buzzVerdict: c?.buzz_verdict ?? null,
    ...sizeOf(seat) };
  // Its buzz, at the word the console and the question's marker show: said even while its guess is held.
  const buzzed = state.buzzedAt === null ? "" : `buzzed at word ${state.buzzedAt}${BUZZ_VERDICT[state.buzzVerdict] || ""}`;
  state.buzzed = buzzed;
  if (seat.stopped) {
    state.note = "stopped for the rest of the match";
    state.missed = true;
    state.stopped = true;
  } else if (c?.missed) {
    state.note = c.missed === "timed_out" ? "no answer (timed out)" : "failed: no answer";
    state.missed = true;
  } else if (!q) {
    state.note = "waiting for the question";
  } else if (!guess && buzzed) {
    state.note = buzzed;
  } else if (!guess && c?.answered && !settled) {
    state.note = "has answered (shown once the humans are done)";
  } else if (!guess) {
    const own = view.rules ? view.rules.phases.findIndex((ph) => ph.bot_tier === seat.tier) : -1;
    if (settled || (own >= 0 && own + 1 < q.phase && view.audience === "moderator")) state.note = "no guess on this question";
    // The hall cannot tell a bot that said nothing from one whose guesses wait for the question to end.
    else if (own >= 0 && own + 1 < q.phase) state.note = "its guesses show when the question is over";
    else if (own >= 0 && own + 1 > q.phase) state.note = `plays in phase ${own + 1}`;
    else state.note = c?.state === "guessing" ? "no guess" : "no guess yet";
  }
  if (settled && q?.result?.seat === seat.id) state.right = true;
  return state;
}

/**
 * One bot's card: name and tier, its top guess with a confidence bar against its threshold, and its
 * other top guesses (QANTA's exhibition showed five), each with a bar and its score on the same scale.
 */
export function botCard(view, seat) {
  const s = botCardState(view, seat);
  const card = el("div", { class: `bot-card ${teamClass(view, seat.team)}${s.buzz && !s.settled ? " buzzing" : ""}${s.settled ? " settled" : ""}${s.missed ? " missed" : ""}`,
    "data-seat": seat.id, "data-state": s.stopped ? "stopped" : s.missed ? "missed" : s.settled ? "settled" : s.guess ? "guessed" : s.buzzed ? "buzzed" : "waiting" },
  el("div", { class: "bot-head" }, el("span", { class: "bot-name", title: botLabel(seat), text: botLabel(seat) }), seat.tier ? el("span", { class: "pill", text: seat.tier }) : null,
    s.size ? el("span", { class: "pill size", text: s.size, title: `measured at the start: ${s.sizeParts}` }) : null));
  if (!s.guess || s.missed) {
    card.append(el("p", { class: `bot-note${s.missed ? " missed" : ""}`, text: s.note }));
    return card;
  }
  const bar = el("div", { class: "bar", role: "img", "aria-label": `confidence ${pct(s.confidence ?? 0)}${s.threshold !== null ? `, buzzes at ${pct(s.threshold)}` : ""}` },
    el("div", { class: "fill", style: `width:${pct(s.confidence ?? 0)}` }));
  if (s.threshold !== null) bar.append(el("div", { class: "threshold", style: `left:${pct(s.threshold)}`, title: `buzz threshold ${pct(s.threshold)}` }));
  card.append(el("div", { class: "guess-row top" },
    el("span", { class: "guess" }, s.settled ? el("span", { class: "final-label", text: "final: " }) : null, s.guess),
    el("span", { class: "pct", text: s.confidence === null ? "" : pct(s.confidence) }), bar));
  if (s.others.length) {
    card.append(el("ol", { class: "bot-alts", start: 2, "aria-label": "its next guesses" }, s.others.map(([text, score]) => el("li", {},
      el("span", { class: "alt-guess", title: text, text }),
      el("span", { class: "bar", role: "img", "aria-label": `score ${pct(score)}` }, el("span", { class: "fill", style: `width:${pct(score)}` })),
      el("span", { class: "pct", text: pct(score) })))));
  }
  // Word positions count the words revealed (1-based), as the console's "buzzed at word N" does.
  const foot = [s.word !== null ? `guessed at word ${s.word}` : "", s.threshold !== null ? `buzzes at ${pct(s.threshold)}` : "",
    s.buzzed || (s.buzz ? "buzzing" : ""), s.right ? "right" : ""].filter(Boolean).join(" · ");
  if (foot) card.append(el("p", { class: "bot-foot muted", text: foot }));
  return card;
}

/**
 * Text with a few inline tags, made safe: parsed into an inert document, and only its text and the
 * tags named in keep are copied (as new, attribute-free elements), so nothing in it can run or style
 * the page. Search snippets (phase 3) keep <mark> around the matched terms (the server sends each
 * passage HTML-escaped); answer lines keep the bold and underlined words the judge requires.
 */
export function markedNodes(marked, keep = ["MARK"]) {
  const copy = (node) => (keep.includes(node.nodeName)
    ? el(node.nodeName.toLowerCase(), {}, ...[...node.childNodes].map(copy))
    : document.createTextNode(node.textContent));
  const doc = new DOMParser().parseFromString(`<p>${marked || ""}</p>`, "text/html");
  const holder = doc.body.firstElementChild;
  return [...(holder ? holder.childNodes : [])].map(copy);
}

/** An answer line as the moderator reads it: its required words bold or underlined, as the packet has them. */
export const ANSWER_LINE_TAGS = ["B", "U", "STRONG", "EM", "I"];
export function answerLineNodes(line) { return markedNodes(line, ANSWER_LINE_TAGS); }

export function renderSnippets(box, view) {
  const open = view.question && !view.question.closed;
  const found = open ? view.question.snippets || [] : [];
  const failed = open ? view.question.search_error || null : null;  // the search failed or ran out of time
  box.replaceChildren(...(found.length || failed ? [el("h3", { text: "Search results" })] : []),
    ...(failed ? [el("p", { class: "snippets-error", role: "status", text: failed })] : []),
    ...found.map((s) => el("article", { class: "snippet" }, el("strong", { text: s.title }), el("p", {}, markedNodes(s.marked || s.text)))));
  box.hidden = !found.length && !failed;
}

/**
 * Per phase, how many questions each team won and the points they took (from the closed questions'
 * results), and what else moved the score (penalties, adjustments): the end-of-match summary.
 */
export function phaseSummary(view) {
  const phases = view.rules?.phases?.length || 1;
  const zero = () => Object.fromEntries(view.teams.map((t) => [t.id, { won: 0, points: 0 }]));
  const rows = Array.from({ length: phases }, (_, i) => ({ phase: i + 1, teams: zero() }));
  const fromQuestions = Object.fromEntries(view.teams.map((t) => [t.id, 0]));
  for (const h of view.history) {
    const r = h.result;
    if (h.thrown_out || !r || !rows[r.phase - 1]?.teams[r.team]) continue;
    rows[r.phase - 1].teams[r.team].won += 1;
    rows[r.phase - 1].teams[r.team].points += r.points;
    fromQuestions[r.team] += r.points;
  }
  const other = Object.fromEntries(view.teams.map((t) => [t.id, (view.scores[t.id] ?? 0) - fromQuestions[t.id]]));
  return { rows, other, hasOther: Object.values(other).some((v) => v !== 0) };
}

function winsSuffix(name) { return /s$/i.test(name) ? " win!" : " wins!"; }

/** A team's name in the closing moment: on the big screen a long one is cut short with an ellipsis. */
const finalName = (name) => el("span", { class: "final-name", title: name, text: name });

/** The scores as called at the final whistle: the scores now, less every correction made since. */
export function calledScores(view) {
  const called = { ...view.scores };
  for (const c of view.corrections || []) for (const [team, pts] of Object.entries(c.score_changes || {})) called[team] = (called[team] ?? 0) - pts;
  return called;
}

/** One correction after the final, in words: what changed and what it did to the score. */
export function correctionText(view, c) {
  const moved = Object.entries(c.score_changes || {}).map(([team, pts]) => `${teamName(view, team)} ${pts > 0 ? "+" : ""}${pts}`).join(", ");
  const what = c.kind === "override" ? `Question ${c.number}: ruling changed to ${c.verdict}` : `${teamName(view, c.team)} adjusted`;
  return `${what}${moved ? ` (${moved})` : ""}`;
}

/** The closing moment: winner, final score, the per-phase summary and where to look back at it all. */
export function renderFinal(box, view, { links = [] } = {}) {
  box.hidden = view.status !== "finished";
  if (box.hidden) { box.replaceChildren(); return; }
  const summary = phaseSummary(view);
  const head = el("tr", {}, el("th", { text: "" }), view.teams.map((t) => el("th", { class: teamClass(view, t.id) }, finalName(t.name))));
  const line = (label, cell) => el("tr", {}, el("th", { scope: "row", text: label }), view.teams.map((t) => el("td", { text: cell(t.id) })));
  const single = summary.rows.length === 1;
  const body = summary.rows.map((r) => line(single ? "Questions won" : `Phase ${r.phase}`, (id) => {
    const x = r.teams[id];
    return `${x.won} won · ${x.points > 0 ? "+" : ""}${x.points}`;
  }));
  if (summary.hasOther) body.push(line("Penalties & adjustments", (id) => `${summary.other[id] > 0 ? "+" : ""}${summary.other[id]}`));
  const corrected = (view.corrections || []).length > 0;
  body.push(line(corrected ? "Final, corrected" : "Final", (id) => String(view.scores[id] ?? 0)));
  const called = corrected ? calledScores(view) : null;
  box.replaceChildren(...[  // (replaceChildren writes a null as the text "null": the parts left out are filtered)
    el("p", { class: "final-winner" }, view.winner ? [finalName(teamName(view, view.winner)), winsSuffix(teamName(view, view.winner))] : "A tie!"),
    el("p", { class: "final-score" }, view.teams.flatMap((t, i) => [i ? " — " : "", finalName(t.name), ` ${view.scores[t.id] ?? 0}`])),
    corrected ? el("p", { class: "final-corrected" }, el("span", { class: "pill warn", text: "corrected after the final" }),
      ` As called at the final whistle: ${view.teams.map((t) => `${t.name} ${called[t.id] ?? 0}`).join(" — ")}. `,
      view.corrections.map((c) => correctionText(view, c)).join("; "), ".") : null,
    el("table", { class: "final-table" }, el("thead", {}, head), el("tbody", {}, body)),
    links.length ? el("p", { class: "final-links" }, links.flatMap(([href, text]) => [el("a", { href, text }), " "])) : null,
  ].filter(Boolean));
}

export function statusText(status) {
  return { connecting: "connecting…", live: "connected", offline: "reconnecting…", retrying: "waiting for the server…",
    error: "connected", ended: "closed", closed: "closed" }[status] || status;
}

/**
 * Say in the page's #ended panel why its socket closed for good (FINAL_CLOSES), with what to do next:
 * `actions` are [href, text] links or [null, text, onclick] buttons, the first one the main one.
 */
export function showEnded(reason, actions = []) {
  const box = document.getElementById("ended");
  box.replaceChildren(el("p", { class: "ended-text", text: reason }),
    el("p", { class: "ended-actions" }, actions.map(([href, text, onclick], i) => href
      ? el("a", { class: i ? "button" : "button primary", href, text })
      : el("button", { class: i ? "" : "primary", type: "button", onclick, text }))));
  box.hidden = false;
  document.body.classList.add("is-ended");
  box.scrollIntoView({ block: "nearest" });
}

/** Show `message` in the page's #toast for a few seconds. */
export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

/**
 * Open this page's match socket (its address comes from #page-config; a player's seat token stays in
 * the session cookie, never in the page) and wire the parts every live page has: the connection badge
 * #conn, the #toast for refusals and the #timer. onEnd({code, reason}) runs if the server closes the
 * socket for good. Returns {config, client, toast, command}; command(type, data) shows a refusal as a toast.
 */
export function openScreen({ audience, render, onEnd = ({ reason }) => showEnded(reason) }) {
  const config = JSON.parse(document.getElementById("page-config").textContent);
  const $ = (id) => document.getElementById(id);
  const client = new MatchClient({
    path: config.socket,
    audience,
    onEnd,
    // The timer is drawn with the rest (not only on the next tick), so a page that fits its text to
    // the space left (the big screen) measures the layout it will show.
    onChange: (view, frame) => { renderTimer($("timer"), view, client.now()); render(view, frame); },
    onStatus: (status, message) => {
      $("conn").textContent = statusText(status);
      $("conn").className = `conn ${status}`;
      if (message && $("toast")) toast(message);
    },
  });
  const command = (type, data = {}) => client.send(type, data).catch((err) => { toast(err.message); throw err; });
  tick(() => renderTimer($("timer"), client.view, client.now()));
  return { config, client, toast, command };
}
