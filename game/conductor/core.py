"""The conductor: the single writer of the live matches it holds.

It reads the shared channel "conductor", so any web process can reach some conductor, and its own
channel, where bot workers reply and where other conductors forward messages for matches this one
holds. Each match runs in its own asyncio task (host.MatchHost), the one writer of that match, its
clock included; database work runs on one thread of the conductor's own, so the event loop never
blocks on it, and the matches' writes that wait at the same moment share one transaction
(database.py). Slow work (a search, a judgement, a bots' measurement) runs on other threads beside
(beside.py), so it never holds up the database thread every match shares.

One writer per match is enforced by a lease per match (leases.py): a message for a match another
live conductor holds is forwarded to it; a live match nobody holds (after a crash, or at start) is
taken over and paused, because nobody ran its clock meanwhile. Several conductors can run at once
and share the matches: a new match goes to the one holding the fewest (the first to hear of it
forwards it there), and the matches of one that died are shared out among the others.

Faults never end the conductor: a receive that fails (Redis restarting, a time-out) is retried with
back-off, and each match it holds is paused with a reason until the moderator resumes it.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid

from channels.layers import get_channel_layer
from django.db import connections

from serving.long_lived import keep_out_of_collection
from serving.receiving import receive_waiting

from game.command_budgets import Budgets
from game.event_log import now_ms
from game.runner import MEASURE_LIMIT_S, measure_bot_kinds

from game import leases
from game.judging import lexicon
from game.conductor import loading
from game.conductor.beside import Beside
from game.conductor.database import DatabaseThread
from game.conductor.groups import CONDUCTOR_CHANNEL, Sender
from game.conductor.host import MatchHost, actor_key

log = logging.getLogger(__name__)

MATCH_MESSAGES = {"command", "bot.act", "wake", "presence", "roster.ask"}
RECOVER_RETRY_S = 0.5
RECEIVE_BACKOFF_S = (0.1, 5.0)  # first and longest wait before receiving again after a failure
MAX_FORWARDS = 2  # a message is forwarded at most this often before it is answered "try again"
FINISHED_IDLE_MS = 60_000  # a finished match nothing came for this long is no longer hosted


def default_send_query(payload: dict, tier: str, loop=None) -> None:
    # Imported when a bot is first asked: bots.dispatch brings the bot kinds (NumPy, SciPy, scikit-learn:
    # seconds and about 100 MB), which a web process that imports this module but conducts nothing never needs.
    from bots.dispatch import send_query  # the bots app owns the queues and the in-process pool

    send_query(payload, tier, loop=loop)


def _load_judge_index() -> None:
    lexicon.index()  # the judge's synonyms, read once (a missing index is a startup warning, game.W001)


def _close_connections() -> None:
    connections.close_all()


class Conductor:
    def __init__(self, layer=None, send_query=None, clock=now_ms, channel: str = CONDUCTOR_CHANNEL):
        self.layer = layer or get_channel_layer()
        self.sender = Sender(self.layer)  # broadcasts of one turn of the loop go out together
        self.send_query = send_query or default_send_query
        self.clock = clock
        self.channel = channel  # shared by every conductor
        self.id = uuid.uuid4().hex[:16]
        self.own_channel: str | None = None  # this conductor's own; set when it runs
        self.hosts: dict[str, MatchHost] = {}
        self.layer_ok = True
        self._failed_since_probe = False
        self.forwarded = 0  # messages handed to the conductor that holds their match
        self.budgets = Budgets(lambda: self.clock() / 1000)
        self.refused = 0  # commands answered slow_down (over a seat's or a match's budget)
        self._redis_run_id = None
        self._unserved_seen: set[str] = set()  # live matches nobody held at our last look
        self._opening: dict[str, tuple[bool, asyncio.Future]] = {}  # match -> (place, its host being opened)
        self._db = DatabaseThread(self.id, lambda: self.clock())
        self.beside = Beside()  # the threads that search, judge and measure, beside the writes

    async def db(self, fn, *args):
        """Run Django ORM work on the conductor's database thread."""
        return await self._db.run(fn, *args)

    async def db_write(self, match_id: int, fn, *args):
        """Run a write to match `match_id` under our lease on the database thread, in one transaction
        with the other matches' writes waiting at the same moment."""
        return await self._db.write(match_id, fn, *args)

    async def run(self, ready=None) -> None:
        """Take over unserved matches, then serve both channels until cancelled. Nothing else stops it.
        ready(), if given, is called once it serves and every bot kind's code is measured."""
        # A plain channel, not a process-local one ("!"): read like the shared one, whatever waits in
        # one round trip (serving/receiving.py), and it keeps working after Redis restarts.
        self.own_channel = f"conductor.{self.id}"
        log.info("Conductor %s serving the channel %r and its own %r", self.id, self.channel, self.own_channel)
        tasks = []
        measuring = asyncio.ensure_future(self._measure_bot_kinds())  # beside, from the first moment
        try:
            await self.probe_layer()
            await self._announce()
            await self.db(_load_judge_index)  # now, not at the first answer of a match
            keep_out_of_collection("The conductor")  # the judge's index and the rest of start-up: never walked in play
            await self.recover()
            loop = asyncio.get_running_loop()
            tasks = [loop.create_task(self._serve(self.channel), name="conductor-shared"),
                     loop.create_task(self._serve(self.own_channel), name="conductor-own"),
                     loop.create_task(self._keep_leases(), name="conductor-leases")]
            await measuring
            # The kinds' modules (NumPy, SciPy, scikit-learn) came in beside: out of the collector's walks too.
            keep_out_of_collection("The conductor's bot kinds")
            if ready is not None:
                ready()
            await asyncio.gather(*tasks)
        finally:
            measuring.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.close()

    async def _measure_bot_kinds(self) -> None:
        began = time.monotonic()
        try:
            await self.beside.run(measure_bot_kinds, MEASURE_LIMIT_S, measuring=True)
        except asyncio.TimeoutError:
            log.warning("Measuring the bot kinds took longer than %g s; each start measures what it needs",
                        MEASURE_LIMIT_S)
        except Exception:
            log.exception("Measuring the bot kinds failed; each start measures what it needs")
        else:
            log.info("Conductor %s measured the bot kinds' code in %.1f s", self.id, time.monotonic() - began)

    async def _serve(self, channel: str) -> None:
        wait = RECEIVE_BACKOFF_S[0]
        while True:
            try:
                messages = await receive_waiting(self.layer, channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                await self.layer_failed(exc)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECEIVE_BACKOFF_S[1])
                continue
            wait = RECEIVE_BACKOFF_S[0]
            self._layer_back()
            for message in messages:
                try:
                    await self.dispatch(message)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("The conductor could not handle a %r message", message.get("type"))
                    await self._reply_error(message, "server_error",
                                            "The game server could not take that just now; try again.")

    # -- the channel layer's health ---------------------------------------------------------------

    async def layer_failed(self, exc: Exception, since: int | None = None) -> None:
        """The channel layer failed: stop every match we hold where the screens may have stopped
        hearing us (`since`, ms; now if unknown) and pause it until the moderator resumes."""
        if self.layer_ok:
            log.warning("The channel layer failed (%s: %s); pausing the live matches until it is back",
                        exc.__class__.__name__, exc)
        self.layer_ok = False
        self._failed_since_probe = True
        since = self.clock() if since is None else since
        for host in self.hosts.values():
            host.layer_lost(since)

    def _layer_back(self) -> None:
        if self.layer_ok:
            return
        log.info("The channel layer answers again")
        self.layer_ok = True
        for host in self.hosts.values():
            host.put({"type": "layer.up"})

    async def probe_layer(self) -> None:
        """Ask Redis who it is, every RENEW_S: an error is a failed layer; an answer after a failure
        means it is back; a new run id means it restarted and lost group members and queued
        messages, which a match cannot play through unnoticed."""
        connection = getattr(self.layer, "connection", None)
        if connection is None:
            return  # the in-memory layer of the embedded default
        try:
            server = await connection(0).info("server")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self.layer_failed(exc)
            return
        run_id = server.get("run_id")
        if self._redis_run_id is not None and run_id != self._redis_run_id and not self._failed_since_probe:
            # A restart that no call of ours noticed (the client's retries covered it): still a gap,
            # from about when it started (its uptime, in whole seconds).
            up_ms = (int(server.get("uptime_in_seconds") or 0) + 1) * 1000
            await self.layer_failed(RuntimeError("Redis restarted and lost what it held"), since=self.clock() - up_ms)
        self._redis_run_id = run_id
        self._failed_since_probe = False
        self._layer_back()

    # -- leases -----------------------------------------------------------------------------------

    async def recover(self) -> None:
        """Take over our share of the live matches nobody holds. A database that is not ready yet is waited for."""
        while True:
            try:
                await self.recover_unserved()
                return
            except Exception:
                log.exception("The conductor could not read the live matches; trying again in %s s", RECOVER_RETRY_S)
                await asyncio.sleep(RECOVER_RETRY_S)

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(leases.RENEW_S)
            try:
                await self.let_go_of_finished()
                await self._renew()
                await self._announce()
                await self.recover_unserved()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("Renewing leases failed; the matches stop at their next write if it lasts", exc_info=True)
            await self.probe_layer()

    async def _announce(self) -> None:
        """Tell the other conductors we are alive and how loaded; a conductor on the in-process layer
        of the embedded default is alone by construction and keeps quiet."""
        if getattr(self.layer, "connection", None) is None:
            return
        try:
            await self.db(leases.announce, self.id, self.own_channel or "", self.clock(), self.layer_ok)
        except Exception:
            log.warning("Could not tell the other conductors this one is alive; trying again", exc_info=True)

    async def _renew(self) -> None:
        ids = {host.match_id: code for code, host in self.hosts.items()}
        held = await self.db(leases.renew, self.id, list(ids), self.clock())
        for match_id, code in ids.items():
            if match_id not in held:
                log.warning("Match %s: this conductor lost its lease; it stops serving the match", code)
                await self.drop(code)

    async def recover_unserved(self) -> None:
        """Take our share of the live matches nobody holds, and any match left unserved since our last look."""
        mine, unserved = await self.db(leases.share_of_unserved, self.id, self.clock())
        take = [code for code in unserved if code in mine or code in self._unserved_seen]
        self._unserved_seen = set(unserved) - set(take)
        for code in take:
            if code not in self.hosts:
                try:
                    await self.host(code)
                except Exception:
                    log.exception("Match %s could not be taken over; trying again later", code)

    async def let_go_of_finished(self) -> None:
        """Stop hosting the finished matches nothing came for FINISHED_IDLE_MS: a host keeps its match's
        whole state, so hosting every match ever played grew a conductor with every match (in
        bench/soak.py's minutes 10-13, from about 71 to 26 MiB an hour). Their leases are no longer
        renewed and run out; a later message opens the match again (here while the lease lasts,
        anywhere after)."""
        now = self.clock()
        for code in [code for code, host in self.hosts.items() if host.done_with(now, FINISHED_IDLE_MS)]:
            await self.hosts.pop(code).stop()

    async def drop(self, code: str) -> None:
        host = self.hosts.pop(code, None)
        if host is not None:
            await host.stop()

    # -- messages ---------------------------------------------------------------------------------

    async def dispatch(self, message: dict) -> None:
        kind = message.get("type")
        if kind not in MATCH_MESSAGES:
            log.warning("The conductor ignored a %r message", kind)
            return
        code = message.get("match")
        if not isinstance(code, str):
            await self._no_such_match(message, code)
            return
        found = await self.host(code, place=not message.get("forwarded"))
        if found is None:
            await self._no_such_match(message, code)
        elif isinstance(found, MatchHost):
            refusal = self._over_budget(code, message) if kind == "command" else None
            if refusal is None:
                found.put(message)
            else:
                self.refused += 1
                await self._reply_error(message, "slow_down", refusal)
        else:
            await self._forward(message, found)

    def _over_budget(self, code: str, message: dict) -> str | None:
        """The seat's, moderator's and match's budgets, checked where the match is held: whichever
        web process a command came through, it spends the same budget here (game/command_budgets.py)."""
        command = message.get("command") or {}
        return self.budgets.refusal(code, actor_key(command.get("actor")), str(command.get("type")))

    async def host(self, code: str, place: bool = False):
        """The running host of a match we hold (taking the lease if it is free), the lease of the
        conductor that holds it, or None if there is no such match. With `place`, a match nobody
        holds is left to a less loaded conductor if there is one (the lease returned names it).

        One match has one host, whatever arrives at once: the shared channel, our own channel and
        the look for unserved matches each call this, and the lease is ours to all of them, so a
        second call while the first is opening the match waits for it instead of opening it again
        (two loops would write the same seqs)."""
        while True:
            host = self.hosts.get(code)
            if host is not None:
                return host
            opening = self._opening.get(code)
            if opening is None:
                break
            opened_for, pending = opening
            try:
                found = await asyncio.shield(pending)
            except asyncio.CancelledError:
                if pending.cancelled():
                    continue  # the call opening it was cancelled, not this one: look again
                raise
            if found is None or isinstance(found, MatchHost) or opened_for == place:
                return found
            # the match was left to another conductor for placing; a forwarded message looks again
        pending = asyncio.get_running_loop().create_future()
        pending.add_done_callback(lambda f: f.cancelled() or f.exception())  # waiters may be none
        self._opening[code] = (place, pending)
        try:
            found = await self._open(code, place)
        except asyncio.CancelledError:
            pending.cancel()
            raise
        except Exception as exc:
            pending.set_exception(exc)
            raise
        finally:
            del self._opening[code]
        pending.set_result(found)
        return found

    async def _open(self, code: str, place: bool):
        lease = await self.db(leases.acquire, code, self.id, self.own_channel or "", self.clock(), place)
        if lease is None:
            return None
        if not lease.mine:
            return lease
        runner = await self.db(loading.load_runner, code, self.id, self.clock)
        if runner is None:
            await self.db(leases.release, self.id, [lease.match_id])
            return None
        host = MatchHost(self, code, runner, await self.db(loading.bot_seats, runner),
                         await self.db(loading.recent_receipts, runner))
        self.hosts[code] = host
        host.start()
        host.put({"type": "wake"})  # seats the web added while nobody held the match
        if lease.taken_over:
            log.info("Match %s: taken over by conductor %s", code, self.id)
            host.put({"type": "recover"})  # a live match nobody ran is paused where it stood
        return host

    async def _forward(self, message: dict, lease) -> None:
        hops = int(message.get("forwarded", 0))
        if hops >= MAX_FORWARDS or not lease.channel or lease.channel == self.own_channel:
            await self._reply_error(message, "unavailable",
                                    "The match is moving between game servers; your command is retried by itself.")
            return
        try:
            await self.layer.send(lease.channel, dict(message, forwarded=hops + 1))
            self.forwarded += 1
        except Exception as exc:
            await self.layer_failed(exc)

    async def _no_such_match(self, message: dict, code) -> None:
        await self._reply_error(message, "no_match", f"There is no match with code {code!r}; check the link.")

    async def _reply_error(self, message: dict, code: str, text: str) -> None:
        reply_to = message.get("reply_to") if message.get("type") == "command" else None
        if reply_to:
            try:
                await self.layer.send(reply_to, {"type": "conductor.reply", "ref": message.get("ref"), "ok": False,
                                                 "seqs": [], "error": {"code": code, "message": text}})
            except Exception as exc:
                await self.layer_failed(exc)

    async def close(self) -> None:
        db = self._db
        log.info("Conductor %s: %d writes, %d transactions shared by several (at most %d together)",
                 self.id, db.writes, db.batches, db.largest)
        hosts, self.hosts = list(self.hosts.values()), {}
        for host in hosts:
            await host.stop()
        self.beside.shutdown()
        try:
            await self.db(leases.release, self.id, [host.match_id for host in hosts])
            await self.db(leases.retire, self.id)
        except Exception as exc:  # at interpreter exit the database thread may be gone already
            log.warning("Could not give the leases back (%s); they run out by themselves within %.0f s",
                        exc, leases.LEASE_MS / 1000)
        try:
            await self.db(_close_connections)
        except Exception:  # the process is exiting and took the database thread with it
            log.info("Could not close the database connections; the process exit does")
        finally:
            self._db.shutdown()
