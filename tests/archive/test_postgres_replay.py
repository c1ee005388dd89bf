"""After the match on PostgreSQL, the production database: the log read with one plain query, the
archive's scores summed from the JSON of the log, and an archive exported and imported again."""
import io

import pytest
from django.core.management import call_command

from game.engine.api import fold
from game.models import Match
from game.archive.replay import Replay, load_log
from game.event_log import load_events
from game.web.views_archive import final_scores
from tests.game.test_postgres_store import on_postgres  # noqa: F401  (autouse: the same check, PostgreSQL or skip)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_a_finished_match_replays_lists_and_travels_on_postgres(tmp_path):
    call_command("simulate", "--format", "quizbowl", "--seed", "4", "--questions", "4", stdout=io.StringIO())
    match = Match.objects.get()
    events = load_log(match)
    assert events == load_events(match)  # the plain query reads what the ORM reads
    state = Replay(events).final
    summed = final_scores([match])[match.id]
    assert {t: summed.get(t, 0) for t in state.scores} == state.scores
    call_command("export_match", match.code, "-o", str(tmp_path), stdout=io.StringIO())
    match.delete()
    call_command("import_match", str(tmp_path / f"{match.code}.events.jsonl"), stdout=io.StringIO())
    assert fold(load_log(Match.objects.get(code=match.code))) == state
