"""Every command README.md and docs/*.md show runs as written, in a fresh copy of the checkout with a
newcomer's environment (none of Exhibition's variables set): `make demo` first, then the rest in the
state it left, as someone reading the docs would type them.

The commands are read from the docs (fenced and indented code blocks, and backticked commands in the
prose), and HOW says how each runs: RUN fills in only its placeholders (CODE, DIR, FILE, NAME…, the
first of `a|b` choices, an optional `[part]` kept) and runs it in a shell; SERVE starts it, waits for
the page to answer, and stops it; HELP runs it with `--help` only, for the reason it gives; ELSEWHERE
names the test that runs it. A command the docs show and HOW does not name fails the test, and so does
one HOW names that the docs no longer show.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from serving import environment
from tests.conftest import need_service
from tests.servers import ROOT, free_port

pytestmark = [pytest.mark.slow, pytest.mark.integration]

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
STARTS = re.compile(r"^(make \w|\.venv/bin/python |python -m |manage\.py \w+ |curl )")


def documented() -> dict[str, list[str]]:
    """command -> the docs that show it, in the order first shown."""
    found: dict[str, list[str]] = {}

    def add(command: str, doc: Path):
        command = re.sub(r"\s+#.*$", "", command.strip())
        if STARTS.match(command):
            found.setdefault(command, []).append(doc.name)

    for doc in DOCS:
        fenced = False
        for line in doc.read_text().splitlines():
            if line.strip().startswith("```"):
                fenced = not fenced
            elif fenced or line.startswith("    .venv/bin/python"):
                add(line, doc)
            elif not line.lstrip().startswith("|"):  # a table cell names a command, it does not show one to run
                for inline in re.findall(r"`([^`]+)`", line):
                    add(inline, doc)
    return found


@dataclass
class Run:
    fill: dict = field(default_factory=dict)  # placeholder -> its value ({code}, {out}: known once make demo ran)
    returncode: int = 0
    says: str = ""  # a text its output must hold


@dataclass
class Serve:
    pass


@dataclass
class Help:
    why: str


@dataclass
class Elsewhere:
    test: str


MINUTES = "runs for minutes and prints figures (docs/benchmarks.md)"
WIKIPEDIA = "needs a Wikipedia dump and QANTA's questions, gigabytes a checkout does not have"
REMOTE = "needs a remote bot answering at HOST:PORT (tests/bots/test_remote_registration.py serves one)"

# In the order they run: make demo first, the commands that need a finished match after simulate made one.
HOW = {
    "make demo": Serve(),
    "make wordnet": Run(),
    ".venv/bin/python -m serving.environment --markdown": Run(says="| `DEBUG` |"),
    ".venv/bin/python -m game.engine.formats": Run(),
    ".venv/bin/python manage.py simulate --format efficientqa|quizbowl --packet demo [--seed N] [--questions N] "
    "[--bot TIER=NAME]": Run({"TIER=NAME": "500mib=demo-qa-pairs", "N": "3"}, says="Final score"),
    "manage.py simulate --bot 500mib=demo-qa-pairs --demo-rules --humans-buzz-at 0.5": Run(says="won phase 1 on"),
    ".venv/bin/python manage.py simulate --bot 500mib=demo-qa-pairs --demo-rules --humans-buzz-at 0.5 --questions 30":
        Run(says="won phase 1 on"),
    ".venv/bin/python manage.py boxscore CODE": Run({"CODE": "{code}"}, says="Final score"),
    ".venv/bin/python manage.py export_match CODE [-o DIR]": Run({"CODE": "{code}", "DIR": "{out}"}),
    ".venv/bin/python manage.py export_match CODE1 -o event/": Run({"CODE1": "{code}"}),
    ".venv/bin/python manage.py import_match FILE": Run({"FILE": "{out}/{code}.events.jsonl"}),
    ".venv/bin/python manage.py event_report --logs DIR -o report.html": Run({"DIR": "{out}"}),
    '.venv/bin/python manage.py event_report --logs event/ -o report.html --title "Hall night"': Run(),
    ".venv/bin/python manage.py simulate_event --teams 4 --prelim-questions 5 --final-questions 10 --seed 1 -o out/":
        Run(says="Finalist: "),
    ".venv/bin/python manage.py simulate_tournament --teams 6 --pools 2 --playoffs 4 --seed 1 -o out/":
        Run(says="champion: "),
    ".venv/bin/python manage.py import_questions PATH --slug SLUG [--title T] "
    "[--format auto|qanta|qbreader|nq|tossups-csv|csv|packet|docx]":
        Run({"PATH": "game/fixtures/demo_packet.json", "SLUG": "docs-packet", "T": "Docs"}),
    ".venv/bin/python manage.py export_packet SLUG [-o FILE]": Run({"SLUG": "docs-packet", "FILE": "{out}/packet.json"}),
    ".venv/bin/python manage.py import_passages PATH --corpus NAME":
        Run({"PATH": "bots/knowledge/demo/passages.jsonl", "NAME": "docs"}),
    ".venv/bin/python manage.py import_knowledge wikipedia_en_all_nopic.zim --out var/knowledge/wiki.jsonl": Help(WIKIPEDIA),
    ".venv/bin/python manage.py import_knowledge enwiki-latest-pages-articles.xml.bz2 --keep passages --words 100":
        Help(WIKIPEDIA),
    ".venv/bin/python manage.py import_knowledge passages.jsonl --out var/knowledge/mine.jsonl": Run(),  # a passages.jsonl is there
    ".venv/bin/python manage.py build_bot answer_doc --name wiki-500 --data var/knowledge/wiki.jsonl "
    "--questions qanta.guessdev.json.gz": Help(WIKIPEDIA),
    ".venv/bin/python manage.py build_bot retriever_reader --name wiki-6g --data var/knowledge/wiki.jsonl "
    "--questions qanta.guessdev.json.gz --tier 6gib": Help(WIKIPEDIA),
    ".venv/bin/python manage.py build_bot answer_doc --name qb --data qanta.guessdev.json.gz": Help(WIKIPEDIA),
    ".venv/bin/python manage.py build_bot qa_pairs --name NAME --data PAIRS.jsonl":
        Run({"NAME": "docs-pairs", "PAIRS.jsonl": "bots/knowledge/demo/qa_pairs.jsonl"}),
    ".venv/bin/python manage.py build_bot simulated --name NAME --config '{\"accuracy\": 0.6}'":
        Run({"NAME": "docs-simulated"}),
    ".venv/bin/python manage.py build_bot remote_qanta --name NAME --url http://HOST:PORT": Help(REMOTE),
    ".venv/bin/python manage.py build_bot remote_json --name NAME --url http://HOST:PORT/act": Help(REMOTE),
    ".venv/bin/python manage.py build_bot replay_csv --name NAME --data RUN.buzz.csv":
        Run({"NAME": "docs-replay", "RUN.buzz.csv": "{buzz_csv}"}),
    "manage.py axes_reset_username NAME": Run({"NAME": "host"}),
    ".venv/bin/python manage.py conductors": Run(),
    # compose's health check: in the embedded demo no conductor process runs, and it says so.
    ".venv/bin/python manage.py conductors --check": Run(returncode=1, says="No conductor on"),
    "manage.py check --deploy --fail-level WARNING":
        Elsewhere("tests/test_settings.py::test_check_deploy_is_clean_with_the_production_settings_of_the_readme"),
    ".venv/bin/python bench/latency.py --layer both --matches 30 --players 2 --spectators 210 --questions 2 --floor "
    "--repeat 5": Help(MINUTES),
    ".venv/bin/python bench/curve.py --points 1,3,10,30,100 --layer both --repeat 2": Help(MINUTES),
    ".venv/bin/python bench/conductor.py --matches 30 --seconds 8 --runs 3": Help(MINUTES),
    ".venv/bin/python bench/commit.py": Help(MINUTES),
    ".venv/bin/python bench/redis_send.py": Help(MINUTES),
    ".venv/bin/python bench/abuse.py": Help(MINUTES),
    ".venv/bin/python bench/abuse.py --db sqlite --layer memory": Help(MINUTES),
    ".venv/bin/python -m game.judging.learned.build": Elsewhere(
        "tests/judging/test_learned_equivalence.py::test_rebuilding_from_the_shared_data_gives_the_file_in_the_repository"),
    ".venv/bin/python bench/judge.py": Help(MINUTES),
    ".venv/bin/python bench/judge.py --worst": Help(MINUTES),
    ".venv/bin/python bench/judge.py --conductor": Help(MINUTES),
    ".venv/bin/python bench/bots.py": Help(MINUTES),
    ".venv/bin/python bench/bots.py --celery --queries 600": Help(MINUTES),
    ".venv/bin/python bench/replay.py": Help(MINUTES),
    ".venv/bin/python bench/report.py": Help(MINUTES),
    ".venv/bin/python bench/standings.py": Help(MINUTES),
    ".venv/bin/python bench/buzzrace.py --trials 2000": Help(MINUTES),
    ".venv/bin/python bench/speech.py": Help(MINUTES),
    ".venv/bin/python bench/bodies.py": Help(MINUTES),
    ".venv/bin/python bench/soak.py --minutes 3": Help(MINUTES),
    ".venv/bin/python bench/soak.py --minutes 60": Help(MINUTES),
    'curl -N -H "Authorization: Bearer TOKEN" http://127.0.0.1:8000/m/CODE/feed':
        Elsewhere("tests/broadcast/test_feed.py::test_the_documented_curl_command_prints_the_hall_frames"),
    "curl http://HOST:8000/healthz": Elsewhere("tests/broadcast/test_feed.py::test_the_documented_health_probe_answers"),
    "make test": Elsewhere("the whole suite: the lead's run and CI's (.ci/run)"),
    ".venv/bin/python -m pytest -q tests/browser/test_accessibility.py": Elsewhere("tests/browser/test_accessibility.py"),
    "make demo HALL=1": Serve(),  # last: it leaves the checkout's settings in hall mode
}


def as_run(command: str, fill: dict, context: dict) -> str:
    """The command with its placeholders filled in, an optional [part] kept, the first of a|b chosen."""
    text = command
    for name, value in fill.items():
        text = re.sub(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", lambda _: value.format(**context), text)
    text = re.sub(r"\[([^\]]*)\]", r"\1", text)
    text = re.sub(r"(?<=\s)([\w.-]+)(?:\|[\w.-]+)+", r"\1", text)
    return f".venv/bin/python {text}" if text.startswith("manage.py ") else text  # docs/development.md: so they run


def test_every_command_the_docs_show_is_named_in_how_it_runs():
    shown = documented()
    assert not (missing := [f"{c}  ({', '.join(docs)})" for c, docs in shown.items() if c not in HOW]), \
        "the docs show commands this test does not run; add each to HOW:\n" + "\n".join(missing)
    assert not (stale := [c for c in HOW if c not in shown]), "HOW names commands no doc shows:\n" + "\n".join(stale)


def test_the_placeholders_are_filled_and_nothing_else_changes():
    context = {"code": "ABC123", "out": "/tmp/x"}
    assert as_run(".venv/bin/python manage.py export_match CODE [-o DIR]", {"CODE": "{code}", "DIR": "{out}"},
                  context) == ".venv/bin/python manage.py export_match ABC123 -o /tmp/x"
    assert as_run("manage.py simulate --format efficientqa|quizbowl --bot TIER=NAME", {"TIER=NAME": "500mib=x"},
                  context) == ".venv/bin/python manage.py simulate --format efficientqa --bot 500mib=x"
    assert as_run("make demo HALL=1", {}, context) == "make demo HALL=1"


def _newcomer_checkout(tmp_path: Path) -> Path:
    """The project's tracked files in a fresh folder (no var/, no database), with this machine's virtualenv
    and its WordNet index (which `make wordnet` would spend a minute building)."""
    copy = tmp_path / "exhibition"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, (f.decode() for f in files)):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    (copy / ".venv").symlink_to((ROOT / ".venv").resolve())
    stamp = ROOT / ".venv" / ".installed"
    need_service(stamp.exists(), "the virtualenv was not made by make (.venv/.installed is missing): run make once")
    os.utime(copy / "requirements.txt", (stamp.stat().st_mtime - 60,) * 2)  # installed: make installs nothing
    index = ROOT / "var" / "wordnet-nouns.json"
    if index.exists():
        (copy / "var").mkdir()
        shutil.copy2(index, copy / "var" / index.name)
    shutil.copy2(copy / "bots" / "knowledge" / "demo" / "passages.jsonl", copy / "passages.jsonl")
    return copy


def _newcomer_env(port: int) -> dict:
    """This process's environment without a single variable of Exhibition's (nor the tests' own)."""
    env = {k: v for k, v in os.environ.items()
           if k not in environment.VARIABLES and not k.startswith(("EXHIBITION_", "DJANGO_", "PYTEST_"))}
    return dict(env, PORT=str(port))  # make's own variable: a free port instead of 8000 on a shared machine


def _serve(command: str, copy: Path, env: dict, port: int) -> str:
    """Start command, wait until http://127.0.0.1:port/ answers 200, stop it; what it printed."""
    log = copy / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, shell=True, cwd=copy, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        deadline, status = time.monotonic() + 420, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                    status = reply.status
                break
            except OSError:
                time.sleep(1)
        assert status == 200, f"{command} did not answer on port {port}:\n{log.read_text(errors='replace')[-3000:]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    return log.read_text(errors="replace")


@pytest.mark.timeout(1500)
def test_every_command_the_docs_show_runs_as_written_in_a_newcomers_checkout(tmp_path):
    copy = _newcomer_checkout(tmp_path)
    port = free_port()
    env = _newcomer_env(port)
    out = tmp_path / "exports"
    context = {"out": str(out)}
    shown = documented()
    failures = []
    for command, how in HOW.items():
        if command not in shown or isinstance(how, Elsewhere):
            continue
        if isinstance(how, Serve):
            printed = _serve(command, copy, env, port)
            assert "The demo match is ready." in printed
            assert "pip" not in printed.lower() and printed.count("WordNet index") <= 1, printed  # only what a newcomer needs
            continue
        ran = as_run(command, how.fill, context) if isinstance(how, Run) else f"{command} --help"
        done = subprocess.run(ran, shell=True, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
        printed = done.stdout + done.stderr
        expected = how.returncode if isinstance(how, Run) else 0
        if done.returncode != expected or (isinstance(how, Run) and how.says not in printed):
            failures.append(f"$ {ran}\n(exit {done.returncode}, expected {expected})\n{printed[-1500:]}")
        if "ImproperlyConfigured" in printed:
            failures.append(f"$ {ran}\nstopped on its settings:\n{printed[-1500:]}")
        if command.startswith(".venv/bin/python manage.py simulate --format") and done.returncode == 0:
            context["code"] = re.search(r"^Match (\w+):", done.stdout, re.M).group(1)  # a finished match
        if command.startswith(".venv/bin/python manage.py export_match CODE [") and done.returncode == 0:
            context["buzz_csv"] = str(next(out.glob("*.buzz.csv")))
    assert not failures, "\n\n".join(failures)
