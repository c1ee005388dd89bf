// A tossup's bonus as the console, the phones and the hall draw it (one drawing, so they never disagree):
// who controls it, its leadin, each part as read with its value, each part's result (✓ / ✗ / ?, whose
// answer, the points, a bounceback marked), the part's answer once the part is over, and the bonus's
// total. It reads only the fold's question.bonus (docs/wire-protocol.md "Bonuses"): what a screen is not
// told (an unread part, an answer line before its part is over) is simply not there. The moderator's
// fold has every part's text and whole answer line from the start; the console marks the part in play
// and shows each answer line with its required words (answerLineNodes). Everything typed is text.

import { seatName, teamName } from "./match-fold.js";
import { answerLineNodes, el, teamClass } from "./ui.js";

const MARK = { accept: "✓", reject: "✗", prompt: "?" };
// A team's decision on a part (formats with bonus_decisions, game/engine/ai_points.py): its button, and what the part is worth under it.
const DECISION_BUTTON = { own: "Own answer", consult: "Consult AI", abstain: "Abstain" };
const DECISION_WORTH = {
  own: (p) => `Own answer: ${p} if right`,
  consult: (p) => `Consulted AI: ${p} if right`,
  abstain: (p) => `Abstained: ${p} if nobody is right`,
};
const plus = (n) => `${n > 0 ? "+" : ""}${n}`;

/** Whether part k can no longer be answered: ruled and not handed on (a bounceback or a prompt), or skipped past. */
export function partOver(b, k) {
  return b.ended || k < b.part || (k === b.part && b.answering === null && b.parts[k].rulings.length > 0);
}

/** Who answers part k now, in words, or "" when nobody does: "Humans confer", "Machines' bounceback". */
function turnText(view, b, k) {
  if (k !== b.part || b.answering === null || b.ended) return "";
  const team = teamName(view, b.answering);
  if (b.typed || (!b.bounce && b.parts[k].decision?.decision === "abstain")) return "";  // its decision line says it
  return b.bounce ? `bounceback: ${team} confer` : `${team} confer`;
}

/** Whether the team controlling the bonus may still decide on the part in play: read, not answered, no bounceback. */
export function mayDecide(view, b) {
  return !!view.rules?.bonus_decisions && view.status === "live" && !view.paused && !b.ended && b.part >= 0
    && b.answering === b.team && !b.bounce && !b.typed && b.parts[b.part].rulings.length === 0;
}

/** The decision buttons for the part in play (the current decision pressed); decide(decision) sends it. */
export function decisionButtons(b, decide) {
  const current = b.parts[b.part].decision?.decision;
  return el("div", { class: "decision-buttons", role: "group", "aria-label": `Decide on part ${b.part + 1}` },
    Object.entries(DECISION_BUTTON).map(([decision, label]) => el("button", {
      type: "button", class: `decision ${decision}`, "data-decision": decision, "aria-pressed": String(current === decision),
      text: label, onclick: () => decide(decision) })));
}

/** On an abstained part the moderator's accept means that nobody was right: the ruling's words say so. */
function verdictText(r, abstained) {
  if (abstained && !r.bounce && r.verdict !== "prompt") return r.verdict === "accept" ? `nobody was right ${plus(r.points)}` : "somebody was right";
  return r.verdict === "accept" ? `right ${plus(r.points)}` : r.verdict === "prompt" ? "prompt" : "wrong";
}

function rulingItem(view, r, abstained) {
  const who = r.seat ? seatName(view, r.seat) : teamName(view, r.team);
  const said = r.text ?? r.heard;
  return el("li", { class: `bonus-ruling ${r.verdict} ${teamClass(view, r.team)}` },
    el("span", { class: "mark", "aria-hidden": "true", text: MARK[r.verdict] }), " ",
    el("span", { class: "who", text: who }), " ",
    said ? el("q", { class: "said", text: said }) : el("span", { class: "said none", text: r.by === "clock" ? "no answer in time" : "no answer" }), " ",
    el("span", { class: `verdict ${r.verdict}`, text: verdictText(r, abstained) }),
    r.bounce ? el("span", { class: "pill bounce", text: "bounceback" }) : null);
}

function typedItem(view, b) {
  const t = b.typed;
  return el("p", { class: `bonus-typed ${teamClass(view, t.team)}` },
    el("span", { class: "who", text: `${seatName(view, t.seat)} (${teamName(view, t.team)})` }), " ",
    el("q", { class: "said", text: t.text }), " ", el("span", { class: "waits", text: b.bounce ? "bounceback, waiting for the ruling" : "waiting for the ruling" }));
}

function partItem(view, b, k, moderator) {
  const part = b.parts[k];
  const over = partOver(b, k);
  const inPlay = k === b.part && !over;
  const state = inPlay ? "in-play" : over ? "over" : "unread";
  const text = part.text == null ? el("span", { class: "unread-note", text: "not read yet" }) : el("span", { class: "part-text", text: part.text });
  // Anyone but the moderator is sent a part's answer only once the part is over (it stays shown if an undo reopens it).
  const answer = part.answer != null
    ? el("p", { class: "part-answer" }, el("span", { class: "label", text: "Answer " }),
      moderator ? el("strong", {}, answerLineNodes(part.answer)) : el("strong", { text: part.answer }))
    : null;
  const turn = turnText(view, b, k);
  const decided = part.decision;
  return el("li", { class: `bonus-part ${state}`, "data-part": k, "data-state": state },
    el("p", { class: "part-head" }, el("span", { class: "part-value", text: `[${part.value}]` }), " ", text,
      inPlay && moderator ? el("span", { class: "pill", text: "in play" }) : null),
    decided ? el("p", { class: `part-decision ${decided.decision}`, "data-decision": decided.decision,
      text: DECISION_WORTH[decided.decision](decided.points) }) : null,
    part.rulings.length ? el("ul", { class: "bonus-rulings" }, part.rulings.map((r) => rulingItem(view, r, decided?.decision === "abstain"))) : null,
    inPlay && b.typed ? typedItem(view, b) : null,
    turn ? el("p", { class: "bonus-turn", text: turn }) : null,
    answer);
}

/** A bonus's points so far, by team: "Humans 20 · Machines 10 on bouncebacks" (of question.bonus, or a history entry's bonus). */
export function bonusTotal(view, b) {
  const controlling = b.points[b.team] ?? 0;
  const others = view.teams.filter((t) => t.id !== b.team && b.points[t.id]);
  return [`${teamName(view, b.team)} ${controlling}`,
    ...others.map((t) => `${t.name} ${b.points[t.id]} on bouncebacks`)].join(" · ");
}

/** Draw the bonus of the question in play into box (replacing what it held); nothing when there is none. */
export function renderBonus(box, view, { moderator = false } = {}) {
  const b = view.question?.bonus;
  if (!b) { box.replaceChildren(); return; }
  const shown = b.parts.map((_, k) => k).filter((k) => moderator || b.parts[k].text != null);
  box.replaceChildren(el("div", { class: `bonus-view ${teamClass(view, b.team)}`, "data-bonus": b.index },
    el("p", { class: "bonus-head" }, el("span", { class: "bonus-team", text: `Bonus for ${teamName(view, b.team)}` }),
      el("span", { class: "bonus-total", text: `${b.ended ? "Total" : "So far"}: ${bonusTotal(view, b)}` })),
    el("p", { class: "bonus-leadin", text: b.leadin }),
    el("ol", { class: "bonus-parts" }, shown.map((k) => partItem(view, b, k, moderator))),
    !moderator && !b.ended && shown.length < b.parts.length
      ? el("p", { class: "bonus-next muted", text: `${b.parts.length - shown.length} part${b.parts.length - shown.length === 1 ? "" : "s"} to come` }) : null));
}
