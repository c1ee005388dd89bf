"""Whose address a request is counted under: a client cannot name its own, with or without our proxy,
from a public address or from the hall's private network."""
import pytest
from django.test import RequestFactory

from serving import environment
from serving.client_address import client_address

PROXY = "172.18.0.5"  # nginx on docker-compose's network


def address(remote: str, forwarded: str | None = None) -> str:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


@pytest.fixture
def behind_proxy(settings):
    """The production defaults: BEHIND_PROXY on, one proxy, no TRUSTED_PROXIES named."""
    settings.BEHIND_PROXY = True
    settings.PROXY_HOPS = environment.read("PROXY_HOPS", {})
    settings.TRUSTED_PROXIES = environment.read("TRUSTED_PROXIES", {})
    return settings


def test_without_a_proxy_the_header_is_ignored_even_from_loopback(settings):
    settings.BEHIND_PROXY = False
    assert address("127.0.0.1", "198.51.100.23") == "127.0.0.1"
    assert address("10.0.0.7", "10.77.1.2") == "10.0.0.7"


def test_behind_one_proxy_the_entry_it_appended_counts_and_what_the_client_wrote_does_not(behind_proxy):
    assert behind_proxy.PROXY_HOPS == 1
    assert address(PROXY, "198.51.100.23") == "198.51.100.23"
    assert address(PROXY, "1.1.1.1, 8.8.8.8,198.51.100.23") == "198.51.100.23"


def test_a_phone_on_the_halls_private_network_cannot_name_another_address(behind_proxy):
    # The phone wrote 10.77.1.2; nginx appended the phone's own 10.77.0.40. Private ranges earn no trust.
    assert address(PROXY, "10.77.1.2, 10.77.0.40") == "10.77.0.40"
    assert address("127.0.0.1", "192.168.1.9, 127.0.0.1") == "127.0.0.1"
    forged = {address(PROXY, f"10.77.1.{n}, 10.77.0.40") for n in range(25)}
    assert forged == {"10.77.0.40"}


def test_two_proxies_read_two_entries(behind_proxy):
    # A TLS terminator (10.0.0.3) in front of nginx: it appends the client, nginx appends the terminator.
    behind_proxy.PROXY_HOPS = 2
    assert address(PROXY, "1.1.1.1, 198.51.100.23, 10.0.0.3") == "198.51.100.23"
    assert address(PROXY, "10.77.1.2, 10.77.0.40, 10.0.0.3") == "10.77.0.40"


def test_a_peer_outside_the_named_proxies_is_a_client_whatever_it_wrote(behind_proxy):
    behind_proxy.TRUSTED_PROXIES = environment.read("TRUSTED_PROXIES", {"TRUSTED_PROXIES": "192.0.2.10, 2001:db8:ff::/48"})
    assert address(PROXY, "198.51.100.23") == PROXY
    assert address("192.0.2.10", "1.1.1.1, 10.1.2.3") == "10.1.2.3"
    assert address("2001:db8:ff::1", "198.51.100.23") == "198.51.100.23"


def test_ipv6_clients_and_proxies(behind_proxy):
    assert address("fd00:0:0:1::5", "2001:db8::1, 2001:DB8:0:0::7") == "2001:db8::7"
    assert address("::1", "2001:db8::7") == "2001:db8::7"
    assert address("::ffff:172.18.0.5", "198.51.100.23") == "198.51.100.23", "an IPv4 peer on a dual-stack socket"
    assert address("::ffff:198.51.100.23") == "198.51.100.23"


def test_a_header_that_is_missing_short_or_not_addresses_falls_back_to_the_last_good_hop(behind_proxy):
    assert address(PROXY, "198.51.100.23, unknown") == PROXY
    assert address(PROXY, "") == PROXY
    assert address(PROXY) == PROXY
    behind_proxy.PROXY_HOPS = 2
    assert address(PROXY, "10.0.0.3") == "10.0.0.3", "fewer entries than hops: the leftmost the proxies wrote"
    assert address(PROXY, "junk, 10.0.0.3") == "10.0.0.3"
