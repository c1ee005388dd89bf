"""Operators plug their own bot class in by name (settings.EXHIBITION_BOT_KINDS, read by every process
that loads bots.kinds); a name that cannot be a bot kind stops the process with a sentence saying why.
A worker started with it plays the class (tests/bots/test_worker_memory.py)."""
import pytest
from django.core.exceptions import ImproperlyConfigured

from bots import kinds
from tests.bots.growing import GrowingBot


def test_a_plugged_in_class_joins_the_kinds_under_its_own_kind(monkeypatch):
    monkeypatch.delitem(kinds.KINDS, "growing", raising=False)
    assert kinds.plug_in("tests.bots.growing.GrowingBot") is GrowingBot
    assert kinds.KINDS["growing"] is GrowingBot
    assert kinds.plug_in("tests.bots.growing.GrowingBot") is GrowingBot  # naming it twice is harmless


@pytest.mark.parametrize("path, why", [
    ("tests.bots.nowhere.Bot", "cannot be imported"),
    ("tests.bots.growing.Missing", "cannot be imported"),
    ("tests.bots.growing.MIB", "is not a bots.base_bot.BaseBot subclass"),
    ("bots.base_bot.BaseBot", "is not a bots.base_bot.BaseBot subclass with a `kind` of its own"),
])
def test_a_name_that_is_no_bot_class_is_refused_with_the_reason(path, why):
    with pytest.raises(ImproperlyConfigured, match=why) as refused:
        kinds.plug_in(path)
    assert str(refused.value).startswith(f"EXHIBITION_BOT_KINDS names {path!r}")


def test_a_class_may_not_take_a_built_in_kind(monkeypatch):
    class Impostor(GrowingBot):
        kind = "simulated"

    monkeypatch.setattr("tests.bots.growing.Impostor", Impostor, raising=False)
    with pytest.raises(ImproperlyConfigured, match="whose kind 'simulated' is already taken by bots.builtin.simulated"):
        kinds.plug_in("tests.bots.growing.Impostor")
