"""CSV records with the line each starts on, and the header read as lower-case column names."""
from __future__ import annotations

import csv
from typing import Iterable, Iterator

from intake.limits import FIELD, LimitExceeded
from intake.problems import ImportProblem


def records(lines: Iterable[str], name: str = "The file") -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) for each non-empty record; quoted fields may span lines.

    A field over the CSV field limit stops the import at the record it is in.
    """
    csv.field_size_limit(FIELD.value)  # the csv module has one limit for the whole process, not one per reader
    reader = csv.reader(lines)
    start = 1
    while True:
        try:
            cells = next(reader, None)
        except csv.Error as error:
            if "field limit" in str(error):
                raise LimitExceeded(FIELD, f"{name} record starting on line {start:,}") from None
            raise ImportProblem(f"{name} record starting on line {start:,} is not valid CSV ({error}); fix it and import again.") from None
        if cells is None:
            return
        if any(cell.strip() for cell in cells):
            yield start, cells
        start = reader.line_num + 1


def header_names(cells: list[str]) -> list[str]:
    return [cell.strip().lower().replace(" ", "_") for cell in cells]


def as_dict(names: list[str], cells: list[str]) -> dict:
    """A record keyed by column name; extra cells beyond the header go under "_extra"."""
    record = {name: (cells[i].strip() if i < len(cells) else "") for i, name in enumerate(names) if name}
    if len(cells) > len(names):
        record["_extra"] = [cell.strip() for cell in cells[len(names):] if cell.strip()]
    return record


def first_of(record: dict, names: tuple[str, ...]) -> str:
    return next((record[name] for name in names if record.get(name)), "")


def header_and_rows(source, empty_message: str):
    """The first record's cells as column names, the first record itself, and the records after it."""
    rows = records((line for _, line in source.lines()), source.name)
    first = next(rows, None)
    if first is None:
        raise ImportProblem(empty_message)
    return header_names(first[1]), first, rows


def keyed(names: list[str], rows) -> Iterator[tuple[int, dict, None]]:
    """(line, record by column name, no error) for each record, as importers' rows_from wants them."""
    return ((line, as_dict(names, cells), None) for line, cells in rows)
