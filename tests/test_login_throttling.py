"""Login throttling: wrong passwords lock one username from one address for a while, and a username tried
from many addresses for a short stretch, on every sign-in form."""
import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client

pytestmark = pytest.mark.django_db

LIMIT = 3
LOGIN, ADMIN_LOGIN = "/accounts/login/", "/admin/login/"


@pytest.fixture(autouse=True)
def host(settings):
    from django.core.cache import cache

    cache.clear()
    settings.AXES_FAILURE_LIMIT = LIMIT
    return get_user_model().objects.create_user("host", password="right-password", is_staff=True, is_superuser=True)


def sign_in(client, password, username="host", path=LOGIN):
    return client.post(path, {"username": username, "password": password})


def fail(client, times, username="host", path=LOGIN) -> list[int]:
    return [sign_in(client, "wrong", username, path).status_code for _ in range(times)]


def assert_locked_out(response, minutes=15):
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed sign-ins" in text and f"Try again in {minutes} minutes" in text
    assert (minutes - 1) * 60 < int(response["Retry-After"]) <= minutes * 60, "the seconds the lock still holds"


def signed_in(client) -> bool:
    return client.get("/host/").status_code == 200


def test_after_the_limit_even_the_right_password_gets_the_lockout_page(client):
    assert fail(client, LIMIT - 1) == [200] * (LIMIT - 1)
    assert_locked_out(sign_in(client, "wrong"))
    assert_locked_out(sign_in(client, "right-password"))
    assert not signed_in(client)


def test_the_lock_holds_one_username_from_one_address_only(client):
    get_user_model().objects.create_user("moderator", password="mod-password", is_staff=True)
    fail(client, LIMIT)
    assert sign_in(client, "mod-password", "moderator").status_code == 302, "another username from the same address"
    elsewhere = Client(REMOTE_ADDR="192.0.2.44")
    assert sign_in(elsewhere, "right-password").status_code == 302, "the same username from another address"
    assert signed_in(elsewhere)


def test_the_admin_login_is_throttled_and_shares_the_count(client):
    fail(client, LIMIT - 1, path=LOGIN)
    assert_locked_out(sign_in(client, "wrong", path=ADMIN_LOGIN))
    assert_locked_out(sign_in(client, "right-password", path=ADMIN_LOGIN))
    assert client.get("/admin/").status_code == 302, "still not signed in to the admin"


def test_after_the_cool_off_the_right_password_works(client):
    fail(client, LIMIT)
    # The clock moves on past the cool-off: every recorded failure is that much older.
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= settings.AXES_COOLOFF_TIME
        attempt.save()
    assert sign_in(client, "right-password").status_code == 302
    assert signed_in(client)


def test_an_operator_lifts_the_lock_with_the_reset_command(client):
    from django.core.management import call_command

    fail(client, LIMIT)
    call_command("axes_reset_username", "host")
    assert sign_in(client, "right-password").status_code == 302


def test_the_wait_shown_is_the_configured_cool_off(client, settings):
    from datetime import timedelta

    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    fail(client, LIMIT - 1)
    response = sign_in(client, "wrong")
    assert response.status_code == 429 and "Try again in 1 minute." in response.content.decode()


def test_a_successful_sign_in_starts_the_count_again(client):
    fail(client, LIMIT - 1)
    assert sign_in(client, "right-password").status_code == 302
    client.post("/accounts/logout/")
    assert fail(client, LIMIT - 1) == [200] * (LIMIT - 1), "the earlier failures no longer count"
    assert sign_in(client, "right-password").status_code == 302


def test_behind_the_proxy_forged_addresses_do_not_escape_the_lock(settings):
    settings.BEHIND_PROXY, settings.PROXY_HOPS, settings.TRUSTED_PROXIES = True, 1, ()
    for i in range(LIMIT):
        forging = Client(REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, 198.51.100.23")
        status = sign_in(forging, "wrong").status_code
    assert status == 429
    forging = Client(REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="203.0.113.200, 198.51.100.23")
    assert_locked_out(sign_in(forging, "right-password"))
    other = Client(REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert sign_in(other, "right-password").status_code == 302, "another client of the proxy is not locked"


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_is_served_on_the_asynchronous_path_daphne_takes():
    client = AsyncClient()
    for _ in range(LIMIT):
        await client.post(LOGIN, {"username": "host", "password": "wrong"})
    assert_locked_out(await client.post(LOGIN, {"username": "host", "password": "right-password"}))


def test_a_try_refused_during_the_lock_neither_restarts_it_nor_counts(client):
    fail(client, LIMIT)
    for _ in range(5):
        assert_locked_out(sign_in(client, "wrong"))
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == LIMIT
    for attempt in AccessAttempt.objects.all():  # the cool-off passes, counted from the last wrong password
        attempt.attempt_time -= settings.AXES_COOLOFF_TIME
        attempt.save()
    assert sign_in(client, "right-password").status_code == 302


class Clock:
    """The username lock's clock, moved on by hand."""

    def __init__(self):
        self.now = 60.0 * 16_666_667 + 20  # 20 s into a stretch of 60

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    from serving import login_lockout

    moved = Clock()
    monkeypatch.setattr(login_lockout, "clock", moved)
    return moved


def test_a_username_tried_from_many_addresses_is_slowed_for_a_short_stretch_only(settings, clock):
    settings.EXHIBITION_LOGIN_USERNAME_FAILURES, settings.EXHIBITION_LOGIN_USERNAME_SECONDS = 6, 60
    for n in range(3):  # three guessers, each under the per-address limit
        assert fail(Client(REMOTE_ADDR=f"203.0.113.{n}"), 2) == [200, 200]
    stranger = Client(REMOTE_ADDR="198.51.100.7")
    response = sign_in(stranger, "wrong")
    assert response.status_code == 429 and "Try again in 1 minute." in response.content.decode()
    assert response["Retry-After"] == "40", "the rest of the stretch"
    host_elsewhere = Client(REMOTE_ADDR="192.0.2.44")
    assert sign_in(host_elsewhere, "right-password").status_code == 429, "the username is refused everywhere"
    get_user_model().objects.create_user("moderator", password="mod-password", is_staff=True)
    assert sign_in(Client(REMOTE_ADDR="192.0.2.45"), "mod-password", "moderator").status_code == 302, "other usernames are not"
    clock.now += 40  # the stretch is over: the host signs in, and the refused tries left no lock behind
    assert sign_in(host_elsewhere, "right-password").status_code == 302 and signed_in(host_elsewhere)


def test_thirty_wrong_passwords_from_as_many_addresses_test_at_most_the_username_limit(settings, clock):
    settings.AXES_FAILURE_LIMIT, settings.EXHIBITION_LOGIN_USERNAME_FAILURES = 5, 10
    statuses = [sign_in(Client(REMOTE_ADDR=f"203.0.113.{n}"), "wrong").status_code for n in range(30)]
    assert statuses == [200] * 10 + [429] * 20
    assert sign_in(Client(REMOTE_ADDR="203.0.113.200"), "right-password").status_code == 429
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 10
