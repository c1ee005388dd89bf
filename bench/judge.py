"""Benchmark the judging assistant on the shared QANTA question sets; prints numbers, never pass/fail.

For each file: how many answer lines fail to parse, how often the judge accepts the Wikipedia page
title (underscores read as spaces) as a response, and how many judgements per second it makes.

    .venv/bin/python bench/judge.py [--show-misses N]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from game.importers.qanta import parse  # noqa: E402
from game.importers.reading import decode  # noqa: E402
from game.judging.answerline import parse_answer_line  # noqa: E402
from game.judging.judge import judge  # noqa: E402

FILES = ("qanta.guessdev.json.gz", "qanta.buzzdev.json.gz", "small.guessdev.json")


def read_questions(path: Path) -> list[dict]:
    """The questions of a QANTA file as the importer reads them (the page is in source)."""
    return [row.question for row in parse(decode(path.read_bytes(), path.name)).rows if row.question]


def page_response(question: dict) -> str:
    """The page title as a player would say it: spaces for underscores, without "List of"."""
    title = question["source"]["page"].replace("_", " ")
    return title[len("List of "):] if title.startswith("List of ") else title


def measure(path: Path, show_misses: int) -> tuple[int, float]:
    records = read_questions(path)
    parse_errors = 0
    for record in records:
        try:
            parse_answer_line(record["answer"])
        except Exception as error:  # the bench counts failures instead of stopping on the first
            parse_errors += 1
            print(f"  parse error on qanta_id {record['source'].get('qanta_id')}: {error}")
    with_page = [r for r in records if r["source"].get("page")]
    judgements = [judge(page_response(r), r["answer"], question_text=r["text"]) for r in with_page]
    accepted = sum(j.verdict == "accept" for j in judgements)
    rate = accepted / len(with_page)
    print(f"{path.name}: {len(records)} questions ({len(records) - len(with_page)} without a page), "
          f"{parse_errors} parse errors, page accepted {accepted}/{len(with_page)} = {rate:.1%}")
    misses = [(r, j) for r, j in zip(with_page, judgements) if j.verdict != "accept"]
    for record, judgement in misses[:show_misses]:
        print(f"  {judgement.verdict:6} {page_response(record)!r} vs {record['answer'][:100]!r}")
    return len(records), rate


def throughput(records: list[dict], seconds: float = 2.0) -> float:
    """Judgements per second on fresh responses (a typo'd page title), with the answer line cache warm."""
    cases = [(page_response(r)[:-1] + "x", r["answer"], r["text"]) for r in records if r["source"].get("page")]
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for response, answer, text in cases:
            judge(response + str(count), answer, question_text=text)
            count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", type=int, default=0, help="print this many non-accepted pages per file")
    args = parser.parse_args()
    folder = Path(settings.EXHIBITION_DATA_DIR) / "qanta"
    if not folder.is_dir():
        sys.exit(f"The QANTA data is not at {folder}; set EXHIBITION_DATA_DIR to the shared data folder.")
    for name in FILES:
        measure(folder / name, args.show_misses)
    records = read_questions(folder / FILES[0])
    rate = throughput(records)
    print(f"throughput: {rate:,.0f} judgements/s ({1000 / rate:.3f} ms per judgement)")


if __name__ == "__main__":
    main()
