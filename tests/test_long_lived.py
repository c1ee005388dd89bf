"""Start-up's objects stay out of the garbage collector's full passes (serving/long_lived.py): a
pass walks only what play made, so it is no stall of the clock (bench/latency.py shows the jitter).
And what a long-lived process frees goes back to the system rather than staying the heap's high-water mark."""
import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

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


# Large blocks (a burst of frames, snapshots' texts) freed while a smaller one made after them lives on:
# how much of its heap the C library then keeps from the system.
LARGE_BLOCKS = """
import ctypes, json, sys
from serving.long_lived import hold_heap_thresholds

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.malloc.argtypes, libc.malloc.restype = (ctypes.c_size_t,), ctypes.c_void_p
libc.free.argtypes, libc.mallinfo2.restype = (ctypes.c_void_p,), MallInfo2
held = hold_heap_thresholds() if sys.argv[1] == "held" else None
libc.free(libc.malloc(1 << 20))  # one large block freed: glibc by itself now serves blocks this size from its heap
blocks = [libc.malloc(1 << 20) for _ in range(20)]
pinned = libc.malloc(256 << 10)  # a smaller one made after them (too large for a hole below them), still alive
for block in blocks:
    libc.free(block)
print(json.dumps({"held": held, "heap": libc.mallinfo2().arena}))
"""


def heap_after_large_blocks(how: str) -> dict:
    done = subprocess.run([sys.executable, "-c", LARGE_BLOCKS, how], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the heap thresholds are glibc's")
def test_large_blocks_a_long_lived_process_frees_go_back_to_the_system():
    mib = 1 << 20
    as_glibc_left_it = heap_after_large_blocks("default")
    assert as_glibc_left_it["heap"] >= 20 * mib, as_glibc_left_it  # what the web processes kept, a few MiB an hour
    held = heap_after_large_blocks("held")
    assert held["held"] is True
    assert held["heap"] < 5 * mib, held  # each large block had a mapping of its own, given back as it was freed
