"""Simulated competitors and a virtual-clock driver that plays a whole match through the engine.

`simulate` uses this to play a match in seconds instead of minutes: the driver jumps the clock
straight to the next thing that happens (a word, a timer, a competitor's action) and sends every
command through MatchRunner, so the match lands in the real event log exactly as a live one would.
Every simulated competitor is labelled as simulated wherever it appears.

A registered bot (RegisteredBot, `simulate --bot TIER=NAME`) plays for real, by the live conductor's
rules (game.engine.bot_turns): it is asked when it may act, after every word of its phase, and shown
what the conductor would show it (the revealed words only, its tier enforced, private data only as
bots.trust allows); its guesses, buzzes and answers become the commands they become in a live match.
"""
from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass

from bots.budgets import TierExceeded
from bots.errors import BotError
from bots.protocol import Query
from bots.trust import private_fields
from game.engine.api import bot_turns, clean_answer, MatchState, next_wakeup, Rejected
from game.runner import MatchRunner

MODERATOR = {"role": "moderator"}
SYSTEM = {"role": "system"}
WRONG_GUESSES = ("Napoleon", "Jupiter", "1848", "Paris", "Photosynthesis", "Hamlet", "Kant", "Pelé")
BOT_THRESHOLD = 0.6  # simulated bots report their confidence against this buzz threshold


@dataclass
class SimulatedCompetitor:
    """Knows the answer with a set probability and buzzes somewhere in the question."""

    seat: str
    team: str
    role: str  # "player" or "bot"
    accuracy: float = 0.6  # chance of knowing the answer by the end of the question
    buzz_mean: float = 0.7  # mean fraction of the question read before a buzz when it knows
    rash: float = 0.1  # chance of buzzing without knowing
    buzz_sd: float = 0.15  # spread of that fraction (0: always at buzz_mean)

    def actor(self) -> dict:
        return {"role": self.role, "seat": self.seat, "team": self.team}

    def plan_buzz(self, rng: random.Random, words: int) -> tuple[int | None, bool]:
        """The word count at which to buzz (None: never) and whether the answer will be right."""
        knows = rng.random() < self.accuracy
        if knows:
            fraction = min(1.0, max(0.05, rng.gauss(self.buzz_mean, self.buzz_sd)))
            return max(1, round(fraction * words)), True
        if rng.random() < self.rash:
            return max(1, round(rng.uniform(0.5, 1.0) * words)), False
        return None, False

    def team_answer(self, rng: random.Random, phase: int) -> bool:
        """Whether the team (or bot) gets it in a team phase; later phases give more help."""
        return rng.random() < min(0.95, self.accuracy + 0.1 * phase)


def correct_answer(state: MatchState) -> str:
    """What a simulated competitor says when it knows: the clean answer, never the line's directives."""
    question = state.question
    return question.accepted[0] if question.accepted else question.clean_answer


def part_answer(state: MatchState) -> str:
    """What a simulated competitor says for the bonus part in play when it knows: its clean answer."""
    return clean_answer(bot_turns.bonus_part(state)["answer"])


def wrong_answer(rng: random.Random, state: MatchState) -> str:
    right = correct_answer(state).lower()
    choices = [g for g in WRONG_GUESSES if g.lower() != right]
    return rng.choice(choices)


@dataclass
class RegisteredBot:
    """A bot from the registry, in the seat of its tier; it acts as it would in a live match."""

    seat: str
    team: str
    spec: dict  # the seat's pinned build
    tier: str
    role: str = "bot"
    guess: str = ""

    def actor(self) -> dict:
        return {"role": "bot", "seat": self.seat, "team": self.team}

    def ask(self, state: MatchState) -> tuple[dict, float | None]:
        """The bot's act for what is revealed now, cleaned as the conductor cleans a worker's, and its buzz
        threshold; BotError / TierExceeded when it cannot act."""
        # Imported when a registered bot plays: the kinds bring NumPy, SciPy and scikit-learn (bots.kinds),
        # which a match of simulated players only (simulate, simulate_event) never needs.
        from bots.registry import load_bot

        query = Query.from_dict(bot_turns.revealed_query(state, state.seats[self.seat]))
        private = bot_turns.private_for(state, private_fields(self.spec))
        bot = load_bot(self.spec, private or None, tier=self.tier)
        return bot_turns.clean_act(bot.act(query).to_dict()), bot_turns.threshold_of(getattr(bot, "threshold", None))


class VirtualMatch:
    """Plays a match on a virtual clock with simulated competitors and a simulated moderator."""

    def __init__(self, runner: MatchRunner, competitors: list[SimulatedCompetitor], seed: int, start_ms: int):
        self.runner = runner
        self.competitors = competitors
        self.rng = random.Random(seed)
        self.now = start_ms
        self._queue: list = []
        self._order = itertools.count()
        self._plans: dict = {}
        self._guess_plans: dict = {}  # seat -> (word it will buzz at or None, right) for its reported guesses
        self._suggested: dict = {}  # (question number, team) -> the judge's suggested verdict
        self.rejections = 0

    # -- scheduling ---------------------------------------------------------------------------
    def later(self, delay_ms: int, command: dict, then=None):
        heapq.heappush(self._queue, (self.now + delay_ms, next(self._order), command, then))

    def send(self, command: dict) -> list[dict]:
        try:
            events = self.runner.handle(command, self.now)
        except Rejected:
            self.rejections += 1
            return []
        for event in events:
            self.react(event)
        return events

    def run(self, max_steps: int = 200000) -> MatchState:
        self.send({"type": "start", "actor": MODERATOR})
        for _ in range(max_steps):
            state = self.runner.state
            if state.status == "finished":
                return state
            wake = next_wakeup(state)
            queued = self._queue[0][0] if self._queue else None
            if wake is None and queued is None:
                raise RuntimeError("The simulated match stalled: nothing is scheduled and it has not ended.")
            if queued is not None and (wake is None or queued <= wake):
                at, _, command, then = heapq.heappop(self._queue)
                self.now = max(self.now, at)
                if then is None or then(self.runner.state):
                    self.send(command)
            else:
                self.now = max(self.now, wake)
                self.send({"type": "tick", "actor": SYSTEM})
        raise RuntimeError("The simulated match did not finish.")

    # -- reactions: what simulated people do when they see an event ---------------------------
    def react(self, event: dict):
        state = self.runner.state
        kind, data = event["type"], event["data"]
        if kind == "phase_started":
            self._plan_phase(state, data)
            self._ask_bots(state)
        elif kind == "word_revealed":
            self._report_guesses(state)
            self._maybe_buzz(state)
            self._ask_bots(state)
        elif kind == "buzz":
            self._answer_after_buzz(state, data)
        elif kind == "judge_suggested":
            self._suggested[(state.q.number, data["team"])] = data["verdict"]
            self._moderator_rules(state)
        elif kind == "ruling" and data["verdict"] == "prompt":
            self._answer_prompt(state, data)
        elif kind == "ruling" and data["verdict"] == "reject" and data["mode"] == "team":
            self._moderator_rules(state)  # the floor passes to a team that may have submitted already
        elif kind == "question_closed" and state.q.bonus is None:  # a bonus that follows comes before the next
            self.later(3000, {"type": "next", "actor": MODERATOR})
        elif kind in ("bonus_started", "bonus_part_ruled", "bonus_part_read", "bonus_answered", "bonus_ended"):
            self._bonus(state, kind, data)

    # -- a tossup's bonus: the moderator reads each part, the team whose turn it is answers, the moderator rules --
    def _bonus(self, state: MatchState, kind: str, data: dict):
        b = state.q.bonus
        if kind == "bonus_ended":
            self.later(3000, {"type": "next", "actor": MODERATOR})
        elif kind == "bonus_answered":
            right = data["text"].casefold() == part_answer(state).casefold()
            self.later(1000, {"type": "rule", "actor": MODERATOR, "data": {
                "verdict": "accept" if right else "reject", "part": data["part"], "answer": state.q.floor_seq}})
        elif kind == "bonus_started" or ("answer" in data and not b["ended"]):  # the next part
            self.later(2000, {"type": "read_part", "actor": MODERATOR, "data": {"part": b["part"] + 1}})
        elif kind == "bonus_part_read" or data["deadline"] is not None:  # a part, a bounceback or a prompt
            self._answer_part(state)

    def _answer_part(self, state: MatchState):
        """The team whose turn it is answers the part: its captain, or its bot (a registered one as the
        conductor would ask it)."""
        b = state.q.bonus
        turn = (state.q.number, b["part"], b["bounce"])
        still = lambda s: s.q is not None and s.q.bonus is not None and (s.q.number, s.q.bonus["part"],  # noqa: E731
                                                                         s.q.bonus["bounce"]) == turn
        for c in self.competitors:
            if c.team != b["answering"]:
                continue
            if c.role == "player" and state.seats[c.seat].get("captain"):
                right = self.rng.random() < c.accuracy
                text = part_answer(state) if right else wrong_answer(self.rng, state)
                self.later(self.rng.randint(1000, 4000), {"type": "bonus_answer", "actor": c.actor(),
                                                          "data": {"text": text, "part": b["part"]}}, then=still)
                return
            if c.role == "bot" and bot_turns.may_act(state, c.seat):
                if isinstance(c, RegisteredBot):
                    try:
                        act, _ = c.ask(state)
                    except (BotError, TierExceeded) as error:
                        self.send(bot_turns.missed(c.seat, str(error)))
                        return
                    reply = bot_turns.reply_to(state, c.actor(), act)
                    if reply.now is not None:
                        self.later(1000, reply.now, then=still)
                    return
                right = self.rng.random() < c.accuracy
                text = part_answer(state) if right else wrong_answer(self.rng, state)
                self.later(1000, {"type": "bonus_answer", "actor": c.actor(), "data": {"text": text, "part": b["part"]}},
                           then=still)
                return

    def _ask_bots(self, state: MatchState):
        """Each registered bot that may act now (bot_turns.may_act) acts on what is revealed, as the
        conductor would ask it, once a phase: its act becomes the commands the conductor would send."""
        q = state.q
        for c in self.competitors:
            if not isinstance(c, RegisteredBot) or c.seat in self._plans or not bot_turns.may_act(state, c.seat):
                continue
            try:
                act, threshold = c.ask(state)
            except (BotError, TierExceeded) as error:
                self.send(bot_turns.missed(c.seat, str(error)))
                self._plans[c.seat] = (None, False)
                continue
            self.send(bot_turns.guess(c.actor(), act, threshold, q.revealed))
            reply = bot_turns.reply_to(state, c.actor(), act)
            if reply.now is not None:
                self._plans[c.seat] = (None, True)
                self.later(1000, reply.now, then=lambda s, n=q.number, p=q.phase + 1: _same_phase(s, n, p))
            elif reply.buzz_in_ms is not None:
                c.guess = reply.guess
                self._plans[c.seat] = (None, True)
                self.later(reply.buzz_in_ms, bot_turns.buzz(c.actor(), q.revealed))

    def _plan_phase(self, state: MatchState, data: dict):
        words = len(state.question.words)
        self._plans = {}
        playing = [c for c in self.competitors if self._may_play(state, c) and not isinstance(c, RegisteredBot)]
        if data["mode"] == "buzz":
            for c in playing:
                self._plans[c.seat] = c.plan_buzz(self.rng, words)
            self._guess_plans = {seat: plan for seat, plan in self._plans.items()}
            return
        self._guess_plans = {}
        for c in playing:
            if c.role == "player" and not state.seats[c.seat].get("captain"):
                continue
            right = c.team_answer(self.rng, data["phase"])
            text = correct_answer(state) if right else wrong_answer(self.rng, state)
            self._plans[c.seat] = (None, right)
            if c.role == "bot":
                self._guess_plans[c.seat] = (words, right)
                self._report_guess(state, c, words)
            self.later(self.rng.randint(4000, 25000), {"type": "submit", "actor": c.actor(), "data": {"text": text}},
                       then=lambda s, n=state.q.number, p=data["phase"]: _same_phase(s, n, p))

    def _may_play(self, state: MatchState, c: SimulatedCompetitor) -> bool:
        return c.role != "bot" or bot_turns.plays_in_phase(state, state.seats[c.seat])

    def _maybe_buzz(self, state: MatchState):
        q = state.q
        for c in self.competitors:
            if isinstance(c, RegisteredBot):
                continue
            word, _ = self._plans.get(c.seat, (None, False))
            if word is not None and q.revealed >= word and q.possession is None and c.team not in q.locked:
                self._plans[c.seat] = (None, self._plans[c.seat][1])
                reaction = self.rng.randint(150, 600) if c.role == "player" else state.rules["bot_reaction_ms"]
                self.later(reaction, {"type": "buzz", "actor": c.actor(), "data": {"seen": q.revealed}})

    def _report_guesses(self, state: MatchState):
        for c in self.competitors:
            if c.role == "bot" and c.seat in self._guess_plans and c.team not in state.q.locked:
                self._report_guess(state, c, state.q.revealed)

    def _report_guess(self, state: MatchState, c: SimulatedCompetitor, revealed: int):
        """What a bot tells the hall as words come: a confidence that reaches the threshold at the word it
        plans to buzz at (or stays low when it will not), and its guess: a plausible wrong one when it will
        not know, and the clean answer only from the word its model says it knows it (nothing before)."""
        word, right = self._guess_plans[c.seat]
        words = len(state.question.words)
        if word is None:
            confidence = 0.35 * revealed / words
        else:
            confidence = min(0.99, BOT_THRESHOLD * revealed / max(1, word))
        knows = word is not None and revealed >= word
        wrong = WRONG_GUESSES[(state.q.number + len(c.seat)) % len(WRONG_GUESSES)]
        guess = (correct_answer(state) if knows else "") if right else wrong
        other = WRONG_GUESSES[(state.q.number + revealed) % len(WRONG_GUESSES)]
        alternatives = [[guess, round(confidence, 3)], [other, round(confidence / 3, 3)]] if guess else []
        self.later(0, {"type": "bot_guess", "actor": c.actor(), "data": {
            "guess": guess, "confidence": round(confidence, 3), "buzz": bool(guess) and confidence >= BOT_THRESHOLD,
            "alternatives": alternatives, "threshold": BOT_THRESHOLD}})

    def _answer_after_buzz(self, state: MatchState, data: dict):
        c = self._competitor(data["seat"])
        _, right = self._plans.get(c.seat, (None, False))
        if isinstance(c, RegisteredBot):
            text = c.guess
        else:
            text = correct_answer(state) if right else wrong_answer(self.rng, state)
        delay = self.rng.randint(1000, 4000) if c.role == "player" else 200
        self.later(delay, {"type": "answer", "actor": c.actor(), "data": {"text": text}})

    def _answer_prompt(self, state: MatchState, data: dict):
        c = self._competitor(data["seat"]) if data.get("seat") else None
        if c is None:
            return
        command = "answer" if data["mode"] == "buzz" else "submit"
        text = c.guess if isinstance(c, RegisteredBot) else correct_answer(state)  # a real bot knows no more
        self.later(1500, {"type": command, "actor": c.actor(), "data": {"text": text}})

    def _moderator_rules(self, state: MatchState):
        """The simulated moderator follows the judge's suggestion for whoever is to be ruled, naming
        that answer as the console does: a second later it may have been ruled or the floor moved on."""
        q = state.q
        if q.mode == "buzz":
            team = q.possession["team"] if q.possession and q.possession["answer"] is not None else None
        else:
            team = q.floor if q.floor in q.submissions else None
        verdict = self._suggested.pop((q.number, team), None) if team else None
        if verdict is not None:
            pressed_for = {"verdict": verdict, "answer": q.floor_seq}
            self.later(1000, {"type": "rule", "actor": MODERATOR, "data": pressed_for})

    def _competitor(self, seat: str) -> SimulatedCompetitor:
        return next(c for c in self.competitors if c.seat == seat)


def _same_phase(state: MatchState, number: int, phase: int) -> bool:
    q = state.q
    return q is not None and not q.closed and q.number == number and q.phase + 1 == phase and q.mode == "team"
