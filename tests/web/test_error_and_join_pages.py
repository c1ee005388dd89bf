"""The big screen's join address and QR code, and the project's own 404 and 500 pages."""
import pytest
from django.test import Client
from django.urls import include, path

from game.models import Packet, Question
from game.match_setup import TeamSpec, create_match_record

pytestmark = pytest.mark.django_db


def broken_view(request):
    raise RuntimeError("a bug")


# This module is also a URLconf (pytest.mark.urls below): the site's pages plus one that fails.
urlpatterns = [path("broken", broken_view), path("", include("game.web.urls"))]


@pytest.fixture
def match():
    packet = Packet.objects.create(slug="pages", title="Pages packet")
    Question.objects.create(packet=packet, position=1, kind="short", text="Which planet is red?", answer="Mars")
    return create_match_record(title="Hall night", packet=packet, format_name="efficientqa",
                               teams=[TeamSpec("Humans"), TeamSpec("Machines")])


@pytest.fixture
def lan(monkeypatch):
    """This machine's LAN address, as its network interfaces would report it."""
    monkeypatch.setattr("serving.hall.lan_addresses", lambda: ["192.168.1.23"])


def test_in_hall_mode_the_screen_opened_on_the_server_names_the_lan_address_and_its_qr_code(match, settings, lan):
    settings.EXHIBITION_HALL = True
    page = Client(HTTP_HOST="127.0.0.1:8000").get(f"/m/{match.code}/watch").content.decode()
    assert 'data-url="http://192.168.1.23:8000/join"' in page
    assert ">192.168.1.23:8000/join</strong>" in page
    assert f'id="join-qr" class="qr" href="http://192.168.1.23:8000/m/{match.code}/join"' in page
    qr = page.split('id="join-qr"', 1)[1].split("</a>", 1)[0]
    assert "<svg" in qr and "viewBox" in qr
    assert "127.0.0.1" not in page.split("<main", 1)[1]


def test_without_hall_mode_a_loopback_address_gets_no_qr_code_and_says_why(match, settings, lan):
    settings.EXHIBITION_HALL = False
    page = Client(HTTP_HOST="127.0.0.1:8000").get(f"/m/{match.code}/watch").content.decode()
    assert ">127.0.0.1:8000/join</strong>" in page
    assert 'id="join-qr"' not in page
    assert "only this computer can open this address" in page


def test_a_public_url_is_what_the_screen_hands_out(match, settings):
    settings.EXHIBITION_PUBLIC_URL = "https://quiz.example.org"
    page = Client(HTTP_HOST="127.0.0.1:8000").get(f"/m/{match.code}/watch").content.decode()
    assert f'href="https://quiz.example.org/m/{match.code}/join"' in page


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("page", ["watch", "play", "replay", "boxscore"])
def test_a_bad_match_code_shows_the_projects_404_with_what_to_do_next(client, settings, debug, page):
    settings.DEBUG = debug  # the demo runs with DEBUG on: it must show the same page, not Django's
    response = client.get(f"/m/NOPE42/{page}")
    assert response.status_code == 404
    text = response.content.decode()
    assert "There is no match with the code NOPE42. Check the code on the big screen and type it again" in text
    assert 'class="site-header"' in text and 'href="/join"' in text


def test_a_replay_that_is_not_open_yet_says_so(client, match):
    response = client.get(f"/m/{match.code}/replay")
    assert response.status_code == 404
    assert "its replay opens when it ends" in response.content.decode()


def test_an_unknown_address_shows_the_projects_404(client, settings):
    settings.DEBUG = False
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "There is nothing at this address" in response.content.decode()


@pytest.mark.urls(__name__)
def test_a_server_error_shows_the_projects_500_page(settings):
    settings.DEBUG = False
    response = Client(raise_request_exception=False).get("/broken")
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something went wrong on the server" in text and "every move is kept in its event log" in text
