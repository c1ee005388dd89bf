// What a screen reader says during a match. The question on screen is redrawn on every word, so it is
// not itself a live region (it would be read again from the start each time); instead this module
// writes short lines into two visually hidden regions: a polite log (the question's start, its words
// in phrases, pause and resume, the answer when it closes, a bonus's leadin, each part as read and its
// answer once the part is over) and an assertive one for what a player
// must know at once (you hold the floor, a prompt, your side's ruling). The feed (role=log) says the
// rest: every ruling and note as it comes.

import { teamName } from "./match-fold.js";
import { phaseText } from "./ui.js";

const PHRASE_WORDS = 8;   // words said together while the question is read
const PHRASE_WAIT_MS = 1500;  // a phrase cut short is said once no word came for this long
const KEPT_LINES = 12;
const VERDICT_WORD = { accept: "correct", reject: "wrong", prompt: "prompt: say more" };

export class Announcer {
  /** polite: a role=log element; urgent: a role=alert element (both visually hidden), for a player's seat. */
  constructor(polite, urgent, { seat = null, team = null } = {}) {
    Object.assign(this, { polite, urgent, seat, team });
    this.question = null;  // "index:phase" of the question announced
    this.said = 0;  // words of it said so far
    this.paused = false;
    this.floor = null;
    this.rulings = null;  // feed seqs of rulings already seen (null: not yet read, say none of the old ones)
    this.status = null;
  }

  update(view) {
    const q = view.question;
    if (view.status !== this.status) {
      if (view.status === "finished" && this.status !== null) this.say(phaseText(view));
      this.status = view.status;
    }
    if (view.paused !== this.paused) {
      if (this.status === "live") this.say(view.paused ? "Paused." : "Resumed.");
      this.paused = view.paused;
    }
    const key = q ? `${q.index}:${q.phase}` : null;
    if (key !== this.question) {
      this.question = key;
      this.said = 0;
      if (q) this.say(`${phaseText(view)}.`);
    }
    if (q) this.words(q, view);
    this.mine(view);
  }

  /** The question's words, a phrase at a time (all at once when it is shown whole). */
  words(q, view) {
    clearTimeout(this.timer);
    const shown = q.closed || q.mode !== "buzz" ? q.words.length : Math.min(q.revealed, q.words.length);
    const pending = () => q.words.slice(this.said, shown);
    const flush = () => {
      const text = pending().join(" ");
      this.said = shown;
      if (text) this.say(text);
    };
    const ends = /[.?!;:]$/.test(q.words[shown - 1] || "");
    if (pending().length >= PHRASE_WORDS || ends || q.possession || q.closed || q.mode !== "buzz") flush();
    else if (pending().length) this.timer = setTimeout(flush, PHRASE_WAIT_MS);
    const over = q.closed || !!q.bonus;  // a bonus follows its tossup's close, in the same moment
    if (over && !this.closedSaid) {
      this.closedSaid = true;
      const r = q.result;
      this.say(`Answer: ${q.answer || ""}. ${r ? `${teamName(view, r.team)} +${r.points}.` : "Nobody got it."}`);
    }
    if (!over) this.closedSaid = false;
    if (q.bonus) this.bonus(q, view);
  }

  /** A bonus: its leadin, each part as it is read, and each part's answer once the part is over. */
  bonus(q, view) {
    const b = q.bonus;
    const lines = [[`${q.index}:bonus`, `Bonus for ${teamName(view, b.team)}: ${b.leadin}`]];
    b.parts.forEach((part, k) => {
      if (k <= b.part && part.text != null) lines.push([`${q.index}:${k}:read`, `Part ${k + 1}, for ${part.value}: ${part.text}`]);
      if (k <= b.part && part.answer != null && part.rulings.length && (b.answering === null || k < b.part)) {
        lines.push([`${q.index}:${k}:over`, `Part ${k + 1}: the answer is ${part.answer}.`]);
      }
    });
    if (!this.bonusSaid || this.bonusSaid.question !== q.index) this.bonusSaid = Object.assign(new Set(), { question: q.index });
    for (const [key, text] of lines) {
      if (this.bonusSaid.has(key)) continue;
      this.bonusSaid.add(key);
      this.say(text);
    }
  }

  /** What the player must know at once: the floor is theirs, a prompt, their side's ruling. */
  mine(view) {
    const q = view.question;
    const p = q?.possession;
    const floor = p && p.seat === this.seat ? `${q.index}:${p.prompted ? "prompt" : "answer"}:${p.answer == null}` : null;
    if (floor && floor !== this.floor && p.answer == null) {
      this.alert(p.prompted ? "Prompt: be more specific, and answer again." : "You buzzed: type your answer and press Enter.");
    }
    this.floor = floor;
    const rulings = view.feed.filter((f) => f.kind === "ruling");
    if (this.rulings) {
      for (const f of rulings) {
        if (!this.rulings.has(f.seq) && f.team === this.team) {
          this.alert(`${f.who}: ${VERDICT_WORD[f.verdict] || f.verdict}${f.points ? ` ${f.points > 0 ? "+" : ""}${f.points}` : ""}.`);
        }
      }
    }
    this.rulings = new Set(rulings.map((f) => f.seq));
  }

  say(text) { this.write(this.polite, text); }

  alert(text) { if (this.urgent) this.write(this.urgent, text); }

  write(box, text) {
    const line = document.createElement("p");
    line.textContent = text;
    box.append(line);
    while (box.childElementCount > KEPT_LINES) box.firstElementChild.remove();
  }
}
