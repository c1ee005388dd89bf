"""Hall mode: serving a match to a room of phones on the local network.

A hall is a room with a projector and a Wi-Fi network that people's phones join. The server must
answer at this machine's LAN address (not only 127.0.0.1), accept that address as a Host and as a
websocket Origin, and the big screen must show the address people type and a QR code of the join
link. The addresses are read from this machine's own network interfaces (psutil), so nothing is
sent anywhere to find them. Settings import this module, so it imports nothing from Django.
"""
from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path
from urllib.parse import urlsplit

import psutil

# Interfaces that are never the hall's network: containers' and VMs' bridges, VPN tunnels.
_VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "zt", "cni", "flannel")


def _usable(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return None
    return ip


def lan_addresses() -> list[str]:
    """This machine's addresses on its up interfaces, loopback and link-local left out.

    IPv4 first (what people can type), then IPv6; interfaces that look like a real network card
    before container bridges and tunnels, which are kept (a Host naming them is still this machine).
    """
    stats = psutil.net_if_stats()
    found: list[tuple[int, int, str]] = []
    for name, entries in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        virtual = int(name.startswith(_VIRTUAL_PREFIXES))
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            ip = _usable(entry.address)
            if ip is not None:
                found.append((virtual, 6 if ip.version == 6 else 4, str(ip)))
    ordered = [address for _, _, address in sorted(found, key=lambda f: (f[1], f[0]))]
    return list(dict.fromkeys(ordered))


def host_entry(address: str) -> str:
    """An address as it appears in a Host header (and ALLOWED_HOSTS): IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def allowed_hosts(addresses: list[str], public_url: str = "") -> list[str]:
    """The Host names a hall server answers to besides localhost: its LAN addresses and PUBLIC_URL's host."""
    hosts = [host_entry(a) for a in addresses]
    if public_url:
        hosts.append(urlsplit(public_url).hostname or "")
    return [h for h in dict.fromkeys(hosts) if h]


def public_origin(public_url: str) -> str:
    """scheme://host[:port] of PUBLIC_URL (for CSRF_TRUSTED_ORIGINS), or ""."""
    parts = urlsplit(public_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def check_public_url(public_url: str) -> str:
    """PUBLIC_URL without a trailing slash; a sentence saying what to fix when it is not a URL."""
    url = public_url.strip().rstrip("/")
    if url and not public_origin(url):
        raise ValueError(f"EXHIBITION_PUBLIC_URL must look like http://192.168.1.23:8000, not {public_url!r}.")
    return url


def is_local_host(host: str) -> bool:
    """Whether a Host header names this machine's loopback (a browser on the projector's own computer)."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def base_url(request_host: str, scheme: str, *, hall: bool, public_url: str = "", addresses: list[str] | None = None
             ) -> str:
    """Where people in the room reach this server, as scheme://host:port.

    PUBLIC_URL wins. In hall mode a page opened on this machine itself (127.0.0.1, localhost) names
    the first LAN address instead, on the same port, because that is what a phone can reach.
    Otherwise the address the page was opened with is the one to hand out.
    """
    if public_url:
        return public_url
    if hall and is_local_host(request_host):
        found = lan_addresses() if addresses is None else addresses
        if found:
            port = urlsplit(f"//{request_host}").port
            return f"{scheme}://{host_entry(found[0])}{f':{port}' if port else ''}"
    return f"{scheme}://{request_host}"


def machine_secret(path: Path) -> str:
    """A secret key of this machine's own, made once and kept in path (readable by its owner only).

    A hall server must never sign seat tokens with the development key everyone can read: anyone on
    the hall's network could forge one and play another person's seat.
    """
    path = Path(path)
    if path.exists():
        key = path.read_text().strip()
        if len(key) >= 50:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_text(key + "\n")
    return key
