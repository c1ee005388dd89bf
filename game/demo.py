"""The demo content that `make demo` and `simulate --packet demo` need, loaded once, and the demo match's rules."""
from __future__ import annotations

from pathlib import Path

from game.importers.run import import_path
from game.models import Packet

DEMO_PACKET = Path(__file__).resolve().parent / "fixtures" / "demo_packet.json"
# Tossup-bonus quizbowl's demo: 8 tossups with power marks, then 8 three-part bonuses.
DEMO_BONUS_PACKET = Path(__file__).resolve().parent / "fixtures" / "demo_bonus_packet.json"

# The demo match's rules beside the format's. Its questions are short (ten words, three seconds at 200
# words a minute) and the 500 MiB demo bot decides at word 3 to 6, so with the format's 0.3 s bot delay
# nobody who reads a question before buzzing ever beat it to one it knew. With 1.2 s (about a person's
# time from knowing to pressing) a person who knows the answer halfway through wins phase 1 on about
# nine questions in ten, and the bot still takes the ones people know later or not at all. Measured with
# `manage.py simulate --bot 500mib=demo-qa-pairs --demo-rules --humans-buzz-at 0.5 --questions 30`
# (seeds 1-3: 91% of phase 1 to the humans; 74% with the format's delay).
DEMO_RULES = {"bot_reaction_ms": 1200}
# The tossup-bonus demo plays six of the demo bonus packet's eight tossups, so a tie has two tiebreakers left.
BONUS_DEMO_RULES = {"questions": 6, "tiebreakers": 2}


def ensure_demo_packet() -> Packet:
    return ensure_packet(DEMO_PACKET, "demo")


def ensure_demo_bonus_packet() -> Packet:
    return ensure_packet(DEMO_BONUS_PACKET, "demo-bonus")


def ensure_packet(path: Path, slug: str) -> Packet:
    """The packet `slug`, imported from the packet JSON at `path` the first time it is asked for."""
    packet = Packet.objects.filter(slug=slug).first()
    if packet is not None and packet.questions.exists():
        return packet
    report = import_path(path, slug, replace=packet is not None)
    if report.errors:
        raise RuntimeError(f"The packet {path.name} has broken lines: {report.errors}")
    return report.packet
