"""What a bot may be told privately besides its query, decided by what the bot is, never by a flag.

Only a bot built into the project and labelled simulated (the simulated opponent) is handed the
answer line: it is our own code and it plays a practice opponent by design. The replay bot (our
code too) needs to know which packet question is played, a remote QANTA bot needs the match's
question number as the QANTA protocol's question_idx, and nothing else is told anything. The kind
comes from the bot's build in the database (or, for an inline spec, from the kind it names): a
seat config that says "simulated": true changes nothing.
"""
from __future__ import annotations

from bots.builds import build_for_spec
from bots.errors import BotError
from bots.models import Bot

PRIVATE_FIELDS = {
    "simulated": ("question_id", "answer", "length_words"),
    "replay_csv": ("question_id",),
    "remote_qanta": ("question_idx",),
}


def kind_of(spec) -> str | None:
    """The kind of bot a seat's spec plays, as the database (or the inline spec) says."""
    if not isinstance(spec, dict):
        return None
    if "bot" not in spec:
        kind = spec.get("kind")
        return kind if isinstance(kind, str) else None
    try:
        build = build_for_spec(spec)
    except BotError:
        return None
    if build is not None:
        return build.kind
    return Bot.objects.filter(name=spec["bot"]).values_list("kind", flat=True).first()


def private_fields(spec) -> tuple[str, ...]:
    """The names of the private per-question fields a bot with this spec may receive."""
    return PRIVATE_FIELDS.get(kind_of(spec) or "", ())


def knows_answer(spec) -> bool:
    return "answer" in private_fields(spec)
