"""`manage.py import_match FILE`: load a match archive (JSONL from export_match) into this installation.

The whole file is checked and folded first; a broken archive, or one over an import limit (a line's
length, its JSON nesting, a question's size), is refused with its line number and nothing is stored."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from intake.limits import RECORD
from intake.problems import ImportProblem
from intake.streams import lines, unpacked

from game.archive.match_archive import ArchiveError, import_archive


class Command(BaseCommand):
    help = "Import a match archive (CODE.events.jsonl); it replays here as it did where it was played."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **opts):
        try:
            with open(file, "rb") as handle:
                match = import_archive(lines(unpacked(handle, Path(file).name, ratio=True), RECORD))
        except OSError as err:
            raise CommandError(f"Cannot read {file}: {err.strerror}.") from None
        except ArchiveError as err:
            raise CommandError(f"{file}: {err} Nothing was imported.") from None
        except ImportProblem as err:  # the file cannot be unpacked, or unpacks too far
            raise CommandError(f"{err} Nothing was imported.") from None
        self.stdout.write(f"Imported {match.title!r} as match {match.code} ({match.events.count()} events); "
                          f"replay it at /m/{match.code}/replay")
