"""The host seats bots on a human team (AI teammates) with a buzz mode and a weight class each, and people
join that team beside them; the computer's team stays closed to people."""
import pytest
from django.contrib.auth import get_user_model

from game.models import Match, MatchEvent, Packet, Question, Team
from game.web.forms import human_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(client):
    client.force_login(get_user_model().objects.create_user("host", password="pw-for-tests", is_staff=True))
    return client


@pytest.fixture
def packet():
    packet = Packet.objects.create(slug="mates", title="Teammates packet")
    for i in range(1, 4):
        Question.objects.create(packet=packet, position=i, kind="tossup", text=f"Question {i} (*) here?", answer="Mars")
    return packet


def post(packet, **values):
    return {"title": "Mixed night", "packet": packet.pk, "format_name": "quizbowl", "team_1": "Humans",
            "team_2": "Rivals", **values}


def created(match) -> dict:
    return MatchEvent.objects.get(match=match, seq=1).data


def test_a_bot_on_team_1_is_an_ai_teammate_with_its_mode_and_people_still_join_its_team(host, packet):
    response = host.post("/host/", post(packet, bot_500mib="simulated", bot_500mib_team="1", bot_500mib_buzz_mode="semi",
                                        bot_6gib="simulated", bot_6gib_buzz_mode="after_k", bot_6gib_buzz_after=4))
    assert response.status_code == 302, response.content.decode()
    match = Match.objects.get()
    data = created(match)
    assert [t["kind"] for t in data["teams"]] == ["human", "computer"]
    mate = next(s for s in data["seats"] if s["tier"] == "500mib")
    rival = next(s for s in data["seats"] if s["tier"] == "6gib")
    assert (mate["team"], mate["buzz_mode"], mate["buzz_after"], mate["weight_class"]) == ("t0", "semi", 1, "lightweight")
    assert (rival["team"], rival["buzz_mode"], rival["buzz_after"], rival["weight_class"]) == ("t1", "after_k", 4, "midweight")
    assert [t.name for t in human_teams(match)] == ["Humans"]  # the mixed team takes people; the computer's does not
    assert list(Team.objects.filter(match=match).values_list("kind", flat=True)) == ["human", "computer"]


def test_people_on_team_2_too_makes_both_teams_human_with_their_bots_as_teammates(host, packet):
    response = host.post("/host/", post(packet, bot_500mib="simulated", bot_500mib_team="1", bot_6gib="simulated",
                                        bot_6gib_weight_class="heavyweight", team_2_people="on"))
    assert response.status_code == 302, response.content.decode()
    match = Match.objects.get()
    data = created(match)
    assert [t["kind"] for t in data["teams"]] == ["human", "human"]
    assert next(s for s in data["seats"] if s["tier"] == "6gib")["weight_class"] == "heavyweight"  # the host's, not the tier's
    assert [t.name for t in human_teams(match)] == ["Humans", "Rivals"]


@pytest.mark.parametrize("values,said", [({"bot_500mib_buzz_after": 0}, "Ensure this value is greater than or equal to 1"),
                                         ({"bot_500mib_buzz_mode": "loud"}, "Select a valid choice"),
                                         ({"bot_500mib_weight_class": "feather"}, "Select a valid choice")])
def test_a_bot_setting_out_of_range_is_refused_on_the_page_and_no_match_is_made(host, packet, values, said):
    response = host.post("/host/", post(packet, bot_500mib="simulated", **values))
    assert response.status_code == 200 and said in response.content.decode()
    assert not Match.objects.exists()


def test_the_page_offers_every_buzz_mode_and_weight_class_for_each_tier(host):
    page = host.get("/host/").content.decode()
    for tier in ("500mib", "6gib", "unlimited"):
        for name in ("team", "buzz_mode", "buzz_after", "weight_class"):
            assert f'name="bot_{tier}_{name}"' in page
    for mode in ("after_k", "muted", "semi"):
        assert f'value="{mode}"' in page
