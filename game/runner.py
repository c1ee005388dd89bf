"""The runner: the one choke point that turns a command into stored events, and what they call for.

MatchRunner decides, numbers the events, appends them in one transaction and folds them into the
live state. The conductor and the offline drivers (`simulate`, an event's simulation, the seeds of the
browser tests) all drive matches through it.

Some events call for work outside the pure engine that can take a while: a typed answer gets the
judge's suggestion (tens of ms on the longest lines the limits allow: bench/judge.py --worst), a
phase that shows search snippets gets a search (a network call with EXHIBITION_SNIPPETS_URL), and a
start gets its bots measured (a walk of their folders, a subprocess per bot kind). None of it runs
inside a write. An offline driver, which holds no transaction and shares nothing, does it right after
the write (slow_work_here); the conductor does it beside, on threads of its own with a time limit
(game/conductor/beside.py), and the result comes back to the match as a system command.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.engine.api import Rejected, decide_and_fold
from game.event_log import (Receipt, append_events, current_batch, insert_receipts, load_state, now_ms, number_events,
                            receipt_row)
from game.judging.judge import judge
from game.judging.open_domain import RULES_OF_KIND
from game.leases import hold
from game.models import Match
from game.seat_checks import seats_at_start
from game.seats_left import record_seats_left
from game.snippets import SearchFailed, top_snippets

SNIPPETS_SHOWN = 3
# How long the conductor waits for slow work beside before the match goes on without it: a judgement takes
# under 50 ms on the worst lines the limits allow (bench/judge.py --worst), more on a loaded machine; each
# bot kind's probe has 120 s of its own (bots.footprint), and a start waits for them at most this long.
JUDGE_LIMIT_S = 5.0
MEASURE_LIMIT_S = 600.0
log = logging.getLogger(__name__)
SYSTEM = {"role": "system"}
JUDGED = ("answer", "submission", "bonus_answered")
SEARCH_FAILED = "The search failed; the phase goes on without snippets."


def refusal_reply(refusal: Rejected) -> dict:
    return {"ok": False, "seqs": [], "error": {"code": refusal.code, "message": str(refusal)}}


def measure_bots(match: Match) -> dict:
    """Measure every bot seat's pinned build again; refuse the start, naming each figure, if one is over.
    Returns seat -> what it measured, for the bots' cards (match_started's bot_sizes). Slow (a walk of
    each bot's folder, a subprocess per bot kind): never inside a transaction (on SQLite one holds the
    write lock every match needs), and on the conductor never on its loop or its database thread."""
    refusals, sizes = seats_at_start(match)  # (the new measurements are kept with a refusal too)
    if refusals:
        raise Rejected(" ".join(refusals), "bot_over_tier")
    return sizes


def measure_bot_kinds() -> None:
    """Measure the code of every bot kind before any match starts (a subprocess per kind, seconds in all):
    a conductor does it beside as it starts, so the first start of six at once waits no longer than the
    rest. A kind that cannot be measured is logged; its seats' starts refuse with the reason."""
    from bots.kinds import measure_every_kind  # the kinds bring NumPy, SciPy and scikit-learn

    for why in measure_every_kind():
        log.warning("A bot kind's code could not be measured: %s", why)


def unmeasured(why: str) -> Rejected:
    """The start's refusal when the bots could not be measured at all (a fault, or over MEASURE_LIMIT_S)."""
    return Rejected(f"The bots could not be measured ({why}); check the bot folders, then start again.",
                    "bots_unmeasured")


def find_snippets(question_text: str) -> dict:
    """The `snippets` command's data for a question: the passages found, or none and the sentence saying
    why (a search that failed costs the snippets, never the match)."""
    try:
        return {"snippets": top_snippets(question_text, k=SNIPPETS_SHOWN)}
    except SearchFailed as failed:
        return {"snippets": [], "error": str(failed)}
    except Exception:
        log.exception("Search snippets failed; the phase goes on without them")
        return {"snippets": [], "error": SEARCH_FAILED}


@dataclass(frozen=True)
class FollowUp:
    """Work an event calls for, done outside the write, that comes back as the system command `type`.

    `work()` gives the command's data and may take a while; `failed(sentence)` gives its data when the
    work raised (`broken` says so) or ran past `limit_s` (`too_slow`), or None: nothing is sent (a
    judgement that fails leaves the moderator to rule by hand, as ever). `number` and `phase` say which
    question and phase (0-based) it is for: a result that comes back after the match left them is dropped."""

    type: str
    number: int
    phase: int
    work: Callable[[], dict]
    limit_s: float
    failed: Callable[[str], dict | None]
    too_slow: str
    broken: str

    def command(self, data: dict) -> dict:
        return {"type": self.type, "actor": SYSTEM, "data": data}

    def still_due(self, state) -> bool:
        """Whether the match is still where this work was asked for (its question, and for a search its phase)."""
        q = state.q
        return (state.status == "live" and q is not None and q.number == self.number
                and (self.type != "snippets" or (q.phase == self.phase and not q.closed)))


def _nothing(sentence: str) -> None:
    return None


def _no_snippets(sentence: str) -> dict:
    return {"snippets": [], "error": sentence}


class MatchRunner:
    """Drives one match: the only code that appends to its event log while it is live.

    A conductor passes its lease `owner` id: every append then checks, in the same transaction,
    that the conductor still holds the match (see leases.py). It also passes slow_work_here=False:
    it measures the bots, judges and searches beside its writes (game/conductor/beside.py).
    """

    def __init__(self, match: Match, state=None, owner: str | None = None, clock=now_ms, slow_work_here: bool = True):
        self.match = match
        self.state = state if state is not None else load_state(match)
        self.owner = owner
        self.clock = clock
        self.slow_work_here = slow_work_here

    def handle(self, command: dict, now: int | None = None, receipt: Receipt | None = None,
               bot_sizes: dict | None = None) -> list[dict]:
        """Decide, store and fold; offline, then the follow-ups the events call for (judge, snippets).

        With a receipt, the command's answer is stored in the same transaction as its events.
        Raises Rejected when the rules refuse the command: nothing is stored but the events the
        refusal keeps on the record (a lost buzz). A refusal's answer is not stored: it changed
        nothing, and a flood of refused commands must not cost a row each (the conductor keeps
        the answers it gave in memory, so a retry is answered the same).

        A start carries what its bots measured (`bot_sizes`, seat -> size), whatever the client sent:
        the conductor measures beside and passes them; offline they are measured here.
        """
        now = now if now is not None else now_ms()
        try:
            if command.get("type") == "start" and self.state.status == "setup":
                command = self._with_sizes(command, bot_sizes)
            events, state = decide_and_fold(self.state, command, now)
        except Rejected as refusal:
            if refusal.events:
                self.commit(refusal.events, refusal.state or self.state)
            raise
        first = self.state.seq + 1
        reply = {"ok": True, "seqs": list(range(first, first + len(events))), "error": None}
        if events or receipt is not None:
            self.commit(events, state, receipt, reply)
        if self.slow_work_here:
            for follow_up in self.follow_ups(events):
                events += self.write_follow_up(follow_up, self._run_here(follow_up), now)
        return events

    def _with_sizes(self, command: dict, bot_sizes: dict | None) -> dict:
        if bot_sizes is None:
            if not self.slow_work_here:  # the conductor measures beside: a start without sizes skipped that
                raise unmeasured("the start did not wait for them")
            bot_sizes = measure_bots(self.match)
        data = command.get("data") if isinstance(command.get("data"), dict) else {}
        return dict(command, data=dict(data, bot_sizes=bot_sizes))

    def _run_here(self, follow_up: FollowUp) -> dict | None:
        try:
            return follow_up.work()
        except Exception:
            log.exception("Match %s: a follow-up %s failed; play goes on without it", self.match.code, follow_up.type)
            return follow_up.failed(follow_up.broken)

    def write_follow_up(self, follow_up: FollowUp, data: dict | None, now: int) -> list[dict]:
        """Store a follow-up's result, if the match is still where it was asked for; its events, or none."""
        if data is None or not follow_up.still_due(self.state):
            return []
        try:
            events, state = decide_and_fold(self.state, follow_up.command(data), now)
        except Rejected:
            return []
        self.commit(events, state)
        return events

    def follow_ups(self, events: list[dict]) -> list[FollowUp]:
        """The work these events, just stored, call for: read from the state they left, so call it before
        the match's next write. Cheap: the slow part is each FollowUp's work()."""
        out = []
        for event in events:
            try:
                follow_up = self._follow_up_of(event)
            except Exception:
                log.exception("Match %s: the follow-up of %s could not be worked out; play goes on without it",
                              self.match.code, event["type"])
                continue
            if follow_up is not None:
                out.append(follow_up)
        return out

    def _follow_up_of(self, event: dict) -> FollowUp | None:
        state = self.state
        question = state.question
        if question is None:
            return None
        q, data = state.q, event["data"]
        if event["type"] in JUDGED:
            # Every typed answer reaches the moderator with a suggested ruling and its reason.
            # Where the buzz came decides clauses like "prompt on X before mention" (a written answer: all read).
            possession = q.possession if event["type"] == "answer" else None
            read = possession["word"] if possession else q.revealed
            text, seat, team, seq = data["text"], data["seat"], data["team"], event["seq"]
            line, references, words, asked = question.answer, list(question.accepted), question.words, question.text
            if event["type"] == "bonus_answered":  # judged against the part's own line, the part all read
                part = state.bonuses[q.bonus["index"]].parts[data["part"]]
                line, references, words, asked = part["answer"], [], tuple(part["text"].split()), part["text"]
                read = len(words)

            def suggest() -> dict:
                verdict = judge(text, answer_line=line, references=references, question_text=asked,
                                buzz=(read, words), rules=RULES_OF_KIND[question.kind])
                suggestion = dict(verdict.to_dict(), seat=seat, team=team, text=text)
                suggestion.update({"for": seq, "confidence": round(suggestion["confidence"], 3)})
                return suggestion

            return FollowUp("judge", q.number, q.phase, suggest, JUDGE_LIMIT_S, _nothing,
                            f"The judge took longer than {JUDGE_LIMIT_S:g} s.", "The judge failed.")
        if event["type"] == "phase_started" and state.rules["phases"][data["phase"] - 1]["snippets"]:
            text = question.text
            limit = float(settings.EXHIBITION_SNIPPETS_SECONDS)
            return FollowUp("snippets", q.number, data["phase"] - 1, lambda: find_snippets(text), limit, _no_snippets,
                            f"The search did not answer within {limit:g} s; the phase goes on without snippets.",
                            SEARCH_FAILED)
        return None

    def commit(self, events: list[dict], state, receipt: Receipt | None = None, reply: dict | None = None) -> None:
        """Store the events (and the command's receipt) in one transaction and take `state`, the live
        state with them folded in (by decide). Raises LeaseLost, storing nothing, when this runner's
        conductor no longer holds the match.

        Inside a WriteBatch (event_log.write_together) the events, and the receipt, are inserted with
        the other matches' at the end of the shared transaction (a repeated command id then fails
        alone); a write that also gives up a seat or changes the match's status with a receipt is
        stored at once, in a savepoint, since a refused receipt could not undo those statements."""
        batch = current_batch(self.owner)
        if batch is not None and (receipt is None or self._rows_only(events, state)):
            batch.hold(self.match.pk)
            batch.keep_state(self, self.state)
            batch.add(number_events(self.match, events, self.state.seq + 1))
            if receipt is not None:
                batch.add_receipt(receipt_row(self.match, receipt, reply))
            record_seats_left(self.match, events)  # in the batch's transaction, with the events
            self._sync_status(state)
            self.state = state
            return
        with transaction.atomic():
            if batch is not None:
                batch.hold(self.match.pk)
            elif self.owner is not None:
                hold(self.match.pk, self.owner, self.clock())
            if events:
                append_events(self.match, events, first_seq=self.state.seq + 1)
                record_seats_left(self.match, events)  # a seat given up: its tokens stop working as it is stored
            if receipt is not None:
                insert_receipts([receipt_row(self.match, receipt, reply)])
            self._sync_status(state)
        self.state = state

    def _rows_only(self, events: list[dict], state) -> bool:
        """Whether storing this write is inserting rows and nothing else (no seat given up, no change
        of the match's status): then a command's receipt can wait for the batch's one INSERT, because
        a refused receipt undoes the whole write by leaving its rows out."""
        return state.status == self.state.status and not any(e["type"] == "seat_left" for e in events)

    def _sync_status(self, state) -> None:
        status = {"setup": Match.Status.SETUP, "live": Match.Status.LIVE, "finished": Match.Status.FINISHED}[state.status]
        if status != self.match.status:
            self.match.status = status
            fields = ["status"]
            if status == Match.Status.FINISHED:
                self.match.finished = timezone.now()
                fields.append("finished")
            with transaction.atomic():  # a savepoint: in a shared transaction it fails alone
                self.match.save(update_fields=fields)
