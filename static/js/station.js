// The buzzer station: one page in the hall where several seated players buzz, each with a key of this
// keyboard or a gamepad button (docs/hall.md "Buzzers in the hall"). Every player has their own seat
// socket (ws/m/<code>/station/<seat>: the seat's token stays in this browser's session) with its own
// probe of the server's clock, so a buzz is that seat's own command and says when it was pressed: the
// key's event time (or the gamepad's timestamp) in server time. Two presses 20 ms apart are ordered by
// those stamps on the server (game/engine/buzzrace.py), whichever socket's frame arrives first.
// The pressed player's box lights; a lost buzz and a team ruled out play the lockout sound. A player may
// also have a key for each semi AI teammate of their team: it presses that bot's buzzer as that player
// (their buzz_for), and the bot answers for the team.

import { MatchClient } from "./match-socket.js";
import { ClockProbe } from "./server-clock.js";
import { BuzzSound } from "./buzz-sound.js";
import { LockoutWatch } from "./lockout.js";
import { GamepadButtons } from "./gamepad-buttons.js";
import { KeyMap, bindingLabel, keyBinding, padBinding } from "./station-keys.js";
import { semiBots, teamName } from "./match-fold.js";
import { el, phaseText, renderQuestion, renderScores, renderTimer, showEnded, statusText, teamClass, tick, toast } from "./ui.js";

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("page-config").textContent);
const players = config.players;  // [{seat, team, name}] in joining order
const names = Object.fromEntries(players.map((p) => [p.seat, p.name]));
const keys = new KeyMap(config.code);
keys.keepOnly(players.map((p) => p.seat));
const sound = new BuzzSound({ button: $("sound"), hint: $("sound-hint") });
const lockouts = new LockoutWatch();
const LOST_MS = 1500;  // how long a box shows a lost buzz


// -- one socket per seated player ------------------------------------------------------------------

const seats = new Map();  // seat -> {player, client, probe, status, lostUntil, ended}
for (const player of players) {
  const entry = { player, status: "connecting", lostUntil: 0, ended: null };
  entry.client = new MatchClient({
    path: `/ws/m/${config.code}/station/${player.seat}`,
    audience: "player",
    onChange: (view, frame) => {
      // An earlier press from elsewhere took the floor from this seat: its buzz is lost after all.
      if (frame?.type === "buzz" && frame.data?.replaces === player.seat) lost(entry, "an earlier press took the floor");
      if (entry === primary()) draw();
    },
    onStatus: (status, message) => { entry.status = status; if (message) toast(`${player.name}: ${message}`); draw(); },
    onEnd: ({ reason }) => { entry.ended = reason; draw(); },
  });
  entry.probe = new ClockProbe((frame) => entry.client.raw(frame));
  entry.client.clockProbe = entry.probe;
  seats.set(player.seat, entry);
}

/** The socket whose view the page draws: the first seat still playing. */
function primary() {
  for (const entry of seats.values()) if (!entry.ended) return entry;
  return null;
}

// -- pressing ----------------------------------------------------------------------------------

function canBuzz(view, team) {
  const q = view.question;
  return view.status === "live" && !view.paused && !!q && !q.closed && !q.bonus && q.mode === "buzz" && !q.possession
    && !q.locked.includes(team) && q.revealed > 0;
}

/** A press of a buzzer mapped to `target`, at `stamp` on this page's clock (performance.now()'s). */
function press(target, stamp) {
  switch (target.kind) {
    case "seat": return buzzFor(seats.get(target.seat), stamp);
    case "bot": return buzzFor(seats.get(target.seat), stamp, target.bot);
    default: return undefined;
  }
}

/** The seated player's buzz, or (bot given) their press of that semi teammate's buzzer. */
function buzzFor(entry, stamp, bot = null) {
  if (!entry || entry.ended) return;
  const pressed = entry.probe.clock.at(stamp);  // first: the press's own time, in this seat's server clock
  const view = entry.client.view;
  if (!canBuzz(view, entry.player.team)) {
    lost(entry, view.question?.locked?.includes(entry.player.team) ? "locked out" : "too late");
    return;
  }
  if (bot && !semiBots(view, entry.player.team).some((s) => s.id === bot)) {
    lost(entry, `${nameOf(bot)} takes no presses now`);
    return;
  }
  const q = view.question;
  const data = { seen: q.revealed, question: q.index, phase: q.phase, ...(bot ? { bot } : {}) };
  if (pressed !== null) data.pressed = pressed;
  entry.client.send(bot ? "buzz_for" : "buzz", data).catch((err) => { lost(entry, err.message); });
  draw();
}

/** A player's or a bot's name: the station's players, else the seats the match shows. */
function nameOf(seat) {
  return names[seat] ?? primary()?.client.view.seats[seat]?.name ?? "a bot";
}

/** The box shows the lost buzz a moment, with the lockout sound. */
function lost(entry, why) {
  entry.lostUntil = performance.now() + LOST_MS;
  entry.lostWhy = why;
  sound.play("lockout");
  draw();
  setTimeout(draw, LOST_MS + 20);
}

let mapping = null;  // {seat, kind: "key" | "pad", bot} while the host sets a player's buzzer (or their bot's)

/** What a press does, in words: "buzzes for Ann", "presses Robot's buzzer for Ann". */
function does(seat, bot) {
  return bot ? `presses ${nameOf(bot)}'s buzzer for ${names[seat]}` : `buzzes for ${names[seat]}`;
}

function startMapping(seat, kind, bot = null) {
  mapping = { seat, kind, bot };
  $("mapping").textContent = `Press the ${kind === "key" ? "key" : "gamepad button"} that ${does(seat, bot)} (Escape: stop).`;
  draw();
}

function stopMapping(note = "") {
  mapping = null;
  $("mapping").textContent = note;
  draw();
}

function assign(binding) {
  const { seat, bot } = mapping;
  const target = bot ? { kind: "bot", seat, bot } : { kind: "seat", seat };
  const refused = keys.assign(binding, target, { ...botNames(), ...names });
  if (refused) { $("mapping").textContent = refused; return; }
  stopMapping(`The ${bindingLabel(binding)} ${does(seat, bot)}.`);
}

function botNames() {
  const view = primary()?.client.view;
  return Object.fromEntries(Object.values(view?.seats ?? {}).filter((s) => s.kind === "bot").map((s) => [s.id, s.name]));
}

document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  if (mapping) {
    e.preventDefault();
    if (e.key === "Escape") stopMapping();
    else if (mapping.kind === "key" && !e.repeat) assign(keyBinding(e));
    return;
  }
  if (e.repeat) return;
  const target = keys.target(keyBinding(e));
  if (!target) return;
  e.preventDefault();  // a mapped key only buzzes (the space bar does not scroll, nor press a focused button)
  press(target, e.timeStamp);
});

const pads = new GamepadButtons((pad, button, stamp) => {
  const binding = padBinding(pad, button);
  if (mapping) { if (mapping.kind === "pad") assign(binding); return; }
  const target = keys.target(binding);
  if (target) press(target, stamp);
});

// -- drawing ----------------------------------------------------------------------------------

function playerBox(view, entry) {
  const { player } = entry;
  const q = view.question;
  const holds = !!q?.possession && (q.possession.seat === player.seat || q.possession.by === player.seat) && !q.closed;
  const forBot = holds && q.possession.seat !== player.seat ? nameOf(q.possession.seat) : null;
  const out = !!q && !q.closed && q.locked.includes(player.team);
  const lostNow = performance.now() < entry.lostUntil;
  const state = entry.ended ? "ended" : holds ? "lit" : lostNow ? "lost" : out ? "out" : "ready";
  const said = entry.ended ?? (holds ? (forBot ? `pressed for ${forBot}: ${forBot} answers` : "buzzed: answer now") : lostNow ? `buzz lost: ${entry.lostWhy}` : out
    ? "team locked out" : entry.status === "live" ? "ready" : statusText(entry.status));
  const bindings = keys.of(player.seat);
  const mates = semiBots(view, player.team);
  const mateKeys = mates.map((bot) => [bot, keys.of(player.seat, bot.id)]).filter(([, held]) => held.length)
    .map(([bot, held]) => `${bot.name}: ${held.map(bindingLabel).join(" · ")}`);
  const setting = mapping?.seat === player.seat;
  return el("li", { class: `station-player ${teamClass(view, player.team)} is-${state}${setting ? " is-setting" : ""}`,
    "data-seat": player.seat, "data-state": state },
  el("span", { class: "player-name", text: player.name }),
  el("span", { class: "player-team", text: teamName(view, player.team) || "" }),
  el("span", { class: "player-state", text: said }),
  el("span", { class: "player-keys", text: bindings.length ? bindings.map(bindingLabel).join(" · ") : "no buzzer yet" }),
  mateKeys.length ? el("span", { class: "player-bot-keys", text: mateKeys.join("; ") }) : null,
  el("span", { class: "player-tools" },
    el("button", { type: "button", class: "set-key", onclick: () => startMapping(player.seat, "key"), text: "Set key" }),
    el("button", { type: "button", class: "set-pad", onclick: () => startMapping(player.seat, "pad"), text: "Set gamepad button" }),
    ...mates.map((bot) => el("button", { type: "button", class: "set-bot-key", "data-bot": bot.id,
      onclick: () => startMapping(player.seat, "key", bot.id), text: `Set key for ${bot.name}` })),
    bindings.length || mateKeys.length
      ? el("button", { type: "button", class: "clear-keys", onclick: () => { keys.clear(player.seat); draw(); }, text: "Clear" }) : null));
}

function draw() {
  const entry = primary();
  const view = entry?.client.view;
  if (view) {
    for (const team of lockouts.update(view)) {
      if (players.some((p) => p.team === team)) sound.play("lockout");
    }
    renderScores($("scores"), view);
    $("phase").textContent = view.paused ? `${phaseText(view)} · paused` : phaseText(view);
    renderQuestion($("question"), view);
    renderTimer($("timer"), view, entry.client.now());
    $("conn").textContent = statusText(entry.status);
    $("conn").className = `conn ${entry.status}`;
  } else if (players.length) {
    showEnded("No seat at this station plays any more; seat the players again.");
  }
  const shownView = view ?? seats.values().next().value?.client.view;
  if (shownView) $("players").replaceChildren(...[...seats.values()].map((e) => playerBox(shownView, e)));
}

tick(() => { const entry = primary(); if (entry) renderTimer($("timer"), entry.client.view, entry.client.now()); });
window.exhibitionStation = { sound, keys, seats, press };
for (const entry of seats.values()) entry.client.connect();
if (players.length) pads.start();
draw();
