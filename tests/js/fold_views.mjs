// Runs the browser's fold (static/js/match-fold.js applyFrame/applySnapshot) under Node on the frames
// of a played match, as a live screen would get them, and prints its view after every frame as JSON,
// for tests/js/test_browser_fold.py to compare with the server's snapshot at the same seq.
//
// Input (a JSON file): {"runs": [{"audience", "snapshot": the snapshot a stale client starts from or
// null, "frames": [...], "resync": {seq: snapshot}}]}. A fold that asks for a resync (it does on an
// undo) gets the server's snapshot at that seq, as the live page does.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [root, inputPath] = process.argv.slice(2);
const { applyFrame, applySnapshot, emptyView } = await import(pathToFileURL(`${root}/static/js/match-fold.js`));
const input = JSON.parse(readFileSync(inputPath, "utf8"));

function shown(view) {
  return {
    seq: view.seq, t: view.t, status: view.status, paused: view.paused, rules: view.rules, teams: view.teams,
    seats: Object.values(view.seats), scores: view.scores, scores_seq: view.scores_seq, number: view.number,
    winner: view.winner, history: view.history, rulings: Object.values(view.rulings), question: view.question,
    corrections: view.corrections, protests: view.protests, voice: view.voice, bonuses_left: view.bonuses_left,
  };
}

const out = input.runs.map((run) => {
  const view = emptyView(run.audience);
  if (run.snapshot) applySnapshot(view, run.snapshot);
  return run.frames.map((frame) => {
    let asked = false;
    applyFrame(view, frame, { resync: () => { asked = true; } });
    if (asked) {
      if (!run.resync[frame.seq]) throw new Error(`the fold asked for a resync at seq ${frame.seq}, which the test did not expect`);
      applySnapshot(view, run.resync[frame.seq]);
    }
    return JSON.parse(JSON.stringify(shown(view)));  // a copy: the fold goes on changing the view
  });
});
process.stdout.write(JSON.stringify(out));
