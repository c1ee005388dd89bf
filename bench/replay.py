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
                frame) through Django's full request stack, as a browser asks (Accept-Encoding: gzip):
                with the replay data built for the request (the cache emptied before each one), and
                served from the cache; a revalidation (If-None-Match: the ETag) answered 304.
                Floors: reading the same log from the database and writing it as JSON, with no fold and
                no projection; the same request for a match that does not exist (the stack alone).
                With Chromium at /usr/bin/chromium (skipped otherwise, --no-browser to skip) also
                in a real browser over a real server (Daphne, which has already answered a request for
                each replay page, so its code and templates are loaded, but not built any replay data):
                navigation start -> the replay's first frame drawn (the page marks it with
                performance.mark). Cold: a fresh browser context (nothing cached: no page, script,
                stylesheet or data), its first navigation; the very first one per match also finds the
                server's replay data not built yet, and is printed on its own. Warm: the same page
                navigated to again in the same context. Floor: a fresh context loading the archive
                page (the same server and stylesheet, no script), navigation start -> load event end.
  seek          the server's state at a random seq (nearest checkpoint + in-place fold + spectator
                snapshot); floor: the snapshot alone of a state already there. In the browser:
                seekTo(random moment) -> frame drawn; floor: drawing the same frame again.

Run: .venv/bin/python bench/replay.py [--questions 50] [--seeks 200] [--no-browser]
"""
from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/

from bench._timing import setup_django, summary, timed  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
FORMATS = {"quizbowl": ("qanta/small.guessdev.json", "qanta"), "efficientqa": ("nq-open/NQ-open.efficientqa.dev.1.1.jsonl", "nq")}


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
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    from game.engine.api import snapshot
    from game.archive.replay import Replay, load_log

    client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    url = f"/m/{match.code}/replay"

    def first_frame():
        page = client.get(url)
        data = client.get(f"{url}.json")
        assert page.status_code == 200 and data.status_code == 200, (page.status_code, data.status_code)
        return data

    def built():
        cache.clear()
        return first_frame()

    def floor():
        return len(json.dumps(load_log(match)))

    def stack_floor():
        assert client.get("/m/NO-SUCH/replay.json").status_code == 404

    logging.getLogger("django.request").setLevel(logging.ERROR)  # the floor's 404s are expected

    data = built()
    raw = len(gzip.decompress(data.content)) if data.get("Content-Encoding") == "gzip" else len(data.content)
    etag = data.get("ETag")

    def revalidate():
        assert client.get(f"{url}.json", HTTP_IF_NONE_MATCH=etag).status_code == 304

    print(f"  first frame (server), data built      {summary(timed(built, repeat))}  "
          f"({raw / 1024:.0f} KiB of replay data, {len(data.content) / 1024:.0f} KiB sent gzip-compressed)")
    print(f"  first frame (server), from the cache  {summary(timed(first_frame, repeat))}")
    if etag:
        print(f"  replay data revalidated (304)         {summary(timed(revalidate, repeat))}")
    print(f"  first frame floor                     {summary(timed(floor, repeat))}  (read the rows, write them as JSON)")
    print(f"  request floor                         {summary(timed(stack_floor, repeat))}  (an unknown match: the stack alone)")
    replay = Replay(events)
    rng = random.Random(1)
    points = [rng.randint(1, len(events)) for _ in range(seeks)]
    seek_times = timed(lambda: replay.snapshot_at(points.pop(), "spectator"), seeks)
    print(f"  seek (server)         {summary(seek_times)}  ({seeks} random seqs)")
    final = replay.state_at(len(events))
    print(f"  seek floor            {summary(timed(lambda: snapshot(final, 'spectator'), seeks))}  (snapshot only)")
    cache.clear()
    connection.close()


FIRST_FRAME = "performance.getEntriesByName('replay-first-frame').length > 0"


def first_frame_ms(page, url: str) -> float:
    page.goto(url)
    page.wait_for_function(FIRST_FRAME)
    return page.evaluate("performance.getEntriesByName('replay-first-frame')[0].startTime")


def bench_browser(db: Path, codes: dict[str, str], repeat: int, seeks: int):
    from urllib.request import urlopen

    from playwright.sync_api import sync_playwright

    port = _free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="exhibition.settings")
    daphne = Path(sys.executable).with_name("daphne")
    server = subprocess.Popen([str(daphne), "-b", "127.0.0.1", "-p", str(port), "exhibition.asgi:application"],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    viewport = {"width": 1920, "height": 1080}
    try:
        _wait(port)
        for code in codes.values():  # the server's code and templates loaded; no replay data built
            urlopen(f"http://127.0.0.1:{port}/m/{code}/replay", timeout=60).read()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            floor = []
            for _ in range(repeat):  # the floor: a plain page of the same server, the same stylesheet, no script
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/archive/")
                floor.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
                context.close()
            print(f"  first frame floor (browser), cold        {summary(floor)}  (a fresh context loading /archive/: "
                  f"the same stylesheet, no script; navigation start -> load event end)")
            for format_name, code in codes.items():
                url = f"http://127.0.0.1:{port}/m/{code}/replay"
                colds = []
                for _ in range(repeat + 1):  # each in a fresh context: an empty cache, a first navigation
                    context = browser.new_context(viewport=viewport)
                    colds.append(first_frame_ms(context.new_page(), url))
                    context.close()
                first_ever = colds.pop(0)
                print(f"  {format_name:11s} first frame (browser), cold  {summary(colds)}  (navigation start -> drawn, "
                      f"a fresh browser context; the first of all, with the server's replay data not built yet: "
                      f"{first_ever:.0f} ms)")
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                first_frame_ms(page, url)
                warm = [first_frame_ms(page, url) for _ in range(repeat)]
                print(f"  {format_name:11s} first frame (browser), warm  {summary(warm)}  (the same page again)")
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
                context.close()
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
        from game.archive.replay import load_log

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
            bench_browser(db, codes, max(5, args.repeat // 2), args.seeks)


if __name__ == "__main__":
    main()
