"""What a server loads at start-up, left out of the garbage collector's full passes.

A full pass of Python's cyclic garbage collector walks every object the process tracks: after
start-up about 200,000 (Django, Channels, Twisted), and 100,000 more once the judge's WordNet index
is loaded. One pass took 46-64 ms here, and it comes every so often as play allocates: a stall of
the event loop in which no word goes out and no buzz is read, the tail of the word jitter.
gc.freeze() moves every object alive at that moment to a generation the collector never walks, so
the passes during play walk only what play made. What start-up made is meant to live as long as
the process; garbage among it is collected first, by one pass before the freeze.

And the C library's heap gives back what play frees. glibc serves a block of 128 KiB or more with a
mapping of its own, returned to the system when freed, but it raises that threshold to the size of each
such block freed (and the heap's trim threshold to twice that): after a few large frames, snapshots and
JSON texts the threshold stood at 1.8 MiB in a web process, so those blocks came from the heap, whose
top is given back only past 3.7 MiB, and the heap kept its high-water mark. Both thresholds are held at
128 KiB (docs/benchmarks.md, "The soak", has the runs with and without).
"""
from __future__ import annotations

import ctypes
import gc
import logging
import platform

log = logging.getLogger(__name__)


_done: set[str] = set()


def keep_out_of_collection(what: str) -> int:
    """Collect, then freeze everything alive now (once per `what` in a process: a conductor started
    again in the same process loads nothing new); returns how many objects are frozen in all."""
    if what in _done:
        return gc.get_freeze_count()
    _done.add(what)
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("%s: %d objects loaded so far are left out of garbage collection passes", what, frozen)
    return frozen


HEAP_THRESHOLD = 128 * 1024  # bytes: glibc's own defaults, held rather than raised as the process goes
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (glibc's malloc.h)


def hold_heap_thresholds() -> bool:
    """Fix glibc's mmap and trim thresholds at HEAP_THRESHOLD for the rest of the process; False where
    the C library is not glibc (it has other rules, or no mallopt) and nothing was changed."""
    if platform.libc_ver()[0] != "glibc":
        return False
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    held = mallopt(M_MMAP_THRESHOLD, HEAP_THRESHOLD) == 1 and mallopt(M_TRIM_THRESHOLD, HEAP_THRESHOLD) == 1
    if not held:
        log.warning("glibc refused to hold its heap thresholds at %d bytes", HEAP_THRESHOLD)
    return held
