"""Replay of precomputed responses: a system that was run offline plays a match from its buzz file.

The file is qb-tournament-runner's *.buzz.csv form, one row per (question, position):
    question_id, token_position, guess, confidence, buzz
token_position is read as the number of words revealed when the response was computed, so a row
answers every query whose word_index is at least its position, until the next row takes over.
buzz is true/false (or 1/0). The server tells the bot privately which question is being played
(private.question_id); nothing in the Query identifies it.

Settings: path (a CSV file to read directly) or, once built, the copy in the bot's artefact dir.
"""
from __future__ import annotations

import bisect
import copy
import shutil
from collections import defaultdict
from pathlib import Path

from intake.csv_cells import from_text_cell
from intake.csv_rows import as_dict, header_and_rows
from intake.limits import ANSWER, check_length
from intake.problems import ImportProblem
from intake.source import Source

from bots.artefacts import read_meta
from bots.base_bot import BaseBot
from bots.errors import BotError
from bots.protocol import Act, Query

COLUMNS = ("question_id", "token_position", "guess", "confidence", "buzz")
FILE = "responses.csv"
TRUE = {"true", "1", "yes", "t"}
FALSE = {"false", "0", "no", "f", ""}


def read_responses(path) -> dict[str, list[tuple[int, str, float, bool]]]:
    """question_id -> rows (position, guess, confidence, buzz) sorted by position.

    Read within the import limits (file size, line, CSV field, a guess as long as an answer may be):
    a file over one is refused with the limit and the line, as an import is."""
    path = Path(path)
    by_question: dict[str, list] = defaultdict(list)
    try:
        with open(path, "rb") as packed:
            source = Source(packed, str(path), path.stat().st_size)
            names, _, rows = header_and_rows(source, f"{path} is empty; it needs the columns {', '.join(COLUMNS)}.")
            missing = [c for c in COLUMNS if c not in names]
            if missing:
                raise BotError(f"{path} lacks the column(s) {', '.join(missing)}; it needs {', '.join(COLUMNS)}.")
            for line, cells in rows:
                row = as_dict(names, cells)
                guess = from_text_cell(row["guess"])  # as game/archive/exports.py writes a guess that looks like a formula
                check_length(ANSWER, guess, f"{path} line {line:,}")
                by_question[row["question_id"]].append((line, row["token_position"], guess, row["confidence"],
                                                        row["buzz"]))
    except ImportProblem as problem:
        raise BotError(str(problem)) from None
    return {qid: sorted((_response(path, *row) for row in found), key=lambda r: r[0])
            for qid, found in by_question.items()}


def _response(path, line: int, position: str, guess: str, confidence: str, buzz: str) -> tuple[int, str, float, bool]:
    flag = buzz.lower()
    try:
        if flag not in TRUE | FALSE:
            raise ValueError(f"buzz {buzz!r} is not true or false")
        return int(position), guess, float(confidence), flag in TRUE
    except ValueError as error:
        raise BotError(f"{path} line {line} cannot be read: {error}.") from None


class ReplayBot(BaseBot):
    kind = "replay_csv"
    default_tier = "500mib"

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        if self.config.get("path"):
            path = Path(self.config["path"])
        else:
            read_meta(self.artefact_dir, self.kind)
            path = self.artefact_dir / FILE
        self.responses = read_responses(path)
        self.rows: list | None = None

    @classmethod
    def build(cls, data_path, out_dir, config: dict, progress, questions=None) -> dict:
        responses = read_responses(data_path)
        shutil.copyfile(data_path, Path(out_dir) / FILE)
        rows = sum(len(r) for r in responses.values())
        progress(f"read {rows:,} responses to {len(responses):,} questions from {data_path}")
        return {"questions": len(responses), "responses": rows}

    def with_private(self, private: dict) -> ReplayBot:
        qid = (private or {}).get("question_id")
        if qid is None:
            raise BotError("A replay bot must be told which question is played (private.question_id).")
        if str(qid) not in self.responses:
            raise BotError(f"The replay file of {self.name} has no responses for question {qid}.")
        bound = copy.copy(self)
        bound.rows = self.responses[str(qid)]
        return bound

    def act(self, query: Query) -> Act:
        if self.rows is None:
            raise BotError("This replay bot was not told which question is played (private.question_id).")
        positions = [r[0] for r in self.rows]
        at = bisect.bisect_right(positions, query.word_index) - 1
        if at < 0:
            return Act(guess="", confidence=0.0)
        _, guess, confidence, buzz = self.rows[at]
        return Act(guess=guess, confidence=confidence, buzz=buzz, alternatives=[(guess, confidence)])
