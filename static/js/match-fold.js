// The client-side fold: one view model per match, built from the frames the server numbered (seq).
//
// It mirrors game/engine/fold.py on the projected frames, so every screen shows the fold of the same
// event log; tests/js/test_browser_fold.py runs it under Node and proves it equal to the engine's at
// every seq. The socket that delivers the frames is match-socket.js; the replay feeds it stored frames.

const POWER_MARK = "(*)";
const GUIDE = /\s*\u27e6[^\u27e6\u27e7]{0,80}\u27e7/g;  // a pronunciation guide: spoken by the hall's voice, never shown

/** Split a question's text into the words a reader says, and find the power mark (as the engine does). */
export function splitWords(text) {
  const words = [];
  let power = null;
  for (const token of (text || "").replace(GUIDE, "").trim().split(/\s+/)) {
    if (!token) continue;
    const at = token.indexOf(POWER_MARK);
    if (at >= 0) {
      const before = token.slice(0, at);
      const after = token.slice(at + POWER_MARK.length);
      if (before) words.push(before);
      if (power === null) power = words.length;
      if (after) words.push(after);
      continue;
    }
    words.push(token);
  }
  return { words, power };
}

function addScores(into, changes) {
  for (const [team, points] of Object.entries(changes || {})) into[team] = (into[team] || 0) + points;
}

/** An empty view model; applySnapshot or a match_created frame fills it. */
export function emptyView(audience) {
  return {
    audience, seq: 0, t: 0, status: "none", paused: false, rules: null, teams: [], seats: {}, scores: {},
    scores_seq: 0, number: 0, winner: null, voice: null, history: [], rulings: {}, question: null, questions: null, corrections: [],
    bonuses: null, bonuses_left: null,  // the moderator's: the packet's bonuses, and how many are still to be heard
    protests: [], buzzes: [], lost: [], feed: [], notices: [], suggestions: [],
    roster: null,  // the moderator's: who is connected, how the bots do (a "roster" frame, not an event)
  };
}

// The fields of a ruling record, as the server's state keeps them (game/engine/fold.py _ruling).
const RULING_KEYS = ["id", "number", "phase", "mode", "team", "seat", "text", "verdict", "points", "accept_points",
  "reject_points", "by", "heard", "reason"];
const GUESS_KEYS = ["word", "guess", "confidence", "buzz", "alternatives", "threshold"];
// A team's decision on a bonus part, as the feed says it (game/engine/ai_points.py DECISIONS).
const DECISION_SAID = { own: "answer on their own", consult: "consult their AI", abstain: "abstain" };
// A bonus part's ruling as the bonus keeps it (game/engine/bonus.py RULED_KEYS).
const RULED_KEYS = ["id", "team", "seat", "text", "heard", "verdict", "points", "bounce", "by"];

function pick(data, keys) {
  return Object.fromEntries(keys.map((k) => [k, data[k] ?? null]));
}

const staff = (view) => view.audience === "moderator";
const RACE_SHOWN_MS = 1000;  // a lost buzz this close to the winner's press is a race the hall is told of (projection.py)

function newQuestion(view, d) {
  const q = {
    number: d.number, index: d.index, tiebreaker: d.tiebreaker, priority: d.priority, category: d.category,
    kind: d.question_kind, revealed: 0, words: [], phase: 1, mode: "buzz", points: null, locked: [], passed: [],
    possession: null, floor: null, floor_seq: null, deadline: null, next_word_at: null, closed: false, answer_shown: false, result: null,
    score_changes: {}, answer: null, power_index: null, submissions: {}, chat: {}, bot_guesses: {}, bot_missed: {},
    can_undo: false, last_ruling: null, snippets: [], buzz_log: [], buzzes: [], answers: [], ruling_ids: [], voice: null,
    bonus: null,
  };
  const full = view.questions && view.questions[d.index];
  if (full) {  // the moderator knows the whole question from the start
    const split = splitWords(full.text);
    q.words = split.words;
    q.power_index = split.power;
    q.answer = full.answer;
  }
  return q;
}

/** Replace the view with a snapshot (game/engine/projection.py snapshot()). */
export function applySnapshot(view, snap) {
  const fresh = emptyView(view.audience);
  Object.assign(fresh, {
    seq: snap.seq || 0, t: snap.t || 0, status: snap.status, paused: !!snap.paused, rules: snap.rules || null,
    teams: snap.teams || [], scores: { ...(snap.scores || {}) }, scores_seq: snap.scores_seq || 0,
    number: snap.number || 0, winner: snap.winner || null, voice: snap.voice || null,
    history: snap.history || [], questions: snap.questions || null, corrections: snap.corrections || [],
    protests: snap.protests || [], bonuses: snap.bonuses || null, bonuses_left: snap.bonuses_left ?? null,
  });
  for (const seat of snap.seats || []) fresh.seats[seat.id] = seat;
  for (const r of snap.rulings || []) fresh.rulings[r.id] = r;
  const q = snap.question;
  if (q) {
    fresh.question = { ...q, words: [...q.words], points: null, snippets: q.snippets || [], buzzes: q.buzzes || [],
      answers: q.answers || [], buzz_log: q.buzz_log || [], bot_missed: q.bot_missed || {},
      ruling_ids: q.ruling_ids || [], bonus: q.bonus ? structuredClone(q.bonus) : null };
    if (fresh.rules) fresh.question.points = fresh.rules.phases[q.phase - 1].points;
  }
  fresh.feed = view.feed;  // what happened stays on screen across a resync
  fresh.notices = view.notices;
  fresh.roster = view.roster;
  Object.assign(view, fresh);
  return settle(view);
}

function note(view, frame, kind, text, extra = {}) {
  view.feed.push({ seq: frame.seq, t: frame.t, kind, text, ...extra });
  if (view.feed.length > 60) view.feed.shift();
}

export function seatName(view, id) { return view.seats[id]?.name ?? "someone"; }
export function teamName(view, id) { return view.teams.find((t) => t.id === id)?.name ?? id ?? ""; }
/** The semi bots of a team still playing (game/engine/seat_table.py): a person on the team presses their buzzer. */
export function semiBots(view, team) {
  return Object.values(view.seats).filter((s) => s.kind === "bot" && s.team === team && s.buzz_mode === "semi" && !s.stopped);
}
/** A name with its possessive ending: "Humans'" after a final s, else "Ann's" (game/engine/wording.py). */
export function possessive(name) { const n = String(name ?? "").trim(); return /s$/i.test(n) ? `${n}'` : `${n}'s`; }

/** One buzz as the moderator's audit keeps it (game/engine/fold.py _audit). */
function audit(d, t, outcome) {
  return { seat: d.seat, team: d.team, received: d.received, word: d.word, seen: d.seen ?? null, at: t, outcome,
    pressed: d.pressed ?? d.received, claimed: d.claimed ?? null, clamp: d.clamp ?? null, margin: d.margin ?? null };
}

/** A close race as every screen's feed tells it: who, at which word, how many ms apart (by press time). */
function noteRace(view, frame, win, lose, margin, team) {
  note(view, frame, "race", `${seatName(view, win.seat)} (word ${win.word}) pressed ${margin} ms before ` +
    `${seatName(view, lose.seat)} (word ${lose.word})`, { team });
}

function openMarker(q, seat) {
  for (let i = q.buzzes.length - 1; i >= 0; i--) if (q.buzzes[i].seat === seat && q.buzzes[i].verdict === null) return q.buzzes[i];
  return null;
}

/** The closed or thrown-out question as its history entry (game/engine/fold.py _history_entry). */
function historyEntry(view, q, thrownOut, reason, answer, text) {
  return { number: q.number, index: q.index, tiebreaker: q.tiebreaker, thrown_out: thrownOut, reason, phase: q.phase,
    result: q.result, rulings: [...q.ruling_ids], score_changes: { ...q.score_changes }, answer, text,
    buzzes: staff(view) ? [...q.buzz_log] : q.buzz_log.filter((b) => b.outcome === "won"),
    bonus: q.bonus ? { index: q.bonus.index, team: q.bonus.team, points: { ...q.bonus.points } } : null };
}

const FOLD = {
  match_created(view, d) {
    Object.assign(view, {
      status: "setup", rules: d.rules, teams: d.teams, seats: {}, scores: {}, questions: d.questions || null,
      history: [], rulings: {}, question: null, number: 0, winner: null, bonuses: d.bonuses || null,
      bonuses_left: staff(view) && d.rules.bonuses ? (d.bonuses || []).length : null,
    });
    for (const s of d.seats) view.seats[s.id] = s;
    for (const t of d.teams) view.scores[t.id] = 0;
  },
  seat_joined(view, d) { view.seats[d.seat.id] = d.seat; },
  seat_left(view, d) {
    // New objects: a seat's object came from a frame, which a replay folds again from the start.
    view.seats[d.seat] = { ...view.seats[d.seat], left: d.by, captain: false };
    if (d.captain) view.seats[d.captain] = { ...view.seats[d.captain], captain: true };
  },
  match_started(view, d) {
    view.status = "live";
    for (const [seat, size] of Object.entries(d.bot_sizes || {})) {
      if (view.seats[seat]) view.seats[seat] = { ...view.seats[seat], size: { ...size } };
    }
  },
  question_started(view, d) {
    view.question = newQuestion(view, d);
    view.number = d.number;
  },
  phase_started(view, d, frame) {
    const q = view.question;
    Object.assign(q, {
      phase: d.phase, mode: d.mode, points: d.points, locked: [], passed: [], submissions: {}, possession: null,
      floor: d.floor ?? null, next_word_at: d.next_word_at ?? null, deadline: d.deadline ?? null,
      floor_seq: staff(view) && d.mode === "team" ? frame.seq : null,  // a team phase gives the floor to its first side
    });
    if (d.words && d.words.length) {
      if (!view.questions) q.words = q.words.slice(0, q.revealed).concat(d.words);
      q.revealed += d.words.length;
    }
  },
  voice_ready(view, d) {  // the big screen and the console get the timings; the phones only the first word's time
    const q = view.question;
    if (d.offsets) q.voice = { offsets: d.offsets, end: d.end, audio: d.audio ?? null };
    if (d.next_word_at != null) q.next_word_at = d.next_word_at;
  },
  voice_chosen(view, d) { view.voice = { voice: d.voice, wpm: d.wpm }; },
  word_revealed(view, d) {
    const q = view.question;
    q.revealed = d.index + 1;
    if (!view.questions) q.words[d.index] = d.word;
    q.next_word_at = d.next_at ?? null;
    if (d.dead_at != null) q.deadline = { kind: "dead", at: d.dead_at };
  },
  buzz(view, d, frame) {
    const q = view.question;
    const before = q.possession;
    q.possession = { seat: d.seat, team: d.team, received: d.received, word: d.word, seen: d.seen ?? null, answer: null, prompted: false,
      pressed: d.pressed ?? d.received, by: d.by ?? null };
    q.buzz_log.push(audit(d, frame.t, "won"));
    if (d.replaces) q.buzzes = q.buzzes.filter((b) => !(b.seat === d.replaces && b.verdict === null));
    q.buzzes.push({ seat: d.seat, team: d.team, word: d.word, text: null, verdict: null, prompted: false, ruling: null });
    q.next_word_at = null;
    q.deadline = d.deadline_at ? { kind: "answer", at: d.deadline_at } : null;
    if (staff(view)) q.floor_seq = frame.seq;
    const by = d.by ? ` (${seatName(view, d.by)} pressed its buzzer)` : "";  // a semi AI teammate's buzz
    note(view, frame, "buzz", `${seatName(view, d.seat)} buzzed at word ${d.word}${by}`, { team: d.team });
    if (d.replaces && d.margin != null && before) noteRace(view, frame, d, before, d.margin, d.team);
  },
  answer(view, d, frame) {
    const q = view.question;
    if (q.possession) q.possession.answer = d.text;
    q.deadline = null;
    if (staff(view)) q.floor_seq = frame.seq;
    const marker = openMarker(q, d.seat);
    if (marker) marker.text = d.text;
    recordAnswer(view, d, frame);
    note(view, frame, "answer", d.text, { team: d.team, who: seatName(view, d.seat) });
  },
  submission(view, d, frame) {
    const q = view.question;
    q.submissions[d.team] = { seat: d.seat, text: d.text ?? null, ...(staff(view) ? { seq: frame.seq } : {}) }; // null: another team's, unread
    if (staff(view) && d.team === q.floor) q.floor_seq = frame.seq;
    if (d.clock_stopped) q.deadline = null;  // every side has answered: the clock stops
    recordAnswer(view, d, frame);
    note(view, frame, "answer", d.text ?? null, { team: d.team, who: seatName(view, d.seat) });
  },
  pass(view, d, frame) {
    const q = view.question;
    q.passed = [...q.passed, d.team];
    floorMoved(view, q, d.floor ?? null, frame);
    if (d.clock_stopped) q.deadline = null;
    note(view, frame, "pass", `${teamName(view, d.team)} passed`, { team: d.team });
  },
  chat(view, d) {
    const q = view.question;
    (q.chat[d.team] ||= []).push({ seat: d.seat, name: d.name, text: d.text });
  },
  ruling(view, d, frame) {
    const q = view.question;
    view.rulings[d.id] = { ...pick(d, RULING_KEYS), t: frame.t };
    if (d.held) view.rulings[d.id].held = true;
    if (d.public) view.rulings[d.id].public = true;  // the moderator showed its reason to the room
    q.can_undo = true;
    q.last_ruling = d.id;
    q.ruling_ids.push(d.id);
    addScores(q.score_changes, d.score_changes);
    const answered = [...q.answers].reverse().find((a) => a.team === d.team && a.ruling === null);
    if (answered && answered.text === (d.text ?? null) && answered.seat === (d.seat ?? null)) Object.assign(answered, { ruling: d.id, verdict: d.verdict });
    const marker = d.mode === "buzz" ? openMarker(q, d.seat) : null;
    if (marker) {
      if (d.verdict === "prompt") marker.prompted = true;
      else Object.assign(marker, { verdict: d.verdict, ruling: d.id });
    }
    if (d.verdict === "accept") {
      q.result = { team: d.team, seat: d.seat, points: d.points, phase: d.phase };
      q.possession = null;
      q.deadline = null;
      q.floor_seq = null;
    } else if (d.verdict === "prompt") {
      if (staff(view)) q.floor_seq = frame.seq;  // the answer goes back: the side answers again
      if (q.mode === "buzz" && q.possession) q.possession = { ...q.possession, answer: null, prompted: true };
      else delete q.submissions[d.team];
      q.deadline = d.deadline ?? null;
    } else {
      q.locked = [...q.locked, d.team];
      if (q.mode === "buzz") {
        q.possession = null;
        q.floor_seq = null;
        q.next_word_at = d.resume_at ?? null;
        q.deadline = d.dead_at != null ? { kind: "dead", at: d.dead_at } : null;
      } else {
        floorMoved(view, q, d.floor ?? null, frame);
      }
    }
    // The ruling replaces the line that showed the answer waiting for it (or that the team had answered,
    // when the hall was not told what).
    const waiting = view.feed.findLastIndex((f) => f.kind === "answer" && f.team === d.team && (f.text === d.text || f.text == null));
    if (waiting >= 0) view.feed.splice(waiting, 1);
    const who = d.seat ? seatName(view, d.seat) : teamName(view, d.team);
    note(view, frame, "ruling", d.text || d.heard || (d.held ? "(answer shown once the humans are done)" : "(no answer)"),
      { team: d.team, who, verdict: d.verdict, points: d.points, by: d.by, id: d.id, reason: d.reason ?? null });
  },
  timeout(view, d, frame) {
    const q = view.question;
    q.deadline = null;
    if (d.kind === "discussion") {
      q.passed = [...q.passed, ...(d.passed || [])];
      floorMoved(view, q, d.floor ?? null, frame);
    }
    if (d.kind === "dead") note(view, frame, "info", "Time is up: nobody else buzzed in time");
    // Said only when it is true: a side was still to answer when the discussion clock ran out.
    const silent = (d.passed || []).map((team) => teamName(view, team));
    if (d.kind === "discussion" && silent.length) note(view, frame, "info", `Discussion time is up: ${silent.join(" and ")} did not answer`);
  },
  question_closed(view, d, frame) {
    const q = view.question;
    const split = splitWords(d.text);
    Object.assign(q, { closed: true, answer_shown: true, next_word_at: null, deadline: null, possession: null, floor_seq: null, words: split.words,
      revealed: split.words.length, power_index: split.power, answer: d.answer, result: d.result });
    view.history.push(historyEntry(view, q, false, "", d.answer, d.text));
    note(view, frame, "closed", d.answer, { result: d.result });
  },
  question_thrown_out(view, d, frame) {
    const q = view.question;
    addScores(q.score_changes, d.score_changes);
    if (q.closed) view.history.pop();
    q.result = null;
    const full = view.questions?.[q.index];  // the hall is not told a thrown-out question's text or answer
    view.history.push(historyEntry(view, q, true, d.reason ?? "", full ? full.answer : null, full ? full.text : null));
    view.question = null;
    note(view, frame, "info", `Question ${d.number} thrown out${d.reason ? `: ${d.reason}` : ""}`);
  },
  undo(view, d, frame, client) {
    delete view.rulings[d.ruling];
    if (staff(view) && view.question) view.question.floor_seq = frame.seq;  // the undone ruling's answer is back on the floor
    note(view, frame, "info", "The last ruling was undone");
    // The engine restores the question from a checkpoint we do not keep; ask for the whole picture.
    client?.resync();
  },
  override(view, d, frame) {
    const r = view.rulings[d.ruling];
    noteCorrection(view, d, frame, "override", r?.team ?? null);
    if (r) Object.assign(r, { verdict: d.verdict, points: d.points, overridden: true });
    // The question was scored again: rulings after its first correct answer are withdrawn.
    for (const each of d.rulings || []) {
      if (view.rulings[each.id]) Object.assign(view.rulings[each.id], { points: each.points, withdrawn: each.withdrawn });
    }
    for (const h of view.history) if (h.number === d.number && !h.thrown_out && h.rulings.includes(d.ruling)) {
      h.score_changes = { ...h.score_changes };
      addScores(h.score_changes, d.score_changes);
      h.result = d.result ?? null;
    }
    const q = view.question;
    if (q && q.number === d.number && q.ruling_ids.includes(d.ruling)) {
      q.score_changes = { ...q.score_changes };
      addScores(q.score_changes, d.score_changes);
      q.result = d.result ?? null;
      for (const marker of q.buzzes) if (marker.ruling === d.ruling) marker.verdict = d.verdict;  // as it now stands
    }
    note(view, frame, "info", `${d.correction ? "Correction after the final: r" : "R"}uling on question ${d.number} changed to ${d.verdict}${d.reason ? `: ${d.reason}` : ""}`);
  },
  score_adjusted(view, d, frame) {
    noteCorrection(view, d, frame, "adjust", d.team);
    // The reason reaches this screen only if the moderator showed it to the room (or this is the moderator).
    note(view, frame, "info", `${d.correction ? "Correction after the final: " : ""}${teamName(view, d.team)} ${d.points > 0 ? "+" : ""}${d.points}${d.reason ? `: ${d.reason}` : ""}`);
  },
  paused(view) { view.paused = true; },
  resumed(view, d) {
    view.paused = false;
    const q = view.question;
    if (q) {
      if (q.next_word_at != null) q.next_word_at += d.shift;
      if (q.deadline) q.deadline = { ...q.deadline, at: q.deadline.at + d.shift };
    }
  },
  match_ended(view, d) {
    view.status = "finished";
    view.paused = false;
    view.winner = d.winner ?? null;
  },
  bot_guess(view, d) {
    const q = view.question;
    if (!q) return;
    q.bot_guesses[d.seat] = { ...pick(d, GUESS_KEYS), guess: d.guess || null };
    delete q.bot_missed[d.seat];
  },
  bot_guesses_released(view, d) {
    const q = view.question;
    if (!q) return;
    if (!staff(view)) Object.assign(q.bot_guesses, d.guesses || {});  // the moderator had them all along
    for (const item of d.rulings || []) {
      const r = view.rulings[item.id];
      if (r) { Object.assign(r, { text: item.text ?? null, heard: item.heard ?? null }); delete r.held; }
      for (const f of view.feed) if (f.kind === "ruling" && f.id === item.id) f.text = item.text || item.heard || "(no answer)";
    }
  },
  bot_missed(view, d, frame) {
    if (view.question && view.seats[d.seat]) {
      view.question.bot_missed[d.seat] = staff(view) ? { status: d.status || "failed", reason: d.reason ?? "" } : { status: d.status || "failed" };
    }
    notice(view, frame, d.seat, d.reason, d.status);
  },
  bot_stopped(view, d, frame) {
    // A new object, as for seat_left: the hall is told from which question, the moderator also why.
    if (view.seats[d.seat]) view.seats[d.seat] = { ...view.seats[d.seat], stopped: staff(view) ? { number: d.number ?? null, reason: d.reason ?? "" } : { number: d.number ?? null } };
    notice(view, frame, d.seat, d.reason, "stopped");
  },
  judge_suggested(view, d) {
    const answered = view.question?.answers.find((a) => a.seq === d.for);
    if (answered) answered.suggestion = pick(d, ["verdict", "confidence", "reason", "matched", "prompt_question"]);
  },
  buzz_refused(view, d, frame) {
    // The hall gets only a close race lost (game/engine/projection.py), for its feed; the audit is the moderator's.
    if (staff(view)) view.question.buzz_log.push({ ...audit(d, frame.t, d.code), holder: d.holder ?? null });
    const holder = view.question.possession;
    if (d.code === "beaten" && d.margin != null && d.margin >= 0 && d.margin <= RACE_SHOWN_MS && holder) noteRace(view, frame, holder, d, d.margin, holder.team);
  },
  snippets_shown(view, d, frame) {
    if (view.question) {
      view.question.snippets = d.snippets || [];
      // A search that failed or ran out of time says so (not in the snapshot: a reload shows no results, as before).
      view.question.search_error = d.error || null;
    }
    if (d.error) note(view, frame, "search", d.error);
  },
  // A protest's text reaches only the moderator and the protesting team (game/engine/protests.py).
  protest_filed(view, d, frame) {
    view.protests = [...view.protests, { id: d.id, ruling: d.ruling, number: d.number, team: d.team, seat: d.seat,
      verdict: d.verdict, text: d.text ?? null, t: frame.t, status: "open", reason: null }];
    note(view, frame, "protest", `${teamName(view, d.team)} protests the ruling on question ${d.number}`, { team: d.team });
  },
  protest_resolved(view, d, frame) {
    view.protests = view.protests.map((p) => (p.id !== d.protest ? p
      : { ...p, status: d.outcome, reason: d.reason ?? null, resolved_t: frame.t, ...(d.public ? { public: true } : {}) }));
    note(view, frame, "protest", `Protest: ${d.outcome}${d.reason ? ` (${d.reason})` : ""}`, { team: d.team });
  },
  // A tossup's bonus (game/engine/bonus.py): the moderator knows every part's text and answer line from the start.
  bonus_started(view, d) {
    const q = view.question;
    const full = view.bonuses?.[d.index];
    q.bonus = { index: d.index, team: d.team, leadin: d.leadin, values: [...d.values], part: -1, answering: null, bounce: false,
      typed: null, points: {}, ended: false,
      parts: d.values.map((value, k) => ({ value, text: full ? full.parts[k].text : null, answer: full ? full.parts[k].answer : null, rulings: [], decision: null })) };
    Object.assign(q, { closed: false, deadline: null, floor_seq: null, can_undo: false, last_ruling: null });
    const last = view.history[view.history.length - 1];
    if (last) last.bonus = { index: d.index, team: d.team, points: {} };
    if (staff(view) && view.bonuses) view.bonuses_left = view.bonuses.length - d.index - 1;
  },
  bonus_part_read(view, d, frame) {
    const q = view.question;
    const b = q.bonus;
    if (!staff(view)) b.parts[d.part].text = d.text;
    Object.assign(b, { part: d.part, answering: d.team, bounce: false, typed: null });
    q.deadline = d.deadline;
    if (staff(view)) q.floor_seq = frame.seq;
    note(view, frame, "info", `Bonus part ${d.part + 1} for ${teamName(view, d.team)}`);
  },
  // The controlling team's decision on the part in play (formats with bonus_decisions): own, consult or abstain.
  bonus_part_decided(view, d, frame) {
    const q = view.question;
    q.bonus.parts[d.part].decision = { decision: d.decision, points: d.points };
    if (staff(view)) q.floor_seq = frame.seq;
    q.deadline = d.deadline;  // none after an abstention: the moderator rules whether anybody was right
    note(view, frame, "info", `${teamName(view, d.team)} ${DECISION_SAID[d.decision]} on part ${d.part + 1}`);
  },
  bonus_answered(view, d, frame) {
    const q = view.question;
    q.bonus.typed = { seat: d.seat, team: d.team, text: d.text, ...(staff(view) ? { seq: frame.seq } : {}) };
    q.deadline = null;  // the answer is in: the clock stops
    if (staff(view)) q.floor_seq = frame.seq;
    recordAnswer(view, d, frame);
    note(view, frame, "answer", d.text, { team: d.team, who: seatName(view, d.seat) });
  },
  bonus_part_ruled(view, d, frame) {
    const q = view.question;
    const b = q.bonus;
    addScores(q.score_changes, d.score_changes);
    addScores(b.points, d.score_changes);
    const last = view.history[view.history.length - 1];
    if (last) Object.assign(last, { score_changes: { ...q.score_changes }, bonus: { ...last.bonus, points: { ...b.points } } });
    const answered = b.typed && staff(view) ? q.answers.find((a) => a.seq === b.typed.seq) : null;
    if (answered) Object.assign(answered, { ruling: d.id, verdict: d.verdict });
    const part = b.parts[d.part];
    part.rulings.push(pick(d, RULED_KEYS));
    b.typed = null;
    q.deadline = d.deadline ?? null;
    q.can_undo = true;
    q.last_ruling = d.id;
    if (staff(view)) q.floor_seq = frame.seq;
    if ("answer" in d) {  // the part is over: its answer is shown (the moderator had the whole line all along)
      if (!staff(view)) part.answer = d.answer;
      Object.assign(b, { answering: null, bounce: false });
      if (staff(view)) q.floor_seq = null;
    } else if (d.verdict === "reject") {  // a bounceback: the other team may answer
      Object.assign(b, { answering: view.teams.find((t) => t.id !== d.team).id, bounce: true });
    }
    const waiting = view.feed.findLastIndex((f) => f.kind === "answer" && f.team === d.team);
    if (waiting >= 0 && d.text != null) view.feed.splice(waiting, 1);
    note(view, frame, "ruling", d.text || d.heard || "(no answer)", { team: d.team, who: d.seat ? seatName(view, d.seat) : teamName(view, d.team),
      verdict: d.verdict, points: d.points, by: d.by, id: d.id, reason: d.reason ?? null });
  },
  bonus_ended(view, d) {
    const q = view.question;
    Object.assign(q.bonus, { ended: true, answering: null });
    Object.assign(q, { closed: true, deadline: null, floor_seq: null });
  },
  hidden() {},
};

/** A change of score after the final whistle, kept in order (game/engine/fold.py _note_correction). */
function noteCorrection(view, d, frame, kind, team) {
  if (!d.correction) return;
  const entry = { seq: frame.seq, t: frame.t, kind, team, number: d.number ?? null, ruling: d.ruling ?? null,
    verdict: d.verdict ?? null, points: d.points ?? null, score_changes: { ...d.score_changes }, reason: d.reason ?? null };
  if (d.public) entry.public = true;
  view.corrections = [...view.corrections, entry];
}

/**
 * A team phase's floor goes to `floor`: on the console it holds that side's submission if it made one, else
 * it waits for that side from this frame on (game/engine/fold.py _floor_moved; a ruling names floor_seq).
 */
function floorMoved(view, q, floor, frame) {
  const before = q.floor;
  q.floor = floor;
  if (staff(view) && floor !== before) q.floor_seq = floor == null ? null : q.submissions[floor]?.seq ?? frame.seq;
}

function notice(view, frame, seat, reason, status) {
  view.notices.push({ seq: frame.seq, seat, reason, status });
  if (view.notices.length > 20) view.notices.shift();
}

function recordAnswer(view, d, frame) {
  // The moderator's record of every typed answer, to which the judge's suggestion is attached ("for").
  if (staff(view)) view.question.answers.push({ seq: frame.seq, seat: d.seat, team: d.team, text: d.text, ruling: null, verdict: null, suggestion: null });
}

/**
 * The judge's suggestions still to be ruled on, labelled by team: for each team with an answer on the
 * floor now, the suggestion on its latest unruled answer (game/engine/state.py pending_suggestions).
 */
export function pendingSuggestions(view) {
  const q = view.question;
  if (!q || !staff(view)) return [];
  const waiting = new Set(q.mode === "team" ? Object.keys(q.submissions) : []);
  if (q.mode === "buzz" && q.possession && q.possession.answer != null) waiting.add(q.possession.team);
  if (q.bonus && q.bonus.typed) { waiting.clear(); waiting.add(q.bonus.typed.team); }  // a team's answer to a bonus part
  const out = [];
  for (const team of view.teams.map((t) => t.id)) {
    const latest = [...q.answers].reverse().find((a) => a.team === team && a.ruling === null);
    if (waiting.has(team) && latest && latest.suggestion) out.push({ ...latest.suggestion, team, seat: latest.seat, text: latest.text, seq: latest.seq });
  }
  return out;
}

/** A card's top guesses: game/engine/rules.py MAX_GUESSES (tests/js/test_browser_fold.py holds them equal). */
export const MAX_GUESSES = 5;

/**
 * Every bot seat's card (game/engine/projection.py bot_cards; docs/wire-protocol.md "Bot cards"): one
 * scale, [0, 1], for the confidence, the top guesses and the threshold; guess null is "no guess".
 */
export function botCards(view) {
  const q = view.question;
  const cards = {};
  if (!q) return cards;
  for (const seat of Object.values(view.seats)) {
    if (seat.kind !== "bot") continue;
    const g = q.bot_guesses?.[seat.id] || null;
    const missed = q.bot_missed?.[seat.id] || null;
    const guessed = !!(g && g.guess);
    const buzzed = [...(q.buzzes || [])].reverse().find((b) => b.seat === seat.id) || null;  // shown on every screen
    cards[seat.id] = {
      seat: seat.id, state: seat.stopped ? "stopped" : q.closed ? "settled" : missed ? "missed" : g ? "guessing" : "waiting",
      word: g ? g.word ?? null : null, guess: guessed ? g.guess : null, confidence: guessed ? g.confidence : null,
      threshold: g ? g.threshold ?? null : null, buzz: !!g?.buzz,
      guesses: guessed ? (g.alternatives || []).slice(0, MAX_GUESSES).map((x) => [...x]) : [], missed: missed ? missed.status : null,
      buzzed_at: buzzed ? buzzed.word : null, buzz_verdict: buzzed ? buzzed.verdict : null,
      answered: Object.values(q.submissions || {}).some((sub) => sub.seat === seat.id),
    };
  }
  return cards;
}

/** Fields every page reads that follow from the folded question: aliases and derived lists. */
function settle(view) {
  const q = view.question;
  if (q) {
    q.suggestions = pendingSuggestions(view);
    q.bot_cards = botCards(view);
  }
  view.buzzes = q ? q.buzzes : [];
  view.lost = q ? q.buzz_log.filter((b) => b.outcome !== "won") : [];
  view.suggestions = q ? q.suggestions : [];
  return view;
}

function leader(scores) {
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  return ranked.length === 1 || (ranked.length > 1 && ranked[0][1] !== ranked[1][1]) ? ranked[0][0] : null;
}

/** Fold one event frame into the view. Scores move by data.score_changes on every event. */
export function applyFrame(view, frame, client = null) {
  const handler = FOLD[frame.type];
  const data = frame.data || {};
  if (handler && (view.question || !QUESTION_EVENTS.has(frame.type))) handler(view, data, frame, client);
  addScores(view.scores, data.score_changes);
  if (data.score_changes && Object.keys(data.score_changes).length) view.scores_seq = frame.seq;
  if (frame.type === "match_ended" && data.scores) view.scores = { ...data.scores };
  // A correction after the final whistle moves the winner with the scores (game/engine/fold.py _recount_winner).
  if (view.status === "finished" && (frame.type === "override" || frame.type === "score_adjusted")) view.winner = leader(view.scores);
  view.seq = frame.seq;
  view.t = Math.max(view.t, frame.t || 0);
  return settle(view);
}

const QUESTION_EVENTS = new Set(["phase_started", "word_revealed", "voice_ready", "buzz", "answer", "submission", "pass", "chat",
  "ruling", "timeout", "question_closed", "buzz_refused", "question_thrown_out", "bonus_started", "bonus_part_read",
  "bonus_part_decided", "bonus_answered", "bonus_part_ruled", "bonus_ended"]);
