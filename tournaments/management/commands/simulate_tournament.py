"""`manage.py simulate_tournament`: play a whole tournament (round robin, then playoffs) with simulated
teams and bots on a virtual clock, through the same engine, store and event log as a live one, then
write DIR/tournament.json (teams, schedule, every game's event log, the standings) and
DIR/tournament.qbj (a QBJ Tournament). The same seed, packet and settings play the same games with the
same results."""
from __future__ import annotations

import random
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bots.tiers import TIER_LIMITS
from events.management.commands.simulate_event import FIRST_NAMES, play, players, seeded_code, team_names
from game.demo import ensure_demo_bonus_packet, ensure_demo_packet
from game.engine.api import PRESETS
from game.models import Packet
from tournaments.files import tournament_data, tournament_json, tournament_qbj_text
from tournaments.games import TournamentError, make_schedule, start_playoffs, start_round
from tournaments.models import MAX_ROOMS, Tournament, TournamentTeam
from tournaments.schedule import KINDS, MAX_POOLS, MAX_TEAMS, PLAYOFF_SIZES

PLAYERS_PER_TEAM = 3


class Command(BaseCommand):
    help = "Play a whole tournament with simulated teams and bots; write DIR/tournament.json and DIR/tournament.qbj."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=6, help=f"Teams (2 to {MAX_TEAMS}).")
        parser.add_argument("--computer-teams", type=int, default=0,
                            help="How many of the teams are the computer's (a simulated bot each, tiers in turn).")
        parser.add_argument("--kind", choices=list(KINDS), default=None,
                            help="full, double or pools (default: pools when --pools is over 1, else full).")
        parser.add_argument("--pools", type=int, default=1, help=f"Pools (1 to {MAX_POOLS}).")
        parser.add_argument("--playoffs", type=int, choices=PLAYOFF_SIZES, default=4)
        parser.add_argument("--rooms", type=int, default=None, help=f"Rooms (1 to {MAX_ROOMS}; default: enough).")
        parser.add_argument("--questions", type=int, default=10, help="Tossups a game (1 to 200).")
        parser.add_argument("--format", choices=sorted(PRESETS), default="quizbowl")
        parser.add_argument("--packet", default=None, help="The packet's slug (default: the demo packet; for a format with bonuses the demo bonus packet).")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("-o", "--out", required=True, help="Folder for tournament.json and tournament.qbj.")

    def handle(self, *args, teams, computer_teams, pools, playoffs, rooms, questions, seed, out, **opts):
        kind = opts["kind"] or ("pools" if pools > 1 else "full")
        for name, value, low, high in (("--teams", teams, 2, MAX_TEAMS), ("--pools", pools, 1, MAX_POOLS),
                                       ("--questions", questions, 1, 200), ("--computer-teams", computer_teams, 0, teams),
                                       ("--rooms", rooms or 1, 1, MAX_ROOMS), ("--seed", seed, 0, 2**53 - 1)):
            if not low <= value <= high:
                raise CommandError(f"{name} must be from {low} to {high}; got {value}.")
        if pools > 1 and kind != "pools":
            raise CommandError("--pools over 1 needs --kind pools.")
        if playoffs > teams:
            raise CommandError(f"Playoffs of {playoffs} need at least {playoffs} teams; --teams is {teams}.")
        slug = opts["packet"]
        if slug is None:
            slug = (ensure_demo_bonus_packet() if PRESETS[opts["format"]]["bonuses"] else ensure_demo_packet()).slug
        packet = Packet.objects.filter(slug=slug).first()
        if packet is None:
            raise CommandError(f"There is no packet {slug!r}; import one with `manage.py import_questions`.")
        rng = random.Random(seed)
        tournament = Tournament.objects.create(
            name=f"Simulated tournament (seed {seed})", format_name=opts["format"], kind=kind, pools=pools,
            playoff_size=playoffs, rooms=rooms, packet=packet, questions=questions, seed=seed)
        skills, names = {}, iter(FIRST_NAMES * (teams * PLAYERS_PER_TEAM // len(FIRST_NAMES) + 1))
        tiers = list(TIER_LIMITS)
        for position, name in enumerate(team_names(teams), 1):
            computer = position > teams - computer_teams
            team = TournamentTeam.objects.create(
                tournament=tournament, name=name, position=position,
                players=[] if computer else [next(names) for _ in range(PLAYERS_PER_TEAM)],
                bot_tier=tiers[(position - 1) % len(tiers)] if computer else "")
            skills[team.pk] = round(rng.uniform(0.3, 0.8), 3)
        seats = {t.pk: players(t) for t in tournament.teams.all()}
        try:
            for round_ in make_schedule(tournament):
                self._play(start_round(tournament, round_, seats), skills, seed, rng)
            while playoffs and not tournament_data(tournament)["champion"]:
                round_ = start_playoffs(tournament, seats)
                self._play([g.match for g in round_.games.order_by("room")], skills, seed, rng)
                tournament.refresh_from_db()
        except TournamentError as error:
            raise CommandError(str(error)) from None
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tournament.json").write_text(tournament_json(tournament), encoding="utf-8")
        (folder / "tournament.qbj").write_text(tournament_qbj_text(tournament), encoding="utf-8")
        data = tournament_data(tournament)
        top = data["standings"]["teams"][0]
        self.stdout.write(f"{len(data['logs'])} games in {len(data['schedule'])} rounds; "
                          f"round robin top: {top['name']} ({top['wins']}-{top['losses']}); "
                          f"champion: {data['champion'] or 'no playoffs'}.")
        self.stdout.write(str(folder / "tournament.json"))

    def _play(self, matches, skills, seed, rng):
        for match in matches:
            game = match.tournament_game
            played = play(match, {"t0": skills[game.team_a_id], "t1": skills[game.team_b_id]},
                          seed * 100_000 + game.round.number * 100 + game.room, seeded_code(rng))
            self.stdout.write(f"{game.round.name}, room {game.room}: {game} ({played.code})")
