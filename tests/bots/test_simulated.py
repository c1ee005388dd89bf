"""Simulated opponents: the server's private answer, a target accuracy, a seeded buzz point."""
import statistics
from types import SimpleNamespace

import pytest

from bots.errors import BotError
from bots.builtin.simulated import MISS
from bots.protocol import Query
from bots.registry import load_bot
from game.engine import bot_turns
from game.engine.questions import Question

SPEC = {"kind": "simulated", "name": "practice", "accuracy": 0.7, "buzz_mean": 0.5, "buzz_sd": 0.1, "seed": 3}


def play(bot, length):
    """(word index of the first buzz, guess at it) over a question of length words."""
    for word in range(1, length + 1):
        act = bot.act(Query(text="w " * word, word_index=word, final=word == length))
        if act.buzz:
            return word, act.guess
    raise AssertionError("a simulated bot always buzzes by the end")


def test_it_hits_its_target_accuracy_and_buzz_point():
    bot = load_bot(SPEC)
    outcomes = [
        play(bot.with_private({"answer": f"Answer {i}", "length_words": 40, "question_id": i}), 40) for i in range(300)
    ]
    right = [guess == f"Answer {i}" for i, (_, guess) in enumerate(outcomes)]
    assert 0.62 <= sum(right) / len(right) <= 0.78
    assert all(guess == MISS for ok, (_, guess) in zip(right, outcomes) if not ok)
    assert 18 <= statistics.mean(word for word, _ in outcomes) <= 22  # 0.5 of 40 words


def test_the_same_seed_and_question_give_the_same_opponent():
    private = {"answer": "Hamlet", "length_words": 30, "question_id": "q7"}
    assert play(load_bot(SPEC).with_private(private), 30) == play(load_bot(dict(SPEC)).with_private(private), 30)


def test_it_buzzes_only_at_or_over_its_threshold():
    bot = load_bot(SPEC).with_private({"answer": "Hamlet", "length_words": 20})
    for word in range(1, 21):
        act = bot.act(Query(text="w " * word, word_index=word, final=word == 20))
        assert act.buzz == (act.confidence >= bot.threshold)


def test_without_the_length_it_answers_when_the_question_is_complete():
    bot = load_bot(SPEC).with_private({"answer": "Hamlet"})
    assert not bot.act(Query(text="This prince", word_index=2)).buzz
    assert bot.act(Query(text="This prince of Denmark", word_index=4, final=True)).buzz


def test_in_team_phases_it_answers_at_once():
    bot = load_bot({**SPEC, "accuracy": 1.0}).with_private({"answer": "Hamlet", "length_words": 100})
    act = bot.act(Query(text="Name this prince.", word_index=3, phase=2, mode="team", final=True))
    assert (act.guess, act.buzz) == ("Hamlet", True)


def test_it_is_labelled_simulated_and_needs_the_answer_from_the_server():
    bot = load_bot(SPEC)
    assert bot.simulated and bot.label == "practice (simulated)"
    with pytest.raises(BotError, match="not told the answer"):
        bot.act(Query(text="x", word_index=1))
    with pytest.raises(BotError, match="private.answer"):
        bot.with_private({"question_id": 1})


def test_an_impossible_accuracy_is_refused():
    with pytest.raises(BotError, match="between 0 and 1"):
        load_bot({**SPEC, "accuracy": 1.5})


def test_it_guesses_nothing_until_it_knows_and_then_the_clean_answer_the_server_tells_it():
    line = 'Zanzibar [accept Unguja; do not accept "Pemba"]'
    question = Question(qid="q1", kind="short", text=" ".join(["w"] * 20), answer=line)
    told = bot_turns.private_for(SimpleNamespace(question=question, q=SimpleNamespace(number=1, bonus=None)),
                                 ("answer", "length_words", "question_id"))
    bot = load_bot({**SPEC, "accuracy": 1.0}).with_private(told)
    acts = [bot.act(Query(text="w " * word, word_index=word, final=word == 20)) for word in range(1, 21)]
    knows = next(i for i, act in enumerate(acts) if act.buzz)
    assert knows > 0 and all(act.guess == "" and act.alternatives == [] for act in acts[:knows])
    assert all(act.guess == "Zanzibar" for act in acts[knows:])
    assert all(act.confidence < bot.threshold for act in acts[:knows])
