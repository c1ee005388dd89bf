"""The events app: events of several matches, their leaderboards and finals (Django's app record)."""
from django.apps import AppConfig


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"
