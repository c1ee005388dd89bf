"""An event's own files, beside each match's (export_match): the QBJ Tournament of all its matches and
the event report as one self-contained HTML file. `simulate_event` writes them into its folder and the
host's event page offers them for download."""
from __future__ import annotations

import json

from game.archive.qbj import tournament_qbj
from game.report.match_logs import logs_from_matches
from game.report.page import report_from_logs

from .models import Event

PRELIMINARIES, FINAL = "Preliminaries", "Final"


def played_matches(event: Event) -> list[tuple[str, object]]:
    """(phase, Match) for every match of the event that has started, preliminaries first in team order."""
    out = [(PRELIMINARIES, team.preliminary) for team in event.teams.select_related("preliminary").order_by("id")
           if team.preliminary is not None]
    if event.final_match is not None:
        out.append((FINAL, event.final_match))
    return out


def event_qbj(event: Event) -> str:
    played = played_matches(event)
    return json.dumps(tournament_qbj(event.name, [m for _, m in played], [phase for phase, _ in played]),
                      indent=2, ensure_ascii=False) + "\n"


def event_report_html(event: Event) -> str:
    """The report over every match the event played, with nothing fetched from anywhere."""
    codes = [m.code for _, m in played_matches(event)]
    return report_from_logs(logs_from_matches(codes), f"{event.name}: event report", inline=True)


def event_files(event: Event) -> dict[str, str]:
    return {"event.qbj": event_qbj(event), "report.html": event_report_html(event)}
