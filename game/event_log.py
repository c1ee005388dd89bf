"""The event log: numbering, inserting and loading a match's events, and the group commit.

Every event of a match is a row of MatchEvent, numbered from 1 with no gap; the unique (match, seq)
guards the log. The conductor's hot path (every word of every match, every command's receipt) goes
through insert_rows, SQL written out rather than built by the ORM per row; write_together runs the
writes of several matches that wait at the same moment in one transaction (WriteBatch).
"""
from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.utils import timezone

from game.engine.api import Rejected, fold
from game.leases import LeaseLost, given_or_new_cursor, renew
from game.models import CommandReceipt, Match, MatchEvent

log = logging.getLogger(__name__)


def now_ms() -> int:
    """The server's clock, as events are stamped: ms since the epoch."""
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Receipt:
    """Who sent a client's command and the id it carries: the key its answer is kept under."""

    actor: str
    command_id: str


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
    """The match's events after seq `after`, in order, as the engine reads them."""
    return [e.as_engine_event() for e in match.events.filter(seq__gt=after).order_by("seq")]


def load_state(match: Match):
    """The match's state now: every event of its log folded."""
    return fold(load_events(match))
