"""What the hostile-file tests share: files that are cheap to make and costly to read, and a real
manage.py run whose peak memory is read from the kernel.

A child forked from pytest would be charged pytest's own size, so a small launcher starts the command
and reports its peak (ru_maxrss of the finished process, not a sample).
"""
import os
import subprocess
import sys
import zlib

import pytest
from django.conf import settings

MB = 1_000_000
PEAK_RSS_LIMIT = 400 * MB


def gzip_bomb(path, unpacked=1024 * 1024 * 1024, start=b"", chunk=bytes(1024 * 1024)):
    """About 1 MB of gzip that unpacks to `start` and then `unpacked` bytes of `chunk` repeated, built a chunk at a time."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as out:
        out.write(packer.compress(start))
        for _ in range(unpacked // len(chunk)):
            out.write(packer.compress(chunk))
        out.write(packer.flush())


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "db.sqlite3"
    subprocess.run([sys.executable, str(settings.BASE_DIR / "manage.py"), "migrate", "-v0"], env=command_env(path), check=True)
    return path


def command_env(database, **extra) -> dict:
    return {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}", **extra}


# Runs argv[2:] as a child of this small process, then writes its peak (KiB on Linux) to the file argv[1].
LAUNCHER = """import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))"""


def run_command(args, database, tmp_path, **env) -> tuple[int, str, int]:
    """(exit code, stderr, peak resident bytes) of one manage.py run, with `env` added to its environment."""
    peak = tmp_path / "peak.txt"
    command = [sys.executable, "-c", LAUNCHER, str(peak), sys.executable, str(settings.BASE_DIR / "manage.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=command_env(database, **env))
    return done.returncode, done.stderr, int(peak.read_text()) * 1024
