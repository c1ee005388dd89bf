// What the moderator's A / P / R keys rule: the answer the console shows on the floor, named by the seq
// of the event that put it there (the rule command's "answer"), and the words of the buttons for it. The
// engine refuses a ruling whose answer the floor no longer holds, so a key never rules an answer unseen.

import { possessive, teamName } from "./match-fold.js";

export const VERDICTS = { accept: "Accept", prompt: "Prompt", reject: "Reject" };

/** The answer on the floor as the console shows it, {team, seq}, or null when there is nothing to rule. */
export function floorAnswer(view) {
  const q = view.question;
  if (!q || q.closed || view.status !== "live" || q.floor_seq == null) return null;
  const team = q.mode === "buzz" ? q.possession?.team : q.floor;
  return team ? { team, seq: q.floor_seq } : null;
}

/** A ruling button's words: "Accept Humans' answer" (the side's name), or the verdict alone with nothing to rule. */
export function ruleLabel(view, verdict, shown = floorAnswer(view)) {
  return shown ? `${VERDICTS[verdict]} ${possessive(teamName(view, shown.team))} answer` : VERDICTS[verdict];
}

/** The rule command's data for a verdict on the answer shown (the console adds what it heard and why). */
export function ruleData(verdict, shown) {
  return { verdict, answer: shown.seq };
}
