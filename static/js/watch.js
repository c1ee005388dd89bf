// The spectator screen for a hall: the live socket feeds the view, screen.js draws it (the same code
// draws the replay), and at the end the screen points the room to the replay and the box score.

import { openScreen } from "./ui.js";
import { renderScreen } from "./screen.js";

const { config, client } = openScreen({
  audience: "spectator",
  render: (view) => renderScreen(view, { links: [[`/m/${config.code}/replay`, "Watch the replay"], [`/m/${config.code}/boxscore`, "Box score"]] }),
});

client.connect();
