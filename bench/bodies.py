"""Large request bodies against a web process served directly (the embedded default, as `make demo
HALL=1` serves): its peak resident size, idle and after 50 MiB bodies to the import page, the login
page and an address that does not exist, each with a Content-Length and in chunks without one.

    .venv/bin/python bench/bodies.py
    .venv/bin/python bench/bodies.py --checkout ../other-checkout   # the same against another checkout's code

Prints each answer (status, bytes sent before it came) and the peak (VmHWM) against the idle process's,
as a ratio. Numbers, never pass/fail; tests/test_request_bodies.py holds the limit. Uses the client
below, which the test shares: it sends as curl does and reads the answer while it sends.
"""
from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIB = 1024 * 1024
PIECE = 64 * 1024
SENTENCE = re.compile(r'<p class="error">([^<]+)</p>')


async def post(port: int, path: str, size: int, chunked: bool = False, headers: str = "") -> tuple[int, str, int]:
    """POST `size` bytes to path in 64 KiB pieces, with a Content-Length or in chunks without one, reading
    the answer while sending. Returns (status, the page's sentence or the page, bytes sent before the answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    writer.write((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/octet-stream\r\n"
                  f"{framing}\r\n{headers}\r\n").encode())
    sent = 0

    async def send():
        nonlocal sent
        try:
            for start in range(0, size, PIECE):
                piece = b"x" * min(PIECE, size - start)
                writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                await writer.drain()
                sent += len(piece)
            if chunked:
                writer.write(b"0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, OSError):
            pass  # the server answered and closed: the rest is not wanted

    sending = asyncio.ensure_future(send())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
    answered_after = sent
    status = int(head.split()[1])
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    page = (await asyncio.wait_for(reader.readexactly(length), 60)).decode()
    sending.cancel()
    writer.close()
    found = SENTENCE.search(page)
    return status, html.unescape(found.group(1)) if found else page, answered_after


def peak_rss(pid: int) -> int:
    """The process's peak resident size so far, in bytes (the kernel's high-water mark)."""
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) * 1024


def embedded_env(database: Path) -> dict:
    """This environment as the embedded default: no Redis, no proxy, a throwaway SQLite file."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BEHIND_PROXY", "TRUSTED_PROXIES")}
    env.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_SETTINGS_MODULE="exhibition.settings",
               PYTHONUNBUFFERED="1")
    env.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b" * 40)
    env.setdefault("HTTPS", "off")
    return env


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"Daphne did not open port {port}") from None
            time.sleep(0.1)


async def measure(checkout: Path, size: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        log = open(Path(tmp) / "daphne.log", "ab")
        daphne = subprocess.Popen([str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                                   "exhibition.asgi:application"], cwd=checkout, env=embedded_env(Path(tmp) / "b.db"),
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port)
            idle = peak_rss(daphne.pid)
            print(f"checkout {checkout}; bodies of {size / MIB:.0f} MiB; idle peak RSS {idle / MIB:.0f} MiB")
            for path in ("/host/import/", "/accounts/login/", f"/no-such-page-{uuid.uuid4().hex[:8]}"):
                for chunked in (False, True):
                    status, sentence, sent = await post(port, path, size, chunked)
                    print(f"  {path:<32} {'chunked' if chunked else 'length ':<8} {status}  answered after "
                          f"{sent / MIB:5.1f} MiB sent  peak {peak_rss(daphne.pid) / MIB:.0f} MiB  {sentence[:70]!r}")
            peak = peak_rss(daphne.pid)
            print(f"peak RSS {peak / MIB:.0f} MiB, idle {idle / MIB:.0f} MiB: {peak / idle:.2f}x idle")
        finally:
            daphne.kill()
            daphne.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose code Daphne runs")
    parser.add_argument("--mib", type=int, default=50, help="each body's size")
    args = parser.parse_args()
    asyncio.run(measure(args.checkout.resolve(), args.mib * MIB))


if __name__ == "__main__":
    main()
