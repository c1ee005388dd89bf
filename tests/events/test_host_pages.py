"""The host's event pages: only staff create events, add teams and start matches; a preliminary is a
match against the computer with the event's limit and no tiebreakers; the public leaderboard is folded
from the logs (a correction after the whistle moves it) and shows every name escaped."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from events.management.commands.simulate_event import play
from events.models import Event, EventTeam
from game.demo import ensure_demo_packet
from game.match_setup import NO_BOT
from game.models import Match
from game.runner import MatchRunner

pytestmark = pytest.mark.django_db
LONG = "Thirty-two characters long name!"  # game.models.NAME_MAX_LENGTH
assert len(LONG) == 32


def login(staff: bool) -> Client:
    user = get_user_model().objects.create_user(f"user{staff}", password="x", is_staff=staff)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def host():
    return login(staff=True)


@pytest.fixture
def event(host):
    packet = ensure_demo_packet()
    reply = host.post("/host/events/", {
        "name": "Spring exhibition", "format_name": "efficientqa", "packets": [packet.pk], "prelim_questions": 3,
        "final_questions": 50, "team_size_cap": 8, "draw": "fresh", "seed": 5, "reveal": "clock",
        "words_per_minute": 200})
    assert reply.status_code == 302
    return Event.objects.get()


def add_team(client, event, name, players=""):
    return client.post(f"/host/events/{event.pk}/teams", {"name": name, "players": players})


def test_a_preliminary_is_a_match_against_the_chosen_bots_with_the_events_limit(host, event):
    assert add_team(host, event, LONG, "Ann\nBen").status_code == 302
    team = EventTeam.objects.get()
    assert team.players == ["Ann", "Ben"]
    reply = host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"})
    team.refresh_from_db()
    match = team.preliminary
    assert reply.status_code == 302 and reply["Location"] == f"/host/m/{match.code}/"
    assert match.rules["stop_after_questions"] == 3 and match.rules["tiebreakers"] == 0
    assert match.rules["reveal"] == "clock" and match.rules["words_per_minute"] == 200
    assert [t.name for t in match.teams.order_by("position")] == [LONG, "Computer"]
    assert [s.kind for s in match.teams.get(position=1).seats.all()] == ["bot"]
    again = host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"}, follow=True)
    assert "has its preliminary already" in again.content.decode() and Match.objects.count() == 1


def test_a_preliminary_needs_a_bot_and_a_team_its_cap(host, event):
    add_team(host, event, "Owls")
    team = EventTeam.objects.get()
    reply = host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {}, follow=True)
    assert "Choose at least one bot" in reply.content.decode() and not Match.objects.exists()
    crowded = add_team(host, event, "Crowd", "\n".join(f"P{i}" for i in range(9)))
    assert crowded.status_code == 400 and "at most 8 players" in crowded.content.decode()
    too_long = add_team(host, event, LONG + "x")
    assert too_long.status_code == 400 and EventTeam.objects.count() == 1


def test_nobody_but_staff_creates_or_starts_anything(host, event):
    add_team(host, event, "Owls")
    team = EventTeam.objects.get()
    for client in (Client(), login(staff=False)):
        for url, data in [("/host/events/", {"name": "Mine", "format_name": "quizbowl"}),
                          (f"/host/events/{event.pk}/teams", {"name": "Gatecrashers"}),
                          (f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"}),
                          (f"/host/events/{event.pk}/final", {"bot_500mib": "simulated"})]:
            reply = client.post(url, data)
            assert reply.status_code == 302 and reply["Location"].startswith("/accounts/login/")
        assert client.get(f"/host/events/{event.pk}/").status_code == 302
    assert Event.objects.count() == 1 and EventTeam.objects.count() == 1 and not Match.objects.exists()


def test_the_leaderboard_is_the_logs_and_the_final_waits_for_every_preliminary(host, event):
    add_team(host, event, "<b>Owls</b>")
    add_team(host, event, "Foxes")
    owls, foxes = EventTeam.objects.order_by("id")
    host.post(f"/host/events/{event.pk}/teams/{owls.pk}/start", {"bot_500mib": "simulated"})
    host.post(f"/host/events/{event.pk}/teams/{foxes.pk}/start", {"bot_500mib": "simulated"})
    owls.refresh_from_db()
    foxes.refresh_from_db()
    early = host.post(f"/host/events/{event.pk}/final", {"bot_500mib": "simulated"}, follow=True)
    assert "has not finished" in early.content.decode() and Event.objects.get().final_match is None

    play(owls.preliminary, 0.9, 1, "OWLS01")  # nobody joined Owls: only the computer can score
    page = Client().get(f"/events/{event.pk}/").content.decode()  # public, like the spectator screen
    assert "&lt;b&gt;Owls&lt;/b&gt;" in page and "<b>Owls</b>" not in page
    assert "Playing now: Foxes" in page

    runner = MatchRunner(Match.objects.get(code="OWLS01"))
    before = runner.state.scores["t0"]
    runner.handle({"type": "adjust", "actor": {"role": "moderator"}, "data": {
        "team": "t0", "points": 30, "reason": "scorer's slip", "confirm": True, "scores_seq": runner.state.scores_seq}})
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert f"<td>{before + 30}</td>" in page  # the correction counts at once: nothing stored drifts

    play(foxes.preliminary, 0.1, 2, "FOXES1")
    reply = host.post(f"/host/events/{event.pk}/final", {"bot_500mib": "simulated"})
    event.refresh_from_db()
    assert event.finalist == owls and reply["Location"] == f"/host/m/{event.final_match.code}/"
    final = play(event.final_match, 0.5, 3, "FINAL1")
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "the event is closed" in page and 'http-equiv="refresh"' not in page
    assert final.rules["questions"] == 30 - 2 * 3  # the demo pool's 30, less what the preliminaries played


def test_a_preliminarys_match_page_leads_back_to_its_event(host, event):
    add_team(host, event, "Owls")
    team = EventTeam.objects.get()
    host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"})
    team.refresh_from_db()
    page = host.get(f"/host/m/{team.preliminary.code}/").content.decode()
    assert f'href="/host/events/{event.pk}/">Spring exhibition</a> (preliminary)' in page


def test_a_time_limited_preliminary_stops_after_its_minutes(host):
    packet = ensure_demo_packet()
    host.post("/host/events/", {"name": "Timed", "format_name": "quizbowl", "packets": [packet.pk],
                                "prelim_minutes": 45, "final_questions": 10, "team_size_cap": 4, "draw": "same",
                                "reveal": "clock", "words_per_minute": 200})
    event = Event.objects.get()
    add_team(host, event, "Owls")
    team = EventTeam.objects.get()
    host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"})
    team.refresh_from_db()
    rules = team.preliminary.rules
    assert rules["stop_after_ms"] == 45 * 60_000 and rules["stop_after_questions"] is None
    assert rules["team_seats"] == 4 and rules["tiebreakers"] == 0


def test_an_event_needs_minutes_or_questions_not_both(host):
    packet = ensure_demo_packet()
    reply = host.post("/host/events/", {"name": "Both", "format_name": "quizbowl", "packets": [packet.pk],
                                        "prelim_minutes": 45, "prelim_questions": 10, "final_questions": 10,
                                        "team_size_cap": 4, "draw": "same", "reveal": "clock", "words_per_minute": 200})
    assert reply.status_code == 400 and "minutes or in questions" in reply.content.decode()
    assert not Event.objects.exists()


def test_the_event_form_offers_every_reveal_the_match_form_does_and_a_voice_event_plays_by_voice(host):
    from game.engine.api import MATCH_RULES

    page = host.get("/host/events/").content.decode()
    for value, label in MATCH_RULES["reveal"].choices:
        assert f'<option value="{value}">{label}</option>' in page
    host.post("/host/events/", {"name": "Aloud", "format_name": "efficientqa", "packets": [ensure_demo_packet().pk],
                                "prelim_questions": 3, "final_questions": 10, "team_size_cap": 4, "draw": "same",
                                "reveal": "voice", "words_per_minute": 200})
    event = Event.objects.get()
    add_team(host, event, "Owls")
    team = EventTeam.objects.get()
    refused = host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {}, follow=True)
    assert NO_BOT in refused.content.decode() and not Match.objects.exists()
    host.post(f"/host/events/{event.pk}/teams/{team.pk}/start", {"bot_500mib": "simulated"})
    team.refresh_from_db()
    assert team.preliminary.rules["reveal"] == "voice"


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_event_shows_the_projects_404_even_in_the_demo(host, event, settings, debug):
    settings.DEBUG = debug  # the demo runs with DEBUG on: the same page, never Django's debug 404
    for client, url in ((Client(), "/events/999/"), (host, "/host/events/999/")):
        response = client.get(url)
        assert response.status_code == 404
        text = response.content.decode()
        assert "There is no event number 999. Check the address" in text and 'class="site-header"' in text
    missing_team = host.post(f"/host/events/{event.pk}/teams/999/start", {"bot_500mib": "simulated"})
    assert missing_team.status_code == 404
    assert "That is not a page of this event." in missing_team.content.decode()
    assert "matches the given query" not in missing_team.content.decode()
