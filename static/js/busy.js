// The "busy" page (serving/busy.py) and "taking your seat" (joining.html) try again by themselves once
// the wait is over: the form is posted again with what was typed, or the link is followed. "Stop trying"
// turns that off (a timed change a person can stop: WCAG 2.2.1), and "Try again now" still works.
const retry = document.querySelector("[data-retry-seconds]");
if (retry) {
  const again = () => (retry.tagName === "FORM" ? retry.submit() : location.assign(retry.href));
  const timer = setTimeout(again, Number(retry.dataset.retrySeconds || 3) * 1000);
  const stop = document.getElementById("stop-retry");
  stop.hidden = false;
  stop.addEventListener("click", () => {
    clearTimeout(timer);
    stop.hidden = true;
    document.getElementById("retry-note").textContent = "Stopped trying by itself: try again when you are ready.";
  });
}
