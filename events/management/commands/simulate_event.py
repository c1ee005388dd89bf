"""`manage.py simulate_event`: play a whole event (every team's preliminary, then the final) with
simulated human teams and the simulated bots of `simulate`, through the same engine, store and event
log as a live event, then write DIR/event.json and every match's exports into DIR.

The same seed, packet and settings give the same event.json: the questions, every simulated person's
skill, the match codes and each match's play all come from the seed.
"""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from game.demo import ensure_demo_packet
from game.engine.api import PRESETS
from game.management.commands.simulate import simulated_teams
from game.models import JOIN_CODE_ALPHABET, Match, Packet
from game.simulation import SimulatedCompetitor, VirtualMatch
from game.seating import SIMULATED_ACCURACY
from game.event_log import now_ms
from game.match_setup import SeatSpec
from game.runner import MatchRunner

from events.event_files import event_files
from events.matches import start_final, start_preliminary
from events.models import MAX_TEAMS, Event, EventTeam
from events.pool import EventError
from events.standings import final_result, leaderboard

FIRST_NAMES = ("Ada", "Grace", "Alan", "Emmy", "Kurt", "Rosalind", "Niels", "Lise", "Srinivasa", "Hedy", "Claude",
               "Barbara", "Edsger", "Katherine", "John", "Dorothy")
TEAM_WORDS = ("Owls", "Foxes", "Otters", "Herons", "Badgers", "Lynxes", "Ravens", "Hares")
PLAYERS_PER_TEAM = 3


def team_names(count: int) -> list[str]:
    return [f"{TEAM_WORDS[i % len(TEAM_WORDS)]}{'' if i < len(TEAM_WORDS) else f' {i // len(TEAM_WORDS) + 1}'}"
            for i in range(count)]


def seeded_code(rng: random.Random) -> str:
    """A join code drawn from the event's seed, so a second run of the same seed names its matches alike."""
    while True:
        code = "".join(rng.choice(JOIN_CODE_ALPHABET) for _ in range(6))
        if not Match.objects.filter(code=code).exists():
            return code


def play(match: Match, skill: float | dict[str, float], seed: int, code: str) -> Match:
    """Play the match on the virtual clock: its people know `skill` of the answers (or skill[team id]:
    each team's own), its bots as in `simulate`."""
    Match.objects.filter(pk=match.pk).update(code=code)
    match.refresh_from_db()
    runner = MatchRunner(match)
    competitors = []
    for seat in runner.state.seats.values():
        if seat["kind"] == "bot":
            competitors.append(SimulatedCompetitor(seat=seat["id"], team=seat["team"], role="bot",
                                                   accuracy=SIMULATED_ACCURACY[seat["tier"]]))
        else:
            accuracy = skill[seat["team"]] if isinstance(skill, dict) else skill
            competitors.append(SimulatedCompetitor(seat=seat["id"], team=seat["team"], role="player", accuracy=accuracy))
    VirtualMatch(runner, competitors, seed=seed, start_ms=now_ms()).run()
    match.refresh_from_db()
    return match


def players(team: EventTeam) -> list[SeatSpec]:
    return [SeatSpec(name, captain=i == 0, config={"simulated": True}) for i, name in enumerate(team.players)]


def event_summary(event: Event) -> dict:
    """event.json: the leaderboard's rows best first, the finalist and the final, all folded from the logs."""
    board = leaderboard(event)
    final = final_result(event)
    return {
        "event": event.name,
        "teams": [{"name": r.name, "questions": r.questions, "points_for": r.points_for,
                   "points_against": r.points_against, "average_margin": round(r.average_margin, 6), "match": r.match}
                  for r in board.rows],
        "finalist": event.finalist.name if event.finalist else None,
        "final": None if final is None else {
            "match": final.match, "questions": final.questions, "points_for": final.points_for,
            "points_against": final.points_against, "winner": final.winner},
    }


class Command(BaseCommand):
    help = "Play a whole event with simulated teams and bots; write DIR/event.json and every match's exports."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=4, help=f"Human teams (1 to {MAX_TEAMS}).")
        parser.add_argument("--prelim-questions", type=int, default=10, help="Questions in each preliminary (1 to 200).")
        parser.add_argument("--final-questions", type=int, default=10, help="Questions in the final (1 to 200).")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--format", choices=sorted(PRESETS), default="efficientqa")
        parser.add_argument("--packet", default="demo", help="The pool's packet slug (default: the demo packet).")
        parser.add_argument("--draw", choices=[c for c, _ in Event.Draw.choices], default=Event.Draw.FRESH)
        parser.add_argument("-o", "--out", required=True, help="Folder for event.json and the matches' exports.")

    def handle(self, *args, teams, prelim_questions, final_questions, seed, out, **opts):
        for name, value, high in (("--teams", teams, MAX_TEAMS), ("--prelim-questions", prelim_questions, 200),
                                  ("--final-questions", final_questions, 200)):
            if not 1 <= value <= high:
                raise CommandError(f"{name} must be from 1 to {high}; got {value}.")
        if not 0 <= seed <= 2**53 - 1:
            raise CommandError("--seed must be a whole number from 0 to 2**53 - 1.")
        if opts["packet"] == "demo":
            ensure_demo_packet()
        packet = Packet.objects.filter(slug=opts["packet"]).first()
        if packet is None:
            raise CommandError(f"There is no packet {opts['packet']!r}; import one with `manage.py import_questions`.")
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        rng = random.Random(seed)
        event = Event.objects.create(name=f"Simulated event (seed {seed})", format_name=opts["format"],
                                     prelim_questions=prelim_questions, final_questions=final_questions,
                                     draw=opts["draw"], seed=seed, overrides={})
        event.packets.set([packet])
        bots = simulated_teams(opts["format"])[1].seats
        skills = {}
        names = iter(FIRST_NAMES * (teams * PLAYERS_PER_TEAM // len(FIRST_NAMES) + 1))
        for name in team_names(teams):
            team = EventTeam.objects.create(event=event, name=name,
                                            players=[next(names) for _ in range(PLAYERS_PER_TEAM)])
            skills[team.pk] = round(rng.uniform(0.3, 0.8), 3)
        played = []
        try:
            for number, team in enumerate(event.teams.order_by("id"), 1):
                match = start_preliminary(event, team, bots, players(team))
                played.append(play(match, skills[team.pk], seed * 1000 + number, seeded_code(rng)))
                self.stdout.write(f"Preliminary {match.code}: {team.name}")
            event.refresh_from_db()
            top = leaderboard(event).rows[0]
            final = start_final(event, bots, players(EventTeam.objects.get(pk=top.team_id)))
            played.append(play(final, skills[top.team_id], seed * 1000, seeded_code(rng)))
        except EventError as error:
            raise CommandError(str(error)) from None
        event.refresh_from_db()
        for match in played:
            call_command("export_match", match.code, out=str(folder), stdout=io.StringIO())
        summary = event_summary(event)
        (folder / "event.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        for name, text in event_files(event).items():  # the QBJ Tournament and the report, beside the matches
            (folder / name).write_text(text, encoding="utf-8")
        self.stdout.write(f"Finalist: {summary['finalist']}; final {summary['final']['points_for']}-"
                          f"{summary['final']['points_against']} ({summary['final']['winner'] or 'a tie'}).")
        self.stdout.write(str(folder / "event.json"))
