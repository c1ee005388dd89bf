"""Every limit an import checks before it does the work, in one place, each one a setting away.

Question files come from hosts and from the internet: a 1 MB gzip can unpack to gigabytes, a JSON
document can nest deeper than the parser's stack, one line can hold 50 MB, one question can be
larger than the moderator's socket may carry. Each limit is checked before the work it protects
(unpacking, parsing, saving), and going over one stops the import with a sentence naming the limit,
the place in the file and the setting that moves it. Each setting is an environment variable of
the same name, whose default serving/environment.py declares.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from intake.problems import ImportProblem
from serving import environment

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


@dataclass(frozen=True)
class Limit:
    name: str  # what is limited, as a person reads it in the message
    unit: str  # "bytes" print as KiB/MiB; any other unit follows the number
    setting: str  # the Django setting and environment variable (every one is defined: no fallback here)

    @property
    def value(self) -> int:
        return int(getattr(settings, self.setting))

    @property
    def default(self) -> int:
        """The value when the environment does not set it."""
        return environment.VARIABLES[self.setting].default

    def __str__(self) -> str:
        value = self.value
        if self.unit == "bytes":
            for size, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
                if value >= size and value % size == 0:
                    return f"{value // size:,} {name}"
        return f"{value:,} {self.unit}"

    def over(self, found: str = "") -> str:
        """What went over this limit, by how much when known, and the setting that moves it."""
        over = f"is {found}, over" if found else "goes over"
        return f"the {self.name} {over} the limit of {self} (setting {self.setting})"


# The file as it arrives (the web upload, or the path given to a command), compressed or not.
FILE = Limit("file size", "bytes", "EXHIBITION_IMPORT_MAX_FILE_BYTES")
# A question file once gunzipped (or bunzipped, or unxz'd): the parsers hold this much text at once.
UNPACKED = Limit("unpacked size", "bytes", "EXHIBITION_IMPORT_MAX_UNPACKED_BYTES")
# Streams with no total cap (passage corpora, Wikipedia dumps): unpacked bytes per packed byte read.
RATIO = Limit("unpacking ratio", "to 1", "EXHIBITION_IMPORT_MAX_UNPACKING_RATIO")
RATIO_FREE_BYTES = 1 * MIB  # a small file may pack tighter than any real dump; the ratio counts after this
DEPTH = Limit("JSON nesting depth", "levels", "EXHIBITION_IMPORT_MAX_JSON_DEPTH")
# One line of a question file (JSONL, CSV), or one entry of a JSON list: a question and its extras.
LINE = Limit("line or entry length", "bytes", "EXHIBITION_IMPORT_MAX_LINE_BYTES")
# One record of a stream: a passage line, an article, a match-archive line (match_created carries every question).
RECORD = Limit("record length", "bytes", "EXHIBITION_IMPORT_MAX_RECORD_BYTES")
# csv keeps one field limit for the whole process; this default is its own, so other readers see no change.
FIELD = Limit("CSV field length", "characters", "EXHIBITION_IMPORT_MAX_CSV_FIELD_CHARS")
TEXT = Limit("question text length", "characters", "EXHIBITION_IMPORT_MAX_TEXT_CHARS")
ANSWER = Limit("answer length", "characters", "EXHIBITION_IMPORT_MAX_ANSWER_CHARS")
# The question as JSON, as the moderator's socket receives it (a socket may hold 1 MiB); real ones reach 1.7 KiB.
QUESTION = Limit("question size", "bytes", "EXHIBITION_IMPORT_MAX_QUESTION_BYTES")
QUESTIONS = Limit("number of questions", "questions", "EXHIBITION_IMPORT_MAX_QUESTIONS")
# A .docx packet is a zip: its directory is read from the file's last bytes and every member's size is
# checked before anything is unpacked, and the members' total is held to UNPACKED. A real packet has
# about 20 members and 200 paragraphs; Word documents nest a few levels deep (body, table, row, cell, paragraph, run).
DOCX_MEMBERS = Limit("number of files inside the .docx", "files", "EXHIBITION_IMPORT_MAX_DOCX_MEMBERS")
DOCX_MEMBER = Limit("unpacked size of one file inside the .docx", "bytes", "EXHIBITION_IMPORT_MAX_DOCX_MEMBER_BYTES")
DOCX_DEPTH = Limit("XML nesting depth of the .docx", "levels", "EXHIBITION_IMPORT_MAX_DOCX_DEPTH")
DOCX_PARAGRAPHS = Limit("number of paragraphs", "paragraphs", "EXHIBITION_IMPORT_MAX_DOCX_PARAGRAPHS")

# A bot's data file (build_bot --data, --questions): held in memory while the bot is built, so no larger
# than the largest tier's memory budget (6gib: 8 GiB); the file as given, and what it unpacks to.
BOT_DATA = Limit("bot data size", "bytes", "EXHIBITION_IMPORT_MAX_BOT_DATA_BYTES")
# A QANTA JSON document of training questions is held whole while parsed (JSON lines are read a line
# at a time): about 38,000 questions of QANTA's 1.7 KiB.
BOT_DOCUMENT = Limit("JSON document size", "bytes", "EXHIBITION_IMPORT_MAX_BOT_DOCUMENT_BYTES")
# QANTA's whole set is about 120,000 questions, NQ-open's training set about 88,000 pairs.
TRAINING = Limit("number of training questions", "questions", "EXHIBITION_IMPORT_MAX_TRAINING_QUESTIONS")
# English Wikipedia has about 7 million articles: a lead each.
PASSAGES = Limit("number of passages", "passages", "EXHIBITION_IMPORT_MAX_PASSAGES")


class LimitExceeded(ImportProblem):
    """An input over one of the limits; the message says which, where, and the setting that moves it."""

    def __init__(self, limit: Limit, where: str, found: str = ""):
        self.limit, self.where = limit, where
        super().__init__(f"{where}: {limit.over(found)}.")


def check_length(limit: Limit, value, where: str) -> None:
    """LimitExceeded, naming `where`, when the string `value` has more characters than `limit`."""
    if isinstance(value, str) and len(value) > limit.value:
        raise LimitExceeded(limit, where, f"{len(value):,} characters")
