"""A feed token: the host's permission for one machine to read one match's live feed (docs/broadcast.md).

Only the token's SHA-256 digest is stored; the token itself is shown to the host once, when it is made.
A revoked token stays, with the time it was revoked, so the host's page shows what was handed out."""
from django.db import models

from game.models import Match

LABEL_MAX_LENGTH = 60


class FeedToken(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="feed_tokens")
    label = models.CharField(max_length=LABEL_MAX_LENGTH)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.label} ({self.match_id})"

    @property
    def live(self) -> bool:
        return self.revoked_at is None
