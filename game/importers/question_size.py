"""A question's text, answer (a bonus's: each part's) and whole size, checked against the limits before it is saved.

The moderator's console receives every question of a match in its first frame, and a socket may
hold 1 MiB; one 8 MB question made a match that no moderator could open.
"""
from __future__ import annotations

import json

from intake.limits import ANSWER, QUESTION, TEXT, LimitExceeded, check_length


def check_question_size(question: dict, where: str) -> None:
    """LimitExceeded, naming `where`, when the question's text, answer or JSON is over its limit."""
    check_length(TEXT, question.get("text"), where)
    check_length(ANSWER, question.get("answer"), where)
    for number, part in enumerate(question.get("parts") or (), 1):
        check_length(TEXT, part["text"], f"{where}, part {number}")
        check_length(ANSWER, part["answer"], f"{where}, part {number}")
    size = len(json.dumps(question))  # as the socket sends it: ASCII, other letters escaped
    if size > QUESTION.value:
        raise LimitExceeded(QUESTION, where, f"{size:,} bytes as JSON")
