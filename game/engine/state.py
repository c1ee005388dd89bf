"""The live state of a match: plain data, rebuilt by folding the event log from the start."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from game.engine.questions import Question
from game.engine.stages import ANSWER_SHOWN_STAGES, BONUS_ANSWERING, Stage


_ATOMS = (str, int, float, bool, type(None))
_CLOSED = Stage.CLOSED  # a module's name is read faster than an enum's member, on every event emitted


def copy_state(value, memo: dict):
    """copy.deepcopy, for the plain data a state is made of (dicts, lists, the two dataclasses below
    and atoms), in half the time: an object reached twice is copied once, as deepcopy does, so the
    copy has the same shape. Anything else goes to deepcopy with the same memo."""
    if isinstance(value, _ATOMS):
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    kind = type(value)
    if kind is dict:
        out = memo[id(value)] = {}
        for key, item in value.items():
            out[key] = item if isinstance(item, _ATOMS) else copy_state(item, memo)
    elif kind is list:
        out = memo[id(value)] = []
        out.extend(item if isinstance(item, _ATOMS) else copy_state(item, memo) for item in value)
    elif kind is MatchState or kind is QuestionState:
        out = memo[id(value)] = object.__new__(kind)
        out.__dict__.update((key, copy_state(item, memo)) for key, item in value.__dict__.items())
    else:
        return copy.deepcopy(value, memo)
    return out  # (the state being copied keeps every original alive, so no id in the memo is reused)


@dataclass
class QuestionState:
    """Everything about the question being played (or just closed)."""

    number: int  # 1-based position in the match; a replacement keeps the number it replaces
    index: int  # which of MatchState.questions
    tiebreaker: bool
    priority: str  # team id with priority on this question
    revealed: int = 0
    reveal_times: list[int] = field(default_factory=list)
    next_word_at: int | None = None
    phase: int = 0  # 0-based into rules["phases"]
    mode: str = "buzz"
    locked: list[str] = field(default_factory=list)  # teams out of this phase
    passed: list[str] = field(default_factory=list)  # teams that passed this (team) phase
    possession: dict | None = None  # buzz mode: {seat, team, received, word, seen, answer, prompted}
    submissions: dict = field(default_factory=dict)  # team phase: team -> {seat, text, seq, held?}
    floor: str | None = None  # team phase: whose submission is judged next
    # The seq of the event that put what the floor holds there: a buzz, its answer, the floor's submission,
    # or what gave the floor to a side or sent its answer back (a ruling, a pass, a timeout, an undo).
    # A ruling names it (rule's "answer"), so it never lands on an answer the moderator has not seen.
    floor_seq: int | None = None
    deadline: dict | None = None  # {"kind": answer|prompt|dead|discussion, "at": ms}
    stage: Stage = Stage.READING  # where play stands (engine/stages.py); the fold sets it from each event
    result: dict | None = None  # {team, seat, points, phase} when someone got it
    ruling_ids: list[int] = field(default_factory=list)
    score_changes: dict = field(default_factory=dict)  # net effect of this question on each team
    chat: dict = field(default_factory=dict)  # team -> [{seat, name, text}]
    bot_guesses: dict = field(default_factory=dict)  # seat -> latest guess (what the moderator sees)
    shown_guesses: dict = field(default_factory=dict)  # seat -> latest guess the hall and the phones have seen
    held_guesses: dict = field(default_factory=dict)  # seat -> latest guess held back while humans may score
    consulted: dict = field(default_factory=dict)  # seat -> latest held guess its own (human) team was shown to consult
    held_trail: list = field(default_factory=list)  # every guess held back, in order: each bot's chart once released
    bot_missed: dict = field(default_factory=dict)  # seat -> {status: timed_out|failed, reason} of its last act
    refused: list[str] = field(default_factory=list)  # seats whose losing buzz is recorded for this buzz
    buzz_log: list[dict] = field(default_factory=list)  # every buzz on this question, won or lost, for audit
    snippets: list = field(default_factory=list)  # search snippets shown in a phase that allows them
    buzzes: list = field(default_factory=list)  # buzz markers: {seat, team, word, text, verdict, prompted, ruling}
    answers: list = field(default_factory=list)  # every typed answer: {seq, seat, team, text, ruling, verdict, suggestion}
    checkpoint: "QuestionState | None" = None  # state before the last ruling, for undo
    voice: dict | None = None  # read aloud: {offsets, end, audio} from the voice's timings (engine/voice.py)
    bonus: dict | None = None  # the bonus the tossup earned, as game/engine/bonus.py folds it; replaced, never changed

    @property
    def closed(self) -> bool:
        return self.stage is _CLOSED

    @property
    def answer_shown(self) -> bool:
        """The answer was shown to everyone once (the question closed, and maybe a ruling was undone
        since): the question never reopens."""
        return self.stage in ANSWER_SHOWN_STAGES


# MatchState's containers of records that the fold replaces and never changes in place (see clone).
CLOSED_RECORDS = ("history", "rulings", "corrections", "protests")
# QuestionState's lists that the fold replaces whole (a longer list for one more entry), never changes:
# a copy shares them. Each grows with the words read: a time per word, a guess per bot per word.
QUESTION_RECORDS = ("reveal_times", "held_trail", "buzz_log")


@dataclass
class MatchState:
    rules: dict
    teams: list[dict]  # [{id, name, kind?}]; kind is "human" or "computer" (logs before it: see team_kind)
    seats: dict  # id -> {id, name, team, kind, tier, captain, simulated, left?, stopped?: {number, reason}, size?}
    questions: tuple[Question, ...]
    status: str = "setup"  # setup | live | finished
    paused: bool = False
    paused_at: int | None = None
    t: int = 0  # time of the last event
    seq: int = 0  # number of events folded
    scores: dict = field(default_factory=dict)
    number: int = 0  # number of the current question
    played: list[int] = field(default_factory=list)  # question indexes used, replacements included
    tiebreakers_played: int = 0
    q: QuestionState | None = None
    history: list[dict] = field(default_factory=list)  # closed questions, in order
    rulings: dict = field(default_factory=dict)  # ruling id -> record
    next_ruling_id: int = 1
    winner: str | None = None
    scores_seq: int = 0  # seq of the last event that moved a score (an adjustment names it)
    corrections: list[dict] = field(default_factory=list)  # score changes after the final whistle, in order
    clock_from: int | None = None  # when play started, moved on by every pause: now - clock_from is time played
    end_reason: str | None = None  # why the match ended (match_ended's reason; None in logs before it)
    protests: list[dict] = field(default_factory=list)  # {id, ruling, number, team, seat, verdict, text, t, status, reason}
    voice: dict | None = None  # the moderator's pick of voice and speed for reading aloud (engine/voice.py)
    bonuses: tuple[Question, ...] = ()  # a format with bonuses: the packet's bonuses, in packet order
    bonus_next: int = 0  # the bonus the next correct tossup hears (one past the last one started)

    def clone(self) -> "MatchState":
        """A copy that this state never sees change (decide folds into one per command).

        Questions are immutable and large: they are shared instead of copied, as are the rules and the
        teams, which nothing changes after the match is created. So are the closed
        records (CLOSED_RECORDS: every closed question, ruling, correction and protest): the copy gets
        lists and dicts of its own that hold the same records, because the fold never changes a record
        in place; it puts a new one in its place. They are what grows with every question played, so
        a copy per word costs what the current question holds, not the whole match; the current
        question's lists that only ever get replaced (QUESTION_RECORDS) are shared whole
        (tests/engine/test_fast_fold.py folds played matches and checks that no copy's fold ever
        changes the state it came from)."""
        memo = {id(value): value for value in (self.questions, self.bonuses, self.rules, self.teams)}  # fixed at match_created
        for name in CLOSED_RECORDS:
            records = getattr(self, name)
            memo[id(records)] = records.copy()
        if self.q is not None:
            for name in QUESTION_RECORDS:
                records = getattr(self.q, name)
                memo[id(records)] = records
        return copy_state(self, memo)

    @property
    def question(self) -> Question | None:
        return self.questions[self.q.index] if self.q else None

    @property
    def team_ids(self) -> list[str]:
        return [t["id"] for t in self.teams]

    def team_name(self, team_id: str) -> str:
        for t in self.teams:
            if t["id"] == team_id:
                return t["name"]
        return team_id

    def team_kind(self, team_id: str) -> str:
        """ "human" or "computer": as the roster says, or (older logs) computer when a bot sits on it."""
        for t in self.teams:
            if t["id"] == team_id and t.get("kind") in ("human", "computer"):
                return t["kind"]
        bots = any(s["team"] == team_id and s.get("kind") == "bot" for s in self.seats.values())
        return "computer" if bots else "human"

    def humans_may_answer(self) -> bool:
        """Whether a human team can still answer the current phase of the current question: it is not
        locked out (buzzed and was ruled wrong), has not passed or run out of time, and the question has
        not closed (nor shown its answer). A team that submitted may still be prompted, so it may answer."""
        q = self.q
        if q is None or q.closed or q.answer_shown:
            return False
        for team in self.team_ids:
            if self.team_kind(team) == "human" and team not in q.locked and (q.mode == "buzz" or team not in q.passed):
                return True
        return False

    def later_phases_to_play(self) -> bool:
        """Whether the current question has a phase still to come: an open question that is not in
        its last phase goes on to the next one when nobody gets it in this one."""
        q = self.q
        return q is not None and not q.closed and not q.answer_shown and q.phase < len(self.rules["phases"]) - 1

    def humans_may_score(self) -> bool:
        """Whether a human team can still score on the current question: in this phase, or in a later
        phase of it (a team locked out of phase 1, or one that passed phase 2, plays the next phase)."""
        return self.later_phases_to_play() or self.humans_may_answer()

    def guesses_held(self) -> bool:
        """Whether a bot's guess (or the computer's answer in a team phase) made now must wait before
        the hall and the phones see it: while any human team may still score on this question, in this
        phase or a later one. The one exception is the host's choice: with hall_bot_guesses "live", a
        buzz phase that is the question's last shows the room the bots' thinking as it comes."""
        if self.q is None:
            return False
        if self.q.bonus is not None:  # a hint to a team that may still answer the part read, or take it on the bounce
            return bool(self.may_answer_part())  # (a computer's team has a human captain to say its answers)
        live = self.rules["hall_bot_guesses"] == "live"
        if live and self.q.mode == "buzz" and not self.later_phases_to_play():
            return False
        return self.humans_may_score()

    def may_answer_part(self) -> set[str]:
        """The teams that may still answer the bonus part read: the one answering it now and, while the controlling
        team confers with bouncebacks on, the other team (which takes it on the bounce after a miss)."""
        q = self.q
        if q is None or q.bonus is None or q.stage not in BONUS_ANSWERING:
            return set()
        others = {t["id"] for t in self.teams if t["id"] != q.bonus["team"]}
        if q.stage is Stage.BONUS_BOUNCE:
            return others
        return {q.bonus["team"]} | (others if self.rules["bounceback"] else set())

    def may_consult(self, team: str) -> bool:
        """Whether a human team may consult its own bots now, so it is shown their guesses even while they are
        held from everyone else: in a team phase, and on a bonus part it controls (not on the other team's
        bounceback), as the rule consult_teammate_bots allows. Never while the team buzzes against the clock."""
        q = self.q
        if q is None or q.closed and q.bonus is None or not self.rules["consult_teammate_bots"] \
                or self.team_kind(team) != "human":
            return False
        if q.bonus is not None:
            return q.bonus["team"] == team and not q.bonus["bounce"]
        return q.mode == "team"

    def guesses_seen(self, audience: str, team: str | None = None) -> dict:
        """seat -> the latest guess of each bot this audience has been shown on the question: the moderator every
        guess; a player also the held guesses of its own team's bots it was shown to consult."""
        q = self.q
        if audience == "moderator":
            return q.bot_guesses
        if audience != "player" or not q.consulted:
            return q.shown_guesses
        own = {seat: g for seat, g in q.consulted.items() if self.seats.get(seat, {}).get("team") == team}
        return {**q.shown_guesses, **own}

    def held_rulings(self) -> list[int]:
        """Rulings of the current question whose text the hall has not been shown yet."""
        if self.q is None:
            return []
        return [rid for rid in self.q.ruling_ids if self.rulings.get(rid, {}).get("held")]

    def pending_suggestions(self) -> list[dict]:
        """The judge's suggestions the moderator still has to rule on, one per team at most: for each
        team with an answer on the floor now (the buzz holder's answer, a team's submission), the
        suggestion on its latest unruled answer."""
        q = self.q
        if q is None:
            return []
        waiting = set(q.submissions) if q.mode == "team" else set()
        if q.mode == "buzz" and q.possession is not None and q.possession["answer"] is not None:
            waiting.add(q.possession["team"])
        if q.bonus is not None and q.bonus["typed"] is not None:  # a team's answer to a bonus part
            waiting = {q.bonus["typed"]["team"]}
        out = []
        for team in self.team_ids:
            latest = next((a for a in reversed(q.answers) if a["team"] == team and a["ruling"] is None), None)
            if team in waiting and latest is not None and latest["suggestion"] is not None:
                out.append(dict(latest["suggestion"], team=team, seat=latest["seat"], text=latest["text"], seq=latest["seq"]))
        return out

    def leader(self) -> str | None:
        """The team with the highest score, or None while the top is shared."""
        ranked = sorted(self.scores.items(), key=lambda kv: kv[1], reverse=True)
        return ranked[0][0] if len(ranked) == 1 or ranked[0][1] != ranked[1][1] else None

    def phase_rules(self) -> dict:
        return self.rules["phases"][self.q.phase]
