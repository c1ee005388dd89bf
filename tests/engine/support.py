"""Builders for engine tests: rosters, questions made of distinctive made-up words, and a match driver.

The made-up words matter for the leak checks: a word like "bokadu" occurs nowhere else (not in team
names, seat names, categories or anything a player types), so finding it in a frame proves a leak.
"""
from __future__ import annotations

import itertools
import pickle

from game.engine.api import Rejected, apply, create_match, decide, decide_and_fold, fold, make_rules, next_wakeup
from game.engine.fold import apply_in_place
from game.simulation import correct_answer

MOD = {"role": "moderator"}
SYS = {"role": "system"}

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


def made_up_words():
    """An endless stream of distinct six-letter nonsense words (consonant-vowel x 3)."""
    syllables = [c + v for c in _CONSONANTS for v in _VOWELS]
    for a, b, c in itertools.product(syllables, repeat=3):
        yield a + b + c


def tossup_text(words: list[str], power_after: int | None) -> str:
    """A quizbowl-looking text with commas, sentence ends and a power mark after `power_after` words."""
    out = []
    for i, w in enumerate(words):
        if i == 0:
            w = w.capitalize()
        if i == len(words) - 1:
            w += "."
        elif i % 4 == 2:
            w += ","
        elif i % 7 == 5:
            w += "."
        out.append(w)
        if power_after is not None and i + 1 == power_after:
            out.append("(*)")
    return " ".join(out)


def question(text: str, answer: str = "Quvexo Pilandre", kind: str = "tossup", qid: str = "q") -> dict:
    return {"qid": qid, "kind": kind, "text": text, "answer": answer, "category": "Science"}


def make_questions(n: int, kind: str, length: int = 9, power_after: int | None = 5):
    """n questions of `length` distinctive words each, with two-word answer lines of their own."""
    stream = made_up_words()
    questions = []
    for i in range(n):
        words = [next(stream) for _ in range(length)]
        answer = f"{next(stream).capitalize()} {next(stream).capitalize()}"
        text = tossup_text(words, power_after if kind == "tossup" else None)
        if kind == "short":
            text = text[:-1] + "?"
        questions.append({"qid": f"q{i}", "kind": kind, "text": text, "answer": answer,
                          "category": "Science"})
    return questions


def make_bonuses(n: int, parts: int = 3, first_word: int = 5000) -> list[dict]:
    """n bonuses of made-up words (a leadin, `parts` parts worth 10 each, answer lines with directives), from
    a stretch of the word stream the questions never reach."""
    stream = itertools.islice(made_up_words(), first_word, None)
    words = lambda count: " ".join(next(stream) for _ in range(count))  # noqa: E731
    return [{"qid": f"b{i}", "kind": "bonus", "text": f"For 10 points each, {words(6)}.", "answer": "",
             "category": "Science",
             "parts": [{"text": f"Name this {words(5)}.", "value": 10,
                        "answer": f"<b><u>{words(1).capitalize()}</u></b> [accept {words(1)}]"} for _ in range(parts)]}
            for i in range(n)]


def part_answer(state, part: int | None = None) -> str:
    """What a player who knows it says for the bonus part in play (or `part`): its clean answer."""
    b = state.q.bonus
    from game.engine.questions import clean_answer
    return clean_answer(state.bonuses[b["index"]].parts[b["part"] if part is None else part]["answer"])


TEAMS = [{"id": "t0", "name": "Humans"}, {"id": "t1", "name": "Computer"}]
# The same two teams saying what they are, as a match with an AI teammate on the human team must.
MIXED_TEAMS = [{"id": "t0", "name": "Humans", "kind": "human"}, {"id": "t1", "name": "Computer", "kind": "computer"}]


def seat(id, team, name, kind="human", tier=None, captain=False):
    return {"id": id, "name": name, "team": team, "kind": kind, "tier": tier, "captain": captain,
            "simulated": kind == "bot"}


def efficientqa_seats():
    """Humans (a captain, a teammate) against the computer (a captain and one bot per tier)."""
    return [
        seat("h0", "t0", "Ann", captain=True),
        seat("h1", "t0", "Ben"),
        seat("h2", "t1", "Cho", captain=True),
        seat("b500", "t1", "Tiny", kind="bot", tier="500mib"),
        seat("b6", "t1", "Mid", kind="bot", tier="6gib"),
        seat("bunl", "t1", "Big", kind="bot", tier="unlimited"),
    ]


def quizbowl_seats():
    """Each team has a human captain; the first team has a second human, the second team a bot."""
    return [
        seat("h0", "t0", "Ann", captain=True),
        seat("h1", "t0", "Ben"),
        seat("h2", "t1", "Cho", captain=True),
        seat("bot", "t1", "Qbot", kind="bot", tier="500mib"),
    ]


def teammate(mode: str, tier: str = "500mib", k: int = 1, id: str = "mate", team: str = "t0") -> dict:
    """A bot seat on a human team (an AI teammate) with its buzz mode; k: autonomous after k words."""
    return dict(seat(id, team, "Robo", kind="bot", tier=tier), buzz_mode=mode, buzz_after=k)


def qanta_seats():
    """QANTA 2026 teams: Ann (captain) and Ben; Cho (captain) with AI teammates, a 500 MiB bot (lightweight)
    and a 6 GiB one (midweight): EfficientQA's seats without the unlimited bot."""
    return [s for s in efficientqa_seats() if s["id"] != "bunl"]


def actor_for(s: dict) -> dict:
    return {"role": "bot" if s["kind"] == "bot" else "player", "seat": s["id"], "team": s["team"]}


class Match:
    """Drives one match the way the conductor does: decide, then fold each event, keeping the log."""

    def __init__(self, preset: str, overrides: dict | None = None, *, seats=None, questions=None,
                 reserve: int = 2, length: int = 9, power_after: int | None = 5, now: int = 0,
                 bonuses: list[dict] | None = None, teams: list[dict] | None = None):
        self.rules = make_rules(preset, overrides)
        kind = self.rules["question_kind"]
        if questions is None:
            questions = make_questions(self.rules["questions"] + reserve, kind, length, power_after)
        if seats is None:
            seats = {"efficientqa": efficientqa_seats, "qanta26": qanta_seats}.get(preset, quizbowl_seats)()
        if bonuses is None and self.rules["bonuses"]:
            bonuses = make_bonuses(self.rules["questions"] + reserve)
        self.seats = {s["id"]: s for s in seats}
        self.events = create_match(self.rules, teams or TEAMS, seats, questions, now, bonuses=bonuses)
        self.state = fold(self.events)
        self.now = now

    # -- sending commands ----------------------------------------------------------------------

    def actor(self, seat_id: str) -> dict:
        return actor_for(self.seats[seat_id])

    def send(self, type: str, actor=None, data=None, at: int | None = None, received: int | None = None):
        """Send a command at time `at` (default: now); return the events it caused."""
        if at is not None:
            assert at >= self.now, "tests move time forwards only"
            self.now = at
        if isinstance(actor, str):
            actor = self.actor(actor)
        command = {"type": type, "actor": actor or MOD, "data": data or {}}
        if received is not None:
            command["received"] = received
        before = pickle.dumps(self.state)
        events = decide(self.state, command, self.now)
        assert pickle.dumps(self.state) == before, "decide() must not change the state it is given"
        for event in events:
            self.state = apply(self.state, event)
        self.events.extend(events)
        return events

    def refuse(self, type: str, actor=None, data=None, at: int | None = None, received: int | None = None) -> Rejected:
        """Send a command the rules must refuse; check that nothing changed and return the rejection."""
        before = pickle.dumps(self.state)
        n = len(self.events)
        try:
            self.send(type, actor, data, at, received)
        except Rejected as exc:
            assert pickle.dumps(self.state) == before and len(self.events) == n
            return exc
        raise AssertionError(f"{type} was accepted, but the rules should refuse it")

    def tick(self, at: int):
        return self.send("tick", SYS, at=at)

    def advance(self):
        """Tick exactly when the engine asked to be woken, as the conductor does."""
        due = next_wakeup(self.state)
        assert due is not None, "nothing is scheduled"
        return self.tick(max(due, self.now))

    def wakeup(self):
        return next_wakeup(self.state)

    # -- shortcuts -------------------------------------------------------------------------------

    def start(self, at: int = 0):
        return self.send("start", MOD, at=at)

    def rule(self, verdict: str, at: int | None = None, heard: str | None = None):
        """Rule the answer on the floor, naming it as the console does (as it stands at `at`)."""
        data = {"verdict": verdict, "answer": self.floor_seq(at)}
        if heard is not None:
            data["heard"] = heard
        return self.send("rule", MOD, data, at=at)

    def floor_seq(self, at: int | None = None) -> int | None:
        """What the console shows on the floor at `at` (default: now): the seq a ruling names."""
        seen = decide_and_fold(self.state, {"type": "tick", "actor": SYS, "data": {}}, max(at or self.now, self.now))[1]
        return seen.q.floor_seq if seen.q is not None else None

    def read_part(self, at: int | None = None):
        return self.send("read_part", MOD, {"part": self.q.bonus["part"] + 1}, at=at)

    def bonus_answer(self, seat_id: str, text: str, at: int | None = None):
        return self.send("bonus_answer", seat_id, {"text": text, "part": self.q.bonus["part"]}, at=at)

    def rule_part(self, verdict: str, at: int | None = None, heard: str | None = None):
        """Rule the bonus part in play, naming the answer on the console (as it stands at `at`)."""
        data = {"verdict": verdict, "part": self.q.bonus["part"], "answer": self.floor_seq(at)}
        if heard is not None:
            data["heard"] = heard
        return self.send("rule", MOD, data, at=at)

    def decide_part(self, who, decision: str, at: int | None = None):
        """The controlling team's decision on the part in play (who: a captain's seat, or MOD)."""
        return self.send("decide_part", who, {"decision": decision, "part": self.q.bonus["part"]}, at=at)

    def buzz(self, seat_id: str, at: int | None = None, received: int | None = None):
        return self.send("buzz", seat_id, at=at, received=received)

    def answer(self, seat_id: str, text: str = "a guess", at: int | None = None):
        return self.send("answer", seat_id, {"text": text}, at=at)

    def submit(self, seat_id: str, text: str = "a guess", at: int | None = None):
        return self.send("submit", seat_id, {"text": text}, at=at)

    def word_times(self) -> list[int]:
        """When each word of the current question was revealed, from the log."""
        return [e["t"] for e in self.events_of_current("word_revealed")]

    def events_of_current(self, type: str) -> list[dict]:
        """Events of `type` since the current question started."""
        start = max(i for i, e in enumerate(self.events) if e["type"] == "question_started")
        return [e for e in self.events[start:] if e["type"] == type]

    def reveal_until(self, count: int, step: int = 50) -> int:
        """Run the clock until `count` words are revealed; return the time that happened."""
        while self.state.q.revealed < count:
            self.tick(self.now + step)
        return self.now

    def play_to_close(self, step: int = 1000, limit: int = 10_000_000):
        """Let the clock run until the current question closes by itself."""
        while not self.state.q.closed:
            assert self.now < limit, "the question never closed"
            self.tick(self.now + step)
        return self.now

    @property
    def q(self):
        return self.state.q

    @property
    def question(self):
        return self.state.question

    @property
    def scores(self):
        return self.state.scores



def answered_quizbowl(questions: int = 2) -> Match:
    """A quizbowl match four words into its first question, Ann (h0) holding the buzz with "the moon"."""
    m = Match("quizbowl", {"questions": questions, "tiebreakers": 0})
    m.start(0)
    m.reveal_until(4)
    m.buzz("h0", at=m.now + 50)
    m.answer("h0", "the moon")
    return m


class EngineRunner:
    """What VirtualMatch asks of the store's MatchRunner, on the engine alone: decide and fold (a refusal
    kept on the record is stored, as the runner stores it), then the judge's suggestion on every typed
    answer, as the runner's follow-up: right when it is the answer the simulated people know."""

    def __init__(self, match: Match):
        self.match = match

    @property
    def state(self):
        return self.match.state

    def handle(self, command: dict, now: int) -> list[dict]:
        m = self.match
        m.now = max(m.now, now)
        try:
            events = decide(m.state, command, m.now)
        except Rejected as refusal:
            self._store(refusal.events)
            raise
        self._store(events)
        for seq, event in enumerate(events, m.state.seq - len(events) + 1):
            if event["type"] in ("answer", "submission"):
                d = event["data"]
                verdict = "accept" if d["text"] == correct_answer(m.state) else "reject"
                judged = {"for": seq, "seat": d["seat"], "team": d["team"], "text": d["text"], "verdict": verdict}
                events = events + self.handle({"type": "judge", "actor": SYS, "data": judged}, now)
        return events

    def _store(self, events: list[dict]):
        for event in events:
            self.match.state = apply_in_place(self.match.state, event)
        self.match.events.extend(events)
