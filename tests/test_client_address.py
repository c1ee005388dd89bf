"""Whose address a request is counted under: a client cannot name its own, with or without our proxy."""
import pytest
from django.test import RequestFactory

from serving.client_address import PRIVATE_NETWORKS, client_address, parse_networks

PROXY = "172.18.0.5"  # nginx on docker-compose's network


def address(remote: str, forwarded: str | None = None) -> str:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


@pytest.fixture
def behind_proxy(settings):
    settings.BEHIND_PROXY = True
    settings.TRUSTED_PROXIES = PRIVATE_NETWORKS
    return settings


def test_without_a_proxy_the_header_is_ignored_even_from_loopback(settings):
    settings.BEHIND_PROXY = False
    assert address("127.0.0.1", "198.51.100.23") == "127.0.0.1"


def test_a_forged_header_from_an_address_that_is_not_a_proxy_is_ignored(behind_proxy):
    assert address("203.0.113.7", "198.51.100.23") == "203.0.113.7"


def test_from_the_proxy_the_entry_it_appended_counts_and_what_the_client_wrote_does_not(behind_proxy):
    assert address(PROXY, "198.51.100.23") == "198.51.100.23"
    assert address(PROXY, "1.1.1.1, 8.8.8.8,198.51.100.23") == "198.51.100.23"


def test_a_chain_of_trusted_proxies_is_walked_from_the_right(behind_proxy):
    # A TLS terminator (10.0.0.3) in front of nginx: nginx appends the terminator's address.
    assert address(PROXY, "1.1.1.1, 198.51.100.23, 10.0.0.3") == "198.51.100.23"


def test_only_the_named_proxies_are_trusted_when_the_operator_lists_them(behind_proxy):
    behind_proxy.TRUSTED_PROXIES = parse_networks("192.0.2.10, 2001:db8:ff::/48")
    assert address(PROXY, "198.51.100.23") == PROXY
    assert address("192.0.2.10", "1.1.1.1, 10.1.2.3") == "10.1.2.3", "a client on a private network is a client"
    assert address("2001:db8:ff::1", "198.51.100.23") == "198.51.100.23"


def test_ipv6_clients_and_proxies(behind_proxy):
    assert address("fd00:0:0:1::5", "2001:db8::1, 2001:DB8:0:0::7") == "2001:db8::7"
    assert address("::1", "2001:db8::7") == "2001:db8::7"
    assert address("2001:db8::9", "198.51.100.23") == "2001:db8::9", "a public IPv6 peer is not a proxy"
    assert address("::ffff:172.18.0.5", "198.51.100.23") == "198.51.100.23", "an IPv4 peer on a dual-stack socket"


def test_a_header_that_is_not_addresses_is_not_believed(behind_proxy):
    assert address(PROXY, "198.51.100.23, unknown") == PROXY
    assert address(PROXY, "") == PROXY
    assert address(PROXY) == PROXY


def test_a_trusted_proxy_list_that_is_not_addresses_is_refused_with_a_sentence():
    assert parse_networks(" 10.0.0.0/8,, ::1 ") == parse_networks("10.0.0.0/8,::1")
    with pytest.raises(ValueError, match="'10.0.0.1/8' is not an address or a network"):
        parse_networks("10.0.0.1/8")
    with pytest.raises(ValueError, match="'proxy.local'"):
        parse_networks("proxy.local")
