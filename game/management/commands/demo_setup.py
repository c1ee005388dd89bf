"""`manage.py demo_setup`: everything `make demo` needs, then the links to open.

Loads the demo packet and the passages behind phase-3 search snippets, builds a bot of every tier
from the demo knowledge pack (once; rebuilt only when missing), makes a staff login for the host and moderator, and creates a ready EfficientQA
match with the bots seated and the human team waiting for players, and beside it a ready tossup-bonus quizbowl
match for two teams of people on the demo bonus packet, and a ready QANTA 2026 match on the same packet where
each team of people has an AI teammate (500 MiB on one, 6 GiB on the other).
"""
import io
import json
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from bots.models import Bot
from game.demo import BONUS_DEMO_RULES, DEMO_RULES, ensure_demo_bonus_packet, ensure_demo_packet
from game.engine.api import Rejected, make_rules
from game.models import SnippetPassage
from game.seating import bot_seat
from game.question_order import add_order_arguments, order_from_options, question_plan
from game.match_setup import TeamSpec, create_match_record, pick_questions
from serving import hall

KNOWLEDGE = Path(settings.BASE_DIR) / "bots" / "knowledge" / "demo"
# name, kind, tier, data file, extra settings
DEMO_BOTS = [
    ("demo-qa-pairs", "qa_pairs", "500mib", "qa_pairs.jsonl", {}),
    ("demo-answer-doc", "answer_doc", "500mib", "qa_pairs.jsonl", {}),
    ("demo-reader", "retriever_reader", "6gib", "passages.jsonl", {}),
    ("demo-reader-wide", "retriever_reader", "unlimited", "passages.jsonl", {"passages": 10}),
]
SEATED = {"500mib": "demo-qa-pairs", "6gib": "demo-reader", "unlimited": "demo-reader-wide"}
HOST_USER = "host"
DEMO_FORMAT = "efficientqa"
BONUS_FORMAT = "quizbowl_bonus"
QANTA_FORMAT = "qanta26"
# The QANTA 2026 demo's teams: each a team of people with one AI teammate, by tier.
QANTA_TEAMS = (("Team Lovelace", "500mib"), ("Team Babbage", "6gib"))


class Command(BaseCommand):
    help = "Load the demo packet, build the demo bots, make a host login and a ready demo match."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")
        parser.add_argument("--password", default=None, help="Host password (default: a new random one).")
        add_order_arguments(parser)

    def handle(self, *args, base_url, password, **options):
        order = order_from_options(options)
        packet = ensure_demo_packet()
        try:
            pick_questions(packet, make_rules(DEMO_FORMAT, DEMO_RULES), order)  # refused before the bots are built, not after
        except Rejected as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Demo packet: {packet.questions.count()} questions.")
        for name, kind, tier, data, extra in DEMO_BOTS:
            bot = Bot.objects.filter(name=name).first()
            if bot is None or not bot.artefact_dir or not Path(bot.artefact_dir).is_dir():
                self.stdout.write(f"Building bot {name} ({kind}, {tier}) …")
                out = io.StringIO()
                call_command("build_bot", kind, "--name", name, "--data", str(KNOWLEDGE / data), "--tier", tier,
                             "--config", json.dumps(extra), stdout=out)
                self.stdout.write("  " + out.getvalue().strip().splitlines()[-1])
        if not SnippetPassage.objects.filter(corpus="demo").exists():
            call_command("import_passages", str(KNOWLEDGE / "passages.jsonl"), "--corpus", "demo", stdout=io.StringIO())
        self.stdout.write(f"Search snippets for phase 3: {SnippetPassage.objects.filter(corpus='demo').count()} passages.")
        password = password or secrets.token_urlsafe(9)
        user, _ = get_user_model().objects.get_or_create(username=HOST_USER, defaults={"is_staff": True})
        user.is_staff = True
        user.set_password(password)
        user.save()

        computer = TeamSpec("Computer")
        for tier, name in SEATED.items():
            computer.seats.append(bot_seat(tier, Bot.objects.get(name=name), name=name))
        match = create_match_record(title="Demo: humans vs. computer", packet=packet, format_name=DEMO_FORMAT,
                                    overrides=DEMO_RULES, teams=[TeamSpec("Humans"), computer], order=order)
        bonus_match = create_match_record(title="Demo: quizbowl tossups and bonuses", packet=ensure_demo_bonus_packet(),
                                          format_name=BONUS_FORMAT, overrides=BONUS_DEMO_RULES,
                                          teams=[TeamSpec("Left"), TeamSpec("Right")])
        qanta_teams = [TeamSpec(name, [bot_seat(tier, Bot.objects.get(name=SEATED[tier]), name=f"AI {SEATED[tier]}")],
                                kind="human") for name, tier in QANTA_TEAMS]
        qanta_match = create_match_record(title="Demo: QANTA 2026, people with AI teammates",
                                          packet=ensure_demo_bonus_packet(), format_name=QANTA_FORMAT,
                                          overrides=BONUS_DEMO_RULES, teams=qanta_teams)
        # In a hall, the room is told this machine's LAN address, not 127.0.0.1 (serving/hall.py).
        room = hall.base_url(base_url.split("://", 1)[-1], base_url.split("://", 1)[0], hall=settings.EXHIBITION_HALL,
                             public_url=settings.EXHIBITION_PUBLIC_URL)
        if settings.EXHIBITION_HALL and hall.is_local_host(room.split("://", 1)[-1]):
            self.stdout.write(self.style.WARNING(
                "Hall mode, but this machine has no network address besides loopback: join its Wi-Fi first."))
        self.stdout.write(self.style.SUCCESS("\nThe demo match is ready.") + f"""
  Host and moderator sign-in: {HOST_USER} / {password}
  Moderator console:  {base_url}/m/{match.code}/moderate
  Players join at:    {room}/m/{match.code}/join   (or type {room.split("://", 1)[-1]}/join and the code {match.code})
  Spectator screen:   {base_url}/m/{match.code}/watch   (shows the join address and its QR code)
  Host pages:         {base_url}/host/
  Questions:          {question_plan(match).describe()}

A tossup-bonus quizbowl match for two teams of people is ready too:
  Moderator console:  {base_url}/m/{bonus_match.code}/moderate
  Players join at:    {room}/m/{bonus_match.code}/join   (or the code {bonus_match.code})
  Spectator screen:   {base_url}/m/{bonus_match.code}/watch
  Questions:          {question_plan(bonus_match).describe()}

A QANTA 2026 match is ready too: {QANTA_TEAMS[0][0]} has a 500 MiB AI teammate, {QANTA_TEAMS[1][0]} a 6 GiB one:
  Moderator console:  {base_url}/m/{qanta_match.code}/moderate
  Players join at:    {room}/m/{qanta_match.code}/join   (or the code {qanta_match.code})
  Spectator screen:   {base_url}/m/{qanta_match.code}/watch
  Questions:          {question_plan(qanta_match).describe()}
""")
