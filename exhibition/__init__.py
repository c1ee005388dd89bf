"""Exhibition: live human-versus-computer trivia matches."""
from exhibition.celery import app as celery_app

__all__ = ("celery_app",)
