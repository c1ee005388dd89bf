// Which teams a frame locked out of the question in play: a buzz ruled wrong locks its team out
// (q.locked grows). The big screen and the buzzer station play the lockout sound on it; a page that
// connects or catches up on a question already locked plays nothing for it.

export class LockoutWatch {
  constructor() {
    this.question = null;  // the question's index the locked teams below belong to
    this.locked = new Set();
  }

  /** The teams locked out since the last call (a new question starts from none); [] the first time a question is seen. */
  update(view) {
    const q = view.question;
    const now = q && !q.closed ? q.locked || [] : [];
    const same = q && q.index === this.question;
    const fresh = same ? now.filter((team) => !this.locked.has(team)) : [];
    this.question = q ? q.index : null;
    this.locked = new Set(now);
    return fresh;
  }
}
