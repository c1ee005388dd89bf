"""Hall mode: a server a room of phones can reach on the local network, and safe by default.

The settings cases start a fresh process with exactly the environment named, as `make demo HALL=1`
or an operator's shell would, and ask Django's own request handling which Host it serves.
"""
import json
import os
import stat
import subprocess
import sys

import pytest

from serving import hall
from tests.conftest import need_service
from tests.servers import ROOT

# A request per Host header through Django's full middleware (ALLOWED_HOSTS, HTTPS redirect), and the settings read.
ASK = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
from serving import hall
lan = hall.lan_addresses()
hosts = {"lan": hall.host_entry(lan[0]) + ":8000" if lan else None, "local": "127.0.0.1:8000", "foreign": "evil.example:8000",
         "public": "quiz.hall.example:8000"}
status = {name: Client(HTTP_HOST=host).get("/join").status_code if host else None for name, host in hosts.items()}
print(json.dumps({"status": status, "lan": lan, "https": settings.HTTPS, "debug": settings.DEBUG,
                  "dev_key": settings.SECRET_KEY.startswith("exhibition-development-only"),
                  "csrf": settings.CSRF_TRUSTED_ORIGINS}))
"""
CLEARED = ("SECRET_KEY", "DEBUG", "HTTPS", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY", "EXHIBITION_HALL",
           "EXHIBITION_PUBLIC_URL", "DATABASE_URL")


def ask(env: dict, tmp_path) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(env, DJANGO_SETTINGS_MODULE="exhibition.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    done = subprocess.run([sys.executable, "-c", ASK], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def need_lan(found: dict):
    need_service(bool(found["lan"]), "this machine has no network interface besides loopback, so no LAN address to allow")


def test_hall_mode_serves_the_machines_lan_address_and_still_refuses_a_foreign_host(tmp_path):
    found = ask({"EXHIBITION_HALL": "1", "SECRET_KEY": "k" * 60}, tmp_path)
    need_lan(found)
    assert found["status"]["lan"] == 200
    assert found["status"]["local"] == 200
    assert found["status"]["foreign"] == 400
    assert found["status"]["public"] == 400
    # Plain HTTP on the hall's own network: no redirect to an HTTPS the server does not speak.
    assert found["https"] is False and found["debug"] is False


def test_by_default_the_lan_address_is_refused(tmp_path):
    found = ask({"DEBUG": "1"}, tmp_path)
    need_lan(found)
    assert found["status"]["local"] == 200
    assert found["status"]["lan"] == 400
    assert found["status"]["foreign"] == 400


def test_a_public_url_is_served_and_trusted_for_forms(tmp_path):
    found = ask({"EXHIBITION_HALL": "1", "SECRET_KEY": "k" * 60,
                 "EXHIBITION_PUBLIC_URL": "http://quiz.hall.example:8000/"}, tmp_path)
    assert found["status"]["public"] == 200
    assert found["status"]["foreign"] == 400
    assert found["csrf"] == ["http://quiz.hall.example:8000"]


def test_a_public_url_that_is_not_a_url_stops_the_server_with_a_sentence(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(DEBUG="1", EXHIBITION_PUBLIC_URL="quiz.hall.example", DJANGO_SETTINGS_MODULE="exhibition.settings")
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "EXHIBITION_PUBLIC_URL must be an address starting http:// or https://, not 'quiz.hall.example'." in done.stderr


def test_a_hall_server_never_signs_with_the_development_key(tmp_path):
    """Everyone on the hall's network could forge seat tokens with the key printed in the settings."""
    found = ask({"EXHIBITION_HALL": "1", "DEBUG": "1"}, tmp_path)
    assert found["dev_key"] is False


def test_the_machine_secret_is_made_once_and_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "var" / "secret-key"
    first = hall.machine_secret(path)
    assert len(first) >= 50
    assert hall.machine_secret(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("host, hall_mode, public, expected", [
    ("127.0.0.1:8000", True, "", "http://192.168.1.23:8000"),  # the projector's own browser: hand out the LAN address
    ("localhost:8000", True, "", "http://192.168.1.23:8000"),
    ("192.168.1.23:8000", True, "", "http://192.168.1.23:8000"),
    ("127.0.0.1:8000", False, "", "http://127.0.0.1:8000"),  # not a hall: the address as opened
    ("exhibition.example.org", False, "", "http://exhibition.example.org"),
    ("127.0.0.1:8000", True, "https://quiz.example.org", "https://quiz.example.org"),  # PUBLIC_URL wins
])
def test_the_address_people_are_told_to_open(host, hall_mode, public, expected):
    assert hall.base_url(host, "http", hall=hall_mode, public_url=public, addresses=["192.168.1.23", "fd00::2"]) == expected


def test_lan_addresses_leave_out_loopback_and_put_ipv4_first():
    found = hall.lan_addresses()
    assert not any(a.startswith("127.") or a == "::1" or a.startswith("fe80") for a in found)
    versions = [":" in a for a in found]
    assert versions == sorted(versions)  # every IPv4 address before any IPv6 one
    assert [hall.host_entry(a) for a in ("10.0.0.5", "fd00::2")] == ["10.0.0.5", "[fd00::2]"]
