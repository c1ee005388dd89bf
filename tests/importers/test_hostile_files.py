"""The real import_questions command against full-size hostile files, at the limits as shipped.

Each file must be refused with one line on stderr naming the limit and the place, leave the
database empty, and keep the importing process under 400 MB at its peak (tests/hostile.py).
"""
import gzip
import json
import sqlite3

import pytest

from tests.hostile import MB, PEAK_RSS_LIMIT, database, gzip_bomb, run_command  # noqa: F401 (database is a fixture)

pytestmark = pytest.mark.slow


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
