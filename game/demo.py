"""The demo content that `make demo` and `simulate --packet demo` need, loaded once."""
from __future__ import annotations

from pathlib import Path

from game.importers.run import import_path
from game.models import Packet

DEMO_PACKET = Path(__file__).resolve().parent / "fixtures" / "demo_packet.json"


def ensure_demo_packet() -> Packet:
    packet = Packet.objects.filter(slug="demo").first()
    if packet is not None and packet.questions.exists():
        return packet
    report = import_path(DEMO_PACKET, "demo", replace=packet is not None)
    if report.errors:
        raise RuntimeError(f"The demo packet has broken lines: {report.errors}")
    return report.packet
