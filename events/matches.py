"""Starting an event's matches: a team's preliminary against the computer, and the final with the top
team. Each is an ordinary match (seats, join links, moderator console, event log); what makes it a
preliminary is its rules: no tiebreakers, and a stop rule at the event's time or question limit."""
from __future__ import annotations

from django.db import transaction

from game.engine.api import Rejected, RulesError
from game.models import Match
from game.match_setup import NO_BOT, SeatSpec, TeamSpec, create_match_record

from .models import Event, EventTeam
from .pool import EventError, draw_final, draw_preliminary
from .standings import leaderboard

COMPUTER = "Computer"


def preliminary_rules(event: Event, main: int) -> dict:
    """The event's rules for a preliminary: tiebreakers are left out (a preliminary is scored by its
    margin, and a tie with the computer is no reason to play on), and it stops at the event's limit."""
    rules = dict(event.overrides, questions=main, tiebreakers=0, team_seats=event.team_size_cap)
    if event.prelim_minutes is not None:
        rules["stop_after_ms"] = event.prelim_minutes * 60_000
    else:
        rules["stop_after_questions"] = event.prelim_questions
    return rules


def _create(event: Event, title: str, team_name: str, bots: list[SeatSpec], rules: dict, questions: list[dict],
            players: list[SeatSpec] | None) -> Match:
    if not bots:
        raise EventError(NO_BOT)
    teams = [TeamSpec(team_name, list(players or [])), TeamSpec(COMPUTER, list(bots))]
    try:
        return create_match_record(title=title, packet=event.packets.order_by("pk").first(),
                                   format_name=event.format_name, overrides=rules, seed=event.seed,
                                   teams=teams, questions=questions)
    except (Rejected, RulesError) as error:
        raise EventError(str(error)) from None


@transaction.atomic
def start_preliminary(event: Event, team: EventTeam, bots: list[SeatSpec], players: list[SeatSpec] | None = None) -> Match:
    """Create the team's preliminary (once); the conductor is woken by the caller. People join the
    team's seats from the join link; `players` seats them at once (simulate_event does)."""
    team = EventTeam.objects.select_for_update().get(pk=team.pk, event=event)
    if team.preliminary_id:
        raise EventError(f"{team.name} has its preliminary already (match {team.preliminary.code}).")
    if event.final_match_id:
        raise EventError("The final has started; the preliminaries are over.")
    questions, main = draw_preliminary(event, team)
    match = _create(event, f"{event.name}: {team.name} (preliminary)", team.name, bots,
                    preliminary_rules(event, main), questions, players)
    team.preliminary = match
    team.save(update_fields=["preliminary"])
    return match


@transaction.atomic
def start_final(event: Event, bots: list[SeatSpec], players: list[SeatSpec] | None = None) -> Match:
    """Create the final for the top team of the leaderboard, once every preliminary has finished."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.final_match_id:
        raise EventError(f"The final has started already (match {event.final_match.code}).")
    board = leaderboard(event)
    if board.playing:
        raise EventError(f"The preliminary of {', '.join(board.playing)} has not finished; the final starts when "
                         "no preliminary is being played.")
    if not board.rows:
        raise EventError("No team has played a preliminary yet.")
    top = EventTeam.objects.get(pk=board.rows[0].team_id)
    questions, main = draw_final(event)
    match = _create(event, f"{event.name}: final", top.name, bots, dict(event.overrides, questions=main, team_seats=event.team_size_cap), questions,
                    players)
    event.final_match, event.finalist = match, top
    event.save(update_fields=["final_match", "finalist"])
    return match
