"""The bots app: bot records and their builds, the bot kinds, tiers and workers (Django's app record)."""
from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    default_auto_field = "django.db.models.BigAutoField"
