"""`make demo` runs `manage.py demo_setup`: a newcomer gets a ready match with a bot of every tier."""
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.tiers import TIER_LIMITS
from bots.models import Bot
from game.demo import DEMO_RULES
from game.models import Match, SnippetPassage
from game.event_log import load_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_dir(tmp_path, settings):
    settings.EXHIBITION_BOT_DIR = tmp_path / "bots"
    return settings.EXHIBITION_BOT_DIR


def run_setup(**options) -> str:
    out = io.StringIO()
    call_command("demo_setup", stdout=out, **options)
    return out.getvalue()


def test_demo_setup_makes_a_ready_match_and_tells_where_to_go(bot_dir, client):
    text = run_setup(password="letmein-demo")
    match = Match.objects.get(format_name="efficientqa")
    assert match.status == Match.Status.SETUP and match.format_name == "efficientqa"
    for page in ("moderate", "join", "watch"):
        assert f"http://127.0.0.1:8000/m/{match.code}/{page}" in text

    # A bot of every tier sits on the computer's team, each within its tier's budget.
    state = load_state(match)
    assert state.rules["bot_reaction_ms"] == DEMO_RULES["bot_reaction_ms"]  # a race a person can win
    tiers = sorted(s["tier"] for s in state.seats.values() if s["kind"] == "bot")
    assert tiers == sorted(TIER_LIMITS)
    for bot in Bot.objects.all():
        assert bot.measured_bytes and bot.artefact_dir.startswith(str(bot_dir))
        if TIER_LIMITS[bot.tier] is not None:
            assert bot.measured_bytes <= TIER_LIMITS[bot.tier]
    assert SnippetPassage.objects.filter(corpus="demo").count() > 50

    # The printed login works for the moderator console.
    user = get_user_model().objects.get(username="host")
    assert user.is_staff and re.search(r"host / letmein-demo", text)
    assert client.post("/accounts/login/", {"username": "host", "password": "letmein-demo"}).status_code == 302
    assert client.get(f"/m/{match.code}/moderate").status_code == 200


def test_a_tossup_bonus_match_for_two_teams_of_people_is_ready_beside_it(bot_dir):
    text = run_setup()
    match = Match.objects.get(format_name="quizbowl_bonus")
    assert match.status == Match.Status.SETUP
    for page in ("moderate", "join", "watch"):
        assert f"http://127.0.0.1:8000/m/{match.code}/{page}" in text
    state = load_state(match)
    assert state.rules["bonuses"] and all(s["kind"] == "human" for s in state.seats.values())
    assert [t["name"] for t in state.teams] == ["Left", "Right"]
    # Every tossup it plays can earn a bonus: the packet has a bonus for each, in packet order.
    assert len(state.bonuses) >= state.rules["questions"] + state.rules["tiebreakers"]
    assert all(len(bonus.parts) == 3 and all(part["answer"] for part in bonus.parts) for bonus in state.bonuses)


def test_a_qanta_2026_match_seats_an_ai_teammate_on_each_team_of_people(bot_dir, client):
    text = run_setup(password="letmein-demo")
    match = Match.objects.get(format_name="qanta26")
    assert match.status == Match.Status.SETUP
    for page in ("moderate", "join", "watch"):
        assert f"http://127.0.0.1:8000/m/{match.code}/{page}" in text
    state = load_state(match)
    assert state.rules["bonus_decisions"] and state.rules["ai_tossup_deflation"] == "weighted"
    teams = {t["id"]: t for t in state.teams}
    assert {t["kind"] for t in teams.values()} == {"human"}
    bots = {teams[s["team"]]["name"]: (s["tier"], s["weight_class"]) for s in state.seats.values() if s["kind"] == "bot"}
    assert bots == {"Team Lovelace": ("500mib", "lightweight"), "Team Babbage": ("6gib", "midweight")}
    # People join either team: neither is the computer's.
    page = client.get(f"/m/{match.code}/join").content.decode()
    assert page.count('type="radio" name="team"') == 2 and "The computer plays as" not in page


def test_running_it_again_reuses_the_bots_and_adds_a_fresh_match(bot_dir):
    run_setup()
    built = {b.name: b.built_at for b in Bot.objects.all()}
    text = run_setup()
    assert "Building bot" not in text
    assert {b.name: b.built_at for b in Bot.objects.all()} == built
    assert Match.objects.filter(format_name="efficientqa").count() == 2


def test_in_hall_mode_it_prints_the_address_people_in_the_room_type(bot_dir, settings, monkeypatch):
    settings.EXHIBITION_HALL = True
    monkeypatch.setattr("serving.hall.lan_addresses", lambda: ["192.168.1.23"])
    text = run_setup()
    code = Match.objects.get(format_name="efficientqa").code
    assert f"http://192.168.1.23:8000/m/{code}/join" in text
    assert f"type 192.168.1.23:8000/join and the code {code}" in text


def test_the_demo_match_takes_the_host_pages_question_order(bot_dir):
    text = run_setup(order="shuffled", order_seed=8, start_at=3, category=["History", "Science"])
    match = Match.objects.get(format_name="efficientqa")
    assert match.question_order == {"order": "shuffled", "seed": 8, "start_at": 3,
                                    "categories": ["History", "Science"], "prefer_power": False}
    assert {q.category for q in load_state(match).questions} == {"History", "Science"}
    assert "Questions:          shuffled with seed 8; from question 3; categories: History, Science" in text


def test_a_question_order_the_demo_cannot_play_is_refused_before_any_bot_is_built(bot_dir):
    with pytest.raises(CommandError, match="This format gives no power points"):
        run_setup(prefer_power=True)
    assert not Bot.objects.exists() and not Match.objects.exists()
