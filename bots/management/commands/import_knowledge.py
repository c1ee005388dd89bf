"""`python manage.py import_knowledge SOURCE [--out FILE]`: Wikipedia (or any wiki) as bot knowledge.

SOURCE is a Kiwix ZIM file, a MediaWiki XML dump (plain or .bz2, read as a stream), or JSON lines of
{"title", "text"}. The output is JSON lines of {"title", "text"} passages that `build_bot` builds any
built-in bot from: the lead section of each article (--keep lead, the default, optionally cut at
--words words), or the whole article in passages of --words words (--keep passages, 100 by default).
Run the same command again after an interruption and it resumes where it stopped.
"""
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from intake.problems import ImportProblem

from bots.importing.articles import ArticleError
from bots.importing.importer import KnowledgeImportError, import_knowledge


class Command(BaseCommand):
    help = "Import a Kiwix ZIM file, a MediaWiki XML dump or JSON lines as passages bots can be built from."

    def add_arguments(self, parser):
        parser.add_argument("source", help="A .zim file, a MediaWiki dump (.xml or .xml.bz2) or a .jsonl file.")
        parser.add_argument("--out", help="The passages file to write (default var/knowledge/<source name>.jsonl).")
        parser.add_argument("--keep", choices=["lead", "passages"], default="lead",
                            help="lead: each article's lead section; passages: the whole text in --words pieces.")
        parser.add_argument("--words", type=int, help="Passage length in words (default: 100 for passages, "
                                                      "the whole lead for lead).")
        parser.add_argument("--limit", type=int, help="Stop after this many articles (to size a bot for a tier).")
        parser.add_argument("--restart", action="store_true", help="Start over instead of resuming.")

    def handle(self, *args, source, out, keep, words, limit, restart, **options):
        source = Path(source)
        stem = source.name.split(".")[0] or "knowledge"
        out = Path(out) if out else Path(settings.BASE_DIR) / "var" / "knowledge" / f"{stem}.jsonl"
        words = words if words is not None else (100 if keep == "passages" else 0)
        if words < 0 or (limit is not None and limit < 1):
            raise CommandError("--words must be 0 or more and --limit 1 or more.")

        def report(message):
            self.stdout.write(message)
            self.stdout.flush()

        try:
            state = import_knowledge(source, out, keep=keep, words=words, limit=limit, restart=restart, report=report)
        except (KnowledgeImportError, ArticleError) as error:
            raise CommandError(str(error)) from None
        except ImportProblem as error:  # the source unpacks too far, or cannot be unpacked
            raise CommandError(f"{error} The import stopped; what it wrote before is kept.") from None
        report(f"wrote {out} ({state.passages:,} passages from {state.articles:,} articles; "
               f"{state.errors:,} articles could not be read)")
