"""The buzzer station's page (game/web/views_station.py): the host seats each player at it as a phone
joins (the same form, checks and limits), the seat's token goes into this browser's station entry (not a
phone's), the page lists the seats it holds, and a seat given up is forgotten."""
import json
import re

import pytest
from django.test import Client
from django.utils.html import escape

from game.live import station_seats
from game.models import Seat
from game.seats_left import record_seats_left
from tests.web.test_views import HOSTILE_NAME, conductor_in_process, fresh_join_limit, logged_joins, match, packet  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def seat(client, match, name, team_position):
    team = match.teams.get(position=team_position)
    return client.post(f"/m/{match.code}/station", {"name": name, "team": team.pk})


def page_players(response) -> list[dict]:
    found = re.search(r'<script id="page-config" type="application/json">(.*?)</script>', response.content.decode(), re.S)
    return json.loads(found.group(1))["players"]


def test_the_station_seats_each_player_as_a_phone_joins_and_keeps_their_seats_apart_from_a_phones(match):
    station = Client()
    assert seat(station, match, "Ada", 0)["Location"] == f"/m/{match.code}/station"
    assert seat(station, match, HOSTILE_NAME, 1).status_code == 302
    seats = {s.name: s for s in Seat.objects.filter(kind="human")}
    held = station.session[station_seats.SESSION_STATION][match.code]
    assert set(held) == {seats["Ada"].key, seats[HOSTILE_NAME].key}
    assert match.code not in station.session.get("seats", {}), "a phone's seat is another thing"
    assert [s["name"] for s in logged_joins(match)] == ["Ada", HOSTILE_NAME], "each in the log, as a phone's join"
    page = station.get(f"/m/{match.code}/station")
    assert page_players(page) == [{"seat": seats["Ada"].key, "team": "t0", "name": "Ada"},
                                  {"seat": seats[HOSTILE_NAME].key, "team": "t1", "name": HOSTILE_NAME}]
    assert HOSTILE_NAME not in page.content.decode(), "a typed name is escaped"


def test_a_name_taken_is_refused_with_a_sentence_and_a_full_station_says_so(match, monkeypatch):
    station = Client()
    seat(station, match, "Ada", 0)
    taken = seat(station, match, "ada", 1)
    assert taken.status_code == 400 and "already called ada" in taken.content.decode()
    monkeypatch.setattr("game.web.views_station.STATION_SEATS_MAX", 1)
    full = seat(station, match, "Bo", 1)
    assert full.status_code == 400 and "This station holds 1 players already" in full.content.decode()
    assert list(Seat.objects.filter(kind="human").values_list("name", flat=True)) == ["Ada"]


def test_a_seat_given_up_is_forgotten_by_the_station(match):
    station = Client()
    seat(station, match, "Ada", 0)
    seat(station, match, "Bo", 1)
    ada = Seat.objects.get(name="Ada")
    record_seats_left(match, [{"type": "seat_left", "data": {"seat": ada.key, "captain": None}}])  # as the conductor stores a kick
    assert [p["name"] for p in page_players(station.get(f"/m/{match.code}/station"))] == ["Bo"]
    assert list(station.session[station_seats.SESSION_STATION][match.code]) == [Seat.objects.get(name="Bo").key]


def test_a_seat_no_conductor_confirmed_is_kept_and_the_page_asks_again_until_it_is(match, settings):
    from game.conductor import embedded

    embedded.stop()  # the game server is down: nobody stores the join
    settings.EXHIBITION_JOIN_CONFIRM_SECONDS = 0.5
    station = Client()
    assert seat(station, match, "Ada", 0).status_code == 302
    waiting = station.get(f"/m/{match.code}/station")
    assert escape("The match has not confirmed Ada's seat yet") in waiting.content.decode() and waiting["Refresh"] == "2"
    assert not logged_joins(match) and Seat.objects.filter(name="Ada").exists(), "the seat is kept for the retry"

    embedded.ensure_started()
    settings.EXHIBITION_JOIN_CONFIRM_SECONDS = 8
    again = station.get(f"/m/{match.code}/station")  # what the page does by itself after two seconds
    assert "has not confirmed" not in again.content.decode() and "Refresh" not in again
    assert [s["name"] for s in logged_joins(match)] == ["Ada"]
    station.get(f"/m/{match.code}/station")
    assert len(logged_joins(match)) == 1, "asked once more, seated once"
