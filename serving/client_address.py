"""The address a request came from, without believing what a client wrote.

The join limit and login throttling count per address, so a client that could name its own address
could dodge both. Behind our proxy (BEHIND_PROXY) a request's peer is the proxy, and the proxy appends
the address it saw to X-Forwarded-For; whatever stands to the left of that was sent by the client.
So we believe the header only from a trusted proxy, and read it from the right: the first entry that
is not a trusted proxy is the client.
"""
import ipaddress

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# Trusted when BEHIND_PROXY is on and TRUSTED_PROXIES is unset: loopback and the private ranges, where
# docker-compose's own network (and so our nginx) lives.
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7"))


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated addresses and networks (CIDR), or ValueError with a sentence naming the bad one."""
    networks = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {item!r} is not an address or a network such as 10.0.0.0/8 "
                             f"(a network's address must have its host bits zero).") from None
    return tuple(networks)


def parse_address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped  # ::ffff:192.0.2.1 from a dual-stack socket is 192.0.2.1
    return address


def is_trusted(address: Address | None) -> bool:
    return address is not None and any(address in network for network in settings.TRUSTED_PROXIES)


def client_address(request) -> str:
    """The client's address: the peer's, or behind a trusted proxy the one that proxy saw.

    Walking X-Forwarded-For from the right, each entry was written by the hop to its right; while
    that hop is a trusted proxy the entry is what it saw. An entry that is not an address stops the
    walk at the last trusted hop. When every entry is a trusted address, the leftmost is the client.
    """
    peer = request.META.get("REMOTE_ADDR", "")
    nearest = parse_address(peer)
    if not settings.BEHIND_PROXY or not is_trusted(nearest):
        return str(nearest) if nearest else peer
    for entry in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        address = parse_address(entry)
        if address is None:
            break
        nearest = address
        if not is_trusted(address):
            break
    return str(nearest)
