"""Loaded by pytest before Django (pytest.ini: -p tests.environment): the environment of a test run.

The settings refuse to start without a SECRET_KEY unless DEBUG is on, and turn HTTPS on unless
DEBUG is on. Tests run with DEBUG off, as production does, with a key of their own, and speak plain
HTTP to the servers they start on 127.0.0.1. Servers the tests start inherit this environment.
"""
import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "k" * 40)
os.environ.setdefault("HTTPS", "off")
