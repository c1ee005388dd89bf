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
import csv
import shutil
from collections import defaultdict
from pathlib import Path

from bots.artefacts import read_meta
from bots.base import BaseBot
from bots.errors import BotError
from bots.protocol import Act, Query

COLUMNS = ("question_id", "token_position", "guess", "confidence", "buzz")
FILE = "responses.csv"
TRUE = {"true", "1", "yes", "t"}
FALSE = {"false", "0", "no", "f", ""}


def read_responses(path) -> dict[str, list[tuple[int, str, float, bool]]]:
    """question_id -> rows (position, guess, confidence, buzz) sorted by position."""
    by_question: dict[str, list] = defaultdict(list)
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, skipinitialspace=True)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise BotError(f"{path} lacks the column(s) {', '.join(missing)}; it needs {', '.join(COLUMNS)}.")
        for line, row in enumerate(reader, 2):
            buzz = row["buzz"].strip().lower()
            try:
                if buzz not in TRUE | FALSE:
                    raise ValueError(f"buzz {row['buzz']!r} is not true or false")
                by_question[row["question_id"].strip()].append(
                    (int(row["token_position"]), row["guess"], float(row["confidence"]), buzz in TRUE)
                )
            except ValueError as error:
                raise BotError(f"{path} line {line} cannot be read: {error}.") from None
    return {qid: sorted(rows, key=lambda r: r[0]) for qid, rows in by_question.items()}


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
