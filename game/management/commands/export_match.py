"""`manage.py export_match CODE`: write a match's files: the JSONL event log, the gameplay and box
score CSVs, and one qb-tournament-runner *.buzz.csv per bot (with every guess: this is staff access)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.archive.boxscore import box_score
from game.archive.exports import bot_seats, boxscore_csv, buzz_csv, gameplay_csv
from game.archive.match_archive import export_lines
from game.models import Match
from game.archive.replay import Replay, load_log


class Command(BaseCommand):
    help = "Export a match: CODE.events.jsonl, CODE.gameplay.csv, CODE.boxscore.csv, CODE.<seat>.buzz.csv per bot."

    def add_arguments(self, parser):
        parser.add_argument("code")
        parser.add_argument("-o", "--out", default=".", help="Folder to write the files into (default: here).")

    def handle(self, *args, code, out, **opts):
        match = Match.objects.select_related("packet").filter(code=code.upper()).first()
        if match is None:
            raise CommandError(f"There is no match with code {code!r}.")
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        events = load_log(match)
        replay = Replay(events)
        frames = replay.frames("moderator")
        files = {f"{match.code}.events.jsonl": "".join(export_lines(match, events)),
                 f"{match.code}.gameplay.csv": gameplay_csv(replay.final, frames),
                 f"{match.code}.boxscore.csv": boxscore_csv(box_score(replay.final, replay.frames("spectator")))}
        for seat in bot_seats(replay.final):
            files[f"{match.code}.{seat['id']}.buzz.csv"] = buzz_csv(replay.final, frames, seat["id"])
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
            self.stdout.write(str(folder / name))
