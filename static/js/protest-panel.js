// The console's protests card: each open protest with the team's reason and the ruling it names, a
// reason box and Uphold / Overturn; resolved ones below. An overturn after the final whistle goes
// through the console's correction confirmation, as an override does.

import { seatName, teamName } from "./match-fold.js";
import { el } from "./ui.js";

let drawn = "";  // which protests and statuses the card shows: redrawn only when that changes, so typing survives

export function renderProtests(card, list, view, { command, askCorrection }) {
  const protests = view.protests || [];
  card.hidden = !protests.length;
  const key = JSON.stringify([view.status, protests.map((p) => [p.id, p.status])]);
  if (key === drawn) return;
  drawn = key;
  list.replaceChildren(...[...protests].reverse().map((p) => item(view, p, command, askCorrection)));
}

function rulingText(view, p) {
  const r = view.rulings[p.ruling];
  const who = r?.seat ? seatName(view, r.seat) : teamName(view, p.team);
  const said = r ? r.text || r.heard : null;
  return `Q${p.number}: ${who}${said ? ` “${said}”` : ""} → ${p.verdict}`;
}

function item(view, p, command, askCorrection) {
  const head = el("p", {}, el("strong", { text: `${teamName(view, p.team)} protests` }), " ", rulingText(view, p));
  const text = el("p", { class: "protest-text" }, el("q", { text: p.text || "" }));
  if (p.status !== "open") {
    return el("li", { class: `protest ${p.status}` }, head, text,
      el("p", { class: "small" }, el("span", { class: "pill", text: p.status }), p.reason ? ` ${p.reason}` : ""));
  }
  const reason = el("input", { type: "text", maxlength: "200", autocomplete: "off", "aria-label": `Reason for protest ${p.id}` });
  const shown = el("input", { type: "checkbox" });
  const resolve = (outcome) => {
    const why = reason.value.trim();
    if (!why) { reason.focus(); return; }
    const data = { protest: p.id, outcome, reason: why, public: shown.checked };
    if (outcome === "overturned" && view.status === "finished") {
      askCorrection({ kind: "resolve_protest", data, what: `Overturn the protest: ${rulingText(view, p)} (${why})` });
      return;
    }
    command("resolve_protest", data).catch(() => {});
  };
  return el("li", { class: "protest open" }, head, text,
    el("label", { class: "field" }, el("span", { class: "label", text: "Reason" }), reason),
    el("label", { class: "check" }, shown, " Show the reason to the room"),
    el("p", { class: "row" },
      el("button", { type: "button", onclick: () => resolve("upheld"), text: "Uphold (the ruling stands)" }),
      el("button", { type: "button", class: "danger", onclick: () => resolve("overturned"), text: "Overturn" })));
}
