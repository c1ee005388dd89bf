"""The bot seats of one match: when to ask a bot, what it is told, and what its answer turns into.

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
import math

from game.conductor.groups import playout_ms

log = logging.getLogger(__name__)

TRANSPORT_GRACE_MS = 500  # the worker's own limit is bot_act_timeout_ms; allow for the trip both ways
_SENTENCE_END = (".", "?", "!", ".\"", "?\"", "!\"")


def revealed_query(state, seat: dict) -> dict:
    """What a bot may see now: the revealed text and where it stands, never the unread words."""
    q = state.q
    words = state.question.words[: q.revealed]
    text = " ".join(words)
    return {
        "text": text,
        "word_index": q.revealed,
        "char_index": len(text),
        "sentence_index": sum(1 for w in words[:-1] if w.endswith(_SENTENCE_END)),
        "phase": q.phase + 1,
        "mode": q.mode,
        "final": q.mode == "team" or q.revealed >= len(state.question.words),
        "snippets": [{"title": x["title"], "text": x["text"]} for x in q.snippets],
        "tier": seat.get("tier") or "unlimited",
    }


def _clean_act(act) -> dict | None:
    if not isinstance(act, dict) or not isinstance(act.get("guess"), str):
        return None
    confidence = act.get("confidence")
    ok = isinstance(confidence, (int, float)) and not isinstance(confidence, bool) and math.isfinite(confidence)
    alternatives = act.get("alternatives") if isinstance(act.get("alternatives"), list) else []
    pairs = [[str(a[0]), float(a[1])] for a in alternatives
             if isinstance(a, (list, tuple)) and len(a) == 2 and isinstance(a[1], (int, float))]
    return {"guess": act["guess"].strip(), "confidence": float(confidence) if ok else 0.0,
            "buzz": act.get("buzz") is True, "alternatives": pairs}


def missed_status(reason: str) -> str:
    """What the hall is told of a bot's act that came to nothing: it ran out of time (the worker's
    own time limit, bots.acting.TimeLimitExceeded) or it failed."""
    return "timed_out" if "time limit" in reason else "failed"


def private_known(state) -> dict:
    """What trusted bots may be told privately about the question in play (bots.trust chooses which):
    the simulated opponent is told the clean answer, never the answer line with its directives."""
    return {"question_id": state.question.qid, "answer": state.question.clean_answer,
            "length_words": len(state.question.words), "question_idx": state.q.number - 1}


def _threshold(value) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return min(1.0, max(0.0, float(value))) if ok else None


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
        return None if q is None else (q.number, q.index, q.phase, q.closed)

    def _may_act(self, seat_id: str) -> bool:
        s = self.state
        q = s.q
        seat = s.seats.get(seat_id)
        if seat is None or seat["kind"] != "bot" or seat.get("stopped") or s.status != "live" or s.paused \
                or q is None or q.closed:
            return False
        tier = s.phase_rules()["bot_tier"]
        if (tier and seat.get("tier") != tier) or seat["team"] in q.locked:
            return False
        if q.mode == "buzz":
            return q.possession is None and q.revealed > 0
        return seat["team"] not in q.passed and seat["team"] not in q.submissions

    # -- asking -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """After every message: forget queries the match has moved past, ask the bots now due."""
        context = self._context()
        for seat_id, query in list(self.out.items()):
            if query["context"] != context:
                self.abandoned[query["id"]] = seat_id
                del self.out[seat_id]
        for seat_id in self.seats:
            if seat_id in self.out or seat_id in self.buzzing or not self._may_act(seat_id):
                continue
            q = self.state.q
            about = context + ((q.revealed,) if q.mode == "buzz" else ())
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
            "query": revealed_query(s, seat),
            "time_limit_ms": limit,
        }
        fields = self.seats[seat_id].get("private") or ()
        if fields:  # only what bots.trust allows this kind of bot; question_idx is QANTA's, 0-based
            known = private_known(s)
            payload["private"] = {name: known[name] for name in fields}
        timeout = {"type": "bot.timeout", "seat": seat_id, "query_id": query_id, "status": "timed_out",
                   "reason": f"The bot gave no answer within {limit} ms; play goes on without it."}
        delay = playout_ms(self.host.code)  # the query leaves when the screens show the words it carries
        timer = self.host.put_later(delay + limit + TRANSPORT_GRACE_MS, timeout)
        # The words it is shown: its guess is placed there, and its buzz says it saw them, however
        # many more words are read before the act comes back.
        self.out[seat_id] = {"id": query_id, "context": context, "timer": timer, "word": payload["query"]["word_index"],
                             "asked_at": self.host.conductor.clock() + delay}
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
        act = _clean_act(message.get("act"))
        if message.get("error") or act is None:
            reason = str(message.get("error") or "The bot sent no usable answer.")
            return await self._missed(seat_id, query_id, reason, missed_status(reason))
        now = self.host.conductor.clock()
        self.host.room.bot_answered(seat_id, now - query["asked_at"], now)
        seat = self.state.seats[seat_id]
        actor = {"role": "bot", "seat": seat_id, "team": seat["team"]}
        await self.host.execute({"type": "bot_guess", "actor": actor,
                                 "data": dict(act, threshold=_threshold(message.get("threshold")), word=query["word"])})
        if self.state.q is None or self._context() != query["context"]:
            return
        if self.state.q.mode == "team":
            command = {"type": "submit", "data": {"text": act["guess"]}} if act["guess"] else {"type": "pass"}
            await self.host.execute({**command, "actor": actor})
        elif act["buzz"] and act["guess"]:
            self.buzzing.add(seat_id)
            self.host.put_later(self.state.rules["bot_reaction_ms"], {
                "type": "bot.buzz", "seat": seat_id, "guess": act["guess"], "context": query["context"],
                "seen": query["word"]})

    async def _buzz(self, message: dict) -> None:
        seat_id = message["seat"]
        self.buzzing.discard(seat_id)
        if self._context() != message["context"] or not self._may_act(seat_id):
            return
        actor = {"role": "bot", "seat": seat_id, "team": self.state.seats[seat_id]["team"]}
        seen = message.get("seen", self.state.q.revealed)  # the words it decided on, like a person's screen
        if await self.host.execute({"type": "buzz", "actor": actor, "data": {"seen": seen}}) is not None:
            await self.host.execute({"type": "answer", "actor": actor, "data": {"text": message["guess"]}})

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

    async def _missed(self, seat_id: str, query_id: str, reason: str, status: str) -> None:
        self.reported.add(query_id)
        self.host.room.bot_missed(seat_id, status, reason, self.host.conductor.clock())
        if self.state.status == "live":
            await self.host.execute({"type": "bot_missed", "actor": {"role": "system"},
                                     "data": {"seat": seat_id, "reason": reason, "status": status}})
