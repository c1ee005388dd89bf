"""`manage.py export_match CODE`: write a match's files (game.archive.match_files): the JSONL event log, the
gameplay and box score CSVs, the QBJ results file, and one qb-tournament-runner *.buzz.csv per bot
(with every guess: this is staff access)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.archive.match_files import match_files
from game.models import Match


class Command(BaseCommand):
    help = "Export a match: CODE.events.jsonl, CODE.gameplay.csv, CODE.boxscore.csv, CODE.qbj, CODE.<seat>.buzz.csv per bot."

    def add_arguments(self, parser):
        parser.add_argument("code")
        parser.add_argument("-o", "--out", default=".", help="Folder to write the files into (default: here).")

    def handle(self, *args, code, out, **opts):
        match = Match.objects.select_related("packet").filter(code=code.upper()).first()
        if match is None:
            raise CommandError(f"There is no match with code {code!r}.")
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in match_files(match).items():
            (folder / name).write_text(text, encoding="utf-8")
            self.stdout.write(str(folder / name))
