"""Start-up's objects stay out of the garbage collector's full passes (serving/long_lived.py): a
pass walks only what play made, so it is no stall of the clock (bench/latency.py shows the jitter)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WEB = """
import gc, os, json
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")
before = gc.get_freeze_count()
import exhibition.asgi
print(json.dumps({"before": before, "after": gc.get_freeze_count(), "tracked": len(gc.get_objects())}))
"""


def test_the_web_process_leaves_what_it_loaded_at_start_up_out_of_collection():
    done = subprocess.run([sys.executable, "-c", WEB], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "HOME": str(ROOT)})
    import json

    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["before"] == 0
    assert counts["after"] > 50_000, "Django, Channels and the app's modules are frozen"
    assert counts["tracked"] < counts["after"] / 10, "a full pass walks only what came after"


def test_freezing_again_for_the_same_reason_costs_nothing_and_a_new_reason_freezes_what_came_since():
    import gc

    from serving import long_lived

    first = long_lived.keep_out_of_collection("a test's start-up")
    kept = [[n] for n in range(1000)]  # made after the first freeze: still walked
    assert long_lived.keep_out_of_collection("a test's start-up") == first
    assert gc.is_tracked(kept) and long_lived.keep_out_of_collection("a test's index") >= first + 1000
    gc.unfreeze()  # the rest of the suite runs as before
