"""Creating a match: its rules, its questions, its teams and seats, and its first event.

The host's form, the event pages, `simulate` and the tests all create matches here, so every match
starts the same way: a match_created event that carries its rules, teams, seats and questions.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db import transaction

from game.engine.api import create_match, make_rules, PACKET_ORDER, QuestionOrder, Rejected, select_questions
from game.event_log import append_events, now_ms
from game.models import Match, Packet, Seat, Team

# A human-versus-computer match needs a computer: the sentence that refuses one without a bot, on the
# host's page (unless "humans only" is ticked) and for an event's matches.
NO_BOT = "Choose at least one bot for the computer team."
RESERVE_QUESTIONS = 10  # extra questions carried for throw-outs and tiebreakers


def seat_data(seat: Seat) -> dict:
    """The engine's view of a seat."""
    return {
        "id": seat.key,
        "name": seat.name,
        "team": seat.team.key,
        "kind": seat.kind,
        "tier": seat.bot_tier or None,
        "captain": seat.captain,
        "simulated": bool((seat.bot_config or {}).get("simulated")),
        **(seat.bot_play if seat.kind == Seat.Kind.BOT else {}),  # its buzz mode, k, weight class: the engine checks them
    }


def pick_questions(packet: Packet, rules: dict, order: QuestionOrder = PACKET_ORDER) -> list[dict]:
    """The match's questions of the kind the format plays, picked and ordered by `order`: the main
    questions, then up to RESERVE_QUESTIONS in reserve from what remains. Fewer than the rules'
    number leaves no reserve, and the match plays the ones there are."""
    questions = [q.as_engine_dict() for q in packet.questions.filter(kind=rules["question_kind"]).order_by("position")]
    if not questions:
        raise Rejected(
            f"Packet {packet.slug!r} has no {rules['question_kind']} questions; pick another packet or format."
        )
    return select_questions(questions, order, rules)[:rules["questions"] + RESERVE_QUESTIONS]


def pick_bonuses(packet: Packet, rules: dict) -> list[dict] | None:
    """A format with bonuses: the packet's bonuses, in packet order (a bonus goes to the next correct
    tossup, whichever order the tossups are read in); None for a format without them. A packet with none
    is refused: a tossup-bonus match would otherwise be a tossup match under another name."""
    if not rules["bonuses"]:
        return None
    bonuses = [q.as_engine_dict() for q in packet.questions.filter(kind="bonus").order_by("position")]
    if not bonuses:
        raise Rejected(f"Packet {packet.slug!r} has no bonuses, and {rules['label']} plays them; pick a packet with "
                       "bonuses, or the format Quizbowl tossups.", "no_bonuses")
    return bonuses


def new_seed() -> int:
    """A seed for a shuffle the host left unseeded: short enough to read out and type again."""
    return 100_000 + secrets.randbelow(900_000)


@dataclass
class SeatSpec:
    name: str
    kind: str = "human"
    captain: bool = False
    tier: str = ""
    config: dict = field(default_factory=dict)
    play: dict = field(default_factory=dict)  # a bot seat's settings (game/engine/seat_table.py); empty: its defaults


@dataclass
class TeamSpec:
    name: str
    seats: list[SeatSpec] = field(default_factory=list)
    kind: str = ""  # "human" or "computer"; empty: the computer's when a bot sits on it (a mixed team says "human")

    def team_kind(self) -> str:
        return self.kind or ("computer" if any(s.kind == "bot" for s in self.seats) else "human")


@transaction.atomic
def create_match_record(
    *,
    title: str,
    packet: Packet,
    format_name: str,
    overrides: dict | None = None,
    teams: list[TeamSpec],
    seed: int = 0,
    order: QuestionOrder = PACKET_ORDER,
    now: int | None = None,
    questions: list[dict] | None = None,
    bonuses: list[dict] | None = None,
) -> Match:
    """Create a match with its teams and seats, and write its first event.

    `order` says which of the packet's questions are played and in what order; a shuffle without a
    seed gets a new one, stored with the rest, so the match's questions can be picked again. Raises
    SelectionError (a Rejected naming the setting) when the settings pick no question. `questions`
    (engine dicts, main then reserve) replaces the pick: an event draws them from its own pool; `bonuses`
    replaces the packet's bonuses likewise (a format with bonuses only)."""
    # The server's clock grid (rules.on_grid) unless the caller sets one: part of the match's rules,
    # so a replay or another conductor reads the same schedule.
    rules = make_rules(format_name, {"clock_grid_ms": int(settings.EXHIBITION_CLOCK_GRAIN_MS), **(overrides or {})})
    if order.shuffled and order.seed is None:
        order = replace(order, seed=new_seed())
    if questions is None:
        questions = pick_questions(packet, rules, order)
    if bonuses is None:
        bonuses = pick_bonuses(packet, rules)
    match = Match.objects.create(title=title, packet=packet, format_name=format_name, rules=rules, seed=seed,
                                 question_order=order.to_dict())
    seats = []
    for position, spec in enumerate(teams):
        # People join only the human teams; a human team may hold bots too (AI teammates).
        team = Team.objects.create(match=match, position=position, name=spec.name, kind=spec.team_kind())
        for s in spec.seats:
            seats.append(
                Seat.objects.create(team=team, name=s.name, kind=s.kind, captain=s.captain, bot_tier=s.tier,
                                    bot_config=s.config, bot_play=s.play)
            )
    team_data = [{"id": t.key, "name": t.name, "kind": t.kind} for t in match.teams.order_by("position")]
    events = create_match(rules, team_data, [seat_data(s) for s in seats], questions, now or now_ms(),
                          question_order=order.to_dict(), bonuses=bonuses)
    append_events(match, events, first_seq=1)
    return match
