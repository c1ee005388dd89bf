"""The bots a host can seat, and each build of them: what a seat pins.

A Bot is a name with a kind, a tier and its current settings and artefacts. Every build (or
registration) of it is a BotBuild: kind, settings, its own artefact folder, and what was measured
there (size, fingerprint, content digest). A seat pins a build ({"bot": name, "build": id} in
Seat.bot_config), so rebuilding a bot never changes what an existing seat plays, and the build a
seat plays is the one whose size was checked, again at match start and by the worker.
"""
from django.db import models

from bots.tiers import TIER_LIMITS


class Bot(models.Model):
    class Kind(models.TextChoices):
        QA_PAIRS = "qa_pairs", "QA-pair nearest question"
        ANSWER_DOC = "answer_doc", "answer-document guesser with a buzzer"
        RETRIEVER_READER = "retriever_reader", "passage retriever-reader"
        SIMULATED = "simulated", "simulated opponent"
        REMOTE_QANTA = "remote_qanta", "remote bot (QANTA protocol)"
        REMOTE_JSON = "remote_json", "remote bot (Exhibition JSON protocol)"
        REPLAY_CSV = "replay_csv", "replay of precomputed buzzes"

    REMOTE_KINDS = (Kind.REMOTE_QANTA, Kind.REMOTE_JSON)

    name = models.CharField(max_length=60, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    tier = models.CharField(max_length=20, choices=[(t, t) for t in TIER_LIMITS])
    config = models.JSONField(default=dict, blank=True)
    artefact_dir = models.CharField(max_length=500, blank=True, help_text="Where the built artefacts are.")
    measured_bytes = models.BigIntegerField(null=True, blank=True, help_text="Artefact size at the last check.")
    built_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.display_name

    @property
    def simulated(self) -> bool:
        return self.kind == Bot.Kind.SIMULATED

    @property
    def measurable(self) -> bool:
        return self.kind not in Bot.REMOTE_KINDS

    @property
    def display_name(self) -> str:
        return f"{self.name} (simulated)" if self.simulated else self.name

    @property
    def current_build(self) -> "BotBuild | None":
        return self.builds.order_by("-number").first() if self.pk else None

    @property
    def spec(self) -> dict:
        """What a seat stores: the name (for people reading it) and the build it pins."""
        build = self.current_build
        return {"bot": self.name, "build": build.pk} if build else {"bot": self.name}


class BotBuild(models.Model):
    """One build of a bot, never changed by a later build; what a seat pins and a worker loads."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="builds")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Bot.Kind.choices)
    config = models.JSONField(default=dict, blank=True)
    artefact_dir = models.CharField(max_length=500, blank=True)
    measured_bytes = models.BigIntegerField(default=0)
    fingerprint = models.CharField(max_length=64, blank=True, help_text="File names, sizes and times when measured.")
    digest = models.CharField(max_length=64, blank=True, help_text="sha256 of kind, settings and file contents.")
    measured_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot", "number"]
        constraints = [models.UniqueConstraint(fields=["bot", "number"], name="one_build_number_per_bot")]

    def __str__(self):
        return f"{self.bot.name} build {self.number}"

    @property
    def name(self) -> str:
        return self.bot.name

    simulated = Bot.simulated
    measurable = Bot.measurable
