"""`manage.py boxscore CODE`: print a match's box score and statistics."""
from django.core.management.base import BaseCommand, CommandError

from game.archive.boxscore import box_score, format_box_score
from game.models import Match
from game.archive.replay import Replay, load_log


class Command(BaseCommand):
    help = "Print a match's box score: questions, answers, rulings, points, and per-player statistics."

    def add_arguments(self, parser):
        parser.add_argument("code")

    def handle(self, *args, code, **opts):
        match = Match.objects.filter(code=code.upper()).first()
        if match is None:
            raise CommandError(f"There is no match with code {code!r}.")
        replay = Replay(load_log(match))
        if replay.final is None:
            raise CommandError(f"Match {match.code} has no events yet.")
        self.stdout.write(f"Match {match.code}: {match.title}")
        self.stdout.write(format_box_score(box_score(replay.final, replay.frames("spectator"))))
