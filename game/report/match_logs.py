"""The match logs an event report is made from: the exported files in a folder, or stored matches.

Either way each log is what `export_match` writes (its header's match object and its events), so the
page, the file and `manage.py event_report` compute the same figures from the same input. A folder's
files are read within the import limits and checked whole by the archive reader before any figure
is computed; a bad file is named with its line and nothing is reported.
"""
from __future__ import annotations

import re
from pathlib import Path

from intake.limits import RECORD, Limit
from intake.problems import ImportProblem
from intake.streams import lines, unpacked

from game.archive.match_archive import ArchiveError, header, read_archive
from game.models import Match
from game.archive.replay import load_log

MATCHES = Limit("number of matches in a report", "matches", "EXHIBITION_REPORT_MAX_MATCHES")
SUFFIX = ".events.jsonl"
CODE = re.compile(r"^[A-Z0-9_-]{1,12}$")


class ReportInputError(Exception):
    """Logs a report cannot be made from; the message says which and what to do."""


def _order(log: tuple[dict, list[dict]]):
    """Matches in the order they were played (their first event's time), then by code."""
    head, events = log
    return (events[0]["t"] if events else 0, head.get("code", ""))


def logs_from_folder(folder: Path) -> list[tuple[dict, list[dict]]]:
    """Every CODE.events.jsonl in `folder` (gzip, bz2 or xz too), checked, in the order they were played."""
    if not folder.is_dir():
        raise ReportInputError(f"{folder} is not a folder; give the folder export_match wrote the logs into.")
    files = sorted(p for p in folder.iterdir() if p.is_file() and SUFFIX in p.name)
    if not files:
        raise ReportInputError(f"{folder} holds no *{SUFFIX} file; export the matches with "
                               f"`manage.py export_match CODE -o {folder}` first.")
    if len(files) > MATCHES.value:
        raise ReportInputError(f"{folder}: {MATCHES.over(f'{len(files):,} matches')}.")
    logs = []
    for path in files:
        try:
            with open(path, "rb") as handle:
                archive = read_archive(lines(unpacked(handle, path.name, ratio=True), RECORD))
        except OSError as err:
            raise ReportInputError(f"Cannot read {path}: {err.strerror}.") from None
        except (ArchiveError, ImportProblem) as err:
            raise ReportInputError(f"{path.name}: {err}") from None
        logs.append((archive.header["match"], archive.events))
    return sorted(logs, key=_order)


def codes_from_text(text: str) -> list[str]:
    """Match codes typed or passed in a URL (comma or space separated), checked for shape and number."""
    codes = list(dict.fromkeys(c.upper() for c in re.split(r"[\s,]+", text or "") if c))
    if len(codes) > MATCHES.value:
        raise ReportInputError(f"The report {MATCHES.over(f'{len(codes):,} matches')}.")
    bad = [c for c in codes if not CODE.match(c)]
    if bad:
        raise ReportInputError(f"{bad[0][:20]!r} is not a match code (up to 12 letters and digits).")
    return codes


def logs_from_matches(codes: list[str]) -> list[tuple[dict, list[dict]]]:
    """The stored logs of these matches, as `export_match` would write them, in the order played."""
    found = {m.code: m for m in Match.objects.select_related("packet").filter(code__in=codes)}
    missing = [c for c in codes if c not in found]
    if missing:
        raise ReportInputError(f"There is no match with code {', '.join(missing)}.")
    logs = []
    for code in codes:
        events = load_log(found[code])
        if not events:
            raise ReportInputError(f"Match {code} has no events yet.")
        logs.append((header(found[code], events)["match"], events))
    return sorted(logs, key=_order)
