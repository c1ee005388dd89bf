"""`manage.py event_report --logs DIR -o report.html`: the event report of every match log exported into
DIR (by `export_match CODE -o DIR`), as one self-contained HTML file that opens offline."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.report.match_logs import ReportInputError, logs_from_folder
from game.report.page import report_from_logs


class Command(BaseCommand):
    help = "Build the event report (points and margin by phase, accuracy, each bot's EW) from a folder of match logs."

    def add_arguments(self, parser):
        parser.add_argument("--logs", required=True, help="The folder holding the matches' CODE.events.jsonl files.")
        parser.add_argument("-o", "--out", default="report.html", help="The HTML file to write (default: report.html).")
        parser.add_argument("--title", default="Event report", help="The report's title (default: Event report).")

    def handle(self, *args, logs, out, title, **opts):
        try:
            found = logs_from_folder(Path(logs))
        except ReportInputError as err:
            raise CommandError(f"{err} No report was written.") from None
        html = report_from_logs(found, title[:200], inline=True)
        Path(out).write_text(html, encoding="utf-8")
        self.stdout.write(f"{out}: the report of {len(found)} match{'es' if len(found) != 1 else ''} "
                          f"({', '.join(head.get('code', '?') for head, _ in found)}).")
