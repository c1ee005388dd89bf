"""`manage.py import_match FILE`: load a match archive (JSONL from export_match) into this installation.

The whole file is checked and folded first; a broken archive is refused with its line number and
nothing is stored."""
from django.core.management.base import BaseCommand, CommandError

from game.match_archive import ArchiveError, import_archive


class Command(BaseCommand):
    help = "Import a match archive (CODE.events.jsonl); it replays here as it did where it was played."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **opts):
        try:
            with open(file, "rb") as handle:
                match = import_archive(handle)
        except OSError as err:
            raise CommandError(f"Cannot read {file}: {err.strerror}.") from None
        except ArchiveError as err:
            raise CommandError(f"{file}: {err} Nothing was imported.") from None
        self.stdout.write(f"Imported {match.title!r} as match {match.code} ({match.events.count()} events); "
                          f"replay it at /m/{match.code}/replay")
