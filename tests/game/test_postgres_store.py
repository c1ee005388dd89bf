"""The event log on PostgreSQL, the production database: a whole match, and the log's guarantees."""
import io
import os

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from game.models import Match, MatchEvent
from game.event_log import load_events, load_state
from tests.conftest import need_service

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def on_postgres():
    url = os.environ.get("DATABASE_URL", "")
    need_service(url.startswith(("postgres://", "postgresql://")),
                 "these tests need DATABASE_URL=postgres://postgres@127.0.0.1:5432/exhibition (make test sets it)")
    assert connection.vendor == "postgresql"


def test_a_simulated_match_is_stored_whole_on_postgres():
    call_command("simulate", "--format", "quizbowl", "--seed", "4", "--questions", "6", stdout=io.StringIO())
    match = Match.objects.get()
    events = load_events(match)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    state = load_state(match)
    assert state.status == "finished" and match.status == Match.Status.FINISHED
    for team, score in state.scores.items():
        assert score == sum(e["data"].get("score_changes", {}).get(team, 0) for e in events)


def test_the_log_refuses_a_second_event_with_the_same_seq():
    call_command("simulate", "--format", "efficientqa", "--seed", "1", "--questions", "2", stdout=io.StringIO())
    match = Match.objects.get()
    count = match.events.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchEvent.objects.create(match=match, seq=count, t_ms=0, type="chat", data={})
    assert match.events.count() == count


def test_in_a_shared_transaction_a_write_that_cannot_be_stored_fails_alone_on_postgres(live_match):
    """PostgreSQL aborts a whole transaction at a failed statement, so the conductor's shared insert
    runs in a savepoint there (SQLite undoes only the statement and needs none): the same check as
    on SQLite, on PostgreSQL."""
    from tests.conductor.test_group_commit import (
        test_a_write_whose_events_cannot_be_stored_fails_alone_and_the_others_are_stored as fails_alone)

    fails_alone(live_match)
