"""A body over its page's limit is refused (413, a sentence) before it is read into memory: by a real
Daphne served directly, as the embedded default and `make demo HALL=1` serve, and through nginx with
deploy/nginx.conf. Review saw a 50 MB upload take a web process to 800 MB before its 413, and a 50 MB
POST to the login page or to an address that does not exist take a fresh one from 96 to 242 MB.

The Daphne tests are marked integration; the nginx one skips without nginx (fails under CI=true). The
client and the peak reading are bench/bodies.py's, which prints the same figures.
"""
from __future__ import annotations

import re
import sys
import uuid
from pathlib import Path

import pytest

from bench.bodies import embedded_env, peak_rss, post
from intake.limits import FILE, MIB
from serving import request_bodies
from serving.request_bodies import DEFAULT, FORM_FIELDS_BYTES, LARGEST, ROUTES, body_limit, over_limit, refusal_page
from tests.servers import ROOT, Processes, free_port, wait_for_port
from tests.stack import Stack
from tests.test_scale_out import nginx_installed  # noqa: F401  (fixture)

BODY = 50 * 1024 * 1024  # 50 MiB, as review sent
PEAK_LIMIT = 400 * 1024 * 1024


def test_each_page_has_its_limit_and_unknown_addresses_the_smallest(settings):
    assert body_limit("/host/import/") is ROUTES["host_import"]
    assert ROUTES["host_import"].bytes == FILE.value + FORM_FIELDS_BYTES
    for path in ("/accounts/login/", "/admin/login/", "/m/ABCD/join", "/no/such/page", "/host/import"):
        assert body_limit(path) is DEFAULT
    assert DEFAULT.bytes == settings.EXHIBITION_MAX_BODY_BYTES == MIB
    assert LARGEST == FILE.default + FORM_FIELDS_BYTES


def test_the_sentence_names_the_size_the_limit_and_the_setting():
    assert over_limit("/accounts/login/", MIB) is None and over_limit("/accounts/login/", None, MIB) is None
    assert over_limit("/accounts/login/", BODY) == (
        "This request: the body is 52,428,800 bytes, over the limit of 1 MiB (setting EXHIBITION_MAX_BODY_BYTES). "
        "None of it was kept.")
    assert over_limit("/nowhere", None, MIB + 1) == (
        "This request: the body is more than 1,048,576 bytes, over the limit of 1 MiB (setting "
        "EXHIBITION_MAX_BODY_BYTES). None of it was kept.")
    assert over_limit("/host/import/", FILE.value + FORM_FIELDS_BYTES) is None
    assert over_limit("/host/import/", BODY) == (
        "The upload: the file size is 52,428,800 bytes, over the limit of 32 MiB (setting "
        "EXHIBITION_IMPORT_MAX_FILE_BYTES). Nothing was imported.")


def test_the_refusal_page_escapes_what_the_client_sent_and_links_back_on_this_site():
    page = refusal_page("A <b>sentence</b>.", "//evil.example/<script>").decode()
    assert "A &lt;b&gt;sentence&lt;/b&gt;." in page and "<script>" not in page
    assert 'href="/evil.example/&lt;script&gt;"' in page, "a path starting // would be another site"
    assert "<main" in page, "the import page's upload script shows the answer's <main>"


@pytest.mark.integration
@pytest.mark.slow
async def test_daphne_refuses_fifty_megabytes_anywhere_before_reading_them(tmp_path):
    procs = Processes(embedded_env(tmp_path / "bodies.sqlite3"), tmp_path)
    port = free_port()
    daphne = procs.start("daphne", str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                         "exhibition.asgi:application")
    try:
        await wait_for_port(port)
        idle = peak_rss(daphne.pid)
        nowhere = f"/no-such-page-{uuid.uuid4().hex}"
        signed_in = "Cookie: sessionid=abcdefghijklmnopqrstuvwxyz012345\r\n"
        answers = {}
        for path in ("/host/import/", "/accounts/login/", nowhere):
            for chunked in (False, True):
                answers[path, chunked] = (await post(port, path, BODY, chunked, signed_in if chunked else ""))[:2]
        peak = peak_rss(daphne.pid)
        # A body within the page's limit still reaches the page: Django answers (403, no CSRF token).
        within, _, _ = await post(port, "/accounts/login/", 1000)
        log = procs.log("daphne")
    finally:
        procs.stop_all()

    for (path, chunked), (status, sentence) in answers.items():
        assert status == 413, (path, chunked, sentence, log)
        limit = "32 MiB" if path == "/host/import/" else "1 MiB"
        size = "more than" if chunked else "52,428,800 bytes"
        assert f"over the limit of {limit}" in sentence and size in sentence, (path, chunked, sentence)
    assert answers["/host/import/", False][1].endswith("Nothing was imported.")
    assert within == 403
    assert peak < PEAK_LIMIT, f"peak RSS {peak / MIB:.0f} MiB (idle {idle / MIB:.0f} MiB)"
    assert "Traceback" not in log, log


@pytest.mark.integration
@pytest.mark.slow
async def test_through_nginx_a_body_over_every_limit_stops_at_the_proxy_and_one_over_its_pages_at_daphne(
        tmp_path, nginx_installed):
    stack = Stack(tmp_path, "", "sqlite")
    stack.env.update(embedded_env(tmp_path / "bodies.sqlite3"), BEHIND_PROXY="1")
    try:
        webs = [stack.port, free_port()]
        daphnes = [stack.start_daphne("web-1", webs[0]), stack.start_daphne("web-2", webs[1])]
        for port in webs:
            await wait_for_port(port)
        proxy = stack.start_proxy(webs)
        await wait_for_port(proxy, "nginx")
        over_all = [(await post(proxy, path, BODY, chunked))[:2]
                    for path in ("/host/import/", "/accounts/login/") for chunked in (False, True)]
        over_page = [(await post(proxy, "/accounts/login/", 5 * MIB, chunked))[:2] for chunked in (False, True)]
        peaks = [peak_rss(d.pid) for d in daphnes]
        log = stack.procs.log("web-1") + stack.procs.log("web-2")
    finally:
        stack.stop()
    for status, sentence in over_all:
        assert status == 413 and sentence.startswith("This request: the body is over 33 MiB"), sentence
    for status, sentence in over_page:
        assert status == 413 and "over the limit of 1 MiB (setting EXHIBITION_MAX_BODY_BYTES)" in sentence, sentence
    assert max(peaks) < PEAK_LIMIT
    assert "Traceback" not in log, log


def test_nginx_takes_just_over_the_largest_page_limit():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    proxy = int(re.search(r"^\s*client_max_body_size (\d+)m;", conf, re.MULTILINE).group(1)) * MIB
    assert LARGEST <= proxy <= LARGEST + MIB
    assert f"over {proxy // MIB} MiB" in conf, "nginx's own 413 page says its limit"
    assert request_bodies.DEFAULT.limit.setting == "EXHIBITION_MAX_BODY_BYTES"
