"""Which of a packet's questions a match plays, and in what order.

The host's question-order settings are data (QuestionOrder, stored with the match and in its
match_created event), and select_questions is one pure function from the packet's questions and
those settings to the ordered list the match carries: main questions first, then the reserve
(throw-outs and tiebreakers) from what remains. The steps, in this order:

1. start at question N: the packet's questions of the format's kind, in the packet's order, from the
   Nth on (earlier ones are not played);
2. categories: keep those in the chosen categories (none chosen: every category);
3. order: the packet's, or shuffled with random.Random(seed), never the global random state, so
   the same packet, settings and seed always give the same order;
4. power: when asked (and the format gives power points), tossups with a power mark first, then the
   rest, each group in the order of step 3.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from game.engine.rejected import Rejected
from game.engine.questions import POWER_MARK

ORDERS = ("packet", "shuffled")
MAX_SEED = 2**53 - 1  # a seed must survive JSON and JavaScript numbers unchanged
NOUNS = {"tossup": ("tossup", "tossups"), "short": ("short question", "short questions"), "bonus": ("bonus", "bonuses")}


class SelectionError(Rejected):
    """Settings that pick no question, or one the packet or format cannot honour. `setting` names the
    setting to change (the host form's field of the same name); the message says what to change it to."""

    def __init__(self, message: str, setting: str):
        super().__init__(message, "bad_question_order")
        self.setting = setting


@dataclass(frozen=True)
class QuestionOrder:
    order: str = "packet"  # "packet" or "shuffled"
    seed: int | None = None  # the shuffle's seed (None in packet order; a match made shuffled always has one)
    start_at: int = 1  # 1-based: the Nth question of the format's kind, in the packet's order
    categories: tuple[str, ...] = ()  # none: every category
    prefer_power: bool = False  # tossups with a power mark first

    @property
    def shuffled(self) -> bool:
        return self.order == "shuffled"

    def to_dict(self) -> dict:
        return {"order": self.order, "seed": self.seed, "start_at": self.start_at,
                "categories": list(self.categories), "prefer_power": self.prefer_power}

    @classmethod
    def from_dict(cls, data: dict | None) -> "QuestionOrder":
        """The settings as stored (or as an archive or a command line gave them), checked."""
        data = data or {}
        if not isinstance(data, dict):
            raise SelectionError("The question order must be an object.", "order")
        unknown = set(data) - {"order", "seed", "start_at", "categories", "prefer_power"}
        if unknown:
            raise SelectionError(f"{', '.join(sorted(unknown))} is not a question-order setting.", "order")
        order = cls(order=data.get("order", "packet"), seed=data.get("seed"), start_at=data.get("start_at", 1),
                    categories=tuple(data.get("categories") or ()), prefer_power=data.get("prefer_power", False))
        order.check()
        return order

    def check(self) -> None:
        """Each setting has the right type and range (what the packet allows is select_questions' job)."""
        if self.order not in ORDERS:
            raise SelectionError(f"The order is 'packet' or 'shuffled', not {self.order!r}.", "order")
        if self.seed is not None and (not _whole(self.seed) or not 0 <= self.seed <= MAX_SEED):
            raise SelectionError(f"A seed is a whole number from 0 to {MAX_SEED}; got {self.seed!r}.", "seed")
        if not _whole(self.start_at) or self.start_at < 1:
            raise SelectionError(f"Start at question 1 or later; got {self.start_at!r}.", "start_at")
        if not all(isinstance(c, str) and c for c in self.categories):
            raise SelectionError("Each category is a category's name.", "categories")
        if not isinstance(self.prefer_power, bool):
            raise SelectionError("Preferring tossups with a power mark is yes or no.", "prefer_power")


PACKET_ORDER = QuestionOrder()


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def has_power_mark(question: dict) -> bool:
    return POWER_MARK in question.get("text", "")


def gives_power(rules: dict) -> bool:
    """Whether a buzz phase of these rules pays more before the power mark (quizbowl's power)."""
    return any(p["mode"] == "buzz" and p["power_points"] is not None for p in rules["phases"])


def select_questions(questions: Sequence[dict], order: QuestionOrder, rules: dict) -> list[dict]:
    """The questions the match carries, in the order it plays them (main, then reserve).

    `questions` are the packet's questions of the kind the format plays, in the packet's order.
    Raises SelectionError, naming the setting to change, when the settings pick nothing."""
    order.check()
    if order.shuffled and order.seed is None:
        raise SelectionError("A shuffled order needs its seed, so the match can be made again.", "seed")
    one, many = NOUNS.get(rules["question_kind"], ("question", "questions"))
    if order.prefer_power and not gives_power(rules):
        raise SelectionError("This format gives no power points, so a power mark is worth nothing: untick "
                             "“tossups with a power mark first”, or set a buzz phase's power points.", "prefer_power")
    if order.start_at > len(questions):
        raise SelectionError(f"The packet has {len(questions)} {many}; start at a question from 1 to "
                             f"{len(questions)} (not {order.start_at}).", "start_at")
    chosen = list(questions[order.start_at - 1:])
    if order.categories:
        present = {q.get("category", "") for q in questions}
        missing = [c for c in order.categories if c not in present]
        if missing:
            raise SelectionError(f"The packet has no {many} in {_names(missing)}; choose among "
                                 f"{_names(sorted(present - {''})) or 'none: its questions have no category'}.",
                                 "categories")
        wanted = set(order.categories)
        chosen = [q for q in chosen if q.get("category", "") in wanted]
        if not chosen:
            before = sum(q.get("category", "") in wanted for q in questions)
            which = f"one {one}" if before == 1 else f"{before} {many}"
            raise SelectionError(f"The packet's {which} in {_names(order.categories)} "
                                 f"{'comes' if before == 1 else 'all come'} before question {order.start_at}; start "
                                 f"earlier or choose more categories.", "categories")
    if order.shuffled:
        random.Random(order.seed).shuffle(chosen)
    if order.prefer_power:
        chosen = [q for q in chosen if has_power_mark(q)] + [q for q in chosen if not has_power_mark(q)]
    return chosen


def _names(items) -> str:
    """"A", "A or B", "A, B or C"; "" for none."""
    items = list(items)
    return " or ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def describe(order: QuestionOrder, seed: bool = True) -> str:
    """The settings in words, for the host's page and the box score (seed=False leaves the seed out)."""
    parts = [("shuffled" + (f" with seed {order.seed}" if seed else "")) if order.shuffled else "packet order"]
    if order.start_at > 1:
        parts.append(f"from question {order.start_at}")
    parts.append(f"categories: {', '.join(order.categories)}" if order.categories else "every category")
    if order.prefer_power:
        parts.append("tossups with a power mark first")
    return "; ".join(parts)
