"""Who hears which event: one group per match, the audiences' frames in each message, and the broadcast itself.

Every event goes to every audience (as "hidden" where it is not theirs), so a gap in seq always
means a lost frame. Each event is projected and encoded once per audience here, and the frames of
one command go out as ONE channel-layer message per match carrying every audience's frames, keyed
by audience (the moderator, each team, the watchers). The members of a match's group are web
processes, not sockets: each process's hub writes each audience's frames to its own sockets of
that audience only (game/fanout.py), so a player's socket never gets the moderator's frame. Only
the conductor sends to them. (One message per audience cost four channel-layer sends per event,
each a handful of Redis round trips, and four wake-ups of every web process.)
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


def team_key(team: str) -> str:
    return audience_key("player", team)


def match_group(code: str) -> str:
    """The group of the web processes with a socket on match `code`, whatever its audience."""
    return f"m-{code}"


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


def frames_message(code: str, team_ids: list[str], events: list[dict]) -> dict:
    """The one channel-layer message that carries the events to every audience of match `code`."""
    return {"type": "hub.frames", "match": code, "audiences": frames_by_audience(events, team_ids)}


async def broadcast(layer, code: str, team_ids: list[str], events: list[dict]) -> None:
    """Send the events' frames, in seq order, to the match's group: one message for all audiences."""
    await layer.group_send(match_group(code), frames_message(code, team_ids, events))
