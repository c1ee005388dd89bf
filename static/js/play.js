// The player's screen, phone first: words as they come, a big BUZZ button (or the space bar),
// the answer box when you hold the floor, and in team phases the team's discussion where the
// captain submits or passes. During a tossup's bonus: its leadin and each part as read, each part's
// result and answer once it is over; the team that may answer confers in its team box and its captain
// answers (the other team too on a bounceback).

import { FINAL_CLOSES } from "./match-socket.js";
import { bonusTotal, decisionButtons, mayDecide, renderBonus } from "./bonus-parts.js";
import { possessive, seatName, semiBots, teamName } from "./match-fold.js";
import { el, openScreen, phaseText, renderFeed, renderFinal, renderQuestion, renderScores, renderSnippets, showEnded } from "./ui.js";
import { renderProtestBox } from "./protest-box.js";
import { ClockProbe } from "./server-clock.js";
import { ScreenWakeLock } from "./wake-lock.js";
import { Announcer } from "./announce.js";

const $ = (id) => document.getElementById(id);
const { config, client, command: send } = openScreen({ audience: "player", render, onEnd: ended });
const ME = config.seat;
const MY_TEAM = config.team;
const announcer = new Announcer($("said"), $("said-now"), { seat: ME, team: MY_TEAM });
// The server's clock, so a buzz says when it was pressed: a race is judged by presses, not arrivals.
const probe = new ClockProbe((frame) => client.raw(frame));
client.clockProbe = probe;

// The seat is no longer this page's: it went to another device, was removed or left, or its pass
// expired. The page stays closed (no reconnect) and says what to do next: play here again (4409), or
// join again (the others).
let isEnded = false;
function ended({ code, reason }) {
  if (isEnded) return;
  isEnded = true;
  wakeLock.want(false);
  const watch = [`/m/${config.code}/watch`, "Watch instead"];
  showEnded(reason, code === 4409
    ? [[null, "Play on this device", () => location.reload()], watch]
    : [[`/m/${config.code}/join`, "Join again"], watch]);
}

// Leaving asks first: the seat is given up for good, and playing again means joining again.
$("btn-leave").addEventListener("click", () => {
  const captain = isCaptain(client.view);
  $("leave-note").textContent = "Leave for good? Your seat is given up and your name is free for someone else; "
    + `to play again, join again with the code.${captain ? " A teammate still here becomes captain." : ""}`;
  $("leave-confirm").hidden = false;
  $("btn-leave").hidden = true;
  $("btn-leave-no").focus();
});
$("btn-leave-no").addEventListener("click", () => {
  $("leave-confirm").hidden = true;
  $("btn-leave").hidden = false;
});
$("btn-leave-yes").addEventListener("click", () => {
  $("btn-leave-yes").disabled = true;
  send("leave").catch(() => { $("btn-leave-yes").disabled = false; });  // the server closes the socket: see ended()
});

// The phone stays awake while the match is live; where the browser cannot do that, the player is told so.
const wakeLock = new ScreenWakeLock((state) => { document.body.dataset.wakeLock = state; });
document.body.dataset.wakeLock = wakeLock.state;

const isCaptain = (view) => !!(view.seats[ME]?.captain ?? config.captain);

function canBuzz(view) {
  const q = view.question;
  return view.status === "live" && !view.paused && !!q && !q.closed && !q.bonus && q.mode === "buzz" && !q.possession
    && !q.locked.includes(MY_TEAM) && q.revealed > 0;
}

/** The semi bots on my team: a teammate presses their buzzer for them. */
const semiMates = (view) => semiBots(view, MY_TEAM);

/** My buzz, or (bot given) my press of a semi teammate bot's buzzer: the bot then answers for the team. */
function buzz(bot = null) {
  const pressed = probe.clock.now();  // first: the moment of the press, in server time (null until measured)
  const view = client.view;
  if (!canBuzz(view)) return;
  const button = bot ? document.querySelector(`#buzz-for [data-bot="${CSS.escape(bot)}"]`) : $("buzz");
  button?.classList.add("pressed");
  const q = view.question;
  const data = { seen: q.revealed, question: q.index, phase: q.phase, ...(bot ? { bot } : {}) };
  if (pressed !== null) data.pressed = pressed;
  send(bot ? "buzz_for" : "buzz", data).catch(() => {}).finally(() => button?.classList.remove("pressed"));
}

$("buzz").addEventListener("click", () => buzz());
$("buzz-for").addEventListener("click", (e) => {
  const button = e.target instanceof Element ? e.target.closest("button[data-bot]") : null;
  if (button) buzz(button.dataset.bot);
});
document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLElement && (e.target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT", "BUTTON"].includes(e.target.tagName));
  if (typing || e.repeat) return;
  if (e.key === " ") { e.preventDefault(); buzz(); return; }
  const mate = /^[1-9]$/.test(e.key) ? semiMates(client.view)[Number(e.key) - 1] : null;  // key n: the n-th semi bot's buzzer
  if (mate) { e.preventDefault(); buzz(mate.id); }
});

/** A "Buzz for <bot>" button per semi bot on my team, enabled exactly when I may buzz. */
function renderBuzzFor(view, buzzable) {
  const box = $("buzz-for");
  const mates = view.status === "finished" ? [] : semiMates(view);
  const key = mates.map((s) => `${s.id}:${s.name}`).join("|");
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...mates.map((s, i) => el("button", {
      type: "button", class: "buzz-for", "data-bot": s.id, "aria-keyshortcuts": String(i + 1),
    }, el("span", { class: "bot-mark", text: "AI" }), ` Buzz for ${s.name}`, el("span", { class: "key-hint", text: ` (key ${i + 1})` }))));
  }
  box.hidden = !mates.length || !!(view.question && view.question.mode === "team" && !view.question.closed) || !!view.question?.bonus;
  for (const button of box.querySelectorAll("button")) button.disabled = !buzzable;
}

function textForm(formId, inputId, type) {
  $(formId).addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $(inputId);
    const text = input.value.trim();
    if (!text) return;
    const q = client.view.question;
    // A team's answer in a bonus answers the part in play (named, so a late retry never lands on the next).
    if (type === "submit" && q?.bonus) {
      send("bonus_answer", { text, question: q.index, part: q.bonus.part }).then(() => { input.value = ""; }).catch(() => {});
      return;
    }
    // Name the question (and phase) this was typed for, so a late retry never lands on the next one.
    const meantFor = type === "chat" || !q ? {} : type === "answer" ? { question: q.index } : { question: q.index, phase: q.phase };
    send(type, { text, ...meantFor }).then(() => { input.value = ""; }).catch(() => {});
  });
}
textForm("answer-form", "answer-input", "answer");
textForm("chat-form", "chat-input", "chat");
textForm("submit-form", "submit-input", "submit");
$("btn-pass").addEventListener("click", () => {
  const q = client.view.question;
  if (q) send("pass", { question: q.index, phase: q.phase }).catch(() => {});
});

// -- drawing ----------------------------------------------------------------------------------

function render(view) {
  const q = view.question;
  const left = view.seats[ME]?.left;
  if (left && !isEnded) {  // heard in the events before (or without) the server's close
    const code = left === "player" ? 4411 : 4410;
    client.close();
    ended({ code, reason: FINAL_CLOSES[code] });
  }
  $("leave-box").hidden = view.status === "finished" || isEnded;
  document.body.classList.toggle("is-paused", view.paused);
  wakeLock.want(view.status === "live" && !isEnded);
  $("awake-note").hidden = !(view.status === "live" && wakeLock.state === "unavailable");
  renderScores($("scores"), view, { mine: MY_TEAM });
  $("phase").textContent = view.paused ? `${phaseText(view)} · paused` : phaseText(view);
  $("me").textContent = `${view.seats[ME]?.name ?? ""} · ${teamName(view, MY_TEAM)}${isCaptain(view) ? " · captain" : ""}`;
  renderQuestion($("question"), view);
  $("question").hidden = !!q?.bonus;  // the tossup is over: its bonus takes the space
  $("bonus").hidden = !q?.bonus;
  renderBonus($("bonus"), view);
  renderAnswerBox(view);
  renderTeamPhase(view);
  renderSnippets($("snippets"), view);
  renderResult(view);
  renderProtestBox($("protest-box"), view, { me: ME, team: MY_TEAM, now: client.now(), send, redraw: () => render(client.view) });
  renderFinal($("final"), view, { links: [[`/m/${config.code}/replay`, "Watch the replay"], [`/m/${config.code}/boxscore`, "Box score"]] });
  // While the result card shows the answer, the feed does not say it again.
  const shown = view.status !== "finished" && !!view.question?.closed;
  renderFeed($("feed"), view, { limit: 4, omit: shown ? ["closed"] : [] });
  const buzzable = canBuzz(view) && !isEnded;
  $("buzz").disabled = !buzzable;
  $("buzz").hidden = view.status === "finished" || (!!q && q.mode === "team" && !q.closed) || (!!q?.bonus && !q.bonus.ended);
  renderBuzzFor(view, buzzable);
  $("status-line").textContent = statusLine(view);
  announcer.update(view);
}

function statusLine(view) {
  const q = view.question;
  if (!q) return view.status === "finished" ? "" : "Waiting for the next question.";
  if (q.closed || q.bonus) return "";
  if (q.mode === "buzz") {
    if (q.possession?.seat === ME) return q.possession.answer != null ? "Your answer is with the moderator." : q.possession.prompted ? "Prompt: say more." : "You buzzed: answer now!";
    if (q.possession) return `${seatName(view, q.possession.seat)} (${teamName(view, q.possession.team)}) buzzed.`;
    if (q.locked.includes(MY_TEAM)) return "Your team is locked out of this question.";
    return q.revealed > 0 ? "Buzz when you know it: space bar or the button." : "Get ready…";
  }
  return "";
}

let answerWasShown = false;
function renderAnswerBox(view) {
  const p = view.question?.possession;
  const show = !!p && p.seat === ME && p.answer == null && !view.question.closed;
  $("answer-form").hidden = !show;
  $("answer-label").textContent = p?.prompted ? "Prompt: be more specific" : "Your answer";
  if (show && !answerWasShown) $("answer-input").focus();
  answerWasShown = show;
}

let submitWasShown = false;
function renderTeamPhase(view) {
  const q = view.question;
  const bonus = q?.bonus && !q.bonus.ended ? q.bonus : null;
  const team = !!q && ((q.mode === "team" && !q.closed) || !!bonus);
  $("team-phase").hidden = !team;
  if (!team) { submitWasShown = false; return; }
  const chat = q.chat[MY_TEAM] || [];
  const log = $("chat-log");
  log.replaceChildren(...chat.map((m) => el("li", { class: m.seat === ME ? "mine" : "" }, el("strong", { text: `${m.name}: ` }), m.text)));
  log.scrollTop = log.scrollHeight;
  $("btn-pass").hidden = !!bonus;
  $("submit-label").textContent = bonus ? `Team answer to part ${bonus.part + 1}` : "Team answer";
  if (bonus) { renderBonusTurn(view, bonus); return; }
  $("bonus-decision").hidden = true;
  const out = q.locked.includes(MY_TEAM) || q.passed.includes(MY_TEAM);
  const sub = q.submissions[MY_TEAM];
  const captain = isCaptain(view);
  const canSubmit = captain && !out && !sub;
  $("submit-form").hidden = !canSubmit;
  if (canSubmit && !submitWasShown) $("submit-input").focus();
  submitWasShown = canSubmit;
  let note = "";
  if (sub) note = `Submitted: “${sub.text}” — waiting for the moderator.`;
  else if (q.locked.includes(MY_TEAM)) note = "Your team's answer was ruled wrong; the other side may answer.";
  else if (q.passed.includes(MY_TEAM)) note = "Your team passed.";
  else if (!captain) note = "Discuss here; your captain submits the team's answer.";
  else note = q.floor === MY_TEAM ? "You have the floor: submit or pass." : "Submit your team's answer, or pass.";
  $("team-note").textContent = note;
}

/** In a bonus: the captain of the team that may answer the part gets the answer box; everyone is told whose turn it is. */
function renderBonusTurn(view, b) {
  const captain = isCaptain(view);
  const mine = b.answering === MY_TEAM;
  // An undo after the part's answer was shown: the moderator rules again on what was said, and takes no new answer.
  const reviewed = b.part >= 0 && b.parts[b.part].answer != null;
  const abstained = b.part >= 0 && !b.bounce && b.parts[b.part].decision?.decision === "abstain";
  const canAnswer = mine && captain && !b.typed && !reviewed && !abstained && b.part >= 0 && view.status === "live" && !view.paused;
  $("submit-form").hidden = !canAnswer;
  if (canAnswer && !submitWasShown) $("submit-input").focus();
  submitWasShown = canAnswer;
  const part = `part ${b.part + 1}`;
  let note;
  if (reviewed && b.answering) note = `The moderator is ruling part ${b.part + 1} again.`;
  else if (abstained && b.answering) note = `${b.team === MY_TEAM ? "Your team" : teamName(view, b.team)} abstained on ${part}: the moderator rules whether anybody was right.`;
  else if (b.typed && b.typed.team === MY_TEAM) note = `Answered: “${b.typed.text}” — waiting for the moderator.`;
  else if (mine && b.bounce) note = captain ? `Bounceback! Answer ${part} for your team.` : `Bounceback! Confer here; your captain answers ${part}.`;
  else if (mine) note = captain ? `Confer with your team, then answer ${part}.` : `Confer here; your captain answers ${part} for the team.`;
  else if (b.answering) note = `${teamName(view, b.answering)} ${b.bounce ? "answer the bounceback" : "answer"} ${part}${view.rules?.bounceback && !b.bounce ? "; a miss bounces to your team" : ""}.`;
  else note = b.team === MY_TEAM ? "Your team's bonus: the moderator reads the next part." : `${possessive(teamName(view, b.team))} bonus: the moderator reads the next part.`;
  $("team-note").textContent = note;
  // The captain decides on each part (formats with bonus decisions): own answer, consult the team's AI, or abstain.
  const box = $("bonus-decision");
  box.replaceChildren(...(mine && captain && mayDecide(view, b)
    ? [decisionButtons(b, (decision) => send("decide_part", { decision, part: b.part }).catch(() => {}))] : []));
  box.hidden = !box.childElementCount;
}

function renderResult(view) {
  const q = view.question;
  const box = $("result");
  box.replaceChildren();
  if (view.status === "finished") {
    // The score and the summary are in the closing panel (#final) below.
    box.append(el("p", { class: "final", text: view.winner === MY_TEAM ? "Your team won!" : view.winner ? `${teamName(view, view.winner)} won.` : "It's a tie." }));
    box.hidden = false;
    return;
  }
  if (!q || !q.closed) { box.hidden = true; return; }
  const r = q.result;
  box.append(el("p", { class: "label", text: "Answer" }), el("p", { class: "answer", text: q.answer || "" }),
    el("p", { class: r && r.team === MY_TEAM ? "good" : "", text: r ? `${teamName(view, r.team)} +${r.points}` : "Nobody got it." }),
    ...(q.bonus ? [el("p", { class: "bonus-result", text: `Bonus: ${bonusTotal(view, q.bonus)}` })] : []));
  box.hidden = false;
}

client.connect();
