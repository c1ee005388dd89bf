"""The kinds of bot a seat can play, by name: the built-in ones and the operators' own, and what each
kind's code weighs.

Every process that imports this module (web, conductor, each worker) adds the classes named in
settings.EXHIBITION_BOT_KINDS (plug_in), so a seat of that kind plays wherever its tier's worker runs.
Importing it imports every built-in kind, and with them NumPy, SciPy and scikit-learn: a few seconds
and about 100 MB, which a process pays only once it loads or measures a bot.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from bots.base_bot import BaseBot
from bots.builtin.answer_doc import AnswerDocBot
from bots.builtin.qa_pairs import QaPairBot
from bots.builtin.retriever_reader import RetrieverReaderBot
from bots.builtin.simulated import SimulatedBot
from bots.footprint import FootprintError, Size, kind_code
from bots.remote import JsonRemoteBot, QantaRemoteBot
from bots.replay_bot import ReplayBot

KINDS: dict[str, type[BaseBot]] = {
    cls.kind: cls
    for cls in (QaPairBot, AnswerDocBot, RetrieverReaderBot, SimulatedBot, QantaRemoteBot, JsonRemoteBot, ReplayBot)
}
REMOTE_KINDS = {QantaRemoteBot.kind, JsonRemoteBot.kind}


def plug_in(path: str) -> type[BaseBot]:
    """Add the bot class at dotted path ("package.module.ClassName") to KINDS under its `kind`.

    settings.EXHIBITION_BOT_KINDS (the environment variable of that name, comma-separated) names the
    operators' own classes; every process that loads this module (web, conductor, each worker) adds
    them, so a seat of that kind plays wherever its tier's worker runs."""
    module_name, _, class_name = path.strip().rpartition(".")
    try:
        cls = getattr(import_module(module_name), class_name)
    except (ImportError, AttributeError, ValueError) as error:
        raise ImproperlyConfigured(f"EXHIBITION_BOT_KINDS names {path!r}, which cannot be imported: {error}") from None
    if not (isinstance(cls, type) and issubclass(cls, BaseBot) and cls.kind):
        raise ImproperlyConfigured(f"EXHIBITION_BOT_KINDS names {path!r}, which is not a bots.base_bot.BaseBot subclass "
                                   f"with a `kind` of its own.")
    if KINDS.get(cls.kind, cls) is not cls:
        raise ImproperlyConfigured(f"EXHIBITION_BOT_KINDS names {path!r}, whose kind {cls.kind!r} is already taken "
                                   f"by {KINDS[cls.kind].__module__}.{KINDS[cls.kind].__name__}.")
    KINDS[cls.kind] = cls
    return cls


for _path in django_settings.EXHIBITION_BOT_KINDS:
    plug_in(_path)


def size_of(kind: str | None, artefacts: int) -> Size:
    """A bot of kind with artefacts bytes on disk, with the code it imports (bots.footprint, measured once
    per kind); a remote bot or an unknown kind is its artefacts alone."""
    cls = KINDS.get(kind)
    if cls is None or kind in REMOTE_KINDS:
        return Size(artefacts)
    try:
        return Size(artefacts, kind_code(cls))
    except FootprintError as error:
        return Size(artefacts, unmeasured=str(error))


def measure_every_kind() -> list[str]:
    """Measure the code of every kind that runs here (bots.footprint, two at a time), so that no match's
    start waits for it: a conductor does this as it starts. Returns a sentence for each kind that could
    not be measured (its seats' starts will say so again)."""
    local = [cls for kind, cls in KINDS.items() if kind not in REMOTE_KINDS]
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="measure-kinds") as pool:
        outcomes = list(pool.map(_measured_or_why, local))
    return [why for why in outcomes if why]


def _measured_or_why(cls) -> str | None:
    try:
        kind_code(cls)
    except FootprintError as error:
        return f"{cls.kind}: {error}"
    return None
