"""The question order through the pages and commands people use: the host chooses it on the new-match
page, the match plays what it picks, the settings are kept with the match and in its first event
(so the match can be made again), and the host's match page, the box score and the exports show them."""
from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from game.engine.formats import make_rules
from game.engine.selection import QuestionOrder, has_power_mark, select_questions
from game.management.commands.simulate import play_simulated_match
from game.models import Match, MatchEvent, Packet, Question
from tests.web.test_host_rules import host  # noqa: F401  (fixture: a signed-in host)

pytestmark = pytest.mark.django_db

CATEGORIES = ("History", "Science", "Literature")


@pytest.fixture
def packet():
    """30 tossups (categories in turn, every third with a power mark) and 12 short questions."""
    packet = Packet.objects.create(slug="order", title="Order packet")
    for i in range(1, 31):
        Question.objects.create(packet=packet, position=i, kind="tossup", category=CATEGORIES[i % 3],
                                text=f"Tossup {i} clue {'(*) ' if i % 3 == 1 else ''}for ten points, name it.",
                                answer=f"Answer {i}")
    for i in range(31, 43):
        Question.objects.create(packet=packet, position=i, kind="short", category="Sport", text=f"Short {i}?",
                                answer=f"Answer {i}")
    return packet


def post(packet, **values):
    return {"title": "Order night", "packet": packet.pk, "format_name": "quizbowl", "team_1": "Humans",
            "team_2": "Computer", "order": "packet", "start_at": 1, "bot_500mib": "simulated", **values}


def created(match) -> dict:
    return MatchEvent.objects.get(match=match, seq=1).data


def field_errors(page: str, name: str) -> str:
    """The page from the form field `name` to the next field: where its help and its errors are."""
    after = page.split(f'name="{name}"', 1)[1]
    return re.split(rf'name="(?!{name}")', after, maxsplit=1)[0]


def test_the_host_page_offers_every_packets_categories_and_what_each_packet_holds(host, packet):
    other = Packet.objects.create(slug="other", title="Other packet")
    Question.objects.create(packet=other, position=1, kind="tossup", category="Mythology", text="Zeus?", answer="Zeus")
    page = host.get("/host/").content.decode()
    for category in (*CATEGORIES, "Mythology", "Sport"):
        assert re.search(rf'<input type="checkbox" name="categories" value="{category}"', page), category
    assert re.search(r'<input type="radio" name="order" value="shuffled"', page)
    assert 'name="seed"' in page and 'name="start_at"' in page and 'name="prefer_power"' in page
    assert "in the packet&#x27;s own order, before the categories and the shuffle" in page
    outlines = json.loads(re.search(r'<script id="packet-outlines" type="application/json">(.*?)</script>',
                                    page, re.S).group(1))
    tossups = outlines["packets"][str(packet.pk)]["tossup"]
    assert len(tossups["questions"]) == 30 and outlines["reserve"] == 10
    # question i: its category's index, doubled, plus one when it has a power mark
    first = [(tossups["categories"][code >> 1], bool(code & 1)) for code in tossups["questions"][:3]]
    assert first == [("Science", True), ("Literature", False), ("History", False)]
    assert outlines["packets"][str(other.pk)] == {"tossup": {"categories": ["Mythology"], "questions": [0]}}


def test_the_order_the_host_chooses_is_stored_and_is_the_order_the_match_plays(host, packet):
    response = host.post("/host/", post(packet, order="shuffled", seed=4242, start_at=4, questions=5,
                                        categories=["History", "Science"], prefer_power="on"))
    assert response.status_code == 302, response.content.decode()
    match = Match.objects.get()
    settings = {"order": "shuffled", "seed": 4242, "start_at": 4, "categories": ["History", "Science"],
                "prefer_power": True}
    assert match.question_order == settings
    data = created(match)
    assert data["question_order"] == settings
    played = data["questions"]
    assert len(played) == 5 + 10, "five to play, ten in reserve"
    positions = [int(q["qid"].split(":")[1]) for q in played]
    assert min(positions) >= 4 and {q["category"] for q in played} == {"History", "Science"}
    marked = [has_power_mark(q) for q in played]
    assert marked == sorted(marked, reverse=True) and marked[:5] == [True] * 5, "power-marked tossups first"
    # Made again from the stored settings, the packet gives the same questions in the same order.
    again = select_questions([q.as_engine_dict() for q in packet.questions.filter(kind="tossup").order_by("position")],
                             QuestionOrder.from_dict(match.question_order), data["rules"])
    assert [q["qid"] for q in again[:15]] == [q["qid"] for q in played]


def test_a_shuffle_left_unseeded_gets_a_seed_that_is_kept_and_shown(host, packet):
    response = host.post("/host/", post(packet, order="shuffled", seed=""))
    assert response.status_code == 302
    match = Match.objects.get()
    seed = match.question_order["seed"]
    assert isinstance(seed, int) and created(match)["question_order"]["seed"] == seed
    tossups = [q.as_engine_dict() for q in packet.questions.filter(kind="tossup").order_by("position")]
    again = select_questions(tossups, QuestionOrder.from_dict(match.question_order), make_rules("quizbowl"))
    assert [q["qid"] for q in again[:30]] == [q["qid"] for q in created(match)["questions"]]
    page = host.get(response["Location"]).content.decode()
    assert f"Shuffled with seed {seed}; every category" in page
    assert "20 tossups to play and 10 in reserve for throw-outs and tiebreakers." in page


def test_packet_order_is_the_default_and_a_seed_typed_for_it_is_not_kept(host, packet):
    assert host.post("/host/", post(packet, seed=99)).status_code == 302
    match = Match.objects.get()
    assert match.question_order == {"order": "packet", "seed": None, "start_at": 1, "categories": [],
                                    "prefer_power": False}
    assert [q["qid"] for q in created(match)["questions"]] == [f"order:{i}" for i in range(1, 31)]


@pytest.mark.parametrize("values, field, message", [
    ({"start_at": 31}, "start_at", "The packet has 30 tossups; start at a question from 1 to 30 (not 31)."),
    ({"start_at": 0}, "start_at", "greater than or equal to 1"),
    ({"categories": ["Sport"]}, "categories",
     "The packet has no tossups in Sport; choose among History, Literature or Science."),
    ({"start_at": 29, "categories": ["Science"]}, "categories",
     "The packet&#x27;s 10 tossups in Science all come before question 29; start earlier or choose more categories."),
    ({"format_name": "efficientqa", "prefer_power": "on"}, "prefer_power", "This format gives no power points"),
    ({"order": "shuffled", "seed": -4}, "seed", "greater than or equal to 0"),
])
def test_settings_that_cannot_be_played_are_refused_at_their_field_and_nothing_is_made(host, packet, values, field,
                                                                                     message):
    response = host.post("/host/", post(packet, **values))
    assert response.status_code == 200
    assert message in field_errors(response.content.decode(), field)
    assert not Match.objects.exists()


def test_a_filter_leaving_fewer_questions_than_the_match_asks_for_plays_those_and_says_so(host, packet):
    response = host.post("/host/", post(packet, categories=["History"]), follow=True)
    match = Match.objects.get()
    assert len(created(match)["questions"]) == 10
    page = response.content.decode()
    warning = ("The packet and the question order leave 10 tossups, not the 20 the match asks for: the match plays "
               "10, with none in reserve for a throw-out or a tiebreaker.")
    assert warning in page
    assert "Packet order; categories: History" in page
    assert "10 tossups to play (20 asked for), none in reserve." in page, "on the match page for as long as it lasts"
    assert warning not in host.get(f"/host/m/{match.code}/").content.decode(), "said once"


def test_the_box_score_shows_the_order_and_only_staff_see_its_seed(client, packet):
    order = QuestionOrder(order="shuffled", seed=5150, start_at=2, categories=("History", "Science"))
    _, match = play_simulated_match(packet, "quizbowl", seed=3, questions=3, order=order)
    public = client.get(f"/m/{match.code}/boxscore").content.decode()
    assert "Questions: shuffled; from question 2; categories: History, Science" in public
    assert "5150" not in public
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("staff", password="x", is_staff=True))
    assert "Questions: shuffled with seed 5150; from question 2" in staff.get(f"/m/{match.code}/boxscore").content.decode()


def test_the_exported_archive_carries_the_order_and_an_import_keeps_it(packet, tmp_path):
    order = QuestionOrder(order="shuffled", seed=77, categories=("Science",), prefer_power=True)
    _, match = play_simulated_match(packet, "quizbowl", seed=4, questions=3, order=order)
    call_command("export_match", match.code, "-o", str(tmp_path), stdout=io.StringIO())
    lines = (tmp_path / f"{match.code}.events.jsonl").read_text().splitlines()
    header, first = json.loads(lines[0]), json.loads(lines[1])
    assert header["match"]["question_order"] == order.to_dict() == first["data"]["question_order"]
    Match.objects.filter(pk=match.pk).delete()
    call_command("import_match", str(tmp_path / f"{match.code}.events.jsonl"), stdout=io.StringIO())
    assert Match.objects.get(code=match.code).question_order == order.to_dict()


def test_an_archive_with_a_question_order_this_installation_cannot_read_is_refused(packet, tmp_path):
    _, match = play_simulated_match(packet, "quizbowl", seed=4, questions=2)
    call_command("export_match", match.code, "-o", str(tmp_path), stdout=io.StringIO())
    path = tmp_path / f"{match.code}.events.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[1])
    first["data"]["question_order"] = {"order": "by difficulty"}
    path.write_text("\n".join([lines[0], json.dumps(first), *lines[2:]]) + "\n")
    with pytest.raises(CommandError, match="Line 2: match_created's question order is not one this installation "
                                           "reads: The order is 'packet' or 'shuffled', not 'by difficulty'."):
        call_command("import_match", str(path), stdout=io.StringIO())


def test_simulate_takes_the_same_settings_as_the_host_page(packet):
    out = io.StringIO()
    call_command("simulate", "--format", "quizbowl", "--packet", "order", "--questions", "2", "--order", "shuffled",
                 "--order-seed", "31", "--start-at", "10", "--category", "Science", "--category", "History",
                 "--prefer-power", stdout=out)
    match = Match.objects.get()
    assert match.question_order == {"order": "shuffled", "seed": 31, "start_at": 10,
                                    "categories": ["Science", "History"], "prefer_power": True}
    assert "Questions: shuffled with seed 31; from question 10; categories: Science, History; tossups with a power " \
           "mark first" in out.getvalue()


@pytest.mark.parametrize("args, message", [
    (["--order-seed", "3"], "--order-seed is the shuffle's seed: add --order shuffled."),
    (["--start-at", "31"], "The packet has 30 tossups; start at a question from 1 to 30 (not 31)."),
    (["--start-at", "0"], "Start at question 1 or later; got 0."),
])
def test_simulate_refuses_settings_that_cannot_be_played(packet, args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("simulate", "--format", "quizbowl", "--packet", "order", *args, stdout=io.StringIO())
    assert not Match.objects.exists()
