"""The setup script the live benches run in a Django process of their stack (Stack.django): a packet of
tossups from the given texts, matches with the given teams, each human seat's token, and a signed-in
moderator's session.

Its argument: {"slug", "texts", "rules", "matches": [[team, ...], ...]}, a team {"name", "seats": [seat, ...]},
a seat {"name", "captain"} for a human or {"tier"} for a bot of that tier. It prints {"matches": [{"code",
"id", "tokens": [[token of each human seat, by team]]}], "session"}.
"""

MATCHES_SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Packet, Question
from game.live.seat_tokens import make_seat_token
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.seating import bot_seat
arg = json.loads(sys.argv[1])
packet = Packet.objects.create(slug=arg["slug"], title=arg["slug"])
for i, text in enumerate(arg["texts"]):
    Question.objects.create(packet=packet, position=i, kind="tossup", text=text, answer=f"Answer {i}")
matches = []
for m, teams in enumerate(arg["matches"]):
    specs = [TeamSpec(team["name"], [bot_seat(seat["tier"]) if "tier" in seat else
                                     SeatSpec(seat["name"], captain=seat["captain"]) for seat in team["seats"]])
             for team in teams]
    match = create_match_record(title=f"{arg['slug']} {m}", packet=packet, format_name="quizbowl",
                                overrides=arg["rules"], teams=specs)
    tokens = [[make_seat_token(seat) for seat in team.seats.filter(kind="human").order_by("id")]
              for team in match.teams.order_by("position")]
    matches.append({"code": match.code, "id": match.id, "tokens": tokens})
client = Client()
moderator = get_user_model().objects.filter(username="bench-moderator").first()  # set up in batches: one moderator
client.force_login(moderator or get_user_model().objects.create_user("bench-moderator", password=None, is_staff=True))
print(json.dumps({"matches": matches, "session": client.cookies["sessionid"].value}))
"""


def human(name: str, captain: bool = False) -> dict:
    return {"name": name, "captain": captain}


def team(name: str, *seats: dict) -> dict:
    return {"name": name, "seats": list(seats)}
