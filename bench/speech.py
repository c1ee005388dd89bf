"""How far the spoken word and the shown word drift apart when the hall reads aloud. Prints numbers,
never pass/fail. Target (issue 25): p95 <= 100 ms on the demo packet.

Three measures, each on every question of the demo packet (game/fixtures/demo_packet.json), read by
espeak-ng (en-us, --wpm words a minute):
  marks vs audio  whether the voice's word times (its SSML mark events) are where the words start in
                  the audio it made: at each word that follows a pause (a comma or a sentence end,
                  where the audio falls silent between the words), the end of that silence found in
                  the samples themselves (10 ms windows under 2% of the loudest) against the mark's
                  time. An independent check of the timings everything else relies on.
  schedule        the engine's reveal times, played with the voice's timings as the conductor plays
                  them (decide, fold, wake at next_wakeup), against each word's start in the audio,
                  both from the question's first word. Exact by construction; printed so a change
                  that breaks it shows.
  in Chromium     a real server (Daphne, the embedded conductor) and headless Chromium (autoplay
                  allowed) showing the big screen while a console presses Next through both matches:
                  at the moment each word is drawn, where the audio being played is, minus where that
                  word starts in it (positive: the voice is ahead of the screen). The screen logs it
                  before it re-aligns anything (static/js/hall-voice.js). Skipped without
                  /usr/bin/chromium or with --no-browser. Also printed: the same figure from one
                  word to the next (a constant offset, such as the audio output's latency, cancels
                  there), and how long after the server revealed a word its frame reached the screen.

Run: .venv/bin/python bench/speech.py [--wpm 175] [--questions 0 (all)] [--no-browser]
"""
from __future__ import annotations

import argparse
import array
import json
import os
import statistics
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True  # leave no __pycache__ in bench/
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "exhibition.settings")
os.environ.setdefault("DEBUG", "1")

CHROMIUM = Path("/usr/bin/chromium")
PACKET = ROOT / "game" / "fixtures" / "demo_packet.json"
CONNECTED = "() => document.getElementById('conn')?.textContent === 'connected'"
PAUSE_ENDS = (",", ";", ":", ".", "?", "!")


def pct(values, p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * (len(ordered) - 1)))))]


def show(name: str, values_ms) -> None:
    values = list(values_ms)
    absolute = [abs(v) for v in values]
    print(f"  {name:<34} n={len(values):>5}  |drift| p50 {pct(absolute, 50):6.1f} ms  p95 {pct(absolute, 95):6.1f} ms"
          f"  max {max(absolute):6.1f} ms  mean {statistics.fmean(values):+6.1f} ms")


def questions(limit: int) -> list[dict]:
    from game.importers.parsed_rows import check_question

    items = json.loads(PACKET.read_text())["questions"]
    out = [check_question(item)[0] for item in items]
    return out if not limit else [q for kind in ("short", "tossup") for q in [x for x in out if x["kind"] == kind][:limit]]


def silence_end(samples, rate: int, around_ms: int) -> int | None:
    """The end (ms) of the longest silence within 400 ms before `around_ms` + 100 ms, or None."""
    window = rate // 100
    loud = max(1, max(abs(s) for s in samples))
    start, stop = max(0, (around_ms - 400) * rate // 1000), min(len(samples), (around_ms + 100) * rate // 1000)
    best, run, best_end = 0, 0, None
    for at in range(start, stop - window, window):
        quiet = max(abs(s) for s in samples[at:at + window]) < 0.02 * loud
        run = run + 1 if quiet else 0
        if quiet and run >= best:
            best, best_end = run, (at + window) * 1000 // rate
    return best_end if best >= 3 else None  # 30 ms or more of silence


def bench_marks(items, wpm: int, folder: Path) -> dict:
    from game.engine.questions import split_words
    from game.speech.synthesis import audio_path, synthesise

    errors, made, cached = [], [], []
    speeches = {}
    for q in items:
        started = time.perf_counter()
        speech = synthesise(q["text"], "en-us", wpm, folder)
        made.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        synthesise(q["text"], "en-us", wpm, folder)
        cached.append((time.perf_counter() - started) * 1000)
        speeches[q["text"]] = speech
        with wave.open(str(audio_path(speech.key, folder)), "rb") as wav:
            rate = wav.getframerate()
            samples = array.array("h", wav.readframes(wav.getnframes()))
        words, _ = split_words(q["text"])
        for i in range(1, len(words)):
            if words[i - 1].rstrip("\"')").endswith(PAUSE_ENDS) and speech.offsets[i] != speech.offsets[i - 1]:
                found = silence_end(samples, rate, speech.offsets[i])
                if found is not None:
                    errors.append(speech.offsets[i] - found)
    print(f"Synthesis: {len(items)} questions, made in p50 {pct(made, 50):.0f} ms p95 {pct(made, 95):.0f} ms each "
          f"(a child process running espeak-ng), from the cache p50 {pct(cached, 50):.2f} ms")
    shared = sum(sum(1 for a, b in zip(s.offsets, s.offsets[1:]) if a == b) for s in speeches.values())
    total = sum(len(s.offsets) for s in speeches.values())
    print(f"  {total} words, {shared} of them said with the next as one unit (shared start)")
    show("marks vs audio (after a pause)", errors)
    return speeches


def bench_schedule(items, speeches) -> None:
    from game.engine.api import apply, create_match, decide, fold, make_rules, next_wakeup

    drift = []
    for n, q in enumerate(items):
        rules = make_rules("quizbowl", {"reveal": "voice", "questions": 1, "tiebreakers": 0})
        teams = [{"id": "t0", "name": "A"}, {"id": "t1", "name": "B"}]
        seats = [{"id": "s0", "name": "Ann", "team": "t0", "kind": "human", "captain": True}]
        events = create_match(rules, teams, seats, [dict(q, qid=str(n))], 0)
        state = fold(events)
        system = {"role": "system"}

        def run(command, now):
            nonlocal state
            for event in decide(state, command, now):
                state = apply(state, event)
                yield event

        list(run({"type": "start", "actor": {"role": "moderator"}}, 0))
        speech = speeches[q["text"]]
        list(run({"type": "voice_timings", "actor": system, "data": speech.to_command(1, 0, "en-us")}, 37))
        times = []
        while state.q.revealed < len(speech.offsets):
            due = next_wakeup(state)
            times += [e["t"] for e in run({"type": "tick", "actor": system}, due) if e["type"] == "word_revealed"]
        drift += [(t - times[0]) - (o - speech.offsets[0]) for t, o in zip(times, speech.offsets)]
    show("schedule vs audio (engine)", drift)


def bench_browser(count: int, wpm: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS, _server_env, seeded_server

    folder = Path(tempfile.mkdtemp(prefix="bench-speech-"))
    env = _server_env(folder / "db.sqlite3")
    env["EXHIBITION_SPEECH_DIR"] = str(folder / "speech")
    with seeded_server(folder, env, seed="seed_voice.py", args=(str(count), str(wpm))) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=[*CHROMIUM_ARGS, "--autoplay-policy=no-user-gesture-required"])
        drift, steps, since = [], [], []
        for kind, code in server["matches"].items():
            host = browser.new_context()  # the big screen shares the host's sign-in: the audio is staff only
            moderator, screen = host.new_page(), host.new_page()
            screen.set_viewport_size({"width": 1920, "height": 1080})
            moderator.goto(f"{server['url']}/accounts/login/?next=/m/{code}/moderate")
            moderator.fill("input[name=username]", server["user"])
            moderator.fill("input[name=password]", server["password"])
            moderator.click("button[type=submit]")
            moderator.wait_for_url(f"**/m/{code}/moderate")
            moderator.wait_for_function(CONNECTED)
            screen.goto(f"{server['url']}/m/{code}/watch")
            screen.wait_for_function(CONNECTED)
            started = time.monotonic()
            while screen.evaluate("() => window.exhibitionScreen.view().status") != "finished":
                moderator.wait_for_selector("#btn-next:enabled", timeout=120_000)
                moderator.keyboard.press("n")
                moderator.wait_for_timeout(300)
            log = screen.evaluate("() => window.exhibitionScreen.voice.log")
            heard = [e for e in log if e["audio_s"] is not None]
            drift += [(e["audio_s"] - e["word_s"]) * 1000 for e in heard]
            since += [e["since_s"] * 1000 for e in log]
            for a, b in zip(log, log[1:]):
                if a["key"] == b["key"] and None not in (a["audio_s"], b["audio_s"]):
                    steps.append(((b["audio_s"] - a["audio_s"]) - (b["word_s"] - a["word_s"])) * 1000)
            print(f"  {kind}: {len({e['key'] for e in log})} questions, {len(log)} words shown, {len(heard)} with the "
                  f"audio playing, {time.monotonic() - started:.0f} s")
            moderator.close()
            screen.close()
        browser.close()
    show("Chromium: audio at each shown word", drift)
    show("  word to word (constant removed)", steps)
    print(f"  frames reached the screen p50 {pct(since, 50):.1f} ms p95 {pct(since, 95):.1f} ms after the server revealed "
          "the word (part of the drift above)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wpm", type=int, default=175)
    parser.add_argument("--questions", type=int, default=0, help="per kind; 0 for all of the demo packet")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    import django

    django.setup()
    items = questions(args.questions)
    print(f"Demo packet: {len(items)} questions read aloud by espeak-ng en-us at {args.wpm} words a minute")
    with tempfile.TemporaryDirectory() as folder:
        speeches = bench_marks(items, args.wpm, Path(folder))
        bench_schedule(items, speeches)
    if args.no_browser or not CHROMIUM.exists():
        print("Chromium: skipped" + ("" if args.no_browser else f" ({CHROMIUM} not found)"))
        return
    bench_browser(args.questions, args.wpm)


if __name__ == "__main__":
    main()
