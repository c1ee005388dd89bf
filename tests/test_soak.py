"""The soak with mischief in a short form (bench/soak.py --minutes 1.5 --matches 3): the production shape
(PostgreSQL, its own Redis, two web processes, two conductors, a Celery worker a bot tier) plays matches with
phones, hall screens and bots of every tier while one client floods a seat, one forges addresses and seat
tokens and one uploads 20 MB bodies; a conductor is killed and started again, then Redis. Whatever the load,
nothing may be lost: every match played finishes, no socket misses a seq, every log is whole and every final
score is the same in the log's fold, the box score and the archive's sum; every body is refused and every
forged token closed. The hour's figures (round trips, memory) are the bench's to print, not a test's.

Needs PostgreSQL at 127.0.0.1:5432 and redis-server; skips without them (fails under CI=true)."""
import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import need_service
from tests.servers import ROOT
from tests.stack import postgres_available

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.postgres]


def test_a_short_soak_with_mischief_and_two_faults_loses_nothing(tmp_path):
    need_service(postgres_available(), "PostgreSQL is not answering at 127.0.0.1:5432")
    need_service(shutil.which("redis-server") is not None, "redis-server is not installed")
    summary = tmp_path / "summary.json"
    done = subprocess.run([sys.executable, "bench/soak.py", "--minutes", "1.5", "--matches", "3", "--summary", str(summary)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    print(done.stdout)
    got = json.loads(summary.read_text())
    assert got["faults"] == ["conductor killed and started again", "Redis stopped and started again"], got
    assert got["played"] >= 3 and got["failed"] == [], got  # every slot played a match through the faults
    assert got["finished"] == got["logs_whole"] == got["scores_equal"] == got["scored"] == got["played"], got
    assert got["seq_gaps"] == 0, got
    assert got["bot_workers_exited"] == [], got
    assert got["buzzes"].get("ok", 0) >= got["played"], got  # the phones' buzzes were acknowledged
    uploads, forged, flood = (got["mischief"][name] for name in ("uploader", "forger", "flood"))
    assert set(uploads) == {"20 MB body 413"}, uploads
    assert {k for k in forged if k.startswith("forged token")} == {"forged token closed 4403"}, forged
    assert flood.get("sent", 0) > 0 and "ack" not in flood, flood  # the flooded match is not live: nothing taken
