"""A tournament: its teams, its rounds and each game as a match in a room.

Only the set-up is stored (the format, the schedule's shape, the teams and which match is which game).
Scores, records and standings are never stored: they are folds of the games' event logs
(tournaments/quizbowl_standings.py), so a correction made after a match counts at once.
"""
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from bots.tiers import TIER_LIMITS
from game.models import Match, Packet, check_name

from .schedule import KINDS, MAX_POOLS, MAX_TEAMS, PLAYOFF_SIZES

MAX_ROOMS = 32
MAX_PLAYERS = 8
QUESTIONS = 20


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    format_name = models.CharField(max_length=40)
    kind = models.CharField(max_length=8, choices=list(KINDS.items()), default="full")
    pools = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_POOLS)])
    playoff_size = models.PositiveSmallIntegerField(default=4, choices=[(n, str(n) if n else "none")
                                                                         for n in PLAYOFF_SIZES])
    rooms = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROOMS)],
        help_text="Games played at once; empty: as many as a round has. Fewer rooms split a round into sittings.")
    packet = models.ForeignKey(Packet, on_delete=models.PROTECT, related_name="tournaments")
    questions = models.PositiveIntegerField(default=QUESTIONS, validators=[MinValueValidator(1), MaxValueValidator(200)],
                                            help_text="Tossups in each game (tiebreakers come from the reserve).")
    start_step = models.PositiveIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(1000)],
        help_text="Round N starts at the packet's question 1 + (N - 1) × this (wrapping round at the packet's end); "
                  "empty: the questions per game, so no round repeats another's; 0: every round the same.")
    seed = models.BigIntegerField(default=0)
    overrides = models.JSONField(default=dict, blank=True, help_text="Rules every game takes from the host.")
    seeds = models.JSONField(default=list, blank=True, help_text="The playoff seeds (team ids), once drawn.")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name

    def clean(self):
        if self.kind != "pools" and self.pools != 1:
            raise ValidationError({"pools": "Only a round robin in pools has more than one pool."})


class TournamentTeam(models.Model):
    """A team: people (players' names), the computer (a bot seat of a tier), or both (a mixed team)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=80)
    position = models.PositiveSmallIntegerField(help_text="Its seed before any game: 1 is the best.")
    players = models.JSONField(default=list, blank=True, help_text=f"Players' names, at most {MAX_PLAYERS}.")
    bot_tier = models.CharField(max_length=16, blank=True, choices=[(t, t) for t in TIER_LIMITS],
                                help_text="A bot of this tier plays for the team (empty: no bot).")

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="unique_tournament_team_name"),
                       models.UniqueConstraint(fields=["tournament", "position"], name="unique_tournament_team_seed")]

    def __str__(self):
        return self.name

    def clean(self):
        check_name(self.name)

    @property
    def kind(self) -> str:
        return "mixed" if self.bot_tier and self.players else "computer" if self.bot_tier else "human"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=16)  # "round robin" | "playoffs"
    name = models.CharField(max_length=60)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_tournament_round")]

    def __str__(self):
        return self.name


class TournamentGame(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="games")
    room = models.PositiveSmallIntegerField()
    pool = models.CharField(max_length=1, blank=True)
    label = models.CharField(max_length=40, blank=True)  # a playoff game's name: "Semifinal 1", "Final"
    team_a = models.ForeignKey(TournamentTeam, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(TournamentTeam, on_delete=models.PROTECT, related_name="+")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_game")

    class Meta:
        ordering = ["round", "room"]
        constraints = [models.UniqueConstraint(fields=["round", "room"], name="unique_room_in_round")]

    def __str__(self):
        return f"{self.team_a} v {self.team_b}"
