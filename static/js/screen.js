// The spectator screen's drawing, in one place: the live big screen (watch.js) and the replay
// (replay.js) both draw a view model with renderScreen, into the markup of
// templates/includes/screen.html. Change the big screen here and the replay changes with it.
//
// It shows the question as it is read, the scoreboard, the phase, where each buzz came, each answer
// and ruling, the answer line at the close, each bot's top guesses with confidence bars against its
// buzz threshold, and at the end the closing moment: winner, final score and per-phase summary.

import { teamName } from "./match-socket.js";
import { el, phaseText, renderBots, renderFeed, renderFinal, renderQuestion, renderScores, renderSnippets } from "./ui.js";

const $ = (id) => document.getElementById(id);

/** Draw the screen for `view`. links: [[href, text], ...] offered in the closing moment. */
export function renderScreen(view, { links = [] } = {}) {
  const q = view.question;
  const finished = view.status === "finished";
  document.body.classList.toggle("is-paused", view.paused);
  document.body.classList.toggle("is-final", finished);
  renderScores($("scores"), view);
  $("phase").textContent = view.paused ? `${phaseText(view)} · paused` : phaseText(view);
  renderQuestion($("question"), view);
  renderBots($("bots"), view);
  renderSnippets($("snippets"), view);
  renderFeed($("feed"), view, { limit: 4 });
  renderFinal($("final"), view, { links });
  const box = $("answer-line");
  box.replaceChildren();
  if (q?.closed && !finished) {
    const r = q.result;
    box.append(el("span", { class: "label", text: "Answer" }), el("strong", { class: "answer", text: q.answer || "" }),
      el("span", { class: "result", text: r ? `${teamName(view, r.team)} +${r.points}` : "dead" }));
  }
  box.hidden = !box.childElementCount;
}
