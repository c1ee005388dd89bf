"""Seating a bot: only after its artefacts are measured against its tier."""
import os

import pytest
from django.core.management import call_command

from bots.budgets import TierExceeded, human_bytes
from bots.footprint import size_of
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
    assert f"its artefacts 600 MiB (629,145,601 bytes) in {artefacts}, " in str(refused.value)
    assert "over the 500 MiB limit (524,288,000 bytes)" in str(refused.value)
    assert not Seat.objects.filter(team=team).exists()


def test_a_bot_whose_artefacts_fit_but_not_with_the_packages_it_imports_is_refused_naming_each_part(team, tmp_path):
    """EfficientQA counted the whole system: 400 MiB of artefacts fit 500 MiB alone, not with SciPy,
    NumPy and scikit-learn, which the QA-pair bot imports."""
    artefacts = tmp_path / "index"
    artefacts.mkdir()
    with open(artefacts / "index.npz", "wb") as handle:
        os.truncate(handle.fileno(), 400 * 1024 * 1024)
    bot = Bot.objects.create(name="pairs", kind="qa_pairs", tier="500mib", artefact_dir=str(artefacts))
    size = size_of("qa_pairs", 400 * 1024 * 1024)
    with pytest.raises(TierExceeded) as refused:
        seat_bot(team, bot)
    message = str(refused.value)
    assert message.startswith(f"Bot 'pairs' cannot play in the 500mib tier: it measured {human_bytes(size.total)} "
                              f"({size.total:,} bytes), its artefacts 400 MiB (419,430,400 bytes) in {artefacts}, "
                              f"this project's code it imports {human_bytes(size.code.project)}, and the installed "
                              f"packages it imports {human_bytes(size.code.package_bytes)} (")
    assert all(f"{name} {human_bytes(size.code.packages[name])}" in message for name in ("scipy", "numpy"))
    assert message.endswith("over the 500 MiB limit (524,288,000 bytes). Rebuild it smaller, import less, or seat it "
                            "in a larger tier.")
    assert not Seat.objects.filter(team=team).exists()
    bot.tier = "6gib"
    assert seat_bot(team, bot).bot_tier == "6gib"


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
