"""The tournament pages: only staff create a tournament, start rounds and the playoffs, and download its
files; the standings and room screens are public and read-only; a round starts only when the rounds
before it have finished; each game is a match with its moderator and hall links; names are escaped."""
import pytest
from django.test import Client
from django.utils.html import escape

from events.management.commands.simulate_event import play
from game.demo import ensure_demo_packet
from game.models import Match
from tests.events.test_host_pages import host, login  # noqa: F401  (host is a fixture)
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db
EVIL = "<b>Owls</b>"


def form(**extra):
    data = {"name": "City open", "format_name": "quizbowl", "kind": "full", "pools": 1, "playoff_size": 2,
            "packet": ensure_demo_packet().pk, "questions": 3, "seed": 4, "reveal": "clock",
            "words_per_minute": 200,
            "teams": f"{EVIL} | Ann, Ben\nFoxes | Cat\nComputer | | 500mib\nMixed | Dan | 6gib"}
    return {**data, **extra}


@pytest.fixture
def tournament(host):
    reply = host.post("/host/tournaments/", form())
    assert reply.status_code == 302
    return Tournament.objects.get()


def finish(game: TournamentGame):
    play(game.match, 0.6, game.pk, f"G{game.pk:05d}")


def test_the_host_creates_a_tournament_with_its_teams_and_round_robin(host, tournament):
    teams = list(tournament.teams.order_by("position"))
    assert [(t.name, t.players, t.bot_tier, t.kind) for t in teams] == [
        (EVIL, ["Ann", "Ben"], "", "human"), ("Foxes", ["Cat"], "", "human"), ("Computer", [], "500mib", "computer"),
        ("Mixed", ["Dan"], "6gib", "mixed")]
    assert tournament.rounds.count() == 3 and TournamentGame.objects.count() == 6
    page = host.get(f"/host/tournaments/{tournament.pk}/").content.decode()
    assert "&lt;b&gt;Owls&lt;/b&gt;" in page and EVIL not in page
    assert "Start Round 1" in page and "Room 2 screen" in page


def test_starting_a_round_makes_a_match_a_room_with_its_links_and_the_next_waits(host, tournament):
    first = tournament.rounds.get(number=1)
    assert host.post(f"/host/tournaments/{tournament.pk}/rounds/{first.pk}/start").status_code == 302
    games = list(first.games.order_by("room"))
    assert all(g.match is not None for g in games) and Match.objects.count() == 2
    match = games[0].match
    assert [t.name for t in match.teams.order_by("position")] == [games[0].team_a.name, games[0].team_b.name]
    page = host.get(f"/host/tournaments/{tournament.pk}/").content.decode()
    assert f"/m/{match.code}/moderate" in page and f"/m/{match.code}/watch" in page
    second = tournament.rounds.get(number=2)
    early = host.post(f"/host/tournaments/{tournament.pk}/rounds/{second.pk}/start", follow=True).content.decode()
    assert "starts when every earlier game has finished" in early and Match.objects.count() == 2
    for g in games:
        finish(g)
    assert host.post(f"/host/tournaments/{tournament.pk}/rounds/{second.pk}/start").status_code == 302
    assert Match.objects.count() == 4


def test_a_mixed_team_is_a_human_team_with_a_bot_on_it(host, tournament):
    for round_ in tournament.rounds.order_by("number"):
        host.post(f"/host/tournaments/{tournament.pk}/rounds/{round_.pk}/start")
        for g in round_.games.all():
            if g.team_a.name == "Mixed" or g.team_b.name == "Mixed":
                side = g.match.teams.get(name="Mixed")
                assert [s.kind for s in side.seats.all()] == ["bot"]  # people join it from the join link
                computer = g.match.teams.filter(name="Computer").first()
                assert computer is None or [s.kind for s in computer.seats.all()] == ["bot"]
                return
            finish(g)
    pytest.fail("Mixed plays no game")


def test_the_playoffs_start_from_the_standings_once_the_round_robin_is_over(host, tournament):
    url = f"/host/tournaments/{tournament.pk}"
    refused = host.post(f"{url}/playoffs", follow=True).content.decode()
    assert "starts when every game so far has finished" in refused and not TournamentGame.objects.filter(
        round__stage="playoffs").exists()
    for round_ in tournament.rounds.order_by("number"):
        host.post(f"{url}/rounds/{round_.pk}/start")
        for g in round_.games.all():
            finish(g)
    standings = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert host.post(f"{url}/playoffs").status_code == 302
    final = TournamentGame.objects.get(label="Final")
    tournament.refresh_from_db()
    seeds = [tournament.teams.get(pk=pk).name for pk in tournament.seeds]
    assert [final.team_a.name, final.team_b.name] == seeds
    assert standings.index(seeds[0].replace("<", "&lt;").replace(">", "&gt;")) < standings.index(
        seeds[1].replace("<", "&lt;").replace(">", "&gt;"))
    finish(final)
    done = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Champion" in done
    over = host.post(f"{url}/playoffs", follow=True).content.decode()
    assert "The playoffs are over" in over and TournamentGame.objects.filter(round__stage="playoffs").count() == 1


def test_the_room_screen_follows_its_room_and_the_watch_page_comes_back_to_it(host, tournament):
    room = Client().get(f"/tournaments/{tournament.pk}/rooms/1/").content.decode()
    assert "Next here:" in room and "data-next" not in room  # no match yet: the screen waits
    hall = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    for game in tournament.rounds.get(number=1).games.all():  # the hall's screen says who plays where
        assert f"Room {game.room}: <strong>{escape(game.team_a.name)}</strong> v <strong>{escape(game.team_b.name)}" in hall
    first = tournament.rounds.get(number=1)
    host.post(f"/host/tournaments/{tournament.pk}/rounds/{first.pk}/start")
    match = first.games.get(room=1).match
    room = Client().get(f"/tournaments/{tournament.pk}/rooms/1/").content.decode()
    assert f'data-next="/m/{match.code}/watch"' in room
    watch = Client().get(f"/m/{match.code}/watch").content.decode()
    assert f"/tournaments/{tournament.pk}/rooms/1/" in watch
    assert Client().get(f"/tournaments/{tournament.pk}/rooms/9/").status_code == 404


def test_nobody_but_staff_creates_starts_or_downloads(host, tournament):
    first = tournament.rounds.get(number=1)
    for client in (Client(), login(staff=False)):
        for url, data in [("/host/tournaments/", form(name="Mine")),
                          (f"/host/tournaments/{tournament.pk}/rounds/{first.pk}/start", {}),
                          (f"/host/tournaments/{tournament.pk}/playoffs", {})]:
            assert client.post(url, data).status_code in (302, 403)  # to the login page, or refused
        for url in (f"/host/tournaments/{tournament.pk}/", f"/host/tournaments/{tournament.pk}/tournament.json"):
            assert client.get(url).status_code in (302, 403)
    assert Tournament.objects.count() == 1 and not Match.objects.exists()
    assert Client().get(f"/tournaments/{tournament.pk}/").status_code == 200
    assert Client().get(f"/tournaments/{tournament.pk}/rooms/1/").status_code == 200


@pytest.mark.parametrize("extra, words", [
    ({"teams": "Only one"}, "at least two teams"),
    ({"teams": "A\na"}, "listed already"),
    ({"teams": "A | x | 9gib\nB"}, "bot tier is one of"),
    ({"teams": "A | " + ", ".join(f"P{i}" for i in range(9)) + "\nB"}, "at most 8 players"),
    ({"teams": "A\nB", "playoff_size": 4}, "need that many teams"),
    ({"kind": "full", "pools": 2}, "Only a round robin in pools"),
    ({"kind": "pools", "pools": 3}, "pools of at least"),
    ({"teams": "x" * 20_001}, "at most 20000 characters"),
])
def test_bad_forms_say_what_to_change_and_make_nothing(host, extra, words):
    reply = host.post("/host/tournaments/", form(**extra))
    assert reply.status_code == 400 and words in reply.content.decode().replace("20,000", "20000")
    assert not Tournament.objects.exists()


def test_the_standings_screen_shows_a_correction_after_the_final_whistle_at_its_next_refresh(host, tournament):
    """A standings screen asks every few seconds and each game's figures are kept between asks (folded once);
    a correction the moderator makes after a game's final whistle is a new event of its log, so the next ask
    shows it, and a team renamed between asks is shown by its new name."""
    from game.runner import MatchRunner
    from tournaments.results import round_robin_standings

    first = tournament.rounds.get(number=1)
    host.post(f"/host/tournaments/{tournament.pk}/rounds/{first.pk}/start")
    game = first.games.order_by("room").first()
    finish(game)
    before = {row.name: row.points_for for row in round_robin_standings(tournament).teams}
    assert round_robin_standings(tournament).teams[0].points_for == max(before.values())  # asked again: the same
    side = game.match.teams.order_by("position").first()
    MatchRunner(Match.objects.get(pk=game.match_id)).handle(
        {"type": "adjust", "actor": {"role": "moderator"},
         "data": {"team": side.key, "points": 50, "reason": "appeal upheld", "confirm": True}})
    after = {row.name: row.points_for for row in round_robin_standings(tournament).teams}
    assert after[game.team_a.name] == before[game.team_a.name] + 50
    assert {k: v for k, v in after.items() if k != game.team_a.name} == {
        k: v for k, v in before.items() if k != game.team_a.name}
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert str(after[game.team_a.name]) in page
    team = tournament.teams.get(name="Foxes")
    team.name = "Foxes United"
    team.save()
    assert "Foxes United" in {row.name for row in round_robin_standings(tournament).teams}
