"""qb-tournament-runner's tossups.csv (question_id, text, answer, ...) into tossups.

Required columns: an id (question_id or qid), the text (text or question) and the answer. A page
column becomes the accepted answer as in QANTA; category columns are kept; any other column goes
into the source so nothing the file carried is lost.
"""
from __future__ import annotations

from intake.csv_rows import first_of, header_and_rows, keyed
from intake.problems import ImportProblem

from game.importers.parsed_rows import Parsed, rows_from

ID_COLUMNS = ("question_id", "qid", "id", "qanta_id")
TEXT_COLUMNS = ("text", "question")
ANSWER_COLUMNS = ("answer", "answer_line")
OWN_COLUMNS = set(ID_COLUMNS + TEXT_COLUMNS + ANSWER_COLUMNS + ("category", "subcategory", "_extra"))


def has_tossup_header(names: list[str]) -> bool:
    return any(n in ID_COLUMNS for n in names) and any(n in TEXT_COLUMNS for n in names) and any(n in ANSWER_COLUMNS for n in names)


def to_question(record: dict) -> dict:
    page = record.get("page", "")
    source = {"question_id": first_of(record, ID_COLUMNS)}
    source.update({name: value for name, value in record.items() if name not in OWN_COLUMNS and value})
    return {
        "kind": "tossup",
        "text": first_of(record, TEXT_COLUMNS),
        "answer": first_of(record, ANSWER_COLUMNS),
        "accepted": [page.replace("_", " ")] if page else [],
        "category": record.get("category", ""),
        "subcategory": record.get("subcategory", ""),
        "source": source,
    }


def parse(source) -> Parsed:
    names, _, rows = header_and_rows(source, "The CSV file is empty; export the tossups again and upload that file.")
    if not has_tossup_header(names):
        raise ImportProblem(
            "A tossups.csv needs a header with question_id (or qid), text (or question) and answer columns; "
            f"this one has {', '.join(names) or 'none'}. Add the header, or import it as a plain CSV."
        )
    return Parsed(rows_from(keyed(names, rows), to_question), {"source": "tossups.csv"})
