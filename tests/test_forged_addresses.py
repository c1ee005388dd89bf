"""A mischievous phone on the hall's own network, on the production shape with its default settings:
PostgreSQL, Redis, nginx (deploy/nginx.conf) in front of two Daphne processes, a conductor, and
BEHIND_PROXY=1 as docker-compose.yml sets it, nothing else about proxies.

Review found that a client writing a new private address into X-Forwarded-For on every request was
believed: 25 joins from one client were all seated past a limit of 10 a minute, and 30 wrong passwords
for one username, each from a "new" address, were never throttled, so the right password then signed
in. Here the same client is counted under the address nginx saw, whatever it wrote.

Needs Redis at 127.0.0.1:6379 (db 10 is flushed), PostgreSQL at 127.0.0.1:5432 and nginx; skips
without them (fails under CI=true).
"""
import asyncio
import collections
import re

import pytest

from serving import environment
from tests.conductor.test_integration_faults import TEAM_PHASE, setup_script, shared_redis, stacks  # noqa: F401
from tests.servers import free_port, wait_for_port
from tests.test_concurrency import phone_joins
from tests.test_scale_out import nginx_installed  # noqa: F401  (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.postgres]

JOINS = 25
GUESSES = 30
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


async def test_forged_forwarded_addresses_neither_seat_past_the_join_limit_nor_escape_the_login_lock(
        shared_redis, stacks, nginx_installed):
    import httpx

    stack = stacks(shared_redis, db="postgres")
    stack.env["BEHIND_PROXY"] = "1"  # as docker-compose.yml; PROXY_HOPS, TRUSTED_PROXIES and the limits as defaulted
    info = stack.setup(setup_script({**TEAM_PHASE, "matches": 1}))
    webs = [stack.port, free_port()]
    stack.start_daphne("web-1", webs[0])
    stack.start_daphne("web-2", webs[1])
    stack.start_conductor("conductor-1")
    for port in webs:
        await wait_for_port(port)
    proxy = stack.start_proxy(webs)
    await wait_for_port(proxy, "nginx")
    base = f"http://127.0.0.1:{proxy}"
    await asyncio.sleep(2)  # the conductor has said it is alive

    code = info["matches"][0]["code"]
    start = asyncio.Event()
    phones = [asyncio.ensure_future(phone_joins(base, code, f"Phone {n}", start,
                                                headers={"X-Forwarded-For": f"10.77.1.{n + 2}"}))
              for n in range(JOINS)]
    await asyncio.sleep(2)  # every phone has its join page open
    start.set()
    finals = collections.Counter(final for final, _ in await asyncio.gather(*phones))
    limit = environment.read("EXHIBITION_JOINS_PER_MINUTE", {})
    assert finals == {302: limit, 429: JOINS - limit}, f"seated at most the limit, the rest refused: {finals}"

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def sign_in(password: str, forged: str) -> int:
            page = (await http.get("/accounts/login/", headers={"X-Forwarded-For": forged})).text
            form = {"csrfmiddlewaretoken": CSRF.search(page).group(1), "username": "mod", "password": password}
            return (await http.post("/accounts/login/", data=form, headers={"X-Forwarded-For": forged})).status_code

        statuses = [await sign_in("wrong", f"10.77.2.{n + 2}") for n in range(GUESSES)]
        right = await sign_in("x", "10.77.3.3")
    failures = environment.read("EXHIBITION_LOGIN_FAILURES", {})
    assert statuses == [200] * (failures - 1) + [429] * (GUESSES - failures + 1), statuses
    assert right == 429, "the right password right after is refused too"
