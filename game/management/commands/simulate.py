"""`manage.py simulate`: play a whole match with simulated humans and bots, print the box score.

`--bot TIER=NAME` seats a registered bot (its current build, checked against the tier) in that
tier's seat instead of a simulated one; it plays for real, word by word. `--demo-rules` plays by the
demo match's rules (game.demo.DEMO_RULES). `--humans-buzz-at F` makes the
simulated people know every answer and buzz once F of each question is read (0.6: at 60%), to see
how often a person buzzing there beats the bots in phase 1.
"""
from django.core.management.base import BaseCommand, CommandError

from bots.budgets import TierExceeded
from bots.tiers import TIER_LIMITS
from bots.errors import BotError
from bots.models import Bot

from game.archive.boxscore import box_score, format_box_score
from game.demo import DEMO_RULES, ensure_demo_packet
from game.engine.api import PACKET_ORDER, PRESETS, QuestionOrder, Rejected, RulesError
from game.models import Packet
from game.question_order import add_order_arguments, order_from_options, question_plan
from game.seating import SIMULATED_ACCURACY, bot_seat
from game.simulation import RegisteredBot, SimulatedCompetitor, VirtualMatch
from game.event_log import now_ms
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.runner import MatchRunner

def simulated_teams(format_name: str, registered: dict | None = None) -> list[TeamSpec]:
    """Two simulated humans against a bot per tier: registered[tier] (a bots.models.Bot) or a simulated one."""
    registered = registered or {}
    humans = TeamSpec("Humans", [
        SeatSpec("Ada", captain=True, config={"simulated": True}),
        SeatSpec("Grace", config={"simulated": True}),
    ])
    tiers = ["500mib", "6gib", "unlimited"] if format_name == "efficientqa" else ["500mib"]
    seats = [bot_seat(tier, registered.get(tier), name=None if tier in registered else f"Sim {tier}") for tier in tiers]
    return [humans, TeamSpec("Computer", seats)]


def registered_bots(choices: list[str], format_name: str) -> dict:
    """tier -> Bot for each --bot TIER=NAME (game.seating.bot_seat measures each against its tier when the
    match is made)."""
    tiers = ["500mib", "6gib", "unlimited"] if format_name == "efficientqa" else ["500mib"]
    chosen = {}
    for choice in choices:
        tier, _, name = choice.partition("=")
        if tier not in TIER_LIMITS or not name:
            raise CommandError(f"--bot takes TIER=NAME with TIER one of {', '.join(TIER_LIMITS)}, not {choice!r}.")
        if tier not in tiers:
            raise CommandError(f"The {format_name} format has no {tier} seat; it plays {', '.join(tiers)}.")
        bot = Bot.objects.filter(name=name).first()
        if bot is None:
            raise CommandError(f"There is no bot called {name!r}; build it first with `manage.py build_bot`.")
        chosen[tier] = bot
    return chosen


def humans_won_phase_one(state) -> tuple[int, int]:
    """(questions the human team scored in phase 1, questions played), thrown-out ones left out."""
    humans = state.teams[0]["id"]
    played = [h for h in state.history if not h["thrown_out"]]
    return sum(1 for h in played if h["result"] and h["result"]["phase"] == 1 and h["result"]["team"] == humans), len(played)


def play_simulated_match(packet: Packet, format_name: str, seed: int = 1, questions: int | None = None,
                         registered: dict | None = None, order: QuestionOrder = PACKET_ORDER,
                         humans_buzz_at: float | None = None, rules: dict | None = None):
    """Play a whole match into the event log with simulated people, and a simulated bot per tier unless
    registered[tier] (a bots.models.Bot) plays it for real, on the questions `order` picks; returns
    (final state, Match). With humans_buzz_at the people know every answer and buzz at that fraction;
    rules are the match's own beside the format's (the demo match's, game.demo.DEMO_RULES)."""
    registered = registered or {}
    overrides = dict(rules or {}, **({"questions": questions} if questions else {}))
    try:
        match = create_match_record(
            title=f"Simulated {format_name} match (seed {seed})", packet=packet,
            format_name=format_name, overrides=overrides, teams=simulated_teams(format_name, registered), seed=seed,
            order=order,
        )
    except (Rejected, RulesError, TierExceeded, BotError) as exc:
        raise CommandError(str(exc)) from exc
    runner = MatchRunner(match)
    specs = {seat.key: seat.bot_config for team in match.teams.all() for seat in team.seats.all()}
    competitors = []
    for s in runner.state.seats.values():
        if s["kind"] == "bot" and s["tier"] in registered:
            competitors.append(RegisteredBot(seat=s["id"], team=s["team"], spec=specs[s["id"]], tier=s["tier"]))
        elif s["kind"] != "bot" and humans_buzz_at is not None:
            competitors.append(SimulatedCompetitor(seat=s["id"], team=s["team"], role="player", accuracy=1.0,
                                                   buzz_mean=humans_buzz_at, buzz_sd=0.0, rash=0.0))
        else:
            competitors.append(SimulatedCompetitor(
                seat=s["id"], team=s["team"], role="bot" if s["kind"] == "bot" else "player",
                accuracy=SIMULATED_ACCURACY.get(s["tier"] or "", 0.6)))
    state = VirtualMatch(runner, competitors, seed=seed, start_ms=now_ms()).run()
    match.refresh_from_db()
    return state, match


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.05 <= value <= 1.0:
        raise CommandError(f"--humans-buzz-at takes a fraction of the question from 0.05 to 1, not {text!r}.")
    return value


class Command(BaseCommand):
    help = "Play a whole match with simulated players and bots through the engine and event log."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=sorted(PRESETS), default="efficientqa")
        parser.add_argument("--packet", default="demo", help="Packet slug (default: the demo packet).")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--questions", type=int, default=None, help="How many questions (default: the format's).")
        parser.add_argument("--bot", action="append", default=[], metavar="TIER=NAME",
                            help="Seat the registered bot NAME in the TIER seat (repeat for several tiers).")
        parser.add_argument("--demo-rules", action="store_true",
                            help="Play by the demo match's rules (make demo's), not only the format's.")
        parser.add_argument("--humans-buzz-at", type=_fraction, default=None, metavar="F",
                            help="The people know every answer and buzz once F of the question is read (0.05-1).")
        add_order_arguments(parser)

    def handle(self, *args, **opts):
        order = order_from_options(opts)
        if opts["packet"] == "demo":
            ensure_demo_packet()
        packet = Packet.objects.filter(slug=opts["packet"]).first()
        if packet is None:
            raise CommandError(f"There is no packet {opts['packet']!r}; import one with `manage.py import_questions`.")
        registered = registered_bots(opts["bot"], opts["format"])
        state, match = play_simulated_match(packet, opts["format"], opts["seed"], opts["questions"], registered, order,
                                            opts["humans_buzz_at"], DEMO_RULES if opts["demo_rules"] else None)
        self.stdout.write(f"Match {match.code}: {match.title}")
        self.stdout.write(f"Questions: {question_plan(match).describe()}")
        self.stdout.write(format_box_score(box_score(state)))
        self.stdout.write(f"{state.seq} events stored; the match is {match.get_status_display()}.")
        won, played = humans_won_phase_one(state)
        if played and len(state.rules["phases"]) > 1:
            self.stdout.write(f"{state.teams[0]['name']} won phase 1 on {won} of {played} questions ({won / played:.0%}).")
