// Runs the console's ruling keys (static/js/ruling-target.js) under Node on the moderator's frames of a
// played match: after every frame, what A / P / R would rule (the answer named by its seq), the buttons'
// words and the data of an accept, as one JSON list for tests/js/test_ruling_target.py.
//
// Input (a JSON file): {"frames": [...]}, the moderator's frames from match_created on.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [root, inputPath] = process.argv.slice(2);
const { applyFrame, emptyView, possessive } = await import(pathToFileURL(`${root}/static/js/match-fold.js`));
const { floorAnswer, ruleData, ruleLabel } = await import(pathToFileURL(`${root}/static/js/ruling-target.js`));
const { frames } = JSON.parse(readFileSync(inputPath, "utf8"));

const view = emptyView("moderator");
const out = frames.map((frame) => {
  applyFrame(view, frame, { resync: () => {} });
  const shown = floorAnswer(view);
  return { seq: frame.seq, type: frame.type, shown, labels: ["accept", "prompt", "reject"].map((v) => ruleLabel(view, v, shown)),
    data: shown ? ruleData("accept", shown) : null };
});
const names = ["Humans", "Computer", "Ann", "The Brains ", "BOTS"].map(possessive);
process.stdout.write(JSON.stringify({ out, names }));
