"""An event as EfficientQA 2020 ran one: human teams each play a preliminary against the computer from a
shared question pool, and the team with the best average margin per question plays the final.

Only the set-up is stored here (names, pool, limits, which match is whose). Scores, questions played and
results are never stored: they are folds of each match's event log (events/standings.py).
"""
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from game.models import Match, Packet, check_name

FINAL_QUESTIONS = 50
TEAM_SIZE_CAP = 8
MAX_TEAMS = 64
MAX_PRELIM_MINUTES = 240


class Event(models.Model):
    class Draw(models.TextChoices):
        FRESH = "fresh", "no repeats across preliminaries"
        SAME = "same", "the same questions for every team"

    name = models.CharField(max_length=200)
    format_name = models.CharField(max_length=40)
    packets = models.ManyToManyField(Packet, related_name="events", help_text="The question pool.")
    prelim_minutes = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_PRELIM_MINUTES)],
        help_text="A preliminary stops at the first question boundary after this much playing time.")
    prelim_questions = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text="Or: a preliminary stops after this many questions.")
    final_questions = models.PositiveIntegerField(
        default=FINAL_QUESTIONS, validators=[MinValueValidator(1), MaxValueValidator(200)])
    team_size_cap = models.PositiveSmallIntegerField(
        default=TEAM_SIZE_CAP, validators=[MinValueValidator(1), MaxValueValidator(32)])
    draw = models.CharField(max_length=8, choices=Draw.choices, default=Draw.FRESH)
    seed = models.BigIntegerField(default=0, help_text="Shuffles the pool: the same seed draws the same questions.")
    overrides = models.JSONField(default=dict, blank=True,
                                 help_text="Rules every match of the event takes from the host (reveal, speed).")
    final_match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="final_of")
    finalist = models.ForeignKey("EventTeam", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name

    def clean(self):
        if (self.prelim_minutes is None) == (self.prelim_questions is None):
            raise ValidationError("A preliminary lasts either some minutes or some questions: give exactly one.")

    def limit_text(self) -> str:
        if self.prelim_minutes is not None:
            return f"{self.prelim_minutes} minute{'s' if self.prelim_minutes != 1 else ''}"
        return f"{self.prelim_questions} question{'s' if self.prelim_questions != 1 else ''}"


class EventTeam(models.Model):
    """A human team of the event, its players' names and its preliminary."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=80)
    players = models.JSONField(default=list, blank=True, help_text="Players' names, at most the event's cap.")
    preliminary = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="preliminary_of")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_event_team_name")]

    def __str__(self):
        return self.name

    def clean(self):
        check_name(self.name)
