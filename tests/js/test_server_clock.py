"""The play page's estimate of the server's clock (static/js/server-clock.js), run under Node on a
simulated link: each probe is a ping and, at once, a ping echoing its pong (so the server can measure
the round trip itself); the page keeps the offset of the quickest of its last samples, so a buzz's
press time in server time is off by no more than that probe's asymmetry."""
import json
import shutil
import subprocess

from tests.conftest import need_service
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "server_clock.mjs"


def run() -> dict:
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the browser's client code in tests)")
    done = subprocess.run([node, str(HARNESS), str(ROOT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_probe_is_a_ping_then_a_ping_echoing_its_pong():
    out = run()
    pings = out["sent"]
    assert len(pings) == 10 and all(p["type"] == "ping" for p in pings)
    firsts, echoes = pings[0::2], pings[1::2]
    assert all(p["data"] == {} for p in firsts)
    assert all(isinstance(p["data"]["echo"], int) for p in echoes), "the second of each pair echoes the pong"
    assert len({p["ref"] for p in pings}) == 10


def test_the_page_uses_the_quickest_probe_and_knows_nothing_before_the_first():
    out = run()
    assert out["before"] is None, "no press time is claimed before the clock is measured"
    assert out["samples"] == out["max"] == 8, "only the last 8 samples are kept"
    assert out["best"]["rtt"] == 20, "the quickest round trip among them"
    assert abs(out["error"]) <= 1, "a symmetric quick probe: the server's clock to the millisecond"


def test_a_press_stamped_earlier_on_the_pages_clock_is_as_much_earlier_in_server_time():
    """The buzzer station stamps a press with the key's event time, not the moment it handles it."""
    assert run()["earlier"] == 20
