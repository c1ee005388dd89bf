"""Registering a remote bot from the host page and from build_bot: one check against the running bot
(a real HTTP server on this machine), one code path, and a sentence for every way it can go wrong."""
import io
import socket

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.models import Bot
from game.models import Match, Packet, Question, Seat
from tests.bots.test_remote import STATUS, qanta

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(client):
    client.force_login(get_user_model().objects.create_user("host", password="pw-for-tests", is_staff=True))
    return client


def json_bot(method, path, body):
    if method != "POST":
        return 405, {"error": "POST a query"}
    return 200, {"guess": "Hamlet", "confidence": 0.4, "buzz": False, "alternatives": [["Hamlet", 0.4]]}


def register(client, name, url, protocol):
    return client.post("/host/bots/remote", {"name": name, "url": url, "protocol": protocol}, follow=True)


def page_text(response) -> str:
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


def free_port() -> int:
    with socket.socket() as sock:  # free a moment ago, nobody listening now
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_ready_qanta_bot_registers_from_the_host_page_and_can_take_the_unlimited_seat(host, serve):
    server = serve(qanta())
    response = register(host, "far-qanta", server.url, "remote_qanta")
    assert "Remote bot far-qanta registered (ready; batches of 8)" in page_text(response)
    assert ("GET", "/api/1.0/quizbowl/status", None) in server.received
    bot = Bot.objects.get(name="far-qanta")
    assert (bot.kind, bot.tier, bot.config) == ("remote_qanta", "unlimited", {"url": server.url})
    # It is offered for the unlimited tier's seat, and a match seats it, pinned to its build.
    page = host.get("/host/").content.decode()
    unlimited = page.split('name="bot_unlimited"', 1)[1].split("</select>", 1)[0]
    assert f'value="{bot.pk}">far-qanta<' in unlimited
    packet = Packet.objects.create(slug="reg", title="Registration packet")
    Question.objects.create(packet=packet, position=1, kind="short", text="Which planet is red?", answer="Mars")
    made = host.post("/host/", {"title": "With a remote bot", "packet": packet.pk, "format_name": "efficientqa",
                                "team_1": "Humans", "team_2": "Computer", "bot_unlimited": str(bot.pk)})
    assert made.status_code == 302, page_text(made)
    seat = Seat.objects.get(kind="bot", team__match=Match.objects.get())
    assert (seat.bot_tier, seat.bot_config) == ("unlimited", {"bot": "far-qanta", "build": bot.current_build.pk})


def test_a_json_bot_registers_after_answering_a_test_query(host, serve):
    server = serve(json_bot)
    response = register(host, "far-json", server.url + "/act", "remote_json")
    assert "answered a test query (guess 'Hamlet', confidence 0.4)" in page_text(response)
    method, path, body = server.received[0]
    assert (method, path, body["text"], body["tier"]) == ("POST", "/act", "Exhibition", "unlimited")
    assert Bot.objects.get(name="far-json").kind == "remote_json"


@pytest.mark.parametrize("case, expected", [
    ("not ready", "answers but says it is not ready"),
    ("unreachable", "Could not reach the remote bot"),
    ("json bot as qanta", "Something answers there, but not in the protocol chosen"),
    ("qanta bot as json", "Something answers there, but not in the protocol chosen"),
    ("bad status", "should answer {ready: bool"),
])
def test_a_bot_that_is_not_there_not_ready_or_speaks_another_protocol_is_refused_with_a_reason(
        host, serve, case, expected):
    url, protocol = {
        "not ready": (lambda: serve(qanta(status={**STATUS, "ready": False})).url, "remote_qanta"),
        "unreachable": (lambda: f"http://127.0.0.1:{free_port()}", "remote_qanta"),
        "json bot as qanta": (lambda: serve(json_bot).url, "remote_qanta"),
        "qanta bot as json": (lambda: serve(qanta()).url, "remote_json"),
        "bad status": (lambda: serve(qanta(status={"ready": "yes"})).url, "remote_qanta"),
    }[case]
    response = register(host, "far", url(), protocol)
    assert response.status_code == 400
    assert expected in page_text(response)
    assert not Bot.objects.exists()


def test_the_name_of_a_bot_of_another_kind_is_not_overwritten(host, serve):
    Bot.objects.create(name="reader", kind="retriever_reader", tier="6gib", config={})
    response = register(host, "reader", serve(qanta()).url, "remote_qanta")
    assert "There is already a bot called 'reader' (passage retriever-reader); pick another name." in page_text(response)
    assert Bot.objects.get(name="reader").kind == "retriever_reader"


def test_only_staff_may_register(client, serve):
    server = serve(qanta())
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    response = client.post("/host/bots/remote", {"name": "far", "url": server.url, "protocol": "remote_qanta"})
    assert response.status_code == 302 and not Bot.objects.exists() and not server.received


def test_the_command_line_makes_the_same_check(serve):
    waiting = serve(qanta(status={**STATUS, "ready": False})).url
    with pytest.raises(CommandError, match="answers but says it is not ready"):
        call_command("build_bot", "remote_qanta", "--name", "far", "--url", waiting, stdout=io.StringIO())
    with pytest.raises(CommandError, match="plays only in the unlimited tier"):
        call_command("build_bot", "remote_qanta", "--name", "far", "--url", serve(qanta()).url, "--tier", "6gib",
                     stdout=io.StringIO())
    assert not Bot.objects.exists()
    out = io.StringIO()
    call_command("build_bot", "remote_qanta", "--name", "far", "--url", serve(qanta()).url, stdout=out)
    assert "registered as build 1 in the unlimited tier: ready; batches of 8" in out.getvalue()
