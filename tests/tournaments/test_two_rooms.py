"""Two rooms of a tournament played at the same time by two moderators, on the production stack:
PostgreSQL, Redis, Daphne and `manage.py conduct`. Each room's match runs to its end through its own
moderator's socket while the other's runs; both logs are whole, and the public standings then count
both games.

Needs Redis (the suite's "faults" database) and PostgreSQL at 127.0.0.1:5432; skips without them
(fails under CI=true).
"""
import asyncio

import httpx
import pytest

from tests.conductor.test_integration_faults import QUIZBOWL, ack, assert_whole, play_out, stored
from tests.conductor.test_integration_faults import shared_redis, stacks  # noqa: F401  (fixtures)
from tests.conftest import LIVE_WORDS
from tests.stack import Client

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.postgres]

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.live.seat_tokens import make_seat_token
from game.match_setup import SeatSpec
from game.models import Packet, Question
from tournaments.games import make_schedule, start_round
from tournaments.models import Tournament, TournamentTeam
packet = Packet.objects.create(slug="stack", title="Stack")
for i in range(6):
    Question.objects.create(packet=packet, position=i, kind="tossup", text=WORDS + f" Number {i}?", answer=f"Answer {i}")
tournament = Tournament.objects.create(name="Two rooms", format_name="quizbowl", packet=packet, questions=2,
                                       start_step=0, playoff_size=0, overrides=RULES)
teams = [TournamentTeam.objects.create(tournament=tournament, name=n, position=i, players=[p])
         for i, (n, p) in enumerate([("Owls", "Ann"), ("Larks", "Bob"), ("Wrens", "Cy"), ("Kites", "Di")], 1)]
first = make_schedule(tournament)[0]
matches = start_round(tournament, first, {t.pk: [SeatSpec(t.players[0], captain=True)] for t in teams})
rooms = []
for match in matches:
    game = match.tournament_game
    seat = match.teams.get(position=0).seats.get()
    rooms.append({"code": match.code, "id": match.id, "a": game.team_a.name, "b": game.team_b.name,
                  "token": make_seat_token(seat)})
client = Client()
client.force_login(get_user_model().objects.create_user("mod", password="x", is_staff=True))
print(json.dumps({"tournament": tournament.pk, "rooms": rooms, "session": client.cookies["sessionid"].value}))
"""


async def run_room(stack, info, room) -> dict:
    """The room's moderator starts the match and its side A's player wins both tossups."""
    mod = Client(stack.port, f"/ws/m/{room['code']}/moderate", cookie=f"sessionid={info['session']}")
    player = Client(stack.port, f"/ws/m/{room['code']}/play", seat_token=room["token"])
    for c in (mod, player):
        await c.open()
        await c.wait(lambda c=c: c.last_seq >= 1)
    await ack(mod, "start")
    await play_out(mod, player)
    return await mod.event("match_ended", timeout=90)


async def test_two_moderators_run_their_rooms_at_once_and_the_standings_count_both(shared_redis, stacks):
    stack = stacks(shared_redis, db="postgres")
    info = stack.setup(f"WORDS = {LIVE_WORDS!r}\nRULES = {QUIZBOWL['rules']!r}\n{SETUP}")
    stack.start_daphne()
    stack.start_conductor("conductor")
    await stack.ready()
    assert len(info["rooms"]) == 2
    ended = await asyncio.gather(*(run_room(stack, info, room) for room in info["rooms"]))
    assert [e["data"]["winner"] for e in ended] == ["t0", "t0"]
    for room in info["rooms"]:
        assert_whole(stored(stack, room["id"]))
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{stack.port}") as http:
        page = (await http.get(f"/tournaments/{info['tournament']}/")).text
    table = page[page.index("<table"):]  # the standings (the rooms of the next round are listed above them)
    for room in info["rooms"]:
        row = table[table.index(f"<strong>{room['a']}</strong>"):]
        assert "<td>1</td><td>0</td><td>0</td>" in row[:400], f"{room['a']} won its game: 1-0-0"

