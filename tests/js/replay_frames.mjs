// Runs the replay page's unpacking (static/js/replay-frames.js) under Node on packed frames and prints
// the frames, for tests/archive/test_replay_data.py to compare with the frames the server packed.
//
// Input (a JSON file): a list of packed frame columns (game/archive/replay_data.py pack_frames).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [root, inputPath] = process.argv.slice(2);
const { unpackFrames } = await import(pathToFileURL(`${root}/static/js/replay-frames.js`));
const input = JSON.parse(readFileSync(inputPath, "utf8"));
process.stdout.write(JSON.stringify(input.map(unpackFrames)));
