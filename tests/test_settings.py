"""Safe by default: the settings a server starts with when the operator sets nothing, or everything.

Each case starts `manage.py check` in a fresh process with exactly the environment named, as an
operator's shell or docker-compose would.
"""
import os
import subprocess
import sys

from tests.servers import ROOT

PRODUCTION = {"SECRET_KEY": "a-production-secret-" + "x7Q" * 15, "ALLOWED_HOSTS": "exhibition.example.org",
              "CSRF_TRUSTED_ORIGINS": "https://exhibition.example.org", "BEHIND_PROXY": "1"}


def check(env: dict, *args: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SECRET_KEY", "DEBUG", "HTTPS", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY",
                          "TRUSTED_PROXIES")}
    clean.update(env, DJANGO_SETTINGS_MODULE="exhibition.settings")
    return subprocess.run([sys.executable, "manage.py", "check", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=120)


def test_without_a_secret_key_the_server_refuses_to_start_unless_debug_is_on():
    refused = check({})
    assert refused.returncode != 0 and "Set SECRET_KEY" in refused.stderr
    assert check({"DEBUG": "1"}).returncode == 0


def test_debug_is_off_unless_set():
    shown = subprocess.run([sys.executable, "-c", "from django.conf import settings; import django; django.setup(); "
                            "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE)"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**{k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS")},
                                "SECRET_KEY": PRODUCTION["SECRET_KEY"], "DJANGO_SETTINGS_MODULE": "exhibition.settings"})
    assert shown.stdout.split() == ["False", "True", "True"], shown.stderr


def test_check_deploy_is_clean_with_the_production_settings_of_the_readme():
    result = check(PRODUCTION, "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_trusted_proxy_that_is_not_an_address_stops_the_server_with_a_sentence():
    refused = check({**PRODUCTION, "TRUSTED_PROXIES": "10.0.0.0/8, nginx"})
    assert refused.returncode != 0 and "TRUSTED_PROXIES: 'nginx' is not an address" in refused.stderr
