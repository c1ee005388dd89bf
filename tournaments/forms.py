"""The host's form for a tournament: its format, the schedule's shape, the packet and the teams (one a
line: "name | players | bot tier"), checked whole before anything is made."""
from __future__ import annotations

from django import forms
from django.db import transaction

from bots.tiers import TIER_LIMITS
from game.engine.api import MATCH_RULES, PRESETS
from game.match_setup import new_seed
from game.models import NAME_MAX_LENGTH, Packet, Question

from .games import make_schedule
from .models import MAX_PLAYERS, MAX_ROOMS, QUESTIONS, Tournament, TournamentTeam
from .schedule import KINDS, MAX_POOLS, MAX_TEAMS, PLAYOFF_SIZES, ScheduleError, round_robin

MAX_TEAMS_TEXT = 20_000  # characters of the teams box, checked before it is split
QUESTION_COUNT, REVEAL, SPEED = (MATCH_RULES[key] for key in ("questions", "reveal", "words_per_minute"))
TEAMS_HELP = (f"One team a line: name | players, separated by commas | bot tier ({', '.join(TIER_LIMITS)}). "
              "Players only: a human team; a tier only: the computer's team; both: a mixed team; neither: people "
              "join from the match's join link. Best seed first.")


def parse_teams(text: str) -> list[tuple[str, list[str], str]]:
    """(name, players, tier) for each line; a ValidationError naming the line that is wrong."""
    teams, seen = [], set()
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_TEAMS:
        raise forms.ValidationError(f"A tournament has at most {MAX_TEAMS} teams; this list has {len(lines)}.")
    for number, line in enumerate(lines, 1):
        parts = [p.strip() for p in line.split("|")]
        if len(parts) > 3:
            raise forms.ValidationError(f"Line {number} has more than three parts: name | players | tier.")
        name, players, tier = (parts + ["", ""])[:3]
        name = " ".join(name.split())
        players = list(dict.fromkeys(" ".join(p.split()) for p in players.split(",") if p.strip()))
        where = f"Line {number} ({name[:40] or 'no name'})"
        if not name:
            raise forms.ValidationError(f"Line {number} has no team name.")
        if name.casefold() in seen:
            raise forms.ValidationError(f"{where}: a team of that name is listed already; give each its own.")
        seen.add(name.casefold())
        if any(len(n) > NAME_MAX_LENGTH for n in [name, *players]):
            raise forms.ValidationError(f"{where}: a name is longer than {NAME_MAX_LENGTH} characters; shorten it.")
        if len(players) > MAX_PLAYERS:
            raise forms.ValidationError(f"{where}: at most {MAX_PLAYERS} players; this team has {len(players)}.")
        if tier and tier not in TIER_LIMITS:
            raise forms.ValidationError(f"{where}: the bot tier is one of {', '.join(TIER_LIMITS)}, not {tier[:20]!r}.")
        teams.append((name, players, tier))
    if len(teams) < 2:
        raise forms.ValidationError("List at least two teams.")
    return teams


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=200, initial="Quizbowl tournament")
    format_name = forms.ChoiceField(label="Format", choices=[(p["name"], p["label"]) for p in PRESETS.values()],
                                    initial="quizbowl")
    kind = forms.ChoiceField(label="Round robin", choices=list(KINDS.items()), initial="full", widget=forms.RadioSelect)
    pools = forms.IntegerField(min_value=1, max_value=MAX_POOLS, initial=1, help_text="for a round robin in pools")
    playoff_size = forms.TypedChoiceField(label="Playoffs", coerce=int, initial=4,
                                          choices=[(n, f"{n} teams" if n else "none") for n in PLAYOFF_SIZES])
    rooms = forms.IntegerField(required=False, min_value=1, max_value=MAX_ROOMS,
                               help_text="games played at once; empty: as many as a round has")
    packet = forms.ModelChoiceField(queryset=Packet.objects.order_by("title"))
    questions = forms.IntegerField(label="Tossups a game", initial=QUESTIONS, min_value=QUESTION_COUNT.low,
                                   max_value=QUESTION_COUNT.high)
    start_step = forms.IntegerField(label="Each round starts this many questions on", required=False, min_value=0,
                                    max_value=1000, help_text="empty: the tossups a game (no round repeats another's)")
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**53 - 1, help_text="empty: a new seed")
    reveal = forms.ChoiceField(choices=REVEAL.choices)
    words_per_minute = forms.IntegerField(min_value=SPEED.low, max_value=SPEED.high, initial=SPEED.default)
    teams = forms.CharField(max_length=MAX_TEAMS_TEXT, help_text=TEAMS_HELP, widget=forms.Textarea(attrs={
        "rows": 8, "placeholder": "Owls | Ann, Ben, Cat\nComputer | | 500mib\nMixed | Dan | 6gib\nLarks"}))

    def clean_teams(self):
        return parse_teams(self.cleaned_data["teams"])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if data["kind"] != "pools" and data["pools"] != 1:
            self.add_error("pools", "Only a round robin in pools has more than one pool; choose pools or 1.")
            return data
        try:
            round_robin([name for name, _, _ in data["teams"]], data["kind"], data["pools"], data["rooms"])
        except ScheduleError as error:
            self.add_error("teams", str(error))
            return data
        if data["playoff_size"] > len(data["teams"]):
            self.add_error("playoff_size", f"Playoffs of {data['playoff_size']} need that many teams; "
                                           f"there are {len(data['teams'])}.")
        kind = PRESETS[data["format_name"]]["question_kind"]
        if not Question.objects.filter(packet=data["packet"], kind=kind).exists():
            self.add_error("packet", f"This packet has no {kind} questions, the kind the "
                                     f"{PRESETS[data['format_name']]['label']} format plays; choose another.")
        return data

    @transaction.atomic
    def save(self) -> Tournament:
        data = self.cleaned_data
        tournament = Tournament.objects.create(
            name=data["name"], format_name=data["format_name"], kind=data["kind"], pools=data["pools"],
            playoff_size=data["playoff_size"], rooms=data["rooms"], packet=data["packet"],
            questions=data["questions"], start_step=data["start_step"],
            seed=new_seed() if data["seed"] is None else data["seed"],
            overrides={"reveal": data["reveal"], "words_per_minute": data["words_per_minute"]})
        TournamentTeam.objects.bulk_create(
            TournamentTeam(tournament=tournament, name=name, position=position, players=players, bot_tier=tier)
            for position, (name, players, tier) in enumerate(data["teams"], 1))
        make_schedule(tournament)
        return tournament
