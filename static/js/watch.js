// The spectator screen for a hall: the live socket feeds the view, screen.js draws it (the same code
// draws the replay), a buzz flashes the buzzer's name with a beep, and at the end the screen points
// the room to the replay and the box score. A team ruled out of the question plays the lockout sound. Nothing on it scrolls, whatever key is pressed.

import { Announcer } from "./announce.js";
import { BuzzSound } from "./buzz-sound.js";
import { HallVoice } from "./hall-voice.js";
import { LockoutWatch } from "./lockout.js";
import { openScreen } from "./ui.js";
import { flashBuzz, keepFitted, renderScreen } from "./screen.js";

const announcer = new Announcer(document.getElementById("said"), null);
const lockouts = new LockoutWatch();
const sound = new BuzzSound({ button: document.getElementById("sound"), hint: document.getElementById("sound-hint") });

let voice = null;  // the question read aloud (made below, once the page's config is read)
// A match of an event, on the hall's screen (?hall=1, from the leaderboard): once the room has seen it
// end, the screen goes back to the event's leaderboard (event-board.js goes on to the next match).
const HALL = new URLSearchParams(location.search).get("hall") === "1";
let sawItPlayed = false;
let goingBack = false;

function backToTheBoard(view, board, afterMs) {
  if (view.status === "live") sawItPlayed = true;
  if (!HALL || !board || !sawItPlayed || goingBack || view.status !== "finished") return;
  goingBack = true;
  setTimeout(() => location.assign(`${board}?hall=1`), afterMs);
}
const { config, client } = openScreen({
  audience: "spectator",
  render: (view, frame) => {
    // Before the match the screen is the way in: the join address and its QR code, large.
    document.body.classList.toggle("is-setup", ["setup", "none"].includes(view.status) && !!document.getElementById("join-panel"));
    const links = [[`/m/${config.code}/replay`, "Watch the replay"], [`/m/${config.code}/boxscore`, "Box score"]];
    if (config.event_board) links.push([config.event_board, "Event leaderboard"]);
    renderScreen(view, { links });
    backToTheBoard(view, config.event_board, config.board_after_ms);
    if (flashBuzz(view, frame)) sound.play();
    if (lockouts.update(view).length) sound.play("lockout");
    announcer.update(view);
    voice?.update(view, frame);
  },
});

voice = new HallVoice({ sound, code: config.code, now: () => client.now(), playout: () => client.welcome?.playout_ms || 0 });

// A projector's keyboard (or a presenter's clicker) must never scroll the hall's screen.
const SCROLL_KEYS = new Set([" ", "Spacebar", "PageDown", "PageUp", "ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End"]);
document.addEventListener("keydown", (e) => { if (SCROLL_KEYS.has(e.key)) e.preventDefault(); });
keepFitted(() => client.view);

window.exhibitionScreen = { sound, voice, view: () => client.view };
client.connect();
