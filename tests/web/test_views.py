"""The pages: the host builds a match, players join it, and what a person typed is shown as text."""
import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from django.core.exceptions import ValidationError

from game.models import NAME_MAX_LENGTH, Match, MatchEvent, MatchLease, Packet, Question, Seat, Team
from game.live.seat_tokens import make_seat_token
from game.match_setup import TeamSpec, create_match_record

pytestmark = pytest.mark.django_db(transaction=True)  # the conductor reads on a thread of its own

HOSTILE = '<script>alert("pwned")</script><img src=x onerror=alert(1)>'
HOSTILE_NAME = '<script>x</script><img src=x>'  # a name is at most NAME_MAX_LENGTH characters


@pytest.fixture(autouse=True)
def conductor_in_process(settings):
    """The embedded default's conductor on its own thread: a join is seated only once it is stored."""
    from channels.layers import channel_layers

    from game.conductor import embedded

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "serving.local_layer.LocalChannelLayer"}}
    channel_layers.backends = {}
    embedded.ensure_started()
    yield
    embedded.stop()
    channel_layers.backends = {}


def eventually(check, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def logged_joins(match) -> list[dict]:
    """The seats the match's event log has seated, in order."""
    return [e.data["seat"] for e in MatchEvent.objects.filter(match=match, type="seat_joined").order_by("seq")]


@pytest.fixture(autouse=True)
def fresh_join_limit():
    """Every test joins from the same address: each starts with the join limit's window empty."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def packet():
    packet = Packet.objects.create(slug="views", title="View test packet")
    for i, (text, answer) in enumerate([("Which planet is red?", "Mars"), ("Capital of France?", "Paris")], 1):
        Question.objects.create(packet=packet, position=i, kind="short", text=text, answer=answer)
    return packet


@pytest.fixture
def match(packet):
    return create_match_record(title="Friday night", packet=packet, format_name="efficientqa",
                               teams=[TeamSpec("Humans"), TeamSpec("Machines")])


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("host", password="pw-for-tests", is_staff=True)
    client.force_login(user)
    return user


def new_match_post(packet, **changes):
    data = {"title": "Semi-final", "packet": packet.pk, "format_name": "efficientqa", "words_per_minute": 300,
            "reveal": "moderator", "answer_seconds": 12, "points_1": 5, "team_1": "Humans", "team_2": "Computer",
            "bot_500mib": "simulated"}
    data.update(changes)
    return data


# -- host ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/host/", "/m/{code}/moderate", "/host/m/{code}/"])
def test_host_and_moderator_pages_send_anonymous_visitors_to_the_login(client, match, path):
    response = client.get(path.format(code=match.code))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_host_pages_refuse_a_logged_in_player_who_is_not_staff(client, packet):
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    assert client.get("/host/").status_code == 302
    client.post("/host/", new_match_post(packet))
    assert not Match.objects.exists()


def test_login_page_lets_staff_reach_the_console(client, match):
    get_user_model().objects.create_user("mod", password="pw-for-tests", is_staff=True)
    page = client.get(f"/accounts/login/?next=/m/{match.code}/moderate")
    assert page.status_code == 200 and b'name="password"' in page.content
    response = client.post("/accounts/login/", {"username": "mod", "password": "pw-for-tests",
                                                "next": f"/m/{match.code}/moderate"})
    assert response["Location"] == f"/m/{match.code}/moderate"
    assert client.get(f"/m/{match.code}/moderate").status_code == 200


def test_creating_a_match_writes_its_first_event_and_shows_the_links(client, staff, packet):
    response = client.post("/host/", new_match_post(packet))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/host/m/{match.code}/"

    first = MatchEvent.objects.get(match=match)
    assert (first.seq, first.type) == (1, "match_created")
    rules = first.data["rules"]
    assert rules["words_per_minute"] == 300 and rules["reveal"] == "moderator" and rules["answer_seconds"] == 12
    assert [p["points"] for p in rules["phases"]] == [5, 2, 1]  # phase 1 edited, the others as the preset
    assert [t["name"] for t in first.data["teams"]] == ["Humans", "Computer"]
    bot = Seat.objects.get(kind="bot")
    assert bot.bot_tier == "500mib" and bot.bot_config["simulated"] and bot.team.name == "Computer"
    assert {"kind": "bot", "tier": "500mib", "simulated": True}.items() <= first.data["seats"][0].items()
    assert eventually(lambda: MatchLease.objects.filter(match=match).exists()), "the page woke the conductor"

    page = client.get(response["Location"]).content.decode()
    for link in (f"/m/{match.code}/moderate", f"/m/{match.code}/join", f"/m/{match.code}/watch", "/join"):
        assert link in page
    assert f'id="join-code">{match.code}<' in page


def test_a_words_per_minute_out_of_range_is_refused_with_a_reason(client, staff, packet):
    response = client.post("/host/", new_match_post(packet, words_per_minute=1000))
    assert response.status_code == 200
    assert "less than or equal to 600" in response.content.decode()
    assert not Match.objects.exists()


def test_a_packet_without_the_formats_questions_is_refused_readably(client, staff, packet):
    response = client.post("/host/", new_match_post(packet, format_name="quizbowl"))
    assert "has no tossup questions" in response.content.decode()
    assert not Match.objects.exists()


# -- joining ------------------------------------------------------------------------------------

def test_joining_with_a_wrong_code_says_what_to_do(client, match):
    response = client.post("/join", {"code": "NOPE99"})
    assert response.status_code == 400
    assert "No match has the code NOPE99. Check the code on the big screen" in response.content.decode()
    response = client.get("/m/NOPE99/join")
    assert response.status_code == 404 and "No match has the code NOPE99" in response.content.decode()


def test_a_code_typed_in_lower_case_with_spaces_finds_the_match(client, match):
    typed = " ".join(match.code.lower())
    response = client.post("/join", {"code": typed})
    assert response["Location"] == f"/m/{match.code}/join"


def test_a_finished_match_takes_no_new_players(client, match):
    match.status = Match.Status.FINISHED
    match.save()
    response = client.post("/join", {"code": match.code})
    assert "has finished" in response.content.decode()


def join(client, match, name, team_position):
    team = match.teams.get(position=team_position)
    return client.post(f"/m/{match.code}/join", {"name": name, "team": team.pk})


def test_the_first_player_on_a_team_becomes_its_captain(match):
    first, second, other = Client(), Client(), Client()
    assert join(first, match, "Ada", 0)["Location"] == f"/m/{match.code}/play"
    join(second, match, "Brook", 0)
    join(other, match, "Cy", 1)
    seats = {s.name: s for s in Seat.objects.filter(kind="human")}
    assert seats["Ada"].captain and not seats["Brook"].captain and seats["Cy"].captain
    assert seats["Ada"].team.position == 0 and seats["Cy"].team.position == 1

    joins = logged_joins(match)
    assert [seat["name"] for seat in joins] == ["Ada", "Brook", "Cy"], "each in the log before the phone plays"
    assert [seat["captain"] for seat in joins] == [True, False, True]


def test_a_player_who_reloads_keeps_their_seat(client, match):
    join(client, match, "Ada", 0)
    seat = Seat.objects.get(name="Ada")
    page = client.get(f"/m/{match.code}/play")
    assert page.status_code == 200
    config = json.loads(re.search(r'id="page-config" type="application/json">(.*?)</script>', page.content.decode()).group(1))
    assert config["socket"] == f"/ws/m/{match.code}/play" and config["seat"] == seat.key
    # The socket reads the token from the session: the page never shows it, so no script or URL carries it.
    assert "token" not in config and client.session["seats"][match.code] not in page.content.decode()
    assert client.get(f"/m/{match.code}/join")["Location"] == f"/m/{match.code}/play"
    assert Seat.objects.filter(kind="human").count() == 1


def test_the_play_page_without_a_seat_sends_you_to_join(client, match):
    assert client.get(f"/m/{match.code}/play")["Location"] == f"/m/{match.code}/join"


def test_a_seat_token_for_another_match_opens_no_seat_here(client, match, packet):
    other = create_match_record(title="Other", packet=packet, format_name="efficientqa",
                                teams=[TeamSpec("A"), TeamSpec("B")])
    join(client, other, "Ada", 0)
    session = client.session
    session["seats"] = {match.code: session["seats"][other.code]}
    session.save()
    assert client.get(f"/m/{match.code}/play")["Location"] == f"/m/{match.code}/join"


def give_up(match, seat: Seat, by: str = "player"):
    """The seat is given up through the match's conductor, as its player or the moderator would."""
    from game.web.views import ask_conductor

    if by == "player":
        command = {"type": "leave", "actor": {"role": "player", "seat": seat.key, "team": seat.team.key}}
    else:
        command = {"type": "kick", "actor": {"role": "moderator"}, "data": {"seat": seat.key}}
    reply = ask_conductor({"type": "command", "match": match.code, "ref": None, "command": command}, 8)
    assert reply["ok"], reply


@pytest.mark.parametrize("by", ["player", "moderator"])
def test_a_seat_given_up_is_forgotten_and_its_name_and_captaincy_are_free(client, match, by):
    join(client, match, "Ada", 0)
    ada = Seat.objects.get(name="Ada")
    give_up(match, ada, by)
    ada.refresh_from_db()
    assert ada.left is not None and ada.credential == 1 and not ada.captain

    assert client.get(f"/m/{match.code}/play")["Location"] == f"/m/{match.code}/join"
    assert match.code not in client.session["seats"]  # the token that stopped working is forgotten
    assert client.get(f"/m/{match.code}/join").status_code == 200  # the join form, not a redirect to play
    assert join(client, match, "ada", 0)["Location"] == f"/m/{match.code}/play"  # the name is free again
    newcomer = Seat.objects.get(name="ada")
    assert newcomer.captain  # the team had no captain left
    assert client.get(f"/m/{match.code}/play").status_code == 200


def test_an_expired_seat_token_is_forgotten(client, match, settings):
    join(client, match, "Ada", 0)
    settings.EXHIBITION_SEAT_TOKEN_HOURS = -1  # every token is past its age
    assert client.get(f"/m/{match.code}/play")["Location"] == f"/m/{match.code}/join"
    assert match.code not in client.session["seats"]


def test_a_token_made_before_the_seat_was_given_up_stays_refused(client, match):
    join(client, match, "Ada", 0)
    ada = Seat.objects.get(name="Ada")
    old = make_seat_token(ada)
    give_up(match, ada)
    session = client.session
    session["seats"] = {match.code: old}
    session.save()
    assert client.get(f"/m/{match.code}/play")["Location"] == f"/m/{match.code}/join"


def test_a_blank_name_is_refused(client, match):
    response = join(client, match, "   ", 0)
    assert response.status_code == 400 and not Seat.objects.exists()


# -- how long a name may be: said on the join page, checked by the forms and the models ----

def test_the_join_page_says_how_long_a_name_may_be_and_its_box_stops_there(client, match):
    page = client.get(f"/m/{match.code}/join").content.decode()
    assert f"Up to {NAME_MAX_LENGTH} characters" in page
    assert re.search(rf'<input[^>]*name="name"[^>]*maxlength="{NAME_MAX_LENGTH}"', page)
    assert 'aria-describedby="name-help"' in page and 'id="name-help"' in page


def test_a_name_one_character_too_long_is_refused_with_the_limit_and_the_longest_is_taken(client, match):
    response = join(client, match, "W" * (NAME_MAX_LENGTH + 1), 0)
    assert response.status_code == 400 and not Seat.objects.exists()
    assert (f"A name is at most {NAME_MAX_LENGTH} characters (this one has {NAME_MAX_LENGTH + 1}); shorten it."
            in response.content.decode())
    assert join(client, match, "W" * NAME_MAX_LENGTH, 0)["Location"] == f"/m/{match.code}/play"
    assert [seat["name"] for seat in logged_joins(match)] == ["W" * NAME_MAX_LENGTH]


def test_a_team_name_one_character_too_long_is_refused_on_the_host_page(client, staff, packet):
    page = client.get("/host/").content.decode()
    assert page.count(f'maxlength="{NAME_MAX_LENGTH}"') == 2 and f"Up to {NAME_MAX_LENGTH} characters" in page
    response = client.post("/host/", new_match_post(packet, team_1="T" * (NAME_MAX_LENGTH + 1)))
    assert response.status_code == 200 and not Match.objects.exists()
    assert f"A name is at most {NAME_MAX_LENGTH} characters" in response.content.decode()
    client.post("/host/", new_match_post(packet, team_1="T" * NAME_MAX_LENGTH))
    assert Match.objects.get().teams.get(position=0).name == "T" * NAME_MAX_LENGTH


def test_the_models_check_the_same_limit_for_teams_and_people_not_for_a_bots_seat(match):
    team = match.teams.get(position=0)
    with pytest.raises(ValidationError, match="at most"):
        Team(match=match, position=5, name="T" * (NAME_MAX_LENGTH + 1)).full_clean()
    with pytest.raises(ValidationError, match="at most"):
        Seat(team=team, name="W" * (NAME_MAX_LENGTH + 1)).full_clean()
    Seat(team=team, name="W" * NAME_MAX_LENGTH).full_clean()
    Seat(team=team, name="a-registered-bot-with-a-long-name-of-its-own-up-to-60", kind="bot", bot_tier="6gib").full_clean()


def test_names_stored_before_the_limit_still_open_every_page(client, staff, packet):
    """A match made when names could be 80 (teams) and 60 (players) characters long still works."""
    old = create_match_record(title="Old match", packet=packet, format_name="efficientqa",
                              teams=[TeamSpec("H" * 80), TeamSpec("M" * 80)])
    Seat.objects.create(team=old.teams.get(position=0), name="P" * 60)
    for path in (f"/host/m/{old.code}/", f"/m/{old.code}/join", f"/m/{old.code}/watch", f"/m/{old.code}/moderate"):
        assert client.get(path).status_code == 200, path
    assert join(client, old, "Newcomer", 0)["Location"] == f"/m/{old.code}/play"


# -- escaping -----------------------------------------------------------------------------------

def test_a_players_typed_name_is_escaped_on_every_page_that_shows_it(client, staff, match):
    player = Client()
    join(player, match, HOSTILE_NAME, 0)
    pages = [player.get(f"/m/{match.code}/play"), client.get(f"/host/m/{match.code}/")]
    for page in pages:
        text = page.content.decode()
        assert HOSTILE_NAME not in text and "<img src=x" not in text
        assert str(escape(HOSTILE_NAME)) in text


def test_a_match_title_typed_by_the_host_is_escaped_on_the_public_pages(client, packet):
    match = create_match_record(title=HOSTILE, packet=packet, format_name="efficientqa",
                                teams=[TeamSpec(HOSTILE), TeamSpec("B")])
    for path in ("/", f"/m/{match.code}/watch", f"/m/{match.code}/join"):
        text = client.get(path).content.decode()
        assert HOSTILE not in text and str(escape(HOSTILE)) in text


# -- public pages -------------------------------------------------------------------------------

def test_home_lists_live_matches_with_watch_and_join_links_and_finished_ones_apart(client, match, packet):
    done = create_match_record(title="Last week", packet=packet, format_name="efficientqa",
                               teams=[TeamSpec("A"), TeamSpec("B")])
    done.status = Match.Status.FINISHED
    done.save()
    text = client.get("/").content.decode()
    live_part, finished_part = text.split("Finished", 1)
    assert "Friday night" in live_part and f"/m/{match.code}/watch" in live_part and f"/m/{match.code}/join" in live_part
    assert "Last week" in finished_part and f"/m/{done.code}/join" not in text


def test_the_spectator_screen_is_public_and_names_its_socket(client, match):
    text = client.get(f"/m/{match.code}/watch").content.decode()
    assert f"/ws/m/{match.code}/watch" in text and match.code in text


# -- join limits --------------------------------------------------------------------------------

def test_a_name_taken_in_the_match_is_refused_with_a_clear_message(match):
    assert join(Client(), match, "Ada", 0).status_code == 302
    response = join(Client(), match, "  ada ", 1)
    assert response.status_code == 400
    assert "already called ada" in response.content.decode()
    assert Seat.objects.filter(kind="human").count() == 1


def test_joins_from_one_address_are_limited_per_minute(match, settings):
    settings.EXHIBITION_JOINS_PER_MINUTE = 3
    from django.core.cache import cache

    cache.clear()
    codes = [join(Client(), match, f"Player {i}", 0).status_code for i in range(5)]
    assert codes == [302, 302, 302, 429, 429]
    assert Seat.objects.filter(kind="human").count() == 3
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert join(other, match, "From elsewhere", 1).status_code == 302, "another device is not held back"


def test_behind_the_proxy_a_client_rotating_forged_addresses_is_still_limited(match, settings):
    settings.BEHIND_PROXY, settings.EXHIBITION_JOINS_PER_MINUTE = True, 3
    from django.core.cache import cache

    cache.clear()
    # nginx (172.18.0.5) appends the address it saw; the client wrote a new one to the left each time.
    codes = [join(Client(REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, 198.51.100.23"),
                  match, f"Player {i}", 0).status_code for i in range(5)]
    assert codes == [302, 302, 302, 429, 429]
    other = Client(REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert join(other, match, "From elsewhere", 1).status_code == 302, "another client of the proxy is not held back"


def test_a_full_match_takes_no_more_players(match, settings):
    settings.EXHIBITION_MAX_PLAYERS = 2
    from django.core.cache import cache

    cache.clear()
    assert [join(Client(REMOTE_ADDR=f"10.0.0.{i}"), match, f"P{i}", 0).status_code for i in range(3)] == [302, 302, 400]
    assert "This match is full" in join(Client(REMOTE_ADDR="10.0.1.1"), match, "Late", 1).content.decode()


def test_a_phone_is_sent_to_play_only_once_its_join_is_in_the_log(match):
    response = join(Client(), match, "Ada", 0)
    assert response.status_code == 302 and [seat["name"] for seat in logged_joins(match)] == ["Ada"]


def test_a_join_no_conductor_stored_is_answered_try_again_and_the_retry_seats_the_player(client, match, settings):
    from game.conductor import embedded

    embedded.stop()  # the game server is down: nobody stores the join
    settings.EXHIBITION_JOIN_CONFIRM_SECONDS = 0.5
    response = join(client, match, "Ada", 0)
    assert response.status_code == 202 and response["Retry-After"] == "2"  # accepted, not yet done
    text = response.content.decode()
    assert "Taking your seat, Ada" in text and f'href="/m/{match.code}/join" data-retry-seconds="2"' in text
    assert not logged_joins(match) and Seat.objects.filter(name="Ada").exists(), "the seat is kept for the retry"

    embedded.ensure_started()
    settings.EXHIBITION_JOIN_CONFIRM_SECONDS = 8
    again = client.get(f"/m/{match.code}/join")  # what the page does by itself after two seconds
    assert again.status_code == 302 and again["Location"] == f"/m/{match.code}/play"
    assert [seat["name"] for seat in logged_joins(match)] == ["Ada"]
    assert client.get(f"/m/{match.code}/join")["Location"] == f"/m/{match.code}/play", "asking twice seats once"
    assert len(logged_joins(match)) == 1


def test_a_join_the_rules_refuse_gives_the_seat_back_and_says_why(client, match):
    from game.web.views import ask_conductor

    # A seat the log has that the seats table does not: the rules refuse a second "Zed".
    reply = ask_conductor({"type": "command", "match": match.code, "ref": None, "command": {
        "type": "join", "actor": {"role": "system"},
        "data": {"seat": {"id": "s9999", "name": "Zed", "team": "t0", "kind": "human"}}}}, 8)
    assert reply["ok"]
    response = join(client, match, "Zed", 0)
    assert response.status_code == 409 and "already has that name" in response.content.decode()
    assert not Seat.objects.filter(name="Zed").exists()
    assert match.code not in client.session.get("seats", {}), "the phone holds no seat the log does not"


# -- seats: people join human teams only -------------------------------------------------------

@pytest.fixture
def match_with_bots(packet):
    from game.match_setup import SeatSpec

    return create_match_record(title="Humans v machine", packet=packet, format_name="efficientqa", teams=[
        TeamSpec("Humans"), TeamSpec("Machines", seats=[SeatSpec("Tiny bot", kind="bot", tier="500mib",
                                                                  config={"kind": "simulated", "simulated": True})])])


def test_the_join_form_offers_only_the_human_teams(client, match_with_bots):
    page = client.get(f"/m/{match_with_bots.code}/join").content.decode()
    humans, machines = match_with_bots.teams.order_by("position")
    assert f'value="{humans.pk}"' in page and f'value="{machines.pk}"' not in page
    assert 'The computer plays as <span class="computer-team">Machines</span>' in page
    first = MatchEvent.objects.get(match=match_with_bots, seq=1).data["teams"]
    assert [(t["name"], t["kind"]) for t in first] == [("Humans", "human"), ("Machines", "computer")]


def test_the_only_human_team_is_chosen_already_and_two_leave_the_choice_to_the_player(client, match_with_bots, match):
    checked = re.compile(r'<input type="radio" name="team" value="(\d+)"[^>]* checked')
    humans = match_with_bots.teams.get(position=0)
    assert checked.findall(client.get(f"/m/{match_with_bots.code}/join").content.decode()) == [str(humans.pk)]
    assert checked.findall(client.get(f"/m/{match.code}/join").content.decode()) == []


def test_a_person_cannot_take_a_seat_on_the_computers_team(client, match_with_bots):
    machines = match_with_bots.teams.get(position=1)
    response = client.post(f"/m/{match_with_bots.code}/join", {"name": "Mallory", "team": machines.pk})
    assert response.status_code == 400
    assert "That team is the computer&#x27;s" in response.content.decode()
    assert not Seat.objects.filter(kind="human").exists()
    assert not logged_joins(match_with_bots)


def test_a_bots_name_is_taken_too(match_with_bots):
    response = join(Client(), match_with_bots, " tiny BOT ", 0)
    assert response.status_code == 400 and "already called tiny BOT" in response.content.decode()
