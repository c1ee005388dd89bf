"""`manage.py conductors`: which conductors are running, on which host, and how many matches each holds.

With --check it is a health check for a conductor's container (docker-compose.yml): it succeeds
only if a conductor on this host said it was alive within a lease's length, and says why not
otherwise. Conductors say so each time they renew their leases (every 2 s), so a conductor whose
event loop is stuck, or that cannot reach the database, fails the check within seconds.
"""
import socket

from django.core.management.base import BaseCommand, CommandError

from game.leases import LEASE_MS
from game.models import ConductorPresence
from game.event_log import now_ms


class Command(BaseCommand):
    help = "List the running conductors and the matches each holds; --check: is one alive on this host?"

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="exit 1 unless a conductor on this host renewed its leases within a lease's length")

    def handle(self, *args, check=False, **options):
        now = now_ms()
        rows = list(ConductorPresence.objects.order_by("host", "owner"))
        if check:
            here = socket.gethostname()
            mine = [r for r in rows if r.host.split(" pid ")[0] == here]
            fresh = [r for r in mine if r.seen_ms >= now - LEASE_MS]
            if not fresh:
                last = max((r.seen_ms for r in mine), default=None)
                since = f"last heard of {(now - last) / 1000:.0f} s ago" if last else "never heard of"
                raise CommandError(f"No conductor on {here} is alive ({since}); see its log, or start "
                                   "`manage.py conduct`.")
            r = fresh[0]
            layer = "reaches Redis" if r.layer_ok else "cannot reach Redis"
            self.stdout.write(f"Conductor {r.owner} on {r.host} is alive: {r.matches} matches, {layer}.")
            return
        if not rows:
            self.stdout.write("No conductor has said it is running (the embedded default's conductor does not).")
            return
        for r in rows:
            age = (now - r.seen_ms) / 1000
            state = "alive" if r.seen_ms >= now - LEASE_MS else f"gone ({age:.0f} s silent)"
            layer = "" if r.layer_ok else ", cannot reach Redis"
            self.stdout.write(f"{r.owner}  {r.host}  {r.matches} matches  {state}{layer}")
