"""One match inside the conductor: its inbox, its clock, and the one place its commands are run.

One writer per match, the invariant everything else leans on: every write to a match's event log
(a client's command, a tick of its clock, a bot's act or silence, the voice, a pause after a restart
or a fault, a result of slow work beside) is made by the match's own loop (`_loop`, one asyncio task
per match), one at a time, awaited to the end (stored, answered, broadcast) before the next begins.
Everything else only puts a message in the inbox: the channels' messages, the timers of bots and of
the clock's retries, the threads that search, judge and measure beside (game/conductor/beside.py).
The clock is the loop's own too: while it waits for a message it also waits for the match's next
moment, on a timer of its own. So buzzes are arbitrated in the order the loop handles them, by the
receive time the web layer stamped, and `execute` refuses to run anywhere but in that loop
(tests/conductor/test_conductor_one_writer.py drives every path at once and checks it). Across conductors
the lease does the same (leases.py): the one conductor holding a match runs its loop.

A client's command carries an id: its answer is stored with its events (event_log.Receipt) and a
repeated id gets the first answer again, so a retry after a reconnect or a restart, or a double
click, applies once. When the database cannot be written the clock stops and the match is paused
once it can; when the channel layer (Redis) is down the clock stops where contact was lost, the
match is paused there, and the events it could not send go out when it is back. Either way no
word is read, no timer runs out and no bot is counted late while the room cannot follow.
"""
from __future__ import annotations

import asyncio
import collections
import logging

from django.db import IntegrityError

from game.engine.api import Rejected, next_wakeup
from game.event_log import Receipt
from game.runner import FollowUp, refusal_reply
from game.speech.reader import VoiceReader

from game.conductor import beside, loading
from game.conductor.beside import Starting
from game.conductor.bots import BotDriver
from game.conductor.groups import broadcast, roster_message
from game.leases import LeaseLost
from game.conductor.room import REPORT_TTL_MS, Room

log = logging.getLogger(__name__)

SYSTEM = {"role": "system"}
TICK = {"type": "tick"}
TICK_COMMAND = {"type": "tick", "actor": SYSTEM}
RESTART_REASON = "The game server restarted; check the state and resume."
STORAGE_REASON = "The game server lost its database for a while; check the state and resume."
LAYER_REASON = "The game server lost contact with the screens (Redis); resume once they are back."
# The engine lets only a moderator pause. The conductor is the only code that writes actors for
# itself (consumers stamp theirs from the socket), so it pauses as a moderator marked "system".
RESTART_ACTOR = {"role": "moderator", "system": True}
TICK_RETRY_S = 1.0
STORAGE_RETRY_MS = 1000
FLUSH_RETRY_MS = 1000
RECEIPTS_KEPT = 5000
UNAVAILABLE = {"code": "unavailable",
               "message": "The game server cannot save anything just now; your command is retried by itself."}
MOVED = {"code": "unavailable", "message": "The match moved to another game server; your command is retried by itself."}


def actor_key(actor: dict | None) -> str | None:
    """Who a client's command is from, as its receipts are keyed: the moderator or a seat."""
    actor = actor or {}
    if actor.get("role") == "moderator" and not actor.get("system"):
        return "moderator"
    if actor.get("role") in ("player", "bot") and isinstance(actor.get("seat"), str):
        return actor["seat"]
    return None


class MatchHost:
    def __init__(self, conductor, code: str, runner, bot_seats: dict, receipts: dict | None = None):
        self.conductor = conductor
        self.code = code
        self.runner = runner
        self.bots = BotDriver(self, bot_seats)
        self.voice = VoiceReader(self)  # reads the questions aloud when the format says so
        self.room = Room()  # who is connected and how the bots do: the moderator's roster, never in the log
        self.receipts: collections.OrderedDict = collections.OrderedDict(receipts or {})
        self.unsent: list[dict] = []  # stored events the channel layer could not take yet, in seq order
        self.stalled_at: int | None = None  # when a write to the database failed; the clock stands still
        self.layer_lost_at: int | None = None  # since when the screens may not hear us; the clock stands still
        self._inbox: collections.deque = collections.deque()
        self._arrived = asyncio.Event()
        self.heard_at = conductor.clock()  # when the last message came (ms): a finished match idle long is let go
        self._task: asyncio.Task | None = None
        self._roster_seen: int | None = None  # the room's changes at the last roster looked at
        self.stopped = False  # once set, the loop ends: a stopped host never writes again
        self.starting = Starting(self)  # a start waiting for its bots to be measured beside
        self.searching: FollowUp | None = None  # the phase's search, while it is out: the bots wait for it
        self.unstored: list[tuple[FollowUp, dict]] = []  # slow work's results the database failed to store
        self._beside: set[asyncio.Task] = set()  # slow work under way for this match (beside.py)

    @property
    def state(self):
        return self.runner.state

    @property
    def match_id(self) -> int:
        return self.runner.match.pk

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name=f"match-{self.code}")

    async def stop(self) -> None:
        """End the loop. Called from the loop itself (its lease was lost), it ends after the message
        in hand: the conductor may open the match again, and two loops must never write to it."""
        self.stopped = True
        self.bots.cancel_timers()
        self.voice.cancel()
        for task in list(self._beside):  # its result would come back to a loop that has ended
            task.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def put(self, message: dict) -> None:
        self.heard_at = self.conductor.clock()
        self._inbox.append(message)
        self._arrived.set()

    def done_with(self, now: int, idle_ms: int) -> bool:
        """The match finished, nothing is left to do or send, and nothing came for `idle_ms`: the
        conductor may stop hosting it (a later message opens it again)."""
        return (self.state.status == "finished" and now - self.heard_at >= idle_ms and not self._inbox
                and not self.unsent and not self._beside and self.stalled_at is None and self.layer_lost_at is None)

    def put_later(self, delay_ms: int, message: dict) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(max(0, delay_ms) / 1000, self.put, message)

    def layer_lost(self, since: int) -> None:
        """The channel layer failed; the room may have heard nothing since `since` (ms). The clock
        stops at once, before any message already waiting here could run it on."""
        if self.layer_lost_at is None or since < self.layer_lost_at:
            self.layer_lost_at = since
        self.put({"type": "layer.down"})

    # -- the loop ---------------------------------------------------------------------------------

    async def _loop(self) -> None:
        while not self.stopped:
            message = await self._next()
            try:
                await self._handle(message)
                await self.after(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Match %s: handling %s failed", self.code, message.get("type"))
                if message is TICK:
                    await asyncio.sleep(TICK_RETRY_S)  # an engine fault must not spin the clock

    async def after(self, message: dict) -> None:
        """What follows every message handled: the bots and the voice catch up, and the moderator's
        roster goes out if it changed. While the phase's search is out the bots wait for it: they are
        shown the snippets a person sees."""
        if self.stalled_at is None and not self.stopped:
            if self.searching is None or not self.searching.still_due(self.state):
                self.searching = None
                await self.bots.refresh()
            self.voice.refresh()
        if not self.stopped and (message is not TICK or self.room.changes != self._roster_seen):
            await self.send_roster()  # a word changes no seat: a tick sends it only if a bot was asked

    async def _next(self) -> dict:
        """The next message, or TICK once the match's next moment has come: the clock's timer is this
        loop's own, set while it waits for a message and cancelled when one comes first."""
        while not self._inbox:
            wake = self.next_tick()
            if wake is not None and wake <= self.conductor.clock():
                return TICK
            self._arrived.clear()
            timer = None if wake is None else asyncio.get_running_loop().call_later(
                max(0, wake - self.conductor.clock()) / 1000, self._arrived.set)
            try:
                await self._arrived.wait()  # a message, or the clock's moment (checked again above)
            finally:
                if timer is not None:
                    timer.cancel()
        return self._inbox.popleft()

    def next_tick(self) -> int | None:
        """When the clock next has something to do (ms), or None: never while it stands still."""
        if self.stalled_at is not None or self.layer_lost_at is not None or self.stopped:
            return None
        return next_wakeup(self.state)

    async def _handle(self, message: dict) -> None:
        if self.layer_lost_at is not None:
            await self._pause_where_contact_was_lost()  # first: no command may run the clock past it
        kind = message.get("type")
        if kind == "command" and self._seat_unknown((message.get("command") or {}).get("actor")):
            await self.seat_newcomers()  # a seat the web stored whose join never reached us: seat it first
        if kind == "command":
            if not await self.starting.takes(message):  # a start first has its bots measured, beside
                await self.execute(message.get("command") or {}, message.get("reply_to"), message.get("ref"),
                                   command_id=message.get("id"))
        elif kind == "start.measured":
            await self.starting.measured(message["outcome"])
        elif kind == "follow_up":
            await self._follow_up_done(message["follow_up"], message["data"])
        elif kind == "tick":
            await self.execute(TICK_COMMAND)
        elif kind == "wake":
            await self.seat_newcomers()
        elif kind == "recover":
            await self.pause_where_play_stood(RESTART_REASON)
        elif kind == "storage.retry":
            await self._recover_storage()
        elif kind == "layer.down":
            pass  # paused above
        elif kind in ("layer.up", "flush"):
            await self._flush()
            if self.conductor.layer_ok and not self.unsent:
                self.layer_lost_at = None
        elif kind == VoiceReader.MESSAGE:
            await self.voice.handle(message)
        elif kind in BotDriver.MESSAGES:
            await self.bots.handle(message)
        elif kind == "presence":
            self.room.heard(message, self.conductor.clock())
            self.put_later(REPORT_TTL_MS + 1000, {"type": "roster.check"})  # to forget a process that goes quiet
        elif kind == "roster.check":
            self.room.prune(self.conductor.clock())
        elif kind == "roster.ask":
            self.room.last_sent = None  # a moderator just connected: send it whether it changed or not
        else:
            log.warning("Match %s: ignored a %r message", self.code, kind)

    # -- running commands -------------------------------------------------------------------------

    async def execute(self, command: dict, reply_to: str | None = None, ref=None, now: int | None = None,
                      command_id: str | None = None, bot_sizes: dict | None = None):
        """Decide, store and fold one command, answer whoever sent it, then broadcast its events and
        start the slow work they call for (the judge, a search) beside.

        Returns the new events, or None when the rules refused the command or storing it failed. Runs
        only in this match's loop: one writer per match. `bot_sizes`: what a start's bots measured.
        """
        if asyncio.current_task() is not self._task:
            raise RuntimeError(f"Match {self.code} is written by its own loop only (one writer per match).")
        receipt = self.receipt_of(command, command_id)
        if receipt is not None and (receipt.actor, receipt.command_id) in self.receipts:
            await self.answer(reply_to, ref, self.receipts[(receipt.actor, receipt.command_id)])
            return None
        if self.stopped:
            await self.answer(reply_to, ref, {"ok": False, "seqs": [], "error": MOVED})
            return None
        if self.stalled_at is not None:
            await self.answer(reply_to, ref, {"ok": False, "seqs": [], "error": UNAVAILABLE})
            return None
        now = self.conductor.clock() if now is None else now
        try:
            events = await self.conductor.db_write(self.match_id, self.runner.handle, command, now, receipt, bot_sizes)
        except Exception as exc:
            await self.write_failed(exc, command, now, receipt, reply_to, ref)
            return None
        for work in self.runner.follow_ups(events):  # read from the state these events left: now, before the next write
            if work.type == "snippets":
                self.searching = work
            self.spawn(beside.follow_up(self, work))
        reply = {"ok": True, "seqs": [e["seq"] for e in events], "error": None}
        self._remember(receipt, reply)
        # The answer first, then the events; on Redis both go in one round trip (groups.Sender).
        queued = self.conductor.sender.queue_send(reply_to, self._reply_message(ref, reply)) if reply_to else None
        if queued is None:
            await self.answer(reply_to, ref, reply)
        if events:
            await self.broadcast(events)
        if queued is not None:
            try:
                await queued
            except Exception:
                log.warning("Match %s: could not reply to %s", self.code, reply_to, exc_info=True)
        return events

    @staticmethod
    def receipt_of(command: dict, command_id) -> Receipt | None:
        """The key a client's command is answered under (None: a command of our own, or one without an id)."""
        key = actor_key(command.get("actor"))
        return Receipt(key, command_id) if key and isinstance(command_id, str) and command_id else None

    def spawn(self, work) -> None:
        """Run a coroutine of this match's beside its loop (waiting for slow work); cancelled if the match stops."""
        task = asyncio.get_running_loop().create_task(work)
        self._beside.add(task)
        task.add_done_callback(self._beside.discard)

    async def _follow_up_done(self, work: FollowUp, data: dict | None) -> None:
        """Slow work came back (a suggestion, the phase's snippets): write it if the match is still where it was."""
        if work is self.searching:
            self.searching = None
        if data is not None and work.still_due(self.state):
            stored = await self.execute(work.command(data))
            if stored is None and self.stalled_at is not None:  # kept for when the database answers again
                self.unstored.append((work, data))

    async def write_failed(self, exc: Exception, command: dict, now: int, receipt: Receipt | None = None,
                           reply_to=None, ref=None) -> None:
        """A write of `command` raised `exc`: answer, and stop or pause as the fault asks."""
        if isinstance(exc, Rejected):
            await self.answered(receipt, reply_to, ref, refusal_reply(exc))
            if exc.events:
                await self.broadcast(exc.events)  # stored on the record (a lost buzz), moderator-only
            return
        if isinstance(exc, LeaseLost):
            log.warning("Match %s: another conductor holds it now; this one stops serving it", self.code)
            await self.answer(reply_to, ref, {"ok": False, "seqs": [], "error": MOVED})
            await self.conductor.drop(self.code)
            return
        if isinstance(exc, IntegrityError) and receipt is not None:
            # the id was answered long ago, beyond what we keep in memory
            known = await self.conductor.db(loading.find_receipt, self.runner, receipt.actor, receipt.command_id)
            if known is not None:
                await self.answered(receipt, reply_to, ref, known)
                return
        await self._storage_failed(command, now, reply_to, ref, exc)

    def _remember(self, receipt: Receipt | None, reply: dict) -> None:
        if receipt is not None:
            self.receipts[(receipt.actor, receipt.command_id)] = reply
            while len(self.receipts) > RECEIPTS_KEPT:
                self.receipts.popitem(last=False)

    async def answered(self, receipt: Receipt | None, reply_to, ref, reply: dict) -> None:
        """Answer a command and keep the answer for a retry of its id."""
        self._remember(receipt, reply)
        await self.answer(reply_to, ref, reply)

    @staticmethod
    def _reply_message(ref, reply: dict) -> dict:
        return {"type": "conductor.reply", "ref": ref, "ok": reply["ok"], "seqs": list(reply["seqs"]),
                "error": reply["error"]}

    async def answer(self, reply_to, ref, reply: dict) -> None:
        if not reply_to:
            return
        try:
            await self.conductor.layer.send(reply_to, self._reply_message(ref, reply))
        except Exception:
            log.warning("Match %s: could not reply to %s", self.code, reply_to, exc_info=True)

    # -- broadcasting -----------------------------------------------------------------------------

    async def broadcast(self, events: list[dict]) -> None:
        """Send the events to every audience; if the layer is down, keep them for when it is back."""
        self.unsent.extend(events)
        await self._flush()

    async def _flush(self) -> None:
        if not self.unsent:
            return
        pending, self.unsent = self.unsent, []
        started = self.conductor.clock()
        try:
            await broadcast(self.conductor.sender, self.code, self.state.team_ids, pending)
        except asyncio.CancelledError:
            self.unsent = pending + self.unsent
            raise
        except Exception as exc:
            # Sockets that missed frames catch up from the event log; resending is harmless (clients drop
            # a seq they have), losing is not.
            self.unsent = pending + self.unsent
            self.put_later(FLUSH_RETRY_MS, {"type": "flush"})
            await self.conductor.layer_failed(exc, since=started)

    async def send_roster(self) -> None:
        """The moderator's roster (game/conductor/room.py), to the match's web processes when it changed:
        they write it to their moderator sockets only. Lost while Redis is away: sent again after."""
        if not self.conductor.layer_ok:
            return  # nobody hears it now; it goes with the first change once the layer is back
        self._roster_seen = self.room.changes
        facts = {seat: info.get("facts") for seat, info in self.bots.seats.items()}
        roster = self.room.changed(self.state, facts)
        if roster is None:
            return
        try:
            await self.conductor.sender.group_send(*roster_message(self.code, roster, self.conductor.clock()))
        except Exception:
            self.room.last_sent = self._roster_seen = None
            log.info("Match %s: could not send the roster; it goes with the next change", self.code, exc_info=True)

    # -- faults -----------------------------------------------------------------------------------

    async def _storage_failed(self, command: dict, now: int, reply_to, ref, exc: Exception) -> None:
        log.error("Match %s: storing %s failed; the clock stops until the database answers",
                  self.code, command.get("type"), exc_info=exc)
        await self.answer(reply_to, ref, {"ok": False, "seqs": [], "error": UNAVAILABLE})
        if self.stalled_at is None:
            self.stalled_at = now
            self.put_later(STORAGE_RETRY_MS, {"type": "storage.retry"})

    async def _recover_storage(self) -> None:
        """Read the match again (a failed commit may have gone through) and pause it where it stood."""
        try:
            runner = await self.conductor.db(loading.load_runner, self.code, self.conductor.id, self.conductor.clock)
        except Exception:
            log.warning("Match %s: the database still does not answer; trying again", self.code)
            self.put_later(STORAGE_RETRY_MS, {"type": "storage.retry"})
            return
        if runner is None:
            return
        self.runner = runner
        self.stalled_at = None
        log.info("Match %s: the database answers again", self.code)
        await self.pause_where_play_stood(STORAGE_REASON)
        unstored, self.unstored = self.unstored, []
        for work, data in unstored:  # a suggestion or the phase's snippets the fault kept out of the log
            if work.still_due(self.state):
                await self.execute(work.command(data))

    async def pause_where_play_stood(self, reason: str, at: int | None = None) -> None:
        """Nobody ran this match's clock for a while, or nobody could follow it; stop it where it stood.

        The pause is stamped at the last stored event (or at `at`, if later), so the time nobody saw
        is never played: on resume every timer moves on by the whole gap and players get the time
        they had left. Queries out to bots are forgotten (their answers may be lost with the fault,
        and their silence meanwhile is not theirs); the bots are asked again after the resume.
        """
        state = self.state
        if state.status != "live" or state.paused:
            return
        self.bots.forget_queries()
        at = state.t if at is None else max(state.t, at)
        await self.execute({"type": "pause", "actor": RESTART_ACTOR, "data": {"reason": reason}}, now=at)

    async def _pause_where_contact_was_lost(self) -> None:
        await self.pause_where_play_stood(LAYER_REASON, at=min(self.layer_lost_at, self.conductor.clock()))

    def _seat_unknown(self, actor) -> bool:
        seat = (actor or {}).get("seat")
        return (actor or {}).get("role") == "player" and isinstance(seat, str) and seat not in self.state.seats

    async def seat_newcomers(self) -> None:
        """A web view added seats (or bots) to the match: seat anyone the event log does not know yet.

        Reads the seats only, never the event log: the live state here is already current.
        """
        self.bots.set_seats(await self.conductor.db(loading.bot_seats, self.runner))
        for seat in await self.conductor.db(loading.unseated, self.runner):
            await self.execute({"type": "join", "actor": SYSTEM, "data": {"seat": seat}})
