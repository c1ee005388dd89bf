// What the moderator's A / P / R keys rule: the answer the console shows on the floor, named by the seq
// of the event that put it there (the rule command's "answer"), and the words of the buttons for it. The
// engine refuses a ruling whose answer the floor no longer holds, so a key never rules an answer unseen.

import { possessive, teamName } from "./match-fold.js";

export const VERDICTS = { accept: "Accept", prompt: "Prompt", reject: "Reject" };

/**
 * The answer on the floor as the console shows it, {team, seq}, or null when there is nothing to rule. In a
 * bonus it is the answer to the part in play, {team, seq, part}: the team that may answer it (the other
 * team on a bounceback), from the part's reading on (a spoken answer needs nothing typed), and the seq
 * moves to the captain's typed answer the moment it arrives.
 */
export function floorAnswer(view) {
  const q = view.question;
  if (!q || q.closed || view.status !== "live" || q.floor_seq == null) return null;
  const b = q.bonus;
  if (b) {
    const team = b.typed?.team ?? b.answering;
    return team && !b.ended ? { team, seq: q.floor_seq, part: b.part } : null;
  }
  const team = q.mode === "buzz" ? q.possession?.team : q.floor;
  return team ? { team, seq: q.floor_seq } : null;
}

/** A ruling button's words: "Accept Humans' answer" (the side's name; in a bonus "… answer to part 2"), or the verdict alone with nothing to rule. */
export function ruleLabel(view, verdict, shown = floorAnswer(view)) {
  if (!shown) return VERDICTS[verdict];
  const b = view.question.bonus;
  if (shown.part != null && !b.bounce && b.parts[shown.part].decision?.decision === "abstain" && verdict !== "prompt") {
    // An abstained part (QANTA 2026 rules): the ruling says whether anybody, human or AI, was right.
    return `${verdict === "accept" ? "Nobody" : "Somebody"} was right on part ${shown.part + 1}`;
  }
  const part = shown.part == null ? "" : ` to part ${shown.part + 1}`;
  return `${VERDICTS[verdict]} ${possessive(teamName(view, shown.team))} answer${part}`;
}

/** The rule command's data for a verdict on the answer shown (the console adds what it heard and why). */
export function ruleData(verdict, shown) {
  return shown.part == null ? { verdict, answer: shown.seq } : { verdict, answer: shown.seq, part: shown.part };
}
