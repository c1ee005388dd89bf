"""A bot seat's weight class (QANTA 2026: lightweight, midweight, heavyweight), which its points under the
qanta26 rules depend on (game/engine/ai_points.py).

A seat may name its class (the host sets it per bot); one that does not has its tier's: the 500mib tier is
lightweight, 6gib midweight, unlimited (and a bot with no tier, which nothing limits) heavyweight. Plain data.
"""
from __future__ import annotations

WEIGHT_CLASSES = ("lightweight", "midweight", "heavyweight")
TIER_CLASSES = {"500mib": "lightweight", "6gib": "midweight", "unlimited": "heavyweight", None: "heavyweight"}


def class_of(seat: dict) -> str:
    """The weight class a bot seat plays in: its own, or its tier's."""
    return seat.get("weight_class") or TIER_CLASSES[seat["tier"]]
