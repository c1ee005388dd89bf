// USB gamepads through the browser's Gamepad API: calls onPress(pad index, button index, stamp) when a
// button goes down. The stamp is the pad's own `timestamp` (when the browser last read that pad, on
// performance.now()'s clock), so the press is dated by when the pad reported it, not by when this loop
// happened to look; a slow poll changes nothing in how two presses are ordered.

export class GamepadButtons {
  constructor(onPress, gamepads = () => (navigator.getGamepads ? navigator.getGamepads() : [])) {
    this.onPress = onPress;
    this.gamepads = gamepads;
    this.down = new Map();  // "pad:button" -> pressed at the last look
    this.running = false;
  }

  start() {
    if (this.running) return;
    this.running = true;
    const loop = () => {
      if (!this.running) return;
      this.poll();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  stop() { this.running = false; }

  poll() {
    let pads;
    try { pads = this.gamepads() || []; } catch { return; }
    for (const pad of pads) {
      if (!pad || !pad.connected) continue;
      pad.buttons.forEach((button, i) => {
        const id = `${pad.index}:${i}`;
        const pressed = !!(button?.pressed);
        const was = this.down.get(id);
        this.down.set(id, pressed);
        if (pressed && was === false) this.onPress(pad.index, i, pad.timestamp);
      });
    }
  }
}
