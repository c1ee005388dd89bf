"""Tier budgets: artefact sizes are measured on disk and checked against the tier's limit."""
import os

import pytest

from bots.budgets import TierExceeded, check_size, measure_artefacts
from bots.tiers import TIER_LIMITS, human_bytes


def check_folder(path, tier: str, name: str = "big") -> int:
    """A bot whose artefacts are the folder at path, measured for a seat in tier."""
    return check_size(name, tier, measure_artefacts(path), str(path))


def test_tier_limits_are_the_efficientqa_numbers():
    assert TIER_LIMITS == {"500mib": 524_288_000, "6gib": 6_442_450_944, "unlimited": None}


@pytest.mark.parametrize(
    "n, text",
    [(900, "900 bytes"), (12 * 1024, "12 KiB"), (642_123_776, "612.4 MiB"), (524_288_000, "500 MiB"),
     (6_442_450_944, "6 GiB"), (int(1.25 * 1024**3), "1.2 GiB")],
)
def test_human_units(n, text):
    assert human_bytes(n) == text


def test_measure_adds_up_files_in_nested_folders(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.bin").write_bytes(b"x" * 1000)
    (tmp_path / "y.json").write_bytes(b"y" * 234)
    assert measure_artefacts(tmp_path) == 1234
    assert measure_artefacts(tmp_path / "y.json") == 234
    assert measure_artefacts(tmp_path / "missing") == 0


def test_measure_follows_links_out_of_the_folder_and_counts_each_file_once(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "weights.bin").write_bytes(b"w" * 5000)
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "model").symlink_to(outside, target_is_directory=True)  # the weights live elsewhere
    (bot / "weights-again.bin").symlink_to(outside / "weights.bin")  # the same file twice
    os.link(outside / "weights.bin", bot / "hardlink.bin")  # and a third name for it
    (bot / "loop").symlink_to(bot, target_is_directory=True)  # a cycle must not hang the walk
    (bot / "dangling").symlink_to(tmp_path / "nowhere")
    assert measure_artefacts(bot) == 5000


def test_a_sparse_file_counts_at_its_full_size(tmp_path):
    with open(tmp_path / "index.npz", "wb") as handle:
        os.truncate(handle.fileno(), 642_123_776)
    assert measure_artefacts(tmp_path) == 642_123_776


def test_a_bot_over_its_tier_is_refused_with_both_sizes_named(tmp_path):
    with open(tmp_path / "index.npz", "wb") as handle:
        os.truncate(handle.fileno(), 642_123_776)
    with pytest.raises(TierExceeded) as refused:
        check_folder(tmp_path, "500mib")
    message = str(refused.value)
    assert "measured 612.4 MiB (642,123,776 bytes), over the 500 MiB limit (524,288,000 bytes)" in message
    assert "'big'" in message
    assert check_folder(tmp_path, "6gib") == 642_123_776
    assert check_folder(tmp_path, "unlimited") == 642_123_776


def test_a_bot_at_exactly_the_limit_fits(tmp_path):
    with open(tmp_path / "index.npz", "wb") as handle:
        os.truncate(handle.fileno(), 524_288_000)
    assert check_folder(tmp_path, "500mib") == 524_288_000


def test_a_remote_bot_can_only_play_unlimited():
    with pytest.raises(TierExceeded, match="cannot be measured against the 500 MiB limit"):
        check_size("far", "500mib", 0, "", measurable=False)
    assert check_size("far", "unlimited", 0, "", measurable=False) == 0


def test_an_unknown_tier_is_refused(tmp_path):
    with pytest.raises(TierExceeded, match="no tier called '1gib'"):
        check_folder(tmp_path, "1gib")
