"""Between the pure engine and the database: create a match, append its events, rebuild its state.

MatchRunner is the one choke point that turns a command into stored events: decide, number the
events, append them in one transaction, fold them into the live state. The conductor and the
`simulate` command both drive matches through it.
"""
from __future__ import annotations

import contextlib
import functools

import logging
import secrets
import threading
import time
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.utils import timezone

from game.leases import LeaseLost, given_or_new_cursor, hold, renew
from game.engine.api import Rejected, create_match, decide_and_fold, fold, make_rules
from game.engine.selection import PACKET_ORDER, QuestionOrder, select_questions
from game.judging.judge import judge
from game.snippets import top_snippets
from game.models import CommandReceipt, Match, MatchEvent, Packet, Seat, Team
from game.seat_checks import seats_at_start
from game.seats_left import record_seats_left

SNIPPETS_SHOWN = 3
RESERVE_QUESTIONS = 10  # extra questions carried for throw-outs and tiebreakers
log = logging.getLogger(__name__)
SYSTEM = {"role": "system"}
JUDGED = ("answer", "submission")


def find_snippets(question_text: str) -> list[dict]:
    """Search snippets for a phase that allows them; a broken search costs the snippets, not the match."""
    try:
        with transaction.atomic():  # a savepoint: a failed search must not break a shared transaction
            return top_snippets(question_text, k=SNIPPETS_SHOWN)
    except Exception:
        log.exception("Search snippets failed; the phase goes on without them")
        return []


def now_ms() -> int:
    return int(time.time() * 1000)


def seat_data(seat: Seat) -> dict:
    """The engine's view of a seat."""
    return {
        "id": seat.key,
        "name": seat.name,
        "team": seat.team.key,
        "kind": seat.kind,
        "tier": seat.bot_tier or None,
        "captain": seat.captain,
        "simulated": bool((seat.bot_config or {}).get("simulated")),
    }


def pick_questions(packet: Packet, rules: dict, order: QuestionOrder = PACKET_ORDER) -> list[dict]:
    """The match's questions of the kind the format plays, picked and ordered by `order`: the main
    questions, then up to RESERVE_QUESTIONS in reserve from what remains. Fewer than the rules'
    number leaves no reserve, and the match plays the ones there are."""
    questions = [q.as_engine_dict() for q in packet.questions.filter(kind=rules["question_kind"]).order_by("position")]
    if not questions:
        raise Rejected(
            f"Packet {packet.slug!r} has no {rules['question_kind']} questions; pick another packet or format."
        )
    return select_questions(questions, order, rules)[:rules["questions"] + RESERVE_QUESTIONS]


def new_seed() -> int:
    """A seed for a shuffle the host left unseeded: short enough to read out and type again."""
    return 100_000 + secrets.randbelow(900_000)


@dataclass
class SeatSpec:
    name: str
    kind: str = "human"
    captain: bool = False
    tier: str = ""
    config: dict = field(default_factory=dict)


@dataclass
class TeamSpec:
    name: str
    seats: list[SeatSpec] = field(default_factory=list)


@transaction.atomic
def create_match_record(
    *,
    title: str,
    packet: Packet,
    format_name: str,
    overrides: dict | None = None,
    teams: list[TeamSpec],
    seed: int = 0,
    order: QuestionOrder = PACKET_ORDER,
    now: int | None = None,
    questions: list[dict] | None = None,
) -> Match:
    """Create a match with its teams and seats, and write its first event.

    `order` says which of the packet's questions are played and in what order; a shuffle without a
    seed gets a new one, stored with the rest, so the match's questions can be picked again. Raises
    SelectionError (a Rejected naming the setting) when the settings pick no question. `questions`
    (engine dicts, main then reserve) replaces the pick: an event draws them from its own pool."""
    # The server's clock grid (rules.on_grid) unless the caller sets one: part of the match's rules,
    # so a replay or another conductor reads the same schedule.
    rules = make_rules(format_name, {"clock_grid_ms": int(settings.EXHIBITION_CLOCK_GRAIN_MS), **(overrides or {})})
    if order.shuffled and order.seed is None:
        order = replace(order, seed=new_seed())
    if questions is None:
        questions = pick_questions(packet, rules, order)
    match = Match.objects.create(title=title, packet=packet, format_name=format_name, rules=rules, seed=seed,
                                 question_order=order.to_dict())
    seats = []
    for position, spec in enumerate(teams):
        team = Team.objects.create(match=match, position=position, name=spec.name)
        for s in spec.seats:
            seats.append(
                Seat.objects.create(team=team, name=s.name, kind=s.kind, captain=s.captain, bot_tier=s.tier,
                                    bot_config=s.config)
            )
    # A team with a bot seat is the computer's; people join only the others.
    kinds = {position: "computer" if any(s.kind == "bot" for s in spec.seats) else "human"
             for position, spec in enumerate(teams)}
    team_data = [{"id": t.key, "name": t.name, "kind": kinds[t.position]} for t in match.teams.order_by("position")]
    events = create_match(rules, team_data, [seat_data(s) for s in seats], questions, now or now_ms(),
                          question_order=order.to_dict())
    append_events(match, events, first_seq=1)
    return match


INSERT_ROWS = 1000  # events per INSERT statement (5 parameters each: SQLite allows 32,766)


def number_events(match: Match, events: list[dict], first_seq: int) -> list[tuple[int, dict]]:
    """Number the events from first_seq; (match id, event) for each, to be stored by insert_events."""
    for offset, event in enumerate(events):
        event["seq"] = first_seq + offset
    return [(match.pk, event) for event in events]


def insert_events(rows: list[tuple[int, dict]], cursor=None) -> None:
    """Store (match id, event) rows: the conductor's hot path (every word of every match)."""
    insert_rows(MatchEvent, ("match", "seq", "t_ms", "type", "data"),
                [(match_id, event["seq"], event["t"], event["type"], event["data"]) for match_id, event in rows],
                prepared=("data",), cursor=cursor)


def insert_rows(model, names: tuple[str, ...], rows: list[tuple], prepared: tuple[str, ...] = (), cursor=None) -> None:
    """Store rows of `model` (values in the order of the field `names`) in one INSERT per
    INSERT_ROWS rows, without a model object per row: on the conductor's paths (every word, every
    command's receipt) building models and compiling the statement through the ORM cost more than
    the database's own work. The values of the `prepared` fields (JSON, dates) are prepared by the
    model's own fields, so each database gets what the ORM would give it. A caller that runs
    several statements in one transaction passes its cursor."""
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each use of `connection` looks it up again
    prepare = [(i, model._meta.get_field(name).get_db_prep_save) for i, name in enumerate(names) if name in prepared]
    with given_or_new_cursor(cursor) as out:
        for start in range(0, len(rows), INSERT_ROWS):
            chunk = rows[start:start + INSERT_ROWS]
            values = []
            for row in chunk:
                row = list(row)
                for i, prep in prepare:
                    row[i] = prep(row[i], db)
                values += row
            out.execute(_insert_sql(db.vendor, model._meta.label, names, len(chunk)), values)


@functools.lru_cache(maxsize=128)
def _insert_sql(vendor: str, label: str, names: tuple[str, ...], rows: int) -> str:
    from django.apps import apps

    opts = apps.get_model(label)._meta
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    columns = ", ".join(quote(opts.get_field(name).column) for name in names)
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    return f"INSERT INTO {quote(opts.db_table)} ({columns}) VALUES " + ", ".join([row] * rows)


def append_events(match: Match, events: list[dict], first_seq: int, cursor=None) -> list[dict]:
    """Number the events from first_seq and store them; the unique (match, seq) guards the log."""
    insert_events(number_events(match, events, first_seq), cursor)
    return events


# -- several matches' writes in one transaction (the conductor's group commit) ----------------------

_batch = threading.local()


class WriteBatch:
    """The writes of several matches that share one transaction: their leases were checked and
    extended together (held: the match ids still ours), and their events, and the receipts of the
    commands among them, are inserted together when every write has run."""

    def __init__(self, owner: str, held: set[int], cursor=None):
        self.owner, self.held, self.cursor = owner, held, cursor
        self.rows: list[list[tuple[int, dict]]] = []  # the rows of each write, in the order they ran
        self.receipts: dict[int, tuple] = {}  # write index -> its command's receipt row
        self.before: dict[int, tuple] = {}  # write index -> (runner, its state before the write)

    def begin(self) -> None:
        self.rows.append([])

    def add(self, rows: list[tuple[int, dict]]) -> None:
        self.rows[-1] += rows

    def add_receipt(self, row: tuple) -> None:
        self.receipts[len(self.rows) - 1] = row

    def keep_state(self, runner, state) -> None:
        """The runner's state before this write, put back if the write's rows are refused."""
        self.before.setdefault(len(self.rows) - 1, (runner, state))

    def hold(self, match_id: int) -> None:
        if match_id not in self.held:
            raise LeaseLost(f"This conductor no longer holds the lease of match {match_id}.")

    def insert(self, failed: set[int]) -> dict[int, Exception]:
        """Insert the rows of every write that did not fail: the receipts in one statement and the
        events in another (a savepoint around both when there are receipts, so they stand or fall
        together); if that fails, each write's rows by themselves, so a write that cannot be stored
        (a command id answered before, a seq already taken) fails alone and its runner gets its
        state back. Returns write index -> why its rows could not be stored."""
        kept = [index for index, rows in enumerate(self.rows) if (rows or index in self.receipts) and index not in failed]
        try:
            with self._together([self.receipts[i] for i in kept if i in self.receipts]):
                insert_events([row for i in kept for row in self.rows[i]], self.cursor)
            refused = {}
        except DatabaseError:
            log.warning("Storing %d writes together failed; storing each alone", len(kept), exc_info=True)
            refused = {}
            for index in kept:
                try:
                    with self._together([self.receipts[index]] if index in self.receipts else []):
                        insert_events(self.rows[index], self.cursor)
                except DatabaseError as exc:
                    refused[index] = exc
        for index in set(refused) | failed:
            if index in self.before:
                runner, state = self.before[index]
                runner.state = state
        self.rows, self.receipts, self.before = [], {}, {}
        return refused

    @contextlib.contextmanager
    def _together(self, receipts: list[tuple]):
        """The receipts inserted, then the caller's statement; one savepoint around both when there
        are receipts (a receipt must never be stored without its command's events), else the
        cheapest way to let the one statement fail alone."""
        if not receipts:
            with statement_alone():
                yield
            return
        with transaction.atomic():
            insert_receipts(receipts, self.cursor)
            yield


def receipt_row(match: Match, receipt: Receipt, reply: dict) -> tuple:
    return (match.pk, receipt.actor, receipt.command_id, reply["ok"], reply["seqs"], reply["error"], timezone.now())


def insert_receipts(rows: list[tuple], cursor=None) -> None:
    insert_rows(CommandReceipt, ("match", "actor", "command_id", "ok", "seqs", "error", "created"), rows,
                prepared=("ok", "seqs", "error", "created"), cursor=cursor)


def statement_alone():
    """What lets one failed statement fail alone inside a transaction: a savepoint on PostgreSQL, where
    a failed statement aborts the whole transaction; nothing on SQLite, which undoes only the
    statement that failed and goes on (a savepoint there is two more statements on every word)."""
    if connections[DEFAULT_DB_ALIAS].vendor == "sqlite":
        return contextlib.nullcontext()
    return transaction.atomic()


def current_batch(owner: str | None) -> WriteBatch | None:
    """The batch this thread is writing for conductor `owner`, if any."""
    batch = getattr(_batch, "current", None)
    return batch if batch is not None and owner is not None and batch.owner == owner else None


def transaction_broken() -> bool:
    """Whether PostgreSQL refuses everything until a rollback (a statement failed outside a savepoint)."""
    status = getattr(getattr(getattr(connection, "connection", None), "info", None), "transaction_status", None)
    return getattr(status, "name", "") == "INERROR"


def write_together(owner: str, match_ids: list[int], now: int, calls: list) -> list[tuple[bool, object]]:
    """Run the calls (each a MatchRunner write of one of match_ids, under `owner`'s lease) in one
    transaction; (True, result) or (False, the exception it raised) for each, in order.

    The leases are extended in one statement at the start, in the same transaction as the events,
    so a write to a match whose lease another conductor took raises LeaseLost and stores nothing,
    as it does alone. A call that fails costs itself only: nothing of it is inserted (every statement
    a write runs before the end is in a savepoint of its own), and if the one INSERT of everyone's
    receipts and events fails (a command id answered before, a seq already taken), each write's
    rows are inserted alone and only the writes whose rows were refused fail, their runners' states
    put back. If the transaction cannot commit, every call gets that failure."""
    outcomes: list[tuple[bool, object]] = []
    try:
        with transaction.atomic(), connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            _batch.current = batch = WriteBatch(owner, renew(owner, match_ids, now, cursor), cursor)
            try:
                for call in calls:
                    batch.begin()
                    try:
                        outcomes.append((True, call()))
                    except Exception as exc:
                        outcomes.append((False, exc))
                # A refusal kept on the record (a lost buzz) stored its events: they go in with the rest.
                failed = {index for index, (ok, value) in enumerate(outcomes)
                          if not ok and not (isinstance(value, Rejected) and value.events)}
                for index, exc in batch.insert(failed).items():
                    outcomes[index] = (False, exc)
                if transaction_broken():
                    raise DatabaseError("A statement failed outside a savepoint; the transaction cannot commit.")
            finally:
                _batch.current = None
    except Exception as exc:
        return [(False, exc)] * len(calls)
    return outcomes


def load_events(match: Match, after: int = 0) -> list[dict]:
    return [e.as_engine_event() for e in match.events.filter(seq__gt=after).order_by("seq")]


def load_state(match: Match):
    return fold(load_events(match))


def measure_bots(match: Match) -> dict:
    """Measure every bot seat's pinned build again; refuse the start, naming each figure, if one is over.
    Returns seat -> what it measured, for the bots' cards (match_started's bot_sizes)."""
    with transaction.atomic():  # a savepoint: in a shared transaction its statements fail alone
        refusals, sizes = seats_at_start(match)  # (the new measurements are kept with a refusal too)
    if refusals:
        raise Rejected(" ".join(refusals), "bot_over_tier")
    return sizes


@dataclass(frozen=True)
class Receipt:
    """Who sent a client's command and the id it carries: the key its answer is kept under."""

    actor: str
    command_id: str


def refusal_reply(refusal: Rejected) -> dict:
    return {"ok": False, "seqs": [], "error": {"code": refusal.code, "message": str(refusal)}}


class MatchRunner:
    """Drives one match: the only code that appends to its event log while it is live.

    A conductor passes its lease `owner` id: every append then checks, in the same transaction,
    that the conductor still holds the match (see leases.py).
    """

    def __init__(self, match: Match, state=None, owner: str | None = None, clock=now_ms):
        self.match = match
        self.state = state if state is not None else load_state(match)
        self.owner = owner
        self.clock = clock

    def handle(self, command: dict, now: int | None = None, receipt: Receipt | None = None) -> list[dict]:
        """Decide, store and fold; then the follow-ups the events call for (judge, snippets).

        With a receipt, the command's answer is stored in the same transaction as its events.
        Raises Rejected when the rules refuse the command: nothing is stored but the events the
        refusal keeps on the record (a lost buzz). A refusal's answer is not stored: it changed
        nothing, and a flood of refused commands must not cost a row each (the conductor keeps
        the answers it gave in memory, so a retry is answered the same).
        """
        now = now if now is not None else now_ms()
        try:
            if command.get("type") == "start" and self.state.status == "setup":
                sizes = measure_bots(self.match)  # the start carries them, whatever the client sent
                data = command.get("data") if isinstance(command.get("data"), dict) else {}
                command = dict(command, data=dict(data, bot_sizes=sizes))
            events, state = decide_and_fold(self.state, command, now)
        except Rejected as refusal:
            if refusal.events:
                self.commit(refusal.events, refusal.state or self.state)
            raise
        first = self.state.seq + 1
        reply = {"ok": True, "seqs": list(range(first, first + len(events))), "error": None}
        if events or receipt is not None:
            self.commit(events, state, receipt, reply)
        for event in list(events):
            for follow_up in self._follow_ups(event):
                try:
                    more, state = decide_and_fold(self.state, follow_up, now)
                except Rejected:
                    continue
                self.commit(more, state)
                events += more
        return events

    def _follow_ups(self, event: dict):
        """System commands that an event calls for, computed outside the pure engine. A follow-up
        that fails costs itself only: the command that called for it is already stored."""
        try:
            yield from self._follow_ups_of(event)
        except Exception:
            log.exception("Match %s: a follow-up of %s failed; play goes on without it", self.match.code, event["type"])

    def _follow_ups_of(self, event: dict):
        question = self.state.question
        if question is None:
            return
        data = event["data"]
        if event["type"] in JUDGED:
            # Every typed answer reaches the moderator with a suggested ruling and its reason.
            # Where the buzz came decides clauses like "prompt on X before mention" (a written answer: all read).
            possession = self.state.q.possession if event["type"] == "answer" else None
            read = possession["word"] if possession else self.state.q.revealed
            verdict = judge(data["text"], answer_line=question.answer, references=list(question.accepted),
                            question_text=question.text, buzz=(read, question.words))
            suggestion = dict(verdict.to_dict(), seat=data["seat"], team=data["team"], text=data["text"])
            suggestion.update({"for": event["seq"], "confidence": round(suggestion["confidence"], 3)})
            yield {"type": "judge", "actor": SYSTEM, "data": suggestion}
        elif event["type"] == "phase_started" and self.state.rules["phases"][data["phase"] - 1]["snippets"]:
            yield {"type": "snippets", "actor": SYSTEM, "data": {"snippets": find_snippets(question.text)}}

    def commit(self, events: list[dict], state, receipt: Receipt | None = None, reply: dict | None = None) -> None:
        """Store the events (and the command's receipt) in one transaction and take `state`, the live
        state with them folded in (by decide). Raises LeaseLost, storing nothing, when this runner's
        conductor no longer holds the match.

        Inside a WriteBatch (write_together) the events, and the receipt, are inserted with the other
        matches' at the end of the shared transaction (a repeated command id then fails alone); a
        write that also gives up a seat or changes the match's status with a receipt is stored at
        once, in a savepoint, since a refused receipt could not undo those statements."""
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
