"""Imported by each bench script before Django starts: the environment of a bench run.

The settings refuse to start without a SECRET_KEY unless DEBUG is on (a production server must not
run on a known key). A bench is not a server anyone reaches, so it runs as the tests do: DEBUG off,
a key of its own, plain HTTP on 127.0.0.1. Variables already set win.
"""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "k" * 40)
os.environ.setdefault("HTTPS", "off")
