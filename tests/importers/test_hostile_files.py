"""The real import_questions command against full-size hostile files, at the limits as shipped.

Each file must be refused with one line on stderr naming the limit and the place, leave the
database empty, and keep the importing process under 400 MB at its peak: the kernel's account of
the finished process (ru_maxrss), not a sample. A child forked from pytest would be charged
pytest's own size, so a small launcher starts the command and reports its peak.
"""
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import zlib

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow

MB = 1_000_000
PEAK_RSS_LIMIT = 400 * MB


def gzip_bomb(path, unpacked=1024 * 1024 * 1024):
    """About 1 MB of gzip that unpacks to `unpacked` bytes of zeros, built a chunk at a time."""
    packer, chunk = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1024 * 1024)
    with open(path, "wb") as out:
        for _ in range(unpacked // len(chunk)):
            out.write(packer.compress(chunk))
        out.write(packer.flush())


def nq_line(question: str, answer: str) -> str:
    return json.dumps({"question": question, "answer": [answer]}) + "\n"


def fifty_mb_field() -> bytes:
    """A CSV whose second record's question is a 50 MB quoted field on short lines: only the field limit sees it."""
    return b'question,answer\n"' + (b"x" * 999 + b"\n") * 50_000 + b'",a\n'


def fifty_mb_line() -> bytes:
    return nq_line("x" * 50 * MB, "a").encode()


HOSTILE = {
    "bomb.json.gz": (gzip_bomb, "bomb.json.gz: the unpacked size goes over the limit of 32 MiB"),
    "deep.json": (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "deep.json line 1: the JSON nesting depth goes over the limit of 32 levels"),
    "field.csv": (lambda p: p.write_bytes(fifty_mb_field()), "field.csv: the file size is 50,000,021 bytes, over the limit of 32 MiB"),
    "field.csv.gz": (lambda p: p.write_bytes(gzip.compress(fifty_mb_field())),
                     "field.csv.gz record starting on line 2: the CSV field length goes over the limit of 131,072 characters"),
    "line.jsonl": (lambda p: p.write_bytes(fifty_mb_line()), "line.jsonl: the file size is 50,000,034 bytes, over the limit of 32 MiB"),
    "line.jsonl.gz": (lambda p: p.write_bytes(gzip.compress(fifty_mb_line())), "line.jsonl.gz line 1: the line or entry length goes over the limit of 128 KiB"),
    "many.jsonl": (lambda p: p.write_text("".join(nq_line(f"question {i}?", f"a{i}") for i in range(10_001))),
                   "many.jsonl line 10,001: the number of questions goes over the limit of 10,000 questions"),
    "long.jsonl": (lambda p: p.write_text("".join(nq_line(f"question {i}?", f"a{i}") for i in range(10)) + nq_line("y" * 2001, "b")),
                   "long.jsonl line 11: the question text length is 2,001 characters, over the limit of 2,000 characters"),
}


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "db.sqlite3"
    subprocess.run([sys.executable, str(settings.BASE_DIR / "manage.py"), "migrate", "-v0"], env=command_env(path), check=True)
    return path


def command_env(database) -> dict:
    return {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}


# Runs argv[2:] as a child of this small process, then writes its peak (KiB on Linux) to the file argv[1].
LAUNCHER = """import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))"""


def run_command(args, database, tmp_path) -> tuple[int, str, int]:
    """(exit code, stderr, peak resident bytes) of one manage.py run."""
    peak = tmp_path / "peak.txt"
    command = [sys.executable, "-c", LAUNCHER, str(peak), sys.executable, str(settings.BASE_DIR / "manage.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=command_env(database))
    return done.returncode, done.stderr, int(peak.read_text()) * 1024


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_in_one_line_with_nothing_stored_and_little_memory(database, tmp_path, name):
    build, message = HOSTILE[name]
    path = tmp_path / name
    build(path)
    code, stderr, peak = run_command(["import_questions", str(path), "--slug", "hostile"], database, tmp_path)
    print(f"{name}: {path.stat().st_size:,} bytes on disk, exit {code}, peak RSS {peak / MB:.0f} MB")
    assert code != 0
    assert stderr.splitlines() == [stderr.strip()] and stderr.startswith(f"CommandError: {message}")
    assert stderr.strip().endswith("). Nothing was imported.")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT (SELECT COUNT(*) FROM game_packet) + (SELECT COUNT(*) FROM game_question)").fetchone() == (0,)
    assert peak < PEAK_RSS_LIMIT
