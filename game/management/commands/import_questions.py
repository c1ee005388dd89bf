"""`manage.py import_questions PATH --slug SLUG`: import a question file into a packet from the shell."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from intake.problems import ImportProblem

from game.importers.file_kinds import CHOICES
from game.importers.run import PROGRESS_EVERY, import_path


class Command(BaseCommand):
    help = ("Import questions (QANTA JSON, qbreader packet JSON, NQ-open JSONL, tossups.csv, CSV, packet JSON or a "
            "Word .docx packet; tossups, bonuses and short questions) into a packet.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to import (.json, .json.gz, .jsonl, .csv, .docx)")
        parser.add_argument("--slug", required=True, help="the packet's slug, e.g. qanta-guessdev")
        parser.add_argument("--title", default="", help="the packet's title (default: from the file)")
        parser.add_argument("--format", default="auto", choices=CHOICES, help="the file's format (default: detect)")
        parser.add_argument("--replace", action="store_true", help="refill an existing packet with this slug")
        parser.add_argument("--progress-every", type=int, default=PROGRESS_EVERY, help="report progress every N lines")

    def handle(self, *args, **options):
        def progress(lines: int, imported: int) -> None:
            self.stdout.write(f"… {lines} lines read, {imported} questions so far")

        try:
            report = import_path(
                options["path"], options["slug"], title=options["title"], fmt=options["format"],
                replace=options["replace"], progress=progress, every=max(1, options["progress_every"]),
            )
        except ImportProblem as problem:
            raise CommandError(f"{problem} Nothing was imported.") from None
        for error in report.errors:
            self.stderr.write(f"line {error.line}: {error.message}")
        if not report.imported:
            raise CommandError(f"Nothing was imported from {options['path']} ({len(report.errors)} broken lines); fix the lines above and try again.")
        skipped = f"; {len(report.errors)} broken lines were skipped (listed above)" if report.errors else ""
        self.stdout.write(self.style.SUCCESS(
            f'Imported {report.imported} questions ({report.by_kind}) as {report.format_label} into packet '
            f'"{report.packet.slug}"{skipped}.'
        ))
