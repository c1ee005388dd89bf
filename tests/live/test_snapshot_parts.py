"""A moderator's snapshot of the longest match the limits allow goes out in frames under the bound on
what a socket may have waiting (1 MiB): whole it is over it (every question's text and answer, and
each played one again in the history), so it is sent in parts the page joins (game/live/catchup.py,
static/js/match-socket.js; tests/js/test_client_commands.py joins them in the browser's code)."""
import json

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from game.engine.api import MATCH_RULES, snapshot
from game.live import catchup
from game.live.fanout import SLOW_SOCKET_BYTES
from game.simulation import SimulatedCompetitor, VirtualMatch
from tests.engine.support import EngineRunner, Match, made_up_words


def longest_question(n: int, words) -> dict:
    """A tossup with the longest text and answer line an import lets through."""
    text, answer = [], ["Answer"]
    while len(" ".join(text)) < settings.EXHIBITION_IMPORT_MAX_TEXT_CHARS - 12:
        text.append(next(words))
    while len(" ".join(answer)) < settings.EXHIBITION_IMPORT_MAX_ANSWER_CHARS - 12:
        answer.append(next(words))
    question = {"qid": f"q{n}", "kind": "tossup", "text": " ".join(text) + ".", "answer": " ".join(answer),
                "category": "Science"}
    assert len(json.dumps(question).encode()) <= settings.EXHIBITION_IMPORT_MAX_QUESTION_BYTES
    return question


@pytest.fixture(scope="module")
def longest_match():
    """Every question the rules allow (questions and tiebreakers at their highest), each as long as an
    import allows, played to the end by simulated people on a virtual clock."""
    most = {name: MATCH_RULES[name].high for name in ("questions", "tiebreakers")}
    words = made_up_words()
    questions = [longest_question(n, words) for n in range(most["questions"] + most["tiebreakers"] + 2)]
    match = Match("quizbowl", most, questions=questions)
    competitors = [SimulatedCompetitor(s["id"], s["team"], "bot" if s["kind"] == "bot" else "player", accuracy=0.5)
                   for s in match.seats.values()]
    VirtualMatch(EngineRunner(match), competitors, seed=1, start_ms=0).run(max_steps=2_000_000)
    assert match.state.status == "finished"
    return match.state


def test_the_longest_matchs_moderator_snapshot_goes_out_in_parts_each_under_the_bound(longest_match):
    whole = catchup.encode({"type": "snapshot", "data": snapshot(longest_match, "moderator")})
    assert len(whole.encode()) > SLOW_SOCKET_BYTES, "whole, it would not fit"
    parts = catchup.in_parts(whole, longest_match.seq)
    assert len(parts) > 1
    assert max(len(p.encode()) for p in parts) < SLOW_SOCKET_BYTES
    frames = [json.loads(p) for p in parts]
    assert {f["type"] for f in frames} == {"snapshot_part"}
    assert [f["data"]["part"] for f in frames] == list(range(len(parts)))
    assert all(f["data"]["parts"] == len(parts) and f["data"]["seq"] == longest_match.seq for f in frames)
    assert "".join(f["data"]["text"] for f in frames) == whole, "joined, they are the snapshot"


def test_a_part_is_under_the_bound_whatever_its_characters():
    """The worst a character costs in JSON is six bytes (a control character as \\uXXXX)."""
    whole = catchup.encode({"type": "snapshot", "data": {"seq": 1, "text": "\x01" * (catchup.PART_CHARS * 2)}})
    assert max(len(p.encode()) for p in catchup.in_parts(whole, 1)) < SLOW_SOCKET_BYTES


def test_a_short_snapshot_goes_whole():
    whole = catchup.encode({"type": "snapshot", "data": {"seq": 3}})
    assert catchup.in_parts(whole, 3) == [whole]


@pytest.mark.django_db(transaction=True)
async def test_a_moderator_socket_is_sent_a_long_snapshot_in_parts_that_join(conductor, live_match, connect,
                                                                             staff_cookie, monkeypatch):
    monkeypatch.setattr(catchup, "PART_CHARS", 500)  # this match's snapshot is a few KiB
    match = await sync_to_async(live_match)()
    socket = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    await socket.hello()
    first = await socket.until(lambda f: f["type"] == "snapshot_part")
    parts = [first] + [await socket.receive() for _ in range(first["data"]["parts"] - 1)]
    assert [p["data"]["part"] for p in parts] == list(range(first["data"]["parts"]))
    joined = json.loads("".join(p["data"]["text"] for p in parts))
    assert joined["type"] == "snapshot" and joined["data"]["seq"] == first["data"]["seq"]
    assert [s["name"] for s in joined["data"]["seats"]][:2] == ["Ann", "Bob"]
