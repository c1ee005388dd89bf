"""A real server and a real browser: Daphne in embedded mode on a temporary SQLite database, and
headless Chromium from the system (never a downloaded browser)."""
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import need_service

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SERVER_START_LIMIT_S = 60
# What a failed browser test adds to its report: the last lines of each server's log it ran against, and what
# its pages showed as status and toasts, so a failure seen once on a loaded machine says what the server did.
LOG_TAIL_LINES = 60
# Every text the page's #toast showed (it hides after a few seconds): kept for the report of a failure.
KEEP_TOASTS = """addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("toast");
  if (box) new MutationObserver(() => {
    const seen = (window.toastsSeen ||= []), text = box.textContent.trim();
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  })
    .observe(box, { childList: true, characterData: true, subtree: true });
});"""
_running_logs: list[Path] = []
_open_pages: list = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for log in _running_logs:
        lines = log.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:]
        report.sections.append((f"server log {log.parent.name} (last {len(lines)} lines)", "\n".join(lines)))
    for number, page in enumerate(_open_pages, 1):
        try:
            shown = page.evaluate("""() => [...document.querySelectorAll('#conn, [role=alert], [role=status]')]
                .map((e) => `${e.id || e.className}: ${e.textContent.trim()}`).filter((t) => !t.endsWith(': '))
                .concat((window.toastsSeen || []).map((t) => `toast: ${t}`))""")
        except Exception as exc:  # a closed or navigating page
            shown = [f"(not readable: {exc.__class__.__name__})"]
        report.sections.append((f"page {number} {page.url}", "\n".join(shown) or "(no status or toast shown)"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_env(db: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    # A heartbeat every second, not 15: every browser test meets heartbeats among its frames, as a long
    # match does (a heartbeat ahead of a held ruling once kept the ruling from the phones; docs/wire-protocol.md).
    env.update(DATABASE_URL=f"sqlite:///{db}", DEBUG="1", DJANGO_SETTINGS_MODULE="exhibition.settings",
               PYTHONPATH=str(ROOT), EXHIBITION_HEARTBEAT_SECONDS="1")
    return env


@contextmanager
def seeded_server(folder: Path, env: dict, seed: str = "seed.py", args: tuple = (), bind: str = "127.0.0.1",
                  port: int | None = None):
    """Run tests/browser/<seed> on a fresh database, start Daphne on it, and yield the seed's JSON with
    the server's "url" and "db"."""
    seeded = subprocess.run([sys.executable, str(ROOT / "tests" / "browser" / seed), *args], env=env, cwd=ROOT,
                            capture_output=True, text=True, check=True)
    info = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = port or _free_port()
    log = open(folder / "daphne.log", "w")
    daphne = Path(sys.executable).with_name("daphne")
    server = subprocess.Popen([str(daphne), "-b", bind, "-p", str(port), "exhibition.asgi:application"],
                              env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    _running_logs.append(folder / "daphne.log")
    try:
        _wait_for_port(port, server, folder / "daphne.log")
        yield dict(info, url=f"http://127.0.0.1:{port}", db=Path(env["DATABASE_URL"].removeprefix("sqlite:///")))
    finally:
        _running_logs.remove(folder / "daphne.log")
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def exhibition_server(tmp_path_factory):
    """Seed a database, start Daphne on it, and yield {"url", "db", "user", "password", "matches"}."""
    folder = tmp_path_factory.mktemp("live")
    with seeded_server(folder, _server_env(folder / "db.sqlite3")) as server:
        yield server


def _wait_for_port(port: int, server: subprocess.Popen, log: Path):
    give_up = time.monotonic() + SERVER_START_LIMIT_S
    while time.monotonic() < give_up:
        if server.poll() is not None:
            pytest.fail(f"Daphne exited with {server.returncode}:\n{log.read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"Daphne did not listen on port {port} within {SERVER_START_LIMIT_S} s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def browser():
    need_service(CHROMIUM.exists(), f"headless Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """open_page(viewport) -> a page in its own context (its own cookies); JS errors fail the test."""
    contexts, errors = [], []

    def make(width=1280, height=800, mobile=False):
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=mobile, has_touch=mobile)
        contexts.append(context)
        context.add_init_script(KEEP_TOASTS)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _open_pages.append(page)
        return page

    yield make
    _open_pages.clear()
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
