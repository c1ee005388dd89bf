"""`manage.py conduct`: run a conductor as its own process, for deployments with Redis.

Web processes and bot workers reach the conductors through the shared channel layer on the channel
"conductor". Each live match is written by exactly one conductor, the one holding its lease, so
starting a second one by mistake (or on purpose, for more matches) breaks nothing: it serves the
matches nobody holds and hands everything else to their owners. On SIGTERM or Ctrl-C it stops
cleanly and gives its leases back, so another conductor takes its matches over at once.
"""
import asyncio
import signal
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from game.conductor.core import Conductor
from game.conductor.embedded import SWITCH_INTERVAL_S


class Command(BaseCommand):
    help = "Run a conductor: the clock, rules and event log of the live matches it holds (needs REDIS_URL)."

    def handle(self, *args, **options):
        if not settings.REDIS_URL:
            raise CommandError(
                "The conductor needs a shared channel layer to hear the web processes; set REDIS_URL. "
                "Without REDIS_URL the web process runs the conductor itself, so you need not start one."
            )
        # The database thread gives up the interpreter lock on every statement and must get it back
        # from the event loop: within a millisecond, not CPython's default 5 ms (as the embedded
        # conductor does, game/conductor/embedded.py).
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        asyncio.run(self._run())
        self.stdout.write("Conductor stopped; its matches are free for another conductor.")

    async def _run(self):
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, task.cancel)
        conductor = Conductor()

        def ready():
            self.stdout.write(f"Conductor listening on the channel 'conductor' as {conductor.id}.")
            self.stdout.flush()

        try:
            await conductor.run(ready)
        except asyncio.CancelledError:
            pass
