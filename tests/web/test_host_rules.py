"""The host page exposes every rule a format has as data, with the engine's own ranges, and what the
host sets is what the match plays by."""
import re

import pytest
from django.contrib.auth import get_user_model

from game.engine.formats import PRESETS
from game.web.forms_host import PHASE_RANGES, TOP_RANGES
from game.models import Match, MatchEvent, Packet, Question

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(client):
    client.force_login(get_user_model().objects.create_user("host", password="pw-for-tests", is_staff=True))
    return client


@pytest.fixture
def packet():
    packet = Packet.objects.create(slug="rules", title="Rules packet")
    for i, kind in enumerate(("short", "tossup"), 1):
        Question.objects.create(packet=packet, position=i, kind=kind, text=f"Question {i} (*) here?", answer="Mars")
    return packet


def post(packet, **values):
    return {"title": "Rules night", "packet": packet.pk, "format_name": "efficientqa", "team_1": "Humans",
            "team_2": "Computer", "bot_500mib": "simulated", **values}


def rules_of(match) -> dict:
    return MatchEvent.objects.get(match=match, seq=1).data["rules"]


def test_every_number_of_a_format_is_a_field_with_the_engines_range(host):
    page = host.get("/host/").content.decode()
    fields = {name: (kind, low, high) for name, (kind, low, high) in TOP_RANGES.items()}
    for number in (1, 2, 3):
        fields.update({f"{key}_{number}": spec for key, spec in PHASE_RANGES.items()})
    for name, (kind, low, high) in fields.items():
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
        assert tag, f"no field for {name}"
        assert f'min="{low:g}"' in tag.group(0) or f'min="{low}"' in tag.group(0), tag.group(0)
        assert f'max="{high:g}"' in tag.group(0) or f'max="{high}"' in tag.group(0), tag.group(0)
    for name in ("reveal", "priority"):
        assert f'name="{name}"' in page
    assert "50 to 600" in page  # the range is written beside the field too


def test_what_the_host_sets_is_what_the_match_plays_by(host, packet):
    values = {"tiebreakers": 5, "prompt_seconds": 7, "lead_in_seconds": 1.5, "comma_pause": 0.2, "sentence_pause": 0.7,
              "bot_min_words": 4, "bot_reaction_ms": 800, "bot_act_timeout_ms": 2500, "priority": "first",
              "reveal": "moderator", "dead_seconds_1": 8, "wrong_points_1": -1, "discussion_seconds_2": 45,
              "points_3": 4, "discussion_seconds_1": 99}  # a buzz phase has no discussion: ignored
    response = host.post("/host/", post(packet, **values))
    assert response.status_code == 302, response.content.decode()
    rules = rules_of(Match.objects.get())
    for key in ("tiebreakers", "prompt_seconds", "lead_in_seconds", "comma_pause", "sentence_pause", "bot_min_words",
                "bot_reaction_ms", "bot_act_timeout_ms", "priority", "reveal"):
        assert rules[key] == values[key], key
    one, two, three = rules["phases"]
    assert (one["dead_seconds"], one["wrong_points"], "discussion_seconds" in one) == (8, -1, False)
    assert (two["discussion_seconds"], three["points"]) == (45, 4)
    untouched = PRESETS["efficientqa"]
    assert rules["words_per_minute"] == untouched["words_per_minute"]  # empty keeps the format's own
    assert two["points"] == untouched["phases"][1]["points"]


def test_a_match_without_a_computer_is_refused_unless_the_host_ticks_humans_only(host, packet):
    from game.match_setup import NO_BOT

    page = host.get("/host/").content.decode()
    assert 'name="humans_only"' in page and not re.search(r'name="humans_only"[^>]*checked', page)
    refused = host.post("/host/", post(packet, bot_500mib=""))
    assert refused.status_code == 200 and NO_BOT in refused.content.decode()
    both = host.post("/host/", post(packet, humans_only="on"))
    assert both.status_code == 200 and "Humans only, yet a bot is chosen" in both.content.decode()
    assert not Match.objects.exists()
    made = host.post("/host/", post(packet, bot_500mib="", humans_only="on"))
    assert made.status_code == 302
    assert not Match.objects.get().teams.filter(seats__kind="bot").exists()


def test_quizbowl_power_and_neg_are_the_hosts_to_set(host, packet):
    response = host.post("/host/", post(packet, format_name="quizbowl", power_points_1=20, neg_points_1=-10, points_1=10))
    assert response.status_code == 302, response.content.decode()
    [phase] = rules_of(Match.objects.get())["phases"]
    assert (phase["power_points"], phase["neg_points"], phase["points"]) == (20, -10, 10)


@pytest.mark.parametrize("field, value, message", [
    ("bot_act_timeout_ms", 50, "greater than or equal to 100"),
    ("discussion_seconds_2", 0, "greater than or equal to 1"),
    ("tiebreakers", 2.5, "Enter a whole number"),
    ("neg_points_1", -101, "greater than or equal to -100"),
])
def test_a_value_out_of_range_is_refused_at_its_field_and_nothing_is_made(host, packet, field, value, message):
    response = host.post("/host/", post(packet, **{field: value}))
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page.split(f'name="{field}"', 1)[1].split("</label>", 1)[0]
    assert not Match.objects.exists()


def test_the_audience_rule_for_bot_guesses_is_the_hosts_to_set(host, packet):
    assert 'name="hall_bot_guesses"' in host.get("/host/").content.decode()
    response = host.post("/host/", post(packet, hall_bot_guesses="live"))
    assert response.status_code == 302
    assert rules_of(Match.objects.get())["hall_bot_guesses"] == "live"


def add_bonus(packet, position: int):
    parts = [{"text": f"Name this planet {n}.", "answer": "<b><u>Mars</u></b>", "value": 10} for n in (1, 2, 3)]
    Question.objects.create(packet=packet, position=position, kind="bonus", text="For 10 points each:", answer="",
                            parts=parts)


def test_a_tossup_bonus_match_is_made_from_the_host_page_with_the_packets_bonuses(host, packet):
    page = host.get("/host/").content.decode()
    assert "<legend>Bonuses</legend>" in page
    assert re.search(r'<select[^>]*name="bounceback"', page) and 'name="bonus_confer_seconds"' in page
    add_bonus(packet, 3)
    response = host.post("/host/", post(packet, format_name="quizbowl_bonus", bounceback="true",
                                        bonus_confer_seconds=6))
    assert response.status_code == 302, response.content.decode()
    created = MatchEvent.objects.get(match=Match.objects.get(), seq=1).data
    assert (created["rules"]["bonuses"], created["rules"]["bounceback"], created["rules"]["bonus_confer_seconds"]) == \
        (True, True, 6)
    [heard] = created["bonuses"]
    assert heard["kind"] == "bonus" and [p["text"] for p in heard["parts"]][0] == "Name this planet 1."
    assert [q["kind"] for q in created["questions"]] == ["tossup"]


def test_bonuses_are_the_hosts_to_turn_off_and_a_packet_without_bonuses_is_refused_for_them(host, packet):
    refused = host.post("/host/", post(packet, format_name="quizbowl_bonus"))
    assert refused.status_code == 200 and "has no bonuses" in refused.content.decode()
    assert not Match.objects.exists()
    made = host.post("/host/", post(packet, format_name="quizbowl_bonus", bonuses="false"))
    assert made.status_code == 302, made.content.decode()
    created = MatchEvent.objects.get(match=Match.objects.get(), seq=1).data
    assert created["rules"]["bonuses"] is False and "bonuses" not in created
