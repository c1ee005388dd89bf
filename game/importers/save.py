"""Write imported questions into a Packet, all or nothing, numbered 1..N."""
from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from intake.problems import ImportProblem

from game.models import Packet, Question


def check_slug(slug: str) -> str:
    slug = (slug or "").strip()
    if not slug or slugify(slug) != slug:
        suggestion = slugify(slug) or "my-packet"
        raise ImportProblem(f'"{slug}" cannot be a packet slug; use lower-case letters, digits and hyphens, e.g. "{suggestion}".')
    return slug


@transaction.atomic
def save_packet(questions: list[dict], slug: str, title: str, description: str = "", source: str = "", replace: bool = False) -> Packet:
    """Create the packet (or refill it when `replace`), with one Question row per question."""
    slug = check_slug(slug)
    packet = Packet.objects.select_for_update().filter(slug=slug).first()
    if packet and not replace:
        raise ImportProblem(f'A packet with the slug "{slug}" already exists; choose another slug, or replace it.')
    fields = {"title": (title or slug)[:200], "description": description or "", "source": (source or "")[:200]}
    if packet:
        packet.questions.all().delete()
        for name, value in fields.items():
            setattr(packet, name, value)
        packet.save()
    else:
        packet = Packet.objects.create(slug=slug, **fields)
    Question.objects.bulk_create(
        [Question(packet=packet, position=position, **question) for position, question in enumerate(questions, 1)],
        batch_size=500,
    )
    return packet
