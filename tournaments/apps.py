"""The tournaments app: quizbowl tournaments played in several rooms at once (Django's app record)."""
from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
