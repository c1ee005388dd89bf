"""CSV cells a spreadsheet opens as text: the exports write them (game/archive/exports.py), and the
readers of our own exports (a replay bot's *.buzz.csv) read them back as typed."""

# A cell a spreadsheet would run as a formula (=HYPERLINK(...), +cmd, -2+3, @SUM): names, answers and
# guesses are typed by people and bots, so such a cell is written with a leading apostrophe, which
# spreadsheets read as "this is text" and do not show.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text_cell(value):
    """The value as a CSV cell a spreadsheet opens as text; numbers stay numbers."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def from_text_cell(cell: str) -> str:
    """A cell as as_text_cell wrote it, back to what was typed (for readers of our own exports)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell
