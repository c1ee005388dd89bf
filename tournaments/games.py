"""Making a tournament's games: the round robin's schedule as rounds and games, each round's matches
when the host starts it, and the playoffs from the standings. Each game is an ordinary match (seats,
join link, moderator console, event log) in its room; what makes it a tournament game is its row here."""
from __future__ import annotations

from django.db import transaction

from game.engine.api import make_rules, QuestionOrder, Rejected, RulesError
from game.match_setup import SeatSpec, TeamSpec, create_match_record
from game.models import Match
from game.seating import bot_seat

from .models import Tournament, TournamentGame, TournamentRound, TournamentTeam
from .results import PLAYOFFS, ROUND_ROBIN, games_of, playoff_results, round_robin_standings, seed_order
from .schedule import ScheduleError, next_playoff_games, round_name, round_robin


class TournamentError(Exception):
    """What stops the host's step, in a sentence that says what to do."""


@transaction.atomic
def make_schedule(tournament: Tournament) -> list[TournamentRound]:
    """The round robin's rounds and games (no matches yet: a round's start makes them)."""
    if tournament.rounds.exists():
        raise TournamentError("The schedule is made already.")
    teams = {t.name: t for t in tournament.teams.order_by("position")}
    try:
        schedule = round_robin(list(teams), tournament.kind, tournament.pools, tournament.rooms)
    except ScheduleError as error:
        raise TournamentError(str(error)) from None
    rounds = []
    for r in schedule.rounds:
        row = TournamentRound.objects.create(tournament=tournament, number=r.number, stage=r.stage, name=r.name)
        TournamentGame.objects.bulk_create(
            TournamentGame(round=row, room=g.room, pool=g.pool, team_a=teams[g.a], team_b=teams[g.b]) for g in r.games)
        rounds.append(row)
    return rounds


def team_spec(team: TournamentTeam, players: list[SeatSpec] | None = None) -> TeamSpec:
    """A team's side of a match: its people's seats when given (simulate_tournament seats them; live,
    people join from the join link), and its bot's seat; a mixed team is a human team with a bot on it."""
    seats = list(players or [])
    if team.bot_tier:
        seats.append(bot_seat(team.bot_tier, name=f"{team.name} bot ({team.bot_tier})"))
    return TeamSpec(team.name, seats, kind="computer" if team.kind == "computer" else "human")


def start_at(tournament: Tournament, number: int) -> int:
    """Where round `number` starts in the packet: 1 + (number - 1) × the step, round the packet's end."""
    step = tournament.questions if tournament.start_step is None else tournament.start_step
    available = max(tournament.packet.questions.filter(kind=_kind(tournament)).count(), 1)
    return 1 + ((number - 1) * step) % available


def _kind(tournament: Tournament) -> str:
    return make_rules(tournament.format_name)["question_kind"]


def create_game_match(game: TournamentGame, seats=None) -> Match:
    """The game's match in its room. `seats`: team id -> people's SeatSpecs to seat at once."""
    tournament, number = game.round.tournament, game.round.number
    seats = seats or {}
    title = (f"{tournament.name}: {game.label or game.round.name}, room {game.room}: "
             f"{game.team_a.name} v {game.team_b.name}")[:200]  # Match.title's length
    try:
        match = create_match_record(
            title=title, packet=tournament.packet, format_name=tournament.format_name,
            overrides=dict(tournament.overrides, questions=tournament.questions), seed=tournament.seed,
            teams=[team_spec(t, seats.get(t.pk)) for t in (game.team_a, game.team_b)],
            order=QuestionOrder(start_at=start_at(tournament, number)))
    except (Rejected, RulesError) as error:
        raise TournamentError(str(error)) from None
    game.match = match
    game.save(update_fields=["match"])
    return match


def waiting_for(tournament: Tournament, number: int) -> list[TournamentGame]:
    """The games of rounds before `number` not yet finished (or not started)."""
    return [g for g in games_of(tournament).filter(round__number__lt=number)
            if g.match is None or g.match.status != Match.Status.FINISHED]


@transaction.atomic
def start_round(tournament: Tournament, round_: TournamentRound, seats=None) -> list[Match]:
    """Create the round's matches, once every game of the rounds before it has finished."""
    round_ = TournamentRound.objects.select_for_update().get(pk=round_.pk, tournament=tournament)
    games = list(round_.games.select_related("round__tournament__packet", "team_a", "team_b").order_by("room"))
    if any(g.match_id for g in games):
        raise TournamentError(f"{round_.name} has started already.")
    left = waiting_for(tournament, round_.number)
    if left:
        raise TournamentError(f"{round_.name} starts when every earlier game has finished; "
                              f"{', '.join(str(g) for g in left[:4])}{' …' if len(left) > 4 else ''} "
                              f"{'has' if len(left) == 1 else 'have'} not.")
    return [create_game_match(g, seats) for g in games]


@transaction.atomic
def start_playoffs(tournament: Tournament, seats=None) -> TournamentRound:
    """The next playoff round: the first time, seeds from the round robin's standings; later, the
    winners (and for 3rd place the losers) of the playoff games played. Its matches are made at once."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    size = tournament.playoff_size
    if not size:
        raise TournamentError("This tournament has no playoffs.")
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        raise TournamentError("Make the schedule first.")
    left = waiting_for(tournament, last.number + 1)
    if left:
        raise TournamentError(f"The next playoff round starts when every game so far has finished; "
                              f"{left[0]} has not.")
    teams = {t.name: t for t in tournament.teams.all()}
    if not tournament.seeds:
        if len(teams) < size:
            raise TournamentError(f"Playoffs of {size} need {size} teams; this tournament has {len(teams)}.")
        tournament.seeds = [teams[name].pk for name in seed_order(round_robin_standings(tournament))][:size]
        tournament.save(update_fields=["seeds"])
    by_id = {t.pk: t.name for t in teams.values()}
    games = next_playoff_games(size, [by_id[pk] for pk in tournament.seeds], playoff_results(tournament))
    if not games:
        raise TournamentError("The playoffs are over: the final has been played.")
    round_ = TournamentRound.objects.create(tournament=tournament, number=last.number + 1, stage=PLAYOFFS,
                                            name=round_name(games[0][0]))
    for room, (label, a, b) in enumerate(games, 1):
        game = TournamentGame.objects.create(round=round_, room=room, label=label, team_a=teams[a], team_b=teams[b])
        create_game_match(game, seats)
    return round_


def round_robin_done(tournament: Tournament) -> bool:
    games = list(games_of(tournament, ROUND_ROBIN))
    return bool(games) and all(g.match is not None and g.match.status == Match.Status.FINISHED for g in games)
