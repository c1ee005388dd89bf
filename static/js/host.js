// The new-match form: when the host picks a format, each rule field left empty shows that format's
// own value (greyed, as its placeholder), and only the phases the format has, with the settings of
// each phase's kind (a buzz phase has dead time and negs, a team phase discussion time), are shown.
// The question order shows the chosen packet's categories (with how many questions each has from
// the start question on), the seed only for a shuffle, the power-mark choice only where a buzz phase
// gives power points, and says how many questions the settings leave before the match is made.

const presets = JSON.parse(document.getElementById("format-presets").textContent);
const form = document.getElementById("new-match");

function showPreset() {
  const preset = presets[form.format_name.value];
  if (!preset) return;
  for (const [name, value] of Object.entries(preset.fields)) {
    const input = form.elements[name];
    if (!input) continue;
    if (input.tagName === "SELECT") {  // the format's choice by its name on the page ("after the humans"), not its key
      const same = [...input.options].find((o) => o.value !== "" && o.value === String(value));
      input.options[0].textContent = `${same ? same.textContent.split(":")[0] : value} (default)`;  // short: a phone shows about 30 characters
    }
    else input.placeholder = value ?? "none";
  }
  for (const group of form.querySelectorAll(".phase-group")) {
    const number = Number(group.dataset.phase);
    group.hidden = number > preset.phase_count;
    for (const input of group.querySelectorAll("input")) {
      const has = Object.hasOwn(preset.phases, input.name);
      input.closest("label").hidden = !has;
      input.placeholder = has ? (preset.phases[input.name] ?? "none") : "";
    }
    const discussion = Object.hasOwn(preset.phases, `discussion_seconds_${number}`);
    group.querySelector(".phase-mode").textContent = discussion ? "team discussion" : "buzz in";
  }
}

const outlines = JSON.parse(document.getElementById("packet-outlines").textContent);
const NOUNS = {tossup: ["tossup", "tossups"], short: ["short question", "short questions"]};
const summary = document.getElementById("order-summary");
// What the host ticked, kept while a packet or format that lacks it is chosen on the way to another.
const wanted = new Set([...form.querySelectorAll("#categories input:checked")].map((box) => box.value));
let wantPower = form.elements.prefer_power.checked;

function givesPower(preset) {  // a buzz phase's power points: what the host typed, else the format's own
  return Object.keys(preset.phases).filter((name) => name.startsWith("power_points_")).some((name) => {
    const typed = form.elements[name].value;
    const value = typed !== "" ? typed : preset.phases[name];
    return value !== null && value !== "";
  });
}

function say(text, warn) {
  summary.textContent = text;
  summary.classList.toggle("warn", warn);
  summary.hidden = !text;
}

function showOrder() {
  const preset = presets[form.format_name.value];
  if (!preset) return;
  const [one, many] = NOUNS[preset.kind] ?? ["question", "questions"];
  const outline = (outlines.packets[form.packet.value] ?? {})[preset.kind] ?? {categories: [], questions: []};
  form.elements.seed.closest("label").hidden = form.elements.order.value !== "shuffled";
  const power = document.getElementById("prefer-power");
  power.hidden = !givesPower(preset);
  form.elements.prefer_power.checked = wantPower && !power.hidden;  // unseen, it is not sent

  const total = outline.questions.length;
  const start = Math.max(1, Math.floor(Number(form.elements.start_at.value) || 1));
  const fromStart = outline.questions.slice(start - 1);
  const counts = new Map();  // category -> questions from the start on
  for (const code of fromStart) {
    const name = outline.categories[code >> 1];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let shown = 0;
  for (const label of document.querySelectorAll("#categories label[data-category]")) {
    const name = label.dataset.category;
    label.hidden = !outline.categories.includes(name);
    label.querySelector("input").checked = wanted.has(name) && !label.hidden;  // one the packet lacks is not sent
    if (!label.hidden) shown += 1;
    label.querySelector(".count").textContent = label.hidden ? "" : `(${counts.get(name) ?? 0})`;
  }
  document.getElementById("categories-help").textContent = shown
    ? `none ticked: every category; (n) = ${many} from question ${start} on`
    : `this packet's ${many} have no categories`;

  const chosen = new Set([...document.querySelectorAll("#categories input:checked")].map((box) => box.value));
  const left = fromStart.filter((code) => !chosen.size || chosen.has(outline.categories[code >> 1]));
  const asked = Number(form.elements.questions.value) || preset.fields.questions;
  if (!form.packet.value) return say("", false);  // no packet yet: the page says to import one
  if (!total) return say(`This packet has no ${many}: pick another packet, or a format that plays its questions.`, true);
  if (start > total) return say(`The packet has ${total} ${many}: start at a question from 1 to ${total}.`, true);
  if (!left.length) return say(`No ${one} in the ticked categories from question ${start} on.`, true);
  const marked = left.filter((code) => code & 1).length;
  const marks = power.hidden ? "" : ` (${marked} with a power mark)`;
  if (left.length < asked) {
    return say(`These settings leave ${left.length} ${many}${marks}, not the ${asked} the match asks for: it will play ` +
               `${left.length}, with none in reserve for a throw-out or a tiebreaker.`, true);
  }
  const reserve = Math.min(left.length - asked, outlines.reserve);
  say(`These settings leave ${left.length} of the packet's ${total} ${many}${marks}: ${asked} to play, ` +
      `${reserve} in reserve for throw-outs and tiebreakers.`, false);
}

form.format_name.addEventListener("change", showPreset);
showPreset();
function remember(event) {  // the host's own ticks, before showOrder reads them
  const box = event.target;
  if (box.name === "categories") wanted[box.checked ? "add" : "delete"](box.value);
  if (box.name === "prefer_power") wantPower = box.checked;
}

for (const type of ["input", "change"]) {
  form.addEventListener(type, remember);
  form.addEventListener(type, showOrder);
}
showOrder();
