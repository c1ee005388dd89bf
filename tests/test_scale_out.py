"""Scale-out as docker-compose.yml runs it, started by hand: nginx (deploy/nginx.conf) in front of
two Daphne processes, three `conduct` processes, Redis and PostgreSQL.

Three conductors share ten matches (each new match goes to the least loaded), sockets reach the
matches through the proxy on either web process, and killing the conductor that holds the most
hands its matches to the other two within seconds: each of its matches is paused where it stood,
resumed by its moderator and played on, with every command in flight answered once and no seq lost.

Needs Redis at 127.0.0.1:6379 (db 10 is flushed), PostgreSQL at 127.0.0.1:5432 and nginx
(`apt-get install -y nginx`); skips without them (fails under CI=true).
"""
import asyncio
import collections
import json
import os
import shutil
import urllib.request

import pytest

from game.conductor.host import RESTART_REASON
from tests.conftest import need_service
from tests.conductor.test_integration_faults import shared_redis, stacks  # noqa: F401  (fixtures)
from tests.conductor.test_integration_faults import TEAM_PHASE, ack, assert_whole, setup_script, stored
from tests.servers import free_port, wait_for_port
from tests.stack import Client, Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.postgres]

MATCHES = 10


def holders(stack: Stack, ids: list[int]) -> dict[int, str]:
    out = stack.manage("shell", "-c", (
        "import json; from game.models import MatchLease; "
        f"print(json.dumps(dict(MatchLease.objects.filter(match_id__in={ids!r}).values_list('match_id', 'owner'))))"))
    return {int(k): v for k, v in json.loads(out.strip().splitlines()[-1]).items()}


def health(port: int) -> dict:
    return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10).read())


@pytest.fixture
def nginx_installed():
    need_service(bool(shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")),
                 "nginx is not installed (apt-get install -y nginx)")


async def test_three_conductors_share_ten_matches_behind_the_proxy_and_a_dead_ones_go_to_the_others(
        shared_redis, stacks, nginx_installed):
    stack = stacks(shared_redis, db="postgres")
    info = stack.setup(setup_script({**TEAM_PHASE, "matches": MATCHES + 1}))
    webs = [stack.port, free_port()]
    stack.start_daphne("web-1", webs[0])
    stack.start_daphne("web-2", webs[1])
    conductors = {f"conductor-{n}": stack.start_conductor(f"conductor-{n}") for n in (1, 2, 3)}
    for port in webs:
        await wait_for_port(port)
    proxy = stack.start_proxy(webs)
    await wait_for_port(proxy, "nginx")
    await asyncio.sleep(3)  # every conductor has said it is alive

    rooms = []
    for m in info["matches"][:MATCHES]:
        mod = Client(proxy, f"/ws/m/{m['code']}/moderate", cookie=f"sessionid={info['session']}")
        ann = Client(proxy, f"/ws/m/{m['code']}/play", seat_token=m['tokens']['Ann'])
        watch = Client(proxy, f"/ws/m/{m['code']}/watch")
        for c in (mod, ann, watch):
            await c.open()
            await c.wait(lambda c=c: c.last_seq >= 1)
        await ack(mod, "start")  # the first command places the match
        await ann.event("phase_started")
        rooms.append((m, mod, ann, watch))
    ids = [m["id"] for m, *_ in rooms]

    owners = holders(stack, ids)
    load = collections.Counter(owners.values())
    assert len(load) == 3 and max(load.values()) - min(load.values()) <= 1, f"ten matches shared 4/3/3: {load}"
    served = [health(port) for port in webs]
    assert all(h["ok"] and h["sockets"] > 0 for h in served), f"the proxy spreads sockets over both: {served}"
    assert sum(h["sockets"] for h in served) == 3 * MATCHES

    logs = {name: (stack.tmp / f"{name}.log").read_text(errors="replace") for name in conductors}
    busiest = load.most_common(1)[0][0]
    dead = next(name for name, text in logs.items() if busiest in text)
    lost = [m["id"] for m, *_ in rooms if owners[m["id"]] == busiest]
    in_flight = [(ann, ann.start_command("chat", {"text": f"before the crash {m['id']}"})) for m, _, ann, _ in rooms]
    await asyncio.sleep(0.05)
    stack.kill(conductors.pop(dead))

    for m, mod, ann, watch in rooms:
        if m["id"] in lost:
            paused = await mod.event("paused", timeout=60)
            assert paused["data"]["reason"] == RESTART_REASON
    answers = [await ann.settle(cid) for ann, cid in in_flight]
    assert all(a["type"] == "ack" for a in answers), answers

    after = holders(stack, ids)
    survivors = {o for o in after.values()}
    assert busiest not in survivors and len(survivors) == 2, f"two conductors hold the ten now: {after}"
    assert {after[i] for i in lost} == survivors, "the dead one's matches went to both others"

    newcomer = info["matches"][MATCHES]
    counts = collections.Counter(after.values())
    late_mod = Client(proxy, f"/ws/m/{newcomer['code']}/moderate", cookie=f"sessionid={info['session']}")
    await late_mod.open()
    await ack(late_mod, "start")
    placed = holders(stack, [newcomer["id"]])[newcomer["id"]]
    assert counts[placed] == min(counts.values()), f"a new match goes to the least loaded: {counts}, went to {placed}"

    for m, mod, ann, watch in rooms:
        if m["id"] in lost:
            await ack(mod, "resume")
        submitted = await ack(ann, "submit", {"text": "Answer 0"})  # the humans have the first question's floor
        await ack(mod, "rule", {"verdict": "accept", "answer": submitted["data"]["seqs"][-1]})
        await ack(mod, "next")
        ended = await watch.event("match_ended", timeout=60)
        events = stored(stack, m["id"])
        assert_whole(events)
        assert watch.last_seq == ended["seq"] == events[-1][0], "the watcher has every seq"
        chats = [d["text"] for _, kind, d in events if kind == "chat"]
        assert chats.count(f"before the crash {m['id']}") == 1, "the command in flight was applied once"
        pauses = [d["reason"] for _, kind, d in events if kind == "paused"]
        assert pauses == ([RESTART_REASON] if m["id"] in lost else []), "only the dead one's matches paused"
    for c in (late_mod, *(c for _, *cs in rooms for c in cs)):
        await c.close()
