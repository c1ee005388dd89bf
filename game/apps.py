"""The game app: matches, their event log, the engine, the conductor, the sockets and the pages (Django's app record)."""
from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from game import checks  # noqa: F401  (registers the startup checks; Django imports them once the apps are ready)
