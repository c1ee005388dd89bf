// Runs static/js/ui.js's botCardState under Node for the views tests/js/test_bot_cards.py builds,
// and prints what each bot's card would say as one JSON line.
import { pathToFileURL } from "node:url";

const [root, cases] = process.argv.slice(2);
const { botCardState } = await import(pathToFileURL(`${root}/static/js/ui.js`).href);
console.log(JSON.stringify(JSON.parse(cases).map(([view, seat]) => botCardState(view, view.seats[seat]))));
