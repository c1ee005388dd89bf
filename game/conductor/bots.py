"""The bot seats of one live match: asking each bot when game.engine.bot_turns says it may act, and
turning its answer into the commands bot_turns names, on the conductor's timers.

Nobody waits on a bot. A query goes out through bots.dispatch.send_query(payload, tier, loop=)
(Celery, a queue per tier) and the act comes back later as a "bot.act" message on the conductor
channel; a timer of our own turns silence into a "bot.timeout". Both land in the match's inbox, so
a bot's buzz is arbitrated like anyone's. In buzz mode each seat has at most one query out: words
read meanwhile are folded into the next query instead of queueing stale ones. A bot that errs, is
late or stays silent costs only itself: the moderator sees a bot_missed event and the match goes on.
A bot the worker stopped (over its tier's memory limit, bots.memory) gets a bot_stopped event and is
asked nothing more in this match.
"""
from __future__ import annotations

import asyncio
import functools
import itertools
import logging

from game.conductor.groups import playout_ms
from game.engine.api import bot_turns

log = logging.getLogger(__name__)

TRANSPORT_GRACE_MS = 500  # the worker's own limit is bot_act_timeout_ms; allow for the trip both ways


class BotDriver:
    MESSAGES = ("bot.act", "bot.timeout", "bot.buzz")

    def __init__(self, host, seats: dict):
        self.host = host
        self.seats = seats  # seat key -> {"config", "trusted"}
        self.out: dict[str, dict] = {}  # seat -> the query it owes an answer to
        self.asked: dict[str, tuple] = {}  # seat -> what it was last asked about
        self.buzzing: set[str] = set()  # seats waiting out their reaction time
        self.abandoned: dict[str, str] = {}  # query id -> seat, for queries the match moved past
        self.reported: set[str] = set()  # query ids already reported as missed
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task] = set()

    def set_seats(self, seats: dict) -> None:
        self.seats = seats

    def cancel_timers(self) -> None:
        for query in self.out.values():
            query["timer"].cancel()

    def forget_queries(self) -> None:
        """The match stops for a fault: drop the queries out (an answer that still comes is dropped
        quietly, a silence is not reported) and ask every bot afresh once play goes on."""
        self.cancel_timers()
        self.reported.update(query["id"] for query in self.out.values())
        self.out.clear()
        self.asked.clear()

    @property
    def state(self):
        return self.host.state

    def _context(self):
        q = self.state.q
        # In a bonus, each part and its bounceback is a turn of its own: an act for an earlier one is dropped.
        turn = None if q is None or q.bonus is None else (q.bonus["part"], q.bonus["bounce"])
        return None if q is None else (q.number, q.index, q.phase, q.closed, turn)

    # -- asking -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """After every message: forget queries the match has moved past, ask the bots now due."""
        context = self._context()
        for seat_id, query in list(self.out.items()):
            if query["context"] != context:
                self.abandoned[query["id"]] = seat_id
                del self.out[seat_id]
            elif bot_turns.answers_for_team(self.state, seat_id) and not query["answer"]:
                # A teammate pressed its buzzer: its answer is due now, on the words read now, not on the
                # query it was thinking over. That one's act is dropped quietly if it still comes.
                query["timer"].cancel()
                self.reported.add(query["id"])
                del self.out[seat_id]
        for seat_id in self.seats:
            if seat_id in self.out or seat_id in self.buzzing or not bot_turns.may_act(self.state, seat_id):
                continue
            q = self.state.q
            # A semi bot given the floor by a teammate's press is asked afresh: its answer is due now.
            about = context + ((q.revealed, bot_turns.answers_for_team(self.state, seat_id)) if q.mode == "buzz" else ())
            if self.asked.get(seat_id) != about:
                self.asked[seat_id] = about
                self._ask(seat_id, context)

    def _ask(self, seat_id: str, context) -> None:
        s = self.state
        seat = s.seats[seat_id]
        query_id = f"{self.host.code}.{seat_id}.{next(self._ids)}"
        limit = s.rules["bot_act_timeout_ms"]
        payload = {
            "reply_to": self.host.conductor.own_channel,
            "match": self.host.code,
            "seat": seat_id,
            "query_id": query_id,
            "bot": self.seats[seat_id]["config"],
            "query": bot_turns.revealed_query(s, seat),
            "time_limit_ms": limit,
        }
        fields = self.seats[seat_id].get("private") or ()
        if fields:  # only what bots.trust allows this kind of bot
            payload["private"] = bot_turns.private_for(s, fields)
        timeout = {"type": "bot.timeout", "seat": seat_id, "query_id": query_id, "status": "timed_out",
                   "reason": f"The bot gave no answer within {limit} ms; play goes on without it."}
        delay = playout_ms(self.host.code)  # the query leaves when the screens show the words it carries
        timer = self.host.put_later(delay + limit + TRANSPORT_GRACE_MS, timeout)
        # The words it is shown: its guess is placed there, and its buzz says it saw them, however
        # many more words are read before the act comes back.
        self.out[seat_id] = {"id": query_id, "context": context, "timer": timer, "word": payload["query"]["word_index"],
                             "asked_at": self.host.conductor.clock() + delay,
                             "answer": bot_turns.answers_for_team(s, seat_id)}  # asked for its team's answer
        self.host.room.bot_asked(seat_id)
        task = asyncio.get_running_loop().create_task(self._send(payload, seat.get("tier"), seat_id, query_id, delay))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, payload: dict, tier, seat_id: str, query_id: str, delay_ms: int = 0) -> None:
        if delay_ms:
            await asyncio.sleep(delay_ms / 1000)
            if self.out.get(seat_id, {}).get("id") != query_id:
                return  # the match moved past it while it waited (refresh abandoned it): nothing to ask
        loop = asyncio.get_running_loop()
        send = functools.partial(self.host.conductor.send_query, payload, tier or "unlimited", loop=loop)
        try:
            await loop.run_in_executor(None, send)  # a broker that hangs must not stop the match
        except Exception as exc:
            log.warning("Match %s: sending a query to %s failed", self.host.code, seat_id, exc_info=True)
            self.host.put({"type": "bot.timeout", "seat": seat_id, "query_id": query_id, "status": "failed",
                           "reason": f"The bot could not be asked ({exc.__class__.__name__}); check the bot workers."})

    # -- answers ----------------------------------------------------------------------------------

    async def handle(self, message: dict) -> None:
        kind = message["type"]
        if kind == "bot.act":
            await self._on_act(message)
        elif kind == "bot.timeout":
            query = self.out.get(message.get("seat"))
            self.abandoned.pop(message.get("query_id"), None)
            if query is not None and query["id"] == message.get("query_id"):
                del self.out[message["seat"]]
                await self._missed(message["seat"], query["id"], message.get("reason", ""),
                                   message.get("status", "timed_out"))
        elif kind == "bot.buzz":
            await self._buzz(message)

    async def _on_act(self, message: dict) -> None:
        seat_id, query_id = message.get("seat"), message.get("query_id")
        if message.get("stopped"):
            return await self._stopped(seat_id, query_id, str(message.get("error") or "The bot was stopped."))
        query = self.out.get(seat_id)
        if query is None or query["id"] != query_id:
            if self.abandoned.pop(query_id, None) == seat_id:
                await self._missed(seat_id, query_id, "The bot answered after the question had moved on.", "timed_out")
            elif query_id not in self.reported:
                log.info("Match %s: dropped an act for unknown query %r", self.host.code, query_id)
            return
        query["timer"].cancel()
        del self.out[seat_id]
        act = bot_turns.clean_act(message.get("act"))
        if message.get("error") or act is None:
            reason = str(message.get("error") or "The bot sent no usable answer.")
            return await self._missed(seat_id, query_id, reason)
        now = self.host.conductor.clock()
        self.host.room.bot_answered(seat_id, now - query["asked_at"], now)
        actor = bot_turns.bot_actor(self.state, seat_id)
        await self.host.execute(bot_turns.guess(actor, act, bot_turns.threshold_of(message.get("threshold")),
                                                query["word"]))
        if self.state.q is None or self._context() != query["context"]:
            return
        reply = bot_turns.reply_to(self.state, actor, act)
        if reply.now is not None:
            await self.host.execute(reply.now)
        elif reply.buzz_in_ms is not None:
            self.buzzing.add(seat_id)
            self.host.put_later(reply.buzz_in_ms, {"type": "bot.buzz", "seat": seat_id, "guess": reply.guess,
                                                   "context": query["context"], "seen": query["word"]})

    async def _buzz(self, message: dict) -> None:
        seat_id = message["seat"]
        self.buzzing.discard(seat_id)
        if self._context() != message["context"] or not bot_turns.may_act(self.state, seat_id):
            return
        actor = bot_turns.bot_actor(self.state, seat_id)
        if await self.host.execute(bot_turns.buzz(actor, message.get("seen", self.state.q.revealed))) is not None:
            await self.host.execute(bot_turns.answer(actor, message["guess"]))

    async def _stopped(self, seat_id: str, query_id: str, reason: str) -> None:
        """The worker stopped the bot (over its tier's memory limit, or its process died under it): it is
        asked nothing more in this match. Whichever query it came for, even one the match moved past."""
        query = self.out.get(seat_id)
        if query is not None and query["id"] == query_id:
            query["timer"].cancel()
            del self.out[seat_id]
        self.abandoned.pop(query_id, None)
        self.reported.add(query_id)
        seat = self.state.seats.get(seat_id)
        if self.state.status == "live" and seat is not None and not seat.get("stopped"):
            await self.host.execute({"type": "bot_stopped", "actor": {"role": "system"},
                                     "data": {"seat": seat_id, "reason": reason}})

    async def _missed(self, seat_id: str, query_id: str, reason: str, status: str | None = None) -> None:
        self.reported.add(query_id)
        command = bot_turns.missed(seat_id, reason, status)
        self.host.room.bot_missed(seat_id, command["data"]["status"], reason, self.host.conductor.clock())
        if self.state.status == "live":
            await self.host.execute(command)
