"""Storage: packets of questions, matches with their teams and seats, and the append-only event log.

The live state of a match is never stored; it is the fold of the match's events (game.engine).
"""
import secrets

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I look-alikes


# The longest name a player or a team may take: what a phone, the console, the big screen and the box
# score have room for. The join page says it, the forms and the models (clean) check it. The columns
# stay as long as they were (60 and 80), so names stored before the limit still load; every screen
# wraps or ellipsises any text.
NAME_MAX_LENGTH = 32
name_length = MaxLengthValidator(
    NAME_MAX_LENGTH, message="A name is at most %(limit_value)d characters (this one has %(show_value)d); shorten it.")


def check_name(name: str):
    """Raise a ValidationError on the name field when a name is longer than NAME_MAX_LENGTH."""
    try:
        name_length(name)
    except ValidationError as error:
        raise ValidationError({"name": error}) from None


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(6))


class Packet(models.Model):
    """A named set of questions, imported from a file or written by us."""

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    source = models.CharField(max_length=200, blank=True, help_text="Where the questions came from.")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.title


class Question(models.Model):
    class Kind(models.TextChoices):
        SHORT = "short", "short answer (EfficientQA style)"
        TOSSUP = "tossup", "pyramidal tossup (quizbowl)"
        BONUS = "bonus", "bonus: a leadin and its parts (quizbowl)"

    packet = models.ForeignKey(Packet, on_delete=models.CASCADE, related_name="questions")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    text = models.TextField(help_text="As read, with the power mark (*) where there is one.")
    answer = models.TextField(help_text="The answer line as the moderator sees it.")
    accepted = models.JSONField(default=list, blank=True, help_text="Reference answers (NQ-style lists).")
    category = models.CharField(max_length=100, blank=True)
    subcategory = models.CharField(max_length=100, blank=True)
    source = models.JSONField(default=dict, blank=True, help_text="Source metadata (ids, tournament, year).")
    parts = models.JSONField(default=list, blank=True, help_text=(
        "A bonus's parts, in order: each {text, answer, value} (a bonus's text is its leadin)."))

    class Meta:
        ordering = ["packet", "position"]
        constraints = [models.UniqueConstraint(fields=["packet", "position"], name="unique_question_position")]

    def __str__(self):
        return f"{self.packet.slug}#{self.position}: {self.text[:60]}"

    def as_engine_dict(self) -> dict:
        """The plain-data form the engine and the event log carry."""
        return {
            "qid": f"{self.packet.slug}:{self.position}",
            "kind": self.kind,
            "text": self.text,
            "answer": self.answer,
            "accepted": list(self.accepted or []),
            "category": self.category,
            "subcategory": self.subcategory,
            "source": dict(self.source or {}),
            "parts": [dict(part) for part in self.parts or []],
        }


class Match(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "waiting to start"
        LIVE = "live", "live"
        FINISHED = "finished", "finished"

    code = models.CharField(max_length=12, unique=True, default=new_join_code)
    title = models.CharField(max_length=200)
    packet = models.ForeignKey(Packet, on_delete=models.PROTECT, related_name="matches")
    format_name = models.CharField(max_length=40)
    rules = models.JSONField(help_text="The format preset with this match's edits.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    seed = models.BigIntegerField(default=0)
    question_order = models.JSONField(
        default=dict, blank=True,
        help_text="How the questions were picked from the packet: order, seed, start, categories, power marks first "
                  "(game/engine/selection.py). Empty: packet order (matches made before the setting existed).")
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    hidden = models.BooleanField(default=False, help_text="Left out of the public archive (links still work).")

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self):
        return f"{self.title} ({self.code})"


class Team(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="teams")
    class Kind(models.TextChoices):
        HUMAN = "human", "human"
        COMPUTER = "computer", "computer"

    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    # Empty on teams made before a human team could hold bots: the computer's exactly when a bot sits on it.
    kind = models.CharField(max_length=8, choices=Kind.choices, blank=True,
                            help_text="human (people, and maybe AI teammates) or computer (bots only).")

    class Meta:
        ordering = ["match", "position"]
        constraints = [models.UniqueConstraint(fields=["match", "position"], name="unique_team_position")]

    def __str__(self):
        return self.name

    def clean(self):
        check_name(self.name)

    @property
    def key(self) -> str:
        return f"t{self.position}"


class Seat(models.Model):
    """A place on a team, held by a human player or by a bot of a declared tier."""

    class Kind(models.TextChoices):
        HUMAN = "human", "human"
        BOT = "bot", "bot"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.HUMAN)
    captain = models.BooleanField(default=False)
    bot_tier = models.CharField(max_length=20, blank=True, help_text="500mib, 6gib or unlimited.")
    bot_config = models.JSONField(default=dict, blank=True)
    bot_play = models.JSONField(default=dict, blank=True,
                                help_text="A bot seat's buzz mode, k and weight class (game/engine/seat_table.py).")
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    joined = models.DateTimeField(auto_now_add=True)
    credential = models.PositiveIntegerField(
        default=0, help_text="The generation of the seat's tokens: bumped when the seat is given up, so older tokens stop working.")
    left = models.DateTimeField(null=True, blank=True, help_text="When the seat was given up (its player left or was removed).")

    class Meta:
        ordering = ["team", "id"]

    def __str__(self):
        return f"{self.name} ({self.team})"

    def clean(self):
        if self.kind == Seat.Kind.HUMAN:  # a bot's seat is named after the bot (bots.models.Bot.name)
            check_name(self.name)

    @property
    def key(self) -> str:
        return f"s{self.pk}"


# The computer's teams: marked so, or (made before teams were marked) any team a bot sits on.
COMPUTER_TEAMS = models.Q(kind=Team.Kind.COMPUTER) | models.Q(kind="", seats__kind=Seat.Kind.BOT)


class MatchEvent(models.Model):
    """One entry of a match's append-only event log."""

    # No index of its own: the unique (match, seq) index below serves every lookup by match, and a
    # second index would be one more tree to write for every word of every match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    t_ms = models.BigIntegerField(help_text="Milliseconds since the Unix epoch when the event happened.")
    type = models.CharField(max_length=40)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_match_seq")]

    def __str__(self):
        return f"{self.match_id}#{self.seq} {self.type}"

    def as_engine_event(self) -> dict:
        return {"seq": self.seq, "t": self.t_ms, "type": self.type, "data": self.data}


class SnippetPassage(models.Model):
    """A passage of the corpus that phase-3 search snippets are drawn from (full-text indexed per database)."""

    corpus = models.CharField(max_length=80, db_index=True)
    title = models.CharField(max_length=300)
    text = models.TextField()

    class Meta:
        ordering = ["corpus", "id"]

    def __str__(self):
        return f"{self.corpus}: {self.title}"


class CommandReceipt(models.Model):
    """The answer a client's command got, kept under the command's id: a retry gets the same answer.

    Written in the same transaction as the events the command caused, so after a crash a command is
    either applied with its receipt or not at all, and a client that retries never applies it twice.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="receipts")
    actor = models.CharField(max_length=20, help_text="Who sent it: 'moderator' or a seat key.")
    command_id = models.CharField(max_length=64)
    ok = models.BooleanField()
    seqs = models.JSONField(default=list, blank=True)
    error = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "actor", "command_id"], name="unique_command_id")]

    def reply(self) -> dict:
        return {"ok": self.ok, "seqs": list(self.seqs or []), "error": self.error}


class MatchLease(models.Model):
    """Which conductor may write a match's event log, until when (ms since the epoch).

    One writer per match: a conductor appends only while its lease is current, renews it as it
    goes, and a match whose lease has run out is taken over by any conductor that sees it.
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="lease")
    owner = models.CharField(max_length=64)
    channel = models.CharField(max_length=200, help_text="The owner's own channel: messages for the match go there.")
    expires_ms = models.BigIntegerField()

    def __str__(self):
        return f"{self.match_id} held by {self.owner} until {self.expires_ms}"


class ConductorPresence(models.Model):
    """A running conductor, renewed with its leases: how many matches it holds, for placing new ones.

    A new match goes to the live conductor that holds the fewest; the live matches of one that died
    are shared out the same way (game/leases.py). A row not renewed for a lease's length
    belongs to a conductor that is gone. `manage.py conductors` lists them (and checks one for health).
    """

    owner = models.CharField(max_length=64, primary_key=True)
    channel = models.CharField(max_length=200, help_text="The conductor's own channel: matches placed on it are sent there.")
    host = models.CharField(max_length=200, help_text="The machine (or container) it runs on, and its process id.")
    matches = models.IntegerField(default=0, help_text="Matches it held at its last renewal.")
    layer_ok = models.BooleanField(default=True, help_text="Whether it could reach the channel layer (Redis).")
    seen_ms = models.BigIntegerField()

    def __str__(self):
        return f"conductor {self.owner} on {self.host}: {self.matches} matches"
