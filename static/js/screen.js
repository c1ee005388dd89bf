// The spectator screen's drawing, in one place: the live big screen (watch.js) and the replay
// (replay.js) both draw a view model with renderScreen, into the markup of
// templates/includes/screen.html. Change the big screen here and the replay changes with it.
//
// It shows the question as it is read, the scoreboard with each side's part in the phase (priority,
// the floor, answered, passed, out), the phase and its clock, where each buzz came, each answer and
// ruling, the answer at the close, each bot's card, and at the end the closing moment. During a tossup's
// bonus the question's place shows the bonus (bonus-parts.js: its leadin, the parts as read, each part's
// result and answer) and the banner keeps the tossup's answer, with the bonus's total once it is over.
//
// The screen never scrolls: its parts share the height of the box it is drawn in. The question's text
// shrinks until it fits (fitText), never below the size the back row of a hall reads (the CSS
// variable --floor on a hall's page); when even that is too big, the question keeps its latest words in
// view. Everything else keeps its size and shows fewer items instead: the bot cards drop their lower
// guesses (the console has them all), the feed its older lines, the phase-3 search results the later
// results (fitSnippets, fitItems).

import { bonusTotal, renderBonus } from "./bonus-parts.js";
import { seatName, teamName } from "./match-fold.js";
import { el, phaseText, renderBots, renderFeed, renderFinal, renderQuestion, renderScores, renderSnippets, teamClass } from "./ui.js";

const $ = (id) => document.getElementById(id);

/** Draw the screen for `view`. links: [[href, text], ...] offered in the closing moment. */
export function renderScreen(view, { links = [] } = {}) {
  const q = view.question;
  const finished = view.status === "finished";
  document.body.classList.toggle("is-paused", view.paused);
  document.body.classList.toggle("is-final", finished);
  renderScores($("scores"), view);
  markSides($("scores"), view);
  $("phase").textContent = view.paused ? `${phaseText(view)} · paused` : phaseText(view);
  if (q?.bonus) renderBonus($("question"), view);
  else renderQuestion($("question"), view);
  renderBots($("bots"), view);
  renderSnippets($("snippets"), view);
  renderFeed($("feed"), view, { limit: 3, omit: ["closed"] });  // the answer has its own banner
  renderFinal($("final"), view, { links });
  const box = $("answer-line");
  box.replaceChildren();
  if ((q?.closed || q?.bonus) && !finished) {  // during a bonus: the tossup's answer, heard before it
    const r = q.result;
    box.append(el("span", { class: "label", text: "Answer" }), el("strong", { class: "answer", text: q.answer || "" }),
      el("span", { class: "outcome" }, r ? [el("span", { class: "outcome-team", text: teamName(view, r.team) }), ` +${r.points}`] : "nobody got it"));
    if (q.bonus?.ended) box.append(el("span", { class: "outcome bonus-outcome", text: `Bonus: ${bonusTotal(view, q.bonus)}` }));
  }
  box.hidden = !box.childElementCount;
  fitScreen(view);
}

// -- each side's part in the phase, on its score card ------------------------------------------------

/** [[kind, text], ...] for a team on the question in play: priority, the floor (with who holds it), answered, passed, out. */
export function sideMarks(view, team) {
  const q = view.question;
  if (!q || q.closed || view.status !== "live") return [];
  const marks = [];
  const b = q.bonus;
  if (b) {  // a bonus: whose it is, and who confers on the part in play
    if (b.team === team) marks.push(["priority", "bonus"]);
    if (b.answering === team) marks.push(b.typed ? ["done", "answered"] : ["busy", b.bounce ? "bounceback" : "conferring"]);
    return marks;
  }
  if ((view.rules?.phases?.length || 1) > 1 && q.priority === team) marks.push(["priority", "priority"]);
  if (q.mode === "team") {
    const submitted = Object.hasOwn(q.submissions || {}, team);
    if (q.locked.includes(team)) marks.push(["out", "ruled wrong"]);
    else if (q.passed.includes(team)) marks.push(["out", "passed"]);
    else if (submitted) marks.push(["done", "answered"]);
    else marks.push(["busy", "discussing"]);
    if (q.floor === team && !q.locked.includes(team)) marks.push(["floor", "ruled first"]);
  } else if (q.possession?.team === team) {
    marks.push(["floor", `${seatName(view, q.possession.seat)} answering`]);  // the buzzer's light, while they hold the floor
  } else if (q.locked.includes(team)) {
    marks.push(["out", "locked out"]);
  }
  return marks;
}

function markSides(box, view) {
  for (const card of box.querySelectorAll(".score")) {
    const marks = sideMarks(view, card.dataset.team);
    if (marks.length) card.append(el("span", { class: "side-marks" }, marks.map(([kind, text]) => el("span", { class: `side-mark ${kind}`, text }))));
  }
}

// -- fitting the screen ------------------------------------------------------------------------

const FIT = [  // [element id, largest and smallest font size in em of the screen's own; never below --floor]
  ["question", 2.3, 0.6],
];
const fitted = new Map();  // id -> {key, size}: within one phase of a question, text only ever shrinks

const fits = (box) => box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;

/** A font size of `em` of the box's parent, but never below the page's --floor (a hall's smallest text). */
const sizeAtLeastFloor = (em) => `max(var(--floor, 0px), ${em}em)`;

/**
 * The largest font size in [min, max] em (to a hundredth) at which box's content fits its own
 * height, found by halving; the box's height must not depend on its content (a grid or flex share).
 * No size goes below the page's --floor. If nothing fits, the smallest size, scrolled to the end so
 * the latest words stay in view.
 */
export function fitText(box, max, min) {
  box.style.fontSize = sizeAtLeastFloor(max);
  box.scrollTop = 0;
  if (fits(box)) return max;
  let lo = min, hi = max;
  while (hi - lo > 0.01) {
    const mid = (lo + hi) / 2;
    box.style.fontSize = sizeAtLeastFloor(mid);
    if (fits(box)) lo = mid; else hi = mid;
  }
  box.style.fontSize = sizeAtLeastFloor(lo);
  if (!fits(box)) box.scrollTop = box.scrollHeight;
  return lo;
}

/**
 * Show all of `items` (elements inside box), then hide them one at a time, in the order given, until
 * box's content fits its height: a box that keeps its text's size shows fewer things instead.
 * Returns how many are hidden.
 */
export function fitItems(box, items) {
  items.forEach((item) => { item.hidden = false; });
  box.scrollTop = 0;
  let hidden = 0;
  while (hidden < items.length && !fits(box)) items[hidden++].hidden = true;
  return hidden;
}

/**
 * What the bot cards give up when they do not all fit, first to last: their lowest guesses (the fifth
 * guesses of every card, then the fourth, down to the third), then their footnotes, then their second
 * guesses, then their measured sizes; each time the last card first. The name, its tier, the top
 * guess and its bar always stay.
 */
function botExtras(box) {
  const cards = [...box.querySelectorAll(".bot-card")].reverse();
  const alts = cards.map((card) => [...card.querySelectorAll(".bot-alts li")]);
  const extras = [];
  for (let rank = Math.max(0, ...alts.map((a) => a.length)) - 1; rank >= 1; rank--) {
    for (const list of alts) if (list[rank]) extras.push(list[rank]);
  }
  for (const card of cards) extras.push(...card.querySelectorAll(".bot-foot"));
  for (const list of alts) if (list[0]) extras.push(list[0]);
  for (const card of cards) extras.push(...card.querySelectorAll(".pill.size"));
  return extras;
}

/** The bot cards at the size the room reads, with as many of their extras as fit (botExtras). */
export function fitBots(box) {
  box.querySelectorAll(".bot-alts").forEach((list) => { list.hidden = false; });
  const hidden = fitItems(box, botExtras(box));
  box.querySelectorAll(".bot-alts").forEach((list) => { list.hidden = !list.querySelector("li:not([hidden])"); });
  return hidden;
}

/** The feed at the size the room reads: its newest lines that fit (it lists the newest first). */
export function fitFeed(box) {
  const items = [...box.children].reverse();
  const hidden = fitItems(box, items);
  box.classList.toggle("is-empty", hidden === items.length);
  return hidden;
}

const SNIPPET_LINES = [4, 3, 2, 1];  // a passage's lines at most, tried in turn until the first result fits

/**
 * The search results as a room reads them: at their own size (CSS: at least 20 px on a hall's
 * screen), as many as wholly fit the panel from the first on, each passage clamped to a few lines;
 * the heading says when some are left out. The panel is never scrolled, so the first result always
 * shows from its top. Only when the first alone does not fit are the passages clamped shorter.
 */
export function fitSnippets(box) {
  const items = [...box.querySelectorAll(".snippet")];
  box.scrollTop = 0;
  let shown = items.length;
  for (const lines of SNIPPET_LINES) {
    box.style.setProperty("--snippet-lines", lines);
    items.forEach((item) => { item.hidden = false; });
    shown = items.length;
    while (shown > 1 && !fits(box)) items[--shown].hidden = true;
    if (fits(box)) break;
  }
  const head = box.querySelector("h3");
  if (head) head.textContent = shown < items.length ? `Search results · first ${shown} of ${items.length}` : "Search results";
  return shown;
}

function fitScreen(view) {
  const snippets = $("snippets");
  if (snippets && !snippets.hidden) fitSnippets(snippets);
  const bots = $("bots");
  if (bots && !bots.hidden) fitBots(bots);
  const feed = $("feed");
  if (feed) fitFeed(feed);
  const q = view.question;
  const key = q ? `${q.number}|${q.phase}|${q.closed}|${q.bonus ? "bonus" : ""}|${view.status}` : view.status;
  for (const [id, max, min] of FIT) {
    const box = $(id);
    if (!box || box.hidden || !box.clientHeight) continue;
    const last = fitted.get(id);
    const size = fitText(box, last && last.key === key ? last.size : max, min);
    fitted.set(id, { key, size });
  }
}

/**
 * Fit again from the largest sizes whenever the screen's body changes size: the window is resized,
 * or a part above or below it (the timer, the answer banner, a hint) comes or goes. The body's size
 * never depends on the text fitted inside it, so fitting cannot set off another round.
 */
export function keepFitted(getView) {
  const body = document.querySelector(".screen-body");
  if (!body || typeof ResizeObserver === "undefined") return;
  let last = "";
  new ResizeObserver(() => {
    const size = `${body.clientWidth}x${body.clientHeight}`;
    if (size === last) return;
    last = size;
    fitted.clear();
    fitScreen(getView());
  }).observe(body);
}

// -- a buzz: the buzzer's name flashes --------------------------------------------------------

let flashTimer = null;

/** Flash the buzzer's name when `frame` is a buzz; returns whether it did. */
export function flashBuzz(view, frame) {
  if (frame?.type !== "buzz" || !frame.data) return false;
  const box = $("buzz-flash");
  const seat = view.seats[frame.data.seat];
  box.className = `buzz-flash ${teamClass(view, frame.data.team)}`;
  const name = seat?.name ?? "Someone";
  // --chars sizes a long name down so that it takes two lines at most (CSS .flash-name).
  box.replaceChildren(el("span", { class: "flash-name", style: `--chars:${Math.max(1, name.length)}`, text: name }),
    el("span", { class: "flash-team" }, el("span", { class: "flash-who", text: teamName(view, frame.data.team) }), " buzzed"));
  box.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { box.hidden = true; }, 1600);
  return true;
}

