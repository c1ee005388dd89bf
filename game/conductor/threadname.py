"""The conductor's threads named for the operating system, so that top -H, ps -L and the bench's CPU
figures can tell the conductor's time apart from the web process it may share (the embedded default).

Python names its threads for itself only; Linux keeps a 15-byte name per thread (prctl PR_SET_NAME).
Elsewhere, or if the call fails, the thread simply keeps its unnamed default.
"""
from __future__ import annotations

import ctypes
import sys

PR_SET_NAME = 15


def name_this_thread(name: str) -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None).prctl(PR_SET_NAME, name.encode()[:15], 0, 0, 0)
    except (OSError, AttributeError):
        pass

