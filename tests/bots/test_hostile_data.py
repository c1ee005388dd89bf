"""The real build_bot command against full-size hostile data files, at the limits as shipped.

Each file must be refused with one line on stderr naming the limit and the place, leave no bot in
the database and nothing under EXHIBITION_BOT_DIR, and keep the building process under 400 MB at its
peak (tests/hostile.py).
"""
import json
import re
import sqlite3

import pytest

from tests.hostile import MB, PEAK_RSS_LIMIT, database, gzip_bomb, run_command  # noqa: F401 (database is a fixture)

pytestmark = pytest.mark.slow

MIB = 1024 * 1024
PAIR = json.dumps({"question": "who wrote emma", "answer": "Jane Austen"}) + "\n"


def pairs(count: int) -> str:
    return "".join(json.dumps({"question": f"question {i}?", "answer": [f"answer {i}"]}) + "\n" for i in range(count))


# name: (how to write it, the kind built from it, what the line says after the file's path)
HOSTILE = {
    "bomb.json.gz": (lambda p: gzip_bomb(p, start=b"[", chunk=b" " * MIB), "qa_pairs",
                     r" \(at unpacked byte [\d,]+\): the unpacking ratio goes over the limit of 100 to 1"),
    "bomb.jsonl.gz": (lambda p: gzip_bomb(p, chunk=PAIR.encode() * (MIB // len(PAIR))), "qa_pairs",
                      r" \(at unpacked byte [\d,]+\): the unpacking ratio goes over the limit of 100 to 1"),
    "deep.json": (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "answer_doc",
                  " line 1: the JSON nesting depth goes over the limit of 32 levels"),
    "line.jsonl": (lambda p: p.write_text(json.dumps({"question": "x" * 50 * MB, "answer": "a"}) + "\n"), "qa_pairs",
                   " line 1: the line or entry length goes over the limit of 128 KiB"),
    "passage.jsonl": (lambda p: p.write_text(json.dumps({"title": "t", "text": "x" * 50 * MB}) + "\n"), "retriever_reader",
                      " line 1: the record length goes over the limit of 8 MiB"),
    "many.jsonl": (lambda p: p.write_text(pairs(200_001)), "qa_pairs",
                   " line 200,001: the number of training questions goes over the limit of 200,000 questions"),
    "large.json": (lambda p: p.write_text("[" + " " * 65 * MIB + "]"), "qa_pairs",
                   ": the JSON document size goes over the limit of 64 MiB"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_data_file_is_refused_in_one_line_with_nothing_built_and_little_memory(database, tmp_path, name):
    write, kind, message = HOSTILE[name]
    path, bots = tmp_path / name, tmp_path / "bots"
    write(path)
    code, stderr, peak = run_command(["build_bot", kind, "--name", "hostile", "--data", str(path)], database, tmp_path,
                                     EXHIBITION_BOT_DIR=str(bots))
    print(f"{name}: {path.stat().st_size:,} bytes on disk, exit {code}, peak RSS {peak / MB:.0f} MB")
    assert code != 0
    assert stderr.splitlines() == [stderr.strip()]
    assert re.fullmatch(rf"CommandError: {re.escape(str(path))}{message} \(setting EXHIBITION_IMPORT_\w+\)\. Nothing was built\.",
                        stderr.strip()), stderr
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT (SELECT COUNT(*) FROM bots_bot) + (SELECT COUNT(*) FROM bots_botbuild)").fetchone() == (0,)
    assert not bots.exists() or list(bots.iterdir()) == []
    assert peak < PEAK_RSS_LIMIT
