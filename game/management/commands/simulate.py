"""`manage.py simulate`: play a whole match with simulated humans and bots, print the box score."""
from django.core.management.base import BaseCommand, CommandError

from game.boxscore import box_score, format_box_score
from game.demo import ensure_demo_packet
from game.engine.api import PRESETS, Rejected, RulesError
from game.models import Packet
from game.simulation import SimulatedCompetitor, VirtualMatch
from game.store import MatchRunner, SeatSpec, TeamSpec, create_match_record, now_ms

BOT_ACCURACY = {"500mib": 0.45, "6gib": 0.55, "unlimited": 0.7}


def simulated_teams(format_name: str) -> list[TeamSpec]:
    humans = TeamSpec("Humans", [
        SeatSpec("Ada", captain=True, config={"simulated": True}),
        SeatSpec("Grace", config={"simulated": True}),
    ])
    tiers = ["500mib", "6gib", "unlimited"] if format_name == "efficientqa" else ["500mib"]
    computer = TeamSpec("Computer", [
        SeatSpec(f"Sim {tier}", kind="bot", tier=tier, config={"kind": "simulated", "simulated": True,
                                                                 "accuracy": BOT_ACCURACY[tier]})
        for tier in tiers
    ])
    return [humans, computer]


def play_simulated_match(packet: Packet, format_name: str, seed: int = 1, questions: int | None = None):
    """Play a whole match with simulated people and bots into the event log; (final state, Match)."""
    overrides = {"questions": questions} if questions else {}
    try:
        match = create_match_record(
            title=f"Simulated {format_name} match (seed {seed})", packet=packet,
            format_name=format_name, overrides=overrides, teams=simulated_teams(format_name), seed=seed,
        )
    except (Rejected, RulesError) as exc:
        raise CommandError(str(exc)) from exc
    runner = MatchRunner(match)
    competitors = [
        SimulatedCompetitor(seat=s["id"], team=s["team"], role="bot" if s["kind"] == "bot" else "player",
                            accuracy=BOT_ACCURACY.get(s["tier"] or "", 0.6))
        for s in runner.state.seats.values()
    ]
    state = VirtualMatch(runner, competitors, seed=seed, start_ms=now_ms()).run()
    match.refresh_from_db()
    return state, match


class Command(BaseCommand):
    help = "Play a whole match with simulated players and bots through the engine and event log."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=sorted(PRESETS), default="efficientqa")
        parser.add_argument("--packet", default="demo", help="Packet slug (default: the demo packet).")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--questions", type=int, default=None, help="How many questions (default: the format's).")

    def handle(self, *args, **opts):
        if opts["packet"] == "demo":
            ensure_demo_packet()
        packet = Packet.objects.filter(slug=opts["packet"]).first()
        if packet is None:
            raise CommandError(f"There is no packet {opts['packet']!r}; import one with `manage.py import_questions`.")
        state, match = play_simulated_match(packet, opts["format"], opts["seed"], opts["questions"])
        self.stdout.write(f"Match {match.code}: {match.title}")
        self.stdout.write(format_box_score(box_score(state)))
        self.stdout.write(f"{state.seq} events stored; the match is {match.get_status_display()}.")
