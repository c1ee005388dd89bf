"""Who hears which event: one group per audience of a match, and the broadcast itself.

Every event goes to every audience (as "hidden" where it is not theirs), so a gap in seq always
means a lost frame. Each event is projected and encoded once per audience here, and the frames of
one command go out as one message per audience; the members of each group are web processes,
which write the frames to their own sockets (game/fanout.py). Only the conductor sends to them.
"""
from __future__ import annotations

import json

from game.engine.api import project

CONDUCTOR_CHANNEL = "conductor"  # shared by every conductor, so any web process can reach one
MODERATOR, SPECTATOR = "moderator", "spectator"


def audience_key(audience: str, team: str | None = None) -> str:
    """The audience a socket hears: the moderator, the big screen (and any watcher), or one team."""
    if audience == "moderator":
        return MODERATOR
    if audience == "player":
        return f"team-{team}"
    return SPECTATOR


def group_for(code: str, key: str) -> str:
    return f"m-{code}-{key}"


def moderator_group(code: str) -> str:
    return group_for(code, MODERATOR)


def spectator_group(code: str) -> str:
    return group_for(code, SPECTATOR)


def team_group(code: str, team: str) -> str:
    return group_for(code, audience_key("player", team))


def encode(frame: dict) -> str:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def frames_by_audience(events: list[dict], team_ids: list[str]) -> dict[str, list]:
    """key -> [[seq, frame text], ...]: each event projected and encoded once for each audience.

    The moderator and the teams come first and the watchers last: a web process writes each
    audience's frames in the order they come, and a player about to buzz should not wait behind a
    thousand watchers' copies."""
    out = {MODERATOR: [], **{audience_key("player", t): [] for t in team_ids}, SPECTATOR: []}
    for event in events:
        out[MODERATOR].append([event["seq"], encode(project(event, "moderator"))])
        out[SPECTATOR].append([event["seq"], encode(project(event, "spectator"))])
        for team in team_ids:
            out[audience_key("player", team)].append([event["seq"], encode(project(event, "player", team))])
    return out


async def broadcast(layer, code: str, team_ids: list[str], events: list[dict]) -> None:
    """Send the events' frames to each audience's group, one message per audience, in seq order."""
    for key, frames in frames_by_audience(events, team_ids).items():
        await layer.group_send(group_for(code, key), {"type": "hub.frames", "match": code, "key": key,
                                                      "frames": frames})
