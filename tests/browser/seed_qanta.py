"""Seed a fresh database for the QANTA 2026 browser test: a staff user, the tossup-bonus packet of
seed_bonus.py, and a match of two human teams under the qanta26 preset, paced by the moderator with long
clocks. Consulting the AI is set to the static deflation (5 off a part): the teams here have no bot seats, and
the host may set any of the preset's numbers.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
{"user", "password", "matches": {"live"}} as JSON on the last line.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.browser.seed_hall import PASSWORD, USER  # noqa: E402  (it sets Django up)
from tests.browser.seed_bonus import OVERRIDES, bonus_packet  # noqa: E402

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from game.match_setup import TeamSpec, create_match_record  # noqa: E402


def seed() -> dict:
    call_command("migrate", verbosity=0, interactive=False)
    get_user_model().objects.create_superuser(USER, "moderator@example.org", PASSWORD)
    overrides = dict(OVERRIDES, bounceback=False, bonus_consult_deflation="static")
    live = create_match_record(title="QANTA 2026", packet=bonus_packet(), format_name="qanta26", overrides=overrides,
                               teams=[TeamSpec("Humans"), TeamSpec("Scholars")])
    return {"user": USER, "password": PASSWORD, "matches": {"live": live.code}}


if __name__ == "__main__":
    print(json.dumps(seed()))
