// The captain's Protest button on the phone: for the match's protest_seconds after a final ruling
// (accept or reject, not a pass, not already corrected), a short reason box and a button. Either team's
// captain may protest (game/engine/protests.py); the engine checks it all again.

import { seatName } from "./match-fold.js";
import { el } from "./ui.js";

const MAX_PROTEST = 300;  // game/engine/protests.py MAX_PROTEST

/** The ruling this team may protest now, or null: the latest final ruling still within the window. */
export function protestable(view, team, now) {
  if (!view.rules || view.status === "setup") return null;
  const span = view.rules.protest_seconds * 1000;  // 0: protests are off
  if (!span) return null;
  const latest = Object.values(view.rulings).filter((r) => r.verdict !== "prompt" && r.by !== "pass"
    && !r.overridden && !r.withdrawn && r.t != null && now - r.t <= span).sort((a, b) => b.id - a.id)[0];
  if (!latest) return null;
  const taken = (view.protests || []).some((p) => p.ruling === latest.id && (p.status === "open" || p.team === team));
  return taken ? null : latest;
}

let shownFor = null;  // the ruling the form is for: kept while the captain types
let timer = null;

/** Draw the box into `box`; `redraw` is called when the window closes. */
export function renderProtestBox(box, view, { me, team, now, send, redraw }) {
  const captain = !!view.seats[me]?.captain;
  const mine = (view.protests || []).filter((p) => p.team === team && p.status === "open");
  const target = captain ? protestable(view, team, now) : null;
  clearTimeout(timer);
  if (!target) {
    shownFor = null;
    box.replaceChildren(...(mine.length ? [el("p", { class: "small", text: "Your team's protest is with the moderator." })] : []));
    box.hidden = !mine.length;
    return;
  }
  timer = setTimeout(redraw, target.t + view.rules.protest_seconds * 1000 - now + 50);
  box.hidden = false;
  if (shownFor === target.id) return;
  shownFor = target.id;
  const who = target.seat ? seatName(view, target.seat) : "the team";
  const said = target.text || target.heard;
  const input = el("input", { id: "protest-input", type: "text", maxlength: String(MAX_PROTEST), autocomplete: "off",
    enterkeyhint: "send", placeholder: "Why was the ruling wrong?" });
  const form = el("form", { class: "answer-form", autocomplete: "off", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) { input.focus(); return; }
    send("protest", { ruling: target.id, text }).then(() => { input.value = ""; }).catch(() => {});
  } },
  el("label", { for: "protest-input", class: "label" },
    `Protest the ruling: ${who}${said ? ` “${said}”` : ""} → ${target.verdict}`),
  el("div", { class: "input-row" }, input, el("button", { type: "submit", text: "Protest" })));
  box.replaceChildren(form);
}
