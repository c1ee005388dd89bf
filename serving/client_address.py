"""The address a request came from, without believing what a client wrote.

The join limit and login throttling count per address, so a client that could name its own address
could dodge both. Without a proxy (BEHIND_PROXY off) the address is the peer's and X-Forwarded-For is
ignored. Behind proxies the peer is the nearest proxy, and each proxy appends the address it saw to
X-Forwarded-For; whatever stands to the left of what the outermost proxy appended was written by the
client. So exactly PROXY_HOPS entries are read, from the right: the last of them is what the outermost
proxy saw, the client. No address range is trusted for what it is: a phone on the hall's private
network is a client like any other. TRUSTED_PROXIES, when set, names the peers whose header is read at
all (the nearest proxy); from any other peer the header is ignored.
"""
import ipaddress

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped  # ::ffff:192.0.2.1 from a dual-stack socket is 192.0.2.1
    return address


def reads_header_from(peer: Address | None) -> bool:
    """Whether X-Forwarded-For is read from this peer: behind a proxy, and the peer is one of
    TRUSTED_PROXIES when those are named."""
    if not settings.BEHIND_PROXY or peer is None:
        return False
    return not settings.TRUSTED_PROXIES or any(peer in network for network in settings.TRUSTED_PROXIES)


def client_address(request) -> str:
    """The client's address: the peer's, or behind proxies the one the outermost proxy saw.

    Walking X-Forwarded-For from the right, each of the last PROXY_HOPS entries was written by a
    proxy. An entry that is missing or not an address stops the walk at the hop before it (a proxy
    that wrote nonsense, or fewer proxies than PROXY_HOPS says), whose address is then the client's.
    """
    peer = request.META.get("REMOTE_ADDR", "")
    nearest = parse_address(peer)
    if not reads_header_from(nearest):
        return str(nearest) if nearest else peer
    entries = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for entry in entries[::-1][:settings.PROXY_HOPS]:
        address = parse_address(entry)
        if address is None:
            break
        nearest = address
    return str(nearest)
