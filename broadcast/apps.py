"""The broadcast app: the overlay page, the live feed and its tokens (Django's app record)."""
from django.apps import AppConfig


class BroadcastConfig(AppConfig):
    name = "broadcast"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Broadcast"
