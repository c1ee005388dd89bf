"""`manage.py import_passages PATH --corpus NAME`: load a JSONL passage corpus for phase-3 search snippets.

A corpus may be gigabytes, so it is read as a stream: each line within the record limit, a packed
file within the unpacking ratio; over either, nothing is imported.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from intake.json_items import json_lines
from intake.limits import RECORD
from intake.problems import ImportProblem
from intake.streams import text_lines, unpacked

from game.models import SnippetPassage

BATCH = 1000
SHOWN_ERRORS = 100  # a broken corpus of millions of lines names its first ones, and counts the rest


def passage_fields(record) -> tuple[dict | None, str | None]:
    if not isinstance(record, dict):
        return None, 'This line is not an object; write {"title": ..., "text": ...}.'
    title, text = str(record.get("title") or "").strip(), str(record.get("text") or "").strip()
    if not text:
        return None, 'The passage has no "text"; fill it in or remove the line.'
    return {"title": title[:300], "text": text}, None


class Command(BaseCommand):
    help = 'Import passages ({"title", "text"} a line, .jsonl or .jsonl.gz) into a snippet corpus.'

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--corpus", required=True, help="the corpus name, e.g. wiki-2018")
        parser.add_argument("--replace", action="store_true", help="delete the corpus's passages first")
        parser.add_argument("--progress-every", type=int, default=10000, help="report progress every N lines")

    def handle(self, *args, **options):
        path, corpus = Path(options["path"]), options["corpus"].strip()
        if not path.is_file():
            raise CommandError(f"There is no file at {path}; check the path and try again.")
        if not corpus:
            raise CommandError("Give the corpus a name with --corpus, e.g. --corpus wiki.")
        try:
            with open(path, "rb") as packed:
                imported, errors, broken = self.import_lines(unpacked(packed, path.name, ratio=True), path.name, corpus, options)
        except ImportProblem as problem:
            raise CommandError(f"{problem} Nothing was imported.") from None
        for line, error in errors:
            self.stderr.write(f"line {line}: {error}")
        if broken > len(errors):
            self.stderr.write(f"… and {broken - len(errors):,} more broken lines")
        if not imported:
            raise CommandError(f"No passage was imported from {path}; fix the lines above and try again.")
        self.stdout.write(self.style.SUCCESS(f'Imported {imported} passages into corpus "{corpus}".'))

    def import_lines(self, stream, name: str, corpus: str, options) -> tuple[int, list, int]:
        """(passages imported, (line, error) of the first lines skipped, how many were skipped), all or nothing."""
        imported, errors, broken, batch = 0, [], 0, []
        every = max(1, options["progress_every"])
        with transaction.atomic():
            if options["replace"]:
                SnippetPassage.objects.filter(corpus=corpus).delete()
            for count, (line, record, error) in enumerate(json_lines(text_lines(stream, RECORD, name), name), 1):
                fields, error = (None, error) if error else passage_fields(record)
                if error:
                    broken += 1
                    if len(errors) < SHOWN_ERRORS:
                        errors.append((line, error))
                else:
                    batch.append(SnippetPassage(corpus=corpus, **fields))
                if len(batch) >= BATCH:
                    imported += len(SnippetPassage.objects.bulk_create(batch))
                    batch = []
                if count % every == 0:
                    self.stdout.write(f"… {count} lines read, {imported + len(batch)} passages so far")
            imported += len(SnippetPassage.objects.bulk_create(batch))
        return imported, errors, broken
