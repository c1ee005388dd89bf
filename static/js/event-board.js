// The event's leaderboard. It reads itself again every few seconds until the event has closed. Opened
// as the hall's screen (?hall=1), it also goes on to the spectator screen of the match the host starts
// next, which comes back here once that match has ended (watch.js), so the projector follows the event
// with nobody at its keyboard.

const board = document.querySelector("[data-board]");
const hall = new URLSearchParams(location.search).get("hall") === "1";
if (hall && board.dataset.next) {
  location.assign(`${board.dataset.next}?hall=1`);
} else if (board.dataset.refresh) {
  setTimeout(() => location.reload(), Number(board.dataset.refresh) * 1000);
}
