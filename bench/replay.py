"""How fast a finished match comes back: folding its log, the replay page's first frame, and seeking.
Prints numbers, never pass/fail.

Each run makes a throwaway SQLite database, imports real public questions from the shared data
(QANTA tossups for quizbowl, NQ-open for EfficientQA), and plays one generated match per format
with simulated players and bots (manage.py simulate's players, bot guesses on every word) of
--questions questions. For each match it prints the event count and:
  fold          the whole log folded, in ms per 10,000 events: the in-place fold that loading and
                replay use, and the copying fold (a copy of the state per event) it replaced;
                floor: the same loop calling a handler that does nothing.
  first frame   GET /m/<code>/replay, then GET its replay.json (what the page needs for its first
                frame) through Django's full request stack; floor: reading the same log from the
                database and writing it as JSON, with no fold and no projection.
                With Chromium at /usr/bin/chromium (skipped otherwise, --no-browser to skip) also
                in a real browser over a real server (Daphne): navigation start -> the replay's
                first frame drawn (the page marks it with performance.mark); the first, cold load
                (module scripts and the charting library not cached yet) is printed on its own.
  seek          the server's state at a random seq (nearest checkpoint + in-place fold + spectator
                snapshot); floor: the snapshot alone of a state already there. In the browser:
                seekTo(random moment) -> frame drawn; floor: drawing the same frame again.

Run: .venv/bin/python bench/replay.py [--questions 50] [--seeks 200] [--no-browser]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

CHROMIUM = Path("/usr/bin/chromium")
FORMATS = {"quizbowl": ("qanta/small.guessdev.json", "qanta"), "efficientqa": ("nq-open/NQ-open.efficientqa.dev.1.1.jsonl", "nq")}


def ms(seconds: float) -> float:
    return seconds * 1000


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(ms(time.perf_counter() - start))
    return out


def summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values):7.2f} ms  p95 {p95:7.2f} ms"


def setup_django(db: Path):
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    import bench.environment  # noqa: F401  (a key and settings for a run that is not a server)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def play(format_name: str, questions: int):
    from django.conf import settings

    from game.importers.run import import_bytes
    from game.management.commands.simulate import play_simulated_match

    relative, fmt = FORMATS[format_name]
    path = Path(settings.EXHIBITION_DATA_DIR) / relative
    report = import_bytes(path.read_bytes(), path.name, f"bench-{format_name}", fmt=fmt)
    _, match = play_simulated_match(report.packet, format_name, seed=7, questions=questions)
    return match


def bench_fold(events: list[dict], repeat: int):
    from game.engine.fold import _HANDLERS, apply, apply_in_place

    def copying():
        state = None
        for event in events:
            state = apply(state, event)

    def in_place():
        state = None
        for event in events:
            state = apply_in_place(state, event)

    nothing = {kind: (lambda s, d, t: None) for kind in _HANDLERS}

    def floor():
        state = None
        for event in events:
            handler = nothing.get(event["type"])
            if handler is not None:
                handler(state, event.get("data", {}), event.get("t", 0))

    per10k = 10_000 / len(events)
    for name, fn, times in (("in place", in_place, repeat), ("copying", copying, 1),
                            ("floor", floor, repeat)):
        values = [v * per10k for v in timed(fn, times)]
        print(f"  fold {name:9s} {summary(values)}  (per 10,000 events)")


def bench_server(match, events: list[dict], repeat: int, seeks: int):
    from django.db import connection
    from django.test import Client

    from game.engine.api import snapshot
    from game.replay import Replay, load_log

    client = Client(HTTP_HOST="127.0.0.1")

    def first_frame():
        page = client.get(f"/m/{match.code}/replay")
        data = client.get(f"/m/{match.code}/replay.json")
        assert page.status_code == 200 and data.status_code == 200, (page.status_code, data.status_code)
        return len(data.content)

    def floor():
        return len(json.dumps(load_log(match)))

    size = first_frame()
    print(f"  first frame (server)  {summary(timed(first_frame, repeat))}  ({size / 1024:.0f} KiB of replay data)")
    print(f"  first frame floor     {summary(timed(floor, repeat))}  (read the rows, write them as JSON)")
    replay = Replay(events)
    rng = random.Random(1)
    points = [rng.randint(1, len(events)) for _ in range(seeks)]
    seek_times = timed(lambda: replay.snapshot_at(points.pop(), "spectator"), seeks)
    print(f"  seek (server)         {summary(seek_times)}  ({seeks} random seqs)")
    final = replay.state_at(len(events))
    print(f"  seek floor            {summary(timed(lambda: snapshot(final, 'spectator'), seeks))}  (snapshot only)")
    connection.close()


def bench_browser(db: Path, codes: dict[str, str], repeat: int, seeks: int):
    from playwright.sync_api import sync_playwright

    port = _free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="exhibition.settings")
    daphne = Path(sys.executable).with_name("daphne")
    server = subprocess.Popen([str(daphne), "-b", "127.0.0.1", "-p", str(port), "exhibition.asgi:application"],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(port)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            for format_name, code in codes.items():
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                firsts = []
                for _ in range(repeat + 1):
                    page.goto(f"http://127.0.0.1:{port}/m/{code}/replay")
                    page.wait_for_function("performance.getEntriesByName('replay-first-frame').length > 0")
                    firsts.append(page.evaluate("performance.getEntriesByName('replay-first-frame')[0].startTime"))
                cold = firsts.pop(0)
                print(f"  {format_name:11s} first frame (browser) {summary(firsts)}  (navigation start -> drawn; "
                      f"the first, cold load: {cold:.0f} ms)")
                result = page.evaluate("""(n) => {
                    const r = window.exhibitionReplay, end = r.duration(), seek = [], floor = [];
                    let x = 12345;
                    for (let i = 0; i < n; i++) {
                        x = (x * 1103515245 + 12345) % 2147483648;
                        const at = (x / 2147483648) * end;
                        let t0 = performance.now(); r.seekTo(at); seek.push(performance.now() - t0);
                        t0 = performance.now(); r.draw(); floor.push(performance.now() - t0);
                    }
                    return {seek, floor};
                }""", seeks)
                print(f"  {format_name:11s} seek (browser)        {summary(result['seek'])}  ({seeks} random moments)")
                print(f"  {format_name:11s} seek floor (browser)  {summary(result['floor'])}  (draw only)")
                page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int):
    import socket

    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"Daphne did not listen on port {port} within 60 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seeks", type=int, default=200)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-replay-") as folder:
        db = Path(folder) / "bench.sqlite3"
        setup_django(db)
        from game.replay import load_log

        codes = {}
        for format_name in FORMATS:
            match = play(format_name, args.questions)
            events = load_log(match)
            codes[format_name] = match.code
            kinds = {}
            for e in events:
                kinds[e["type"]] = kinds.get(e["type"], 0) + 1
            print(f"{format_name}: {args.questions} questions, {len(events)} events "
                  f"({kinds.get('word_revealed', 0)} words, {kinds.get('bot_guess', 0)} bot guesses, "
                  f"{kinds.get('ruling', 0)} rulings)")
            bench_fold(events, args.repeat)
            bench_server(match, events, args.repeat, args.seeks)
        if args.no_browser or not CHROMIUM.exists():
            print("browser: skipped" + ("" if args.no_browser else f" (no Chromium at {CHROMIUM})"))
        else:
            bench_browser(db, codes, max(3, args.repeat // 3), args.seeks)


if __name__ == "__main__":
    main()
