"""Every file a finished match is exported as, by name, from one place: `manage.py export_match` writes
them, and whatever exports many matches (an event) asks here for each one's files."""
from __future__ import annotations

import json

from game.archive.boxscore import box_score
from game.archive.exports import bot_seats, boxscore_csv, buzz_csv, gameplay_csv
from game.archive.match_archive import export_lines
from game.archive.qbj import match_qbj
from game.archive.replay import Replay, load_log


def match_files(match) -> dict[str, str]:
    """file name -> text: CODE.events.jsonl, CODE.gameplay.csv, CODE.boxscore.csv, CODE.qbj, and
    CODE.<seat>.buzz.csv per bot (with every guess: these are the staff's files)."""
    events = load_log(match)
    replay = Replay(events)
    frames = replay.frames("moderator")
    spectator = replay.frames("spectator")
    files = {f"{match.code}.events.jsonl": "".join(export_lines(match, events)),
             f"{match.code}.gameplay.csv": gameplay_csv(replay.final, frames),
             f"{match.code}.boxscore.csv": boxscore_csv(box_score(replay.final, spectator)),
             f"{match.code}.qbj": json.dumps(match_qbj(replay.final, spectator, f"match_{match.code}"),
                                             ensure_ascii=False, indent=1) + "\n"}
    for seat in bot_seats(replay.final):
        files[f"{match.code}.{seat['id']}.buzz.csv"] = buzz_csv(replay.final, frames, seat["id"])
    return files
