// Keeps a phone's screen on while its match is live, with the Screen Wake Lock API. The browser
// drops the lock whenever the page is hidden (another app, the screen switched off), so it is asked
// for again each time the page comes back. Browsers offer the API only to secure pages (HTTPS, or
// localhost): elsewhere `state` says "unavailable" and the page can tell the player.

export class ScreenWakeLock {
  constructor(onChange = () => {}) {
    this.wanted = false;
    this.sentinel = null;
    this.onChange = onChange;
    this.state = "wakeLock" in navigator ? "off" : "unavailable";
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.wanted) this.acquire();
    });
  }

  /** Hold the lock (true) or let it go (false). */
  want(on) {
    if (on === this.wanted) return;
    this.wanted = on;
    if (on) this.acquire(); else this.release();
  }

  async acquire() {
    if (this.state === "unavailable" || (this.sentinel && !this.sentinel.released)) return;
    try {
      this.sentinel = await navigator.wakeLock.request("screen");
      this.sentinel.addEventListener("release", () => this.set(this.wanted ? "dropped" : "off"));
      if (!this.wanted) { this.release(); return; }  // the match ended while the request was out
      this.set("held");
    } catch {
      this.set("refused");  // e.g. battery saver: the phone may dim; nothing else to do
    }
  }

  release() {
    const sentinel = this.sentinel;
    this.sentinel = null;
    sentinel?.release().catch(() => {});
    if (this.state !== "unavailable") this.set("off");
  }

  set(state) {
    this.state = state;
    this.onChange(state);
  }
}
