"""Seating a bot: only after its artefacts are measured against its tier."""
import os

import pytest
from django.core.management import call_command

from bots.budgets import TierExceeded
from bots.models import Bot
from bots.seating import seat_bot
from game.models import Match, Packet, Seat, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team():
    packet = Packet.objects.create(slug="p", title="P")
    match = Match.objects.create(title="M", packet=packet, format_name="efficientqa", rules={})
    return Team.objects.create(match=match, position=0, name="Computers")


def test_a_built_bot_takes_a_seat_in_its_tier(team, bot_root, pairs_file):
    call_command("build_bot", "qa_pairs", "--name", "pairs", "--data", pairs_file, stdout=open(os.devnull, "w"))
    bot = Bot.objects.get(name="pairs")
    seat = seat_bot(team, bot)
    assert (seat.kind, seat.bot_tier, seat.name) == (Seat.Kind.BOT, "500mib", "pairs")
    assert seat.bot_config == {"bot": "pairs", "build": bot.current_build.pk}  # pinned to the build measured
    bot.refresh_from_db()
    assert bot.measured_bytes > 0


def test_a_bot_whose_artefacts_exceed_its_tier_cannot_take_a_seat(team, tmp_path):
    artefacts = tmp_path / "huge"
    artefacts.mkdir()
    with open(artefacts / "index.npz", "wb") as handle:
        os.truncate(handle.fileno(), 600 * 1024 * 1024 + 1)  # sparse: costs no disk space
    bot = Bot.objects.create(name="huge", kind="qa_pairs", tier="500mib", artefact_dir=str(artefacts))
    with pytest.raises(TierExceeded) as refused:
        seat_bot(team, bot)
    assert "measured 600 MiB (629,145,601 bytes), over the 500 MiB limit (524,288,000 bytes)" in str(refused.value)
    assert not Seat.objects.filter(team=team).exists()


def test_a_simulated_bot_is_labelled_simulated_on_its_seat(team):
    bot = Bot.objects.create(name="practice", kind="simulated", tier="500mib", config={"accuracy": 0.5})
    seat = seat_bot(team, bot)
    assert seat.name == "practice (simulated)"
    assert bot.simulated and str(bot) == "practice (simulated)"


def test_a_remote_bot_is_refused_a_limited_seat_but_may_play_unlimited(team):
    limited = Bot.objects.create(name="far", kind="remote_qanta", tier="6gib", config={"url": "http://127.0.0.1:9"})
    with pytest.raises(TierExceeded, match="remote server"):
        seat_bot(team, limited)
    free = Bot.objects.create(name="far2", kind="remote_json", tier="unlimited", config={"url": "http://127.0.0.1:9"})
    assert seat_bot(team, free, name="Remote").bot_tier == "unlimited"
