"""Replaying precomputed responses from a *.buzz.csv file."""
import io

import pytest
from django.core.management import call_command

from bots.errors import BotError
from bots.protocol import Query
from bots.registry import load_bot

CSV = """question_id,token_position,guess,confidence,buzz
q1,0,Macbeth,0.10,False
q1,5,Othello,0.40,false
q1,12,Hamlet,0.91,True
q2,3,Paris,0.55,1
"""


@pytest.fixture
def buzz_csv(tmp_path):
    path = tmp_path / "system.buzz.csv"
    path.write_text(CSV, encoding="utf-8")
    return str(path)


def at(bot, word):
    return bot.act(Query(text="w " * word, word_index=word))


def test_each_row_answers_from_its_position_until_the_next(buzz_csv):
    bot = load_bot({"kind": "replay_csv", "path": buzz_csv}).with_private({"question_id": "q1"})
    assert [(at(bot, w).guess, at(bot, w).buzz) for w in (0, 4, 5, 11, 12, 40)] == [
        ("Macbeth", False), ("Macbeth", False), ("Othello", False),
        ("Othello", False), ("Hamlet", True), ("Hamlet", True),
    ]
    assert at(bot, 12).confidence == pytest.approx(0.91)


def test_before_the_first_row_it_has_no_guess(buzz_csv):
    bot = load_bot({"kind": "replay_csv", "path": buzz_csv}).with_private({"question_id": "q2"})
    assert (at(bot, 2).guess, at(bot, 2).buzz) == ("", False)
    assert (at(bot, 3).guess, at(bot, 3).buzz) == ("Paris", True)


@pytest.mark.django_db
def test_a_built_replay_bot_reads_its_own_copy(bot_root, buzz_csv):
    out = io.StringIO()
    call_command("build_bot", "replay_csv", "--name", "offline", "--data", buzz_csv, stdout=out)
    assert "read 4 responses to 2 questions" in out.getvalue()
    bot = load_bot({"bot": "offline"}, {"question_id": "q1"})
    assert at(bot, 12).guess == "Hamlet"


def test_the_question_comes_from_the_server_and_must_be_in_the_file(buzz_csv):
    bot = load_bot({"kind": "replay_csv", "path": buzz_csv})
    with pytest.raises(BotError, match="not told which question"):
        at(bot, 3)
    with pytest.raises(BotError, match="no responses for question q9"):
        bot.with_private({"question_id": "q9"})


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("question_id,guess,confidence,buzz\nq1,x,0.1,True\n", "lacks the column(s) token_position"),
        ("question_id,token_position,guess,confidence,buzz\nq1,one,x,0.1,True\n", "line 2 cannot be read"),
        ("question_id,token_position,guess,confidence,buzz\nq1,1,x,0.1,maybe\n", "buzz 'maybe' is not true or false"),
        ("question_id,token_position,guess,confidence,buzz\nq1,1," + "x" * 501 + ",0.1,True\n",
         "line 2: the answer length is 501 characters, over the limit of 500"),
        ("question_id,token_position,guess,confidence,buzz\nq1,1,\"" + "x" * 200_000 + "\",0.1,True\n",
         "line or entry length goes over the limit"),
    ],
)
def test_a_malformed_file_is_refused_with_the_line(tmp_path, content, fragment):
    path = tmp_path / "bad.buzz.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BotError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        load_bot({"kind": "replay_csv", "path": str(path)})
