// The new-match form: when the host picks a format, each rule field left empty shows that format's
// own value (greyed, as its placeholder), and only the phases the format has, with the settings of
// each phase's kind (a buzz phase has dead time and negs, a team phase discussion time), are shown.

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

form.format_name.addEventListener("change", showPreset);
showPreset();
