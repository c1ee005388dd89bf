"""Benchmark of the built-in bots on the shared public data; prints numbers, never pass/fail.

Quality (default). QANTA (quizbowl): every bot is built on qanta.guessdev.json.gz only (its buzzer is
trained and calibrated there by cross-validation) and plays all of qanta.buzzdev.json.gz word by word
(every --step-th word position and the last). Reported per bot, for all questions, for the "seen"
ones (whose answer occurs in guessdev), and for both with near-copies left out (a buzzdev question
whose TF-IDF cosine to some guessdev question is at least 0.6): end-of-question accuracy, buzzes,
buzz precision, expected wins with QANTA's curve w(x) = 0.99308 + 0.07754x - 1.27822x^2 + 0.58798x^3
(game.report.figures.qanta_curve; x = fraction revealed at the buzz; a correct buzz wins w(x),
anything else 0; mean over the questions of the row); and per bot act latency p50/p99, artefact size and the resident memory its
loading added. The retriever-reader's passages are the sentences of the guessdev questions, titled
with their answer page.

NQ-open (EfficientQA): the QA-pair bot is built on the pairs of NQ-open.dev.jsonl, and the
retriever-reader on the same pairs turned into passages (title = first reference answer, text = the
question); both answer the NQ-open.efficientqa.dev.1.1.jsonl questions, scored by exact match after
SQuAD normalisation. Each bot is loaded and played in a fresh process, so its memory and latency are
its own.

Overhead (--celery). A real `celery worker` for the 500 MiB queue on Redis db 13 (flushed before and
after), a throwaway SQLite database and bot folder; the QA-pair and answer-document bots are built
on guessdev and registered, and each is asked --queries buzzdev prefixes one at a time, by the
pinned build a seat would send, through bots.dispatch.send_query, the reply read from the Redis
channel layer. After each act the bots.ping task (the same queue, task and reply path, no bot)
gives that act's floor. Printed p50/p99: round trip, the bot's own act (timed in the worker), round
trip minus act, the ping floor, the overhead (round trip minus act minus the ping right after it),
and the worker's own time around the act as it measured it.

Run: .venv/bin/python bench/bots.py [--limit N] [--step 4] [--skip-nq]
     .venv/bin/python bench/bots.py --celery [--queries 400]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on the path and shadow the bots package.
sys.path = [str(BASE_DIR)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
import bench.environment  # noqa: E402,F401  (a key and settings for a run that is not a server)

REDIS_URL = "redis://127.0.0.1:6379/13"
NEAR_COPY = 0.6


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="The shared data folder (default: EXHIBITION_DATA_DIR).")
    parser.add_argument("--limit", type=int, help="Play only the first N questions of each test set.")
    parser.add_argument("--step", type=int, default=4, help="Query every STEP-th word position (and the last).")
    parser.add_argument("--skip-nq", action="store_true")
    parser.add_argument("--keep", action="store_true", help="Keep the built artefacts (in a temporary folder).")
    parser.add_argument("--celery", action="store_true", help="Measure the worker's overhead against a real worker.")
    parser.add_argument("--queries", type=int, default=400, help="With --celery: acts per bot.")
    return parser.parse_args()


ARGS = parse_args() if __name__ == "__main__" else None
ROOT = Path(tempfile.mkdtemp(prefix="exhibition-bench-bots-")) if __name__ == "__main__" else None
if ARGS is not None and ARGS.celery:
    # This process is the conductor's side: the Redis channel layer, Celery on Redis, a throwaway database.
    os.environ.update(REDIS_URL=REDIS_URL, DATABASE_URL=f"sqlite:///{ROOT / 'bench.sqlite3'}",
                      EXHIBITION_BOT_DIR=str(ROOT / "bots"), CELERY_BROKER_KEY_PREFIX=f"bench-{uuid.uuid4().hex[:8]}:")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
import psutil  # noqa: E402
from django.conf import settings  # noqa: E402

from bots.artefacts import build_artefacts  # noqa: E402
from bots.budgets import measure_artefacts  # noqa: E402
from bots.kinds import KINDS  # noqa: E402
from bots.protocol import Query  # noqa: E402
from bots.registry import load_bot  # noqa: E402
from bots.sparse_index import SparseIndex  # noqa: E402
from bots.text import exact_match, page_title, strip_power_mark  # noqa: E402
from bots.tiers import human_bytes  # noqa: E402
from game.report.figures import qanta_curve  # noqa: E402  (the event report's EW uses the same curve)

SIMULATED = {"kind": "simulated", "name": "simulated", "accuracy": 0.7, "buzz_mean": 0.6, "buzz_sd": 0.15, "seed": 1}


def load_json(path: Path):
    with (gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")) as f:
        return json.load(f)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def percentiles(values) -> tuple[float, float]:
    return float(np.percentile(values, 50)), float(np.percentile(values, 99))


def rss() -> int:
    return psutil.Process().memory_info().rss


def loaded(spec: dict):
    """(bot, bytes of resident memory its loading added)."""
    before = rss()
    bot = load_bot(spec)
    return bot, rss() - before


def timed_act(bot, query: Query, latencies: list[float]):
    started = time.perf_counter()
    act = bot.act(query)
    latencies.append((time.perf_counter() - started) * 1000)
    return act


def prefixes(question: dict, step: int):
    """(word count, Query) for every step-th word position of a tossup and its last."""
    text = strip_power_mark(question["text"])
    words = text.split()
    ends = [end for _, end in question["tokenizations"]]
    for w in sorted(set(range(step, len(words), step)) | {len(words)}):
        prefix = " ".join(words[:w])
        yield w, Query(text=prefix, word_index=w, char_index=len(prefix), final=w == len(words),
                       sentence_index=sum(end < len(prefix) for end in ends), phase=1, mode="buzz", tier="500mib")


def play_tossup(bot, question: dict, step: int, latencies: list[float]) -> dict:
    """One buzzdev question read word by word until the bot buzzes; then its end-of-question answer."""
    n = len(strip_power_mark(question["text"]).split())
    truth = [page_title(question["page"])]
    buzz, end_right = None, False
    for w, query in prefixes(question, step):
        if buzz is not None and w != n:
            continue  # after the buzz only the end-of-question answer is still wanted
        act = timed_act(bot, query, latencies)
        if buzz is None and act.buzz:
            buzz = (w / n, exact_match(act.guess, truth))
        if w == n:
            end_right = exact_match(act.guess, truth)
    return {"end": end_right, "buzzed": buzz is not None, "buzz_right": bool(buzz and buzz[1]),
            "win": qanta_curve(buzz[0]) if buzz and buzz[1] else 0.0}


def qanta_run(spec: dict, questions: list[dict], step: int) -> dict:
    bot, memory = loaded(spec)
    latencies: list[float] = []
    results = []
    for q in questions:
        player = bot
        if bot.simulated:  # the server tells a simulated opponent the answer, as in a match
            length = len(strip_power_mark(q["text"]).split())
            player = bot.with_private({"answer": page_title(q["page"]), "length_words": length,
                                       "question_id": q["qanta_id"]})
        results.append(play_tossup(player, q, step, latencies))
    p50, p99 = percentiles(latencies)
    return {"results": results, "acts": len(latencies), "p50_ms": p50, "p99_ms": p99, "rss_bytes": memory,
            "threshold": bot.threshold}


def summary(results: list[dict]) -> dict:
    buzzes = [r for r in results if r["buzzed"]]
    return {
        "questions": len(results),
        "end_accuracy": float(np.mean([r["end"] for r in results])) if results else float("nan"),
        "buzzes": len(buzzes),
        "buzz_precision": float(np.mean([r["buzz_right"] for r in buzzes])) if buzzes else float("nan"),
        "expected_wins": float(np.mean([r["win"] for r in results])) if results else float("nan"),
    }


def nq_run(spec: dict, questions: list[dict]) -> dict:
    bot, memory = loaded(spec)
    latencies: list[float] = []
    right = []
    for q in questions:
        text = q["question"]
        query = Query(text=text, word_index=len(text.split()), char_index=len(text), final=True, tier="500mib")
        right.append(exact_match(timed_act(bot, query, latencies).guess, q["answer"]))
    p50, p99 = percentiles(latencies)
    return {"questions": len(right), "exact_match": float(np.mean(right)), "p50_ms": p50, "p99_ms": p99,
            "rss_bytes": memory}


def in_fresh_process(function, *args):
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def built(kind: str, name: str, data: Path, root: Path) -> tuple[dict, dict]:
    started = time.monotonic()

    def progress(message):
        print(f"    {name}: {message}", flush=True)

    folder = build_artefacts(KINDS[kind], data, {}, root / name, progress)
    info = {"build_s": time.monotonic() - started, "artefact_bytes": measure_artefacts(folder)}
    return {"kind": kind, "name": name, "artefact_dir": str(folder)}, info


def show(rows: list[tuple[str, dict]], columns: list[tuple[str, str, str]]) -> None:
    def width(title):
        return len(title) + 2 if len(title) > 9 else 11

    print(f"{'bot':<30}" + "".join(f"{title:>{width(title)}}" for title, _, _ in columns))
    for label, row in rows:
        cells = []
        for title, key, form in columns:
            value = row.get(key)
            cells.append(f"{'-' if value is None else format(value, form):>{width(title)}}")
        print(f"{label:<30}" + "".join(cells))


def near_copies(train: list[dict], questions: list[dict]) -> list[bool]:
    """Whether each question's TF-IDF cosine to some training question is at least NEAR_COPY."""
    index = SparseIndex.build([strip_power_mark(q["text"]) for q in train], scheme="tfidf")
    scores = index.score_matrix([strip_power_mark(q["text"]) for q in questions])
    return [bool(row.max() >= NEAR_COPY) for row in scores]


def quality(args) -> None:
    data = args.data or Path(settings.EXHIBITION_DATA_DIR)
    qanta_dir, nq_dir = data / "qanta", data / "nq-open"
    print(f"artefacts in {ROOT}")
    print("building on qanta.guessdev.json.gz (buzzers trained and calibrated there only)")
    train_path = qanta_dir / "qanta.guessdev.json.gz"
    qanta_bots = [
        ("qa_pairs (500mib)", *built("qa_pairs", "qb-qa-pairs", train_path, ROOT)),
        ("answer_doc (500mib)", *built("answer_doc", "qb-answer-doc", train_path, ROOT)),
        ("retriever_reader (6gib)", *built("retriever_reader", "qb-retriever-reader", train_path, ROOT)),
        ("simulated (70%, buzz ~0.6)", SIMULATED, {"build_s": 0.0, "artefact_bytes": 0}),
    ]
    train = load_json(train_path)
    known = {q["page"] for q in train if q["page"]}
    questions = [q for q in load_json(qanta_dir / "qanta.buzzdev.json.gz") if q["page"]][: args.limit]
    seen = [q["page"] in known for q in questions]
    copies = near_copies(train, questions)
    subsets = {
        "all": [True] * len(questions),
        "seen": seen,
        "all, near-copies left out": [not c for c in copies],
        "seen, near-copies left out": [s and not c for s, c in zip(seen, copies)],
    }
    played = []
    for label, spec, info in qanta_bots:
        print(f"playing {len(questions)} buzzdev questions: {label}", flush=True)
        played.append((label, info, in_fresh_process(qanta_run, spec, questions, args.step)))

    print(f"\nQANTA buzzdev: {len(questions)} questions with an answer page, asked every {args.step}th word; "
          f"{sum(seen)} seen (answer in guessdev), {sum(copies)} near-copies of a guessdev question "
          f"(cosine >= {NEAR_COPY}, {sum(s and c for s, c in zip(seen, copies))} of them seen)")
    for subset, chosen in subsets.items():
        print(f"\n{subset} ({sum(chosen)} questions)")
        rows = [(label, summary([r for r, keep in zip(run["results"], chosen) if keep])) for label, _, run in played]
        show(rows, [("end acc", "end_accuracy", ".3f"), ("buzzes", "buzzes", "d"),
                    ("buzz prec", "buzz_precision", ".3f"), ("exp wins", "expected_wins", ".4f")])
    print("\ncost")
    show([(label, {**info, **run, "artefacts": human_bytes(info["artefact_bytes"]),
                   "memory": human_bytes(max(run["rss_bytes"], 0))}) for label, info, run in played],
         [("threshold", "threshold", ".2f"), ("acts", "acts", "d"), ("p50 ms", "p50_ms", ".2f"),
          ("p99 ms", "p99_ms", ".2f"), ("artefacts", "artefacts", "s"), ("RSS +", "memory", "s"),
          ("build s", "build_s", ".1f")])

    if not args.skip_nq:
        print("\nbuilding on NQ-open.dev.jsonl")
        pairs_path = nq_dir / "NQ-open.dev.jsonl"
        passages_path = ROOT / "nq-passages.jsonl"
        passages_path.write_text("".join(
            json.dumps({"title": p["answer"][0], "text": p["question"]}) + "\n" for p in read_jsonl(pairs_path)
        ), encoding="utf-8")
        nq_bots = [
            ("qa_pairs (500mib)", *built("qa_pairs", "nq-qa-pairs", pairs_path, ROOT)),
            ("retriever_reader (6gib)", *built("retriever_reader", "nq-retriever-reader", passages_path, ROOT)),
        ]
        nq_questions = read_jsonl(nq_dir / "NQ-open.efficientqa.dev.1.1.jsonl")[: args.limit]
        nq_rows = []
        for label, spec, info in nq_bots:
            print(f"answering {len(nq_questions)} EfficientQA dev questions: {label}", flush=True)
            run = in_fresh_process(nq_run, spec, nq_questions)
            nq_rows.append((label, {**info, **run, "artefacts": human_bytes(info["artefact_bytes"]),
                                    "memory": human_bytes(max(run["rss_bytes"], 0))}))
        print(f"\nNQ-open EfficientQA dev: {len(nq_questions)} questions, exact match after SQuAD normalisation")
        show(nq_rows, [("EM", "exact_match", ".3f"), ("p50 ms", "p50_ms", ".2f"), ("p99 ms", "p99_ms", ".2f"),
                       ("artefacts", "artefacts", "s"), ("RSS +", "memory", "s"), ("build s", "build_s", ".1f")])


# -- the worker's overhead against a real Celery worker ---------------------------------------------

def start_worker(log_path: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "celery", "-A", "exhibition", "worker", "-Q", "bots.500mib", "--pool", "prefork",
               "--concurrency", "1", "--loglevel", "info", "--without-gossip", "--without-mingle",
               "--without-heartbeat", "--hostname", f"bench-{uuid.uuid4().hex[:8]}@%h"]
    env = {**os.environ, "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    deadline = time.monotonic() + 60
    while b" ready." not in log_path.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the Celery worker did not start:\n{log_path.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)
    return process


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


async def round_trips(specs: list[tuple[str, dict]], queries: list[Query]) -> dict:
    """Per bot: each act's round trip, its act time and worker time (from the reply), and the round
    trip of the ping sent right after it, so every act has a floor measured beside it."""
    from channels.layers import get_channel_layer

    from bots.dispatch import send_query
    from bots.tasks import ping

    layer = get_channel_layer()
    channel = await layer.new_channel()
    out = {}
    for label, spec in specs:
        got = out[label] = {"round": [], "act": [], "worker": [], "floor": []}
        for i, query in enumerate([queries[0]] * 5 + queries):  # the first five load the bot and are not counted
            started = time.perf_counter()
            send_query({"reply_to": channel, "match": "BENCH", "seat": "s1", "query_id": str(i), "bot": spec,
                        "query": query.to_dict(), "time_limit_ms": 5000}, "500mib")
            reply = await layer.receive(channel)
            elapsed = (time.perf_counter() - started) * 1000
            if reply.get("error"):
                raise SystemExit(f"{label}: {reply['error']}")
            started = time.perf_counter()
            ping.apply_async(args=[{"reply_to": channel, "query_id": f"ping-{i}"}], queue="bots.500mib")
            await layer.receive(channel)
            if i >= 5:
                got["floor"].append((time.perf_counter() - started) * 1000)
                got["round"].append(elapsed)
                got["act"].append(reply["act_ms"])
                got["worker"].append(reply["worker_ms"] - reply["act_ms"])
    return out


def worker_memory(worker: subprocess.Popen) -> str:
    """Resident memory of the worker's processes (the Celery parent and its pool child)."""
    parent = psutil.Process(worker.pid)
    return ", ".join(human_bytes(p.memory_info().rss) for p in [parent, *parent.children(recursive=True)])


def celery(args) -> None:
    import asyncio

    from django.core.management import call_command

    from bots.models import Bot

    data = args.data or Path(settings.EXHIBITION_DATA_DIR)
    print(f"throwaway database, bots and worker log in {ROOT}; Redis {REDIS_URL} (flushed before and after)")
    flush_redis()
    call_command("migrate", "--noinput", verbosity=0)
    train = data / "qanta" / "qanta.guessdev.json.gz"
    specs = []
    for kind in ("qa_pairs", "answer_doc"):
        call_command("build_bot", kind, "--name", f"bench-{kind}", "--data", str(train), stdout=open(os.devnull, "w"))
        specs.append((f"{kind} (500mib)", Bot.objects.get(name=f"bench-{kind}").spec))  # a seat's pinned build
    buzzdev = [q for q in load_json(data / "qanta" / "qanta.buzzdev.json.gz") if q["page"]]
    queries = [query for q in buzzdev for _, query in prefixes(q, args.step)][:: 7][: args.queries]
    worker = start_worker(ROOT / "worker.log")
    try:
        measured = asyncio.run(round_trips(specs, queries))
        memory = worker_memory(worker)
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(15)
        flush_redis()
    print(f"\n{len(queries)} acts per bot through a real worker on bots.500mib, one at a time, each followed by a "
          f"bots.ping (the floor); worker RSS after the run (parent, child): {memory}")
    titles = ("round trip", "act", "round - act", "ping floor", "overhead", "in worker")
    print(f"{'bot':<20}" + "".join(f"{t:>18}" for t in titles))
    for label, got in measured.items():
        minus = [r - a for r, a in zip(got["round"], got["act"])]
        overhead = [m - f for m, f in zip(minus, got["floor"])]
        cells = [got["round"], got["act"], minus, got["floor"], overhead, got["worker"]]
        print(f"{label:<20}" + "".join("{:>9.2f} / {:<6.2f}".format(*percentiles(c)) for c in cells))
    print("(p50 / p99 in ms; overhead = round trip - act - the ping's round trip right after it; in worker = the "
          "worker's own time around the act up to the reply, as the worker measured it)")


def main() -> None:
    started = time.monotonic()
    try:
        celery(ARGS) if ARGS.celery else quality(ARGS)
    finally:
        if not ARGS.keep:
            shutil.rmtree(ROOT, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - started:.0f} s on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
