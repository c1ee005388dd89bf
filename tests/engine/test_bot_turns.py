"""A bot's turn (game.engine.bot_turns), the one set of decisions the live conductor and `simulate` both
play by: when a bot may act, what it is shown, what it may be told privately, and the commands its act
becomes, each sent here to the engine, which takes them."""
from game.engine import bot_turns

from .support import SYS, Match


def reading(words: int = 3) -> Match:
    """An EfficientQA match in its first phase (the 500 MiB tier buzzes), `words` words read."""
    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0})
    m.start(0)
    m.reveal_until(words)
    return m


def in_team_phase() -> Match:
    m = reading()
    m.buzz("h0", at=m.now + 100)
    m.answer("h0", "no idea")
    m.rule("reject", at=m.now + 200)
    while m.state.q.mode != "team":
        m.tick(m.now + 1000)
    return m


def test_a_bot_may_act_only_while_its_tier_plays_and_it_could_still_buzz():
    m = Match("efficientqa", {"questions": 2, "tiebreakers": 0})
    assert not bot_turns.may_act(m.state, "b500")  # not started
    m.start(0)
    assert not bot_turns.may_act(m.state, "b500")  # no word read yet
    m.reveal_until(3)
    assert bot_turns.may_act(m.state, "b500")
    assert not bot_turns.may_act(m.state, "b6") and not bot_turns.may_act(m.state, "bunl")  # not their phase
    assert not bot_turns.may_act(m.state, "h0") and not bot_turns.may_act(m.state, "nobody")
    m.send("pause", data={"reason": "a fire drill"}, at=m.now + 10)
    assert not bot_turns.may_act(m.state, "b500")
    m.send("resume", at=m.now + 10)
    m.buzz("h0", at=m.now + 100)
    assert not bot_turns.may_act(m.state, "b500")  # someone holds the floor


def test_a_stopped_bot_may_not_act_and_a_team_phase_waits_for_no_team_twice():
    m = reading()
    m.send("bot_stopped", SYS, {"seat": "b500", "reason": "Over its memory limit."}, at=m.now + 10)
    assert not bot_turns.may_act(m.state, "b500")
    t = in_team_phase()
    assert bot_turns.may_act(t.state, "b6") and not bot_turns.may_act(t.state, "b500")
    t.submit("h2", "Quvexo")  # the computer's captain answers for the team
    assert not bot_turns.may_act(t.state, "b6")


def test_the_query_shows_the_revealed_words_and_never_the_unread_ones():
    m = reading(3)
    query = bot_turns.revealed_query(m.state, m.state.seats["b500"])
    words = m.state.question.words
    assert query["text"] == " ".join(words[:3]) and words[3] not in query["text"].split()
    assert (query["word_index"], query["char_index"], query["phase"], query["mode"], query["final"], query["tier"]) == \
        (3, len(query["text"]), 1, "buzz", False, "500mib")
    assert bot_turns.revealed_query(in_team_phase().state, {"tier": None})["final"] is True  # and any tier unlimited


def test_a_bot_is_told_privately_only_the_fields_it_may_know():
    m = reading()
    assert bot_turns.private_for(m.state, ()) == {}
    told = bot_turns.private_for(m.state, ("answer", "question_idx"))
    assert told == {"answer": m.state.question.clean_answer, "question_idx": 0}


def test_in_a_buzz_phase_a_sure_bot_buzzes_after_its_reaction_time_and_answers_with_its_guess():
    m = reading()
    actor = bot_turns.bot_actor(m.state, "b500")
    act = bot_turns.clean_act({"guess": " Quvexo Pilandre ", "confidence": 0.9, "buzz": True})
    m.send(**_as_send(bot_turns.guess(actor, act, bot_turns.threshold_of(0.7), 2)))
    assert m.state.q.bot_guesses["b500"]["guess"] == "Quvexo Pilandre"
    reply = bot_turns.reply_to(m.state, actor, act)
    assert reply == bot_turns.Reply(buzz_in_ms=m.rules["bot_reaction_ms"], guess="Quvexo Pilandre")
    m.send(**_as_send(bot_turns.buzz(actor, 2)), at=m.now + reply.buzz_in_ms)
    m.send(**_as_send(bot_turns.answer(actor, reply.guess)))
    assert m.state.q.possession["seat"] == "b500" and m.state.q.possession["answer"] == "Quvexo Pilandre"
    unsure = dict(act, buzz=False)
    assert bot_turns.reply_to(m.state, actor, unsure) == bot_turns.Reply()


def test_in_a_team_phase_the_bots_guess_is_its_teams_submission_or_a_pass():
    m = in_team_phase()
    actor = bot_turns.bot_actor(m.state, "b6")
    submit = bot_turns.reply_to(m.state, actor, {"guess": "Quvexo", "confidence": 0.4, "buzz": False})
    assert submit.now == {"type": "submit", "actor": actor, "data": {"text": "Quvexo"}}
    m.send(**_as_send(submit.now))
    assert "t1" in m.state.q.submissions
    silent = bot_turns.reply_to(in_team_phase().state, actor, {"guess": "", "confidence": 0.0, "buzz": False})
    assert silent.now == {"type": "pass", "actor": actor, "data": {}}


def test_an_act_is_cleaned_as_a_remote_bot_may_send_anything():
    assert bot_turns.clean_act(None) is None and bot_turns.clean_act({"confidence": 1}) is None
    act = bot_turns.clean_act({"guess": "x", "confidence": float("nan"), "buzz": "yes",
                               "alternatives": [["x", 2], ["y"], ["z", "high"], ("w", 1)]})
    assert act == {"guess": "x", "confidence": 0.0, "buzz": False, "alternatives": [["x", 2.0], ["w", 1.0]]}
    assert [bot_turns.threshold_of(v) for v in (1.5, -1, True, None, 0.4)] == [1.0, 0.0, None, None, 0.4]


def test_a_missed_act_says_whether_it_timed_out_or_failed():
    assert bot_turns.missed("b500", "The bot did not act within its time limit of 750 ms.")["data"]["status"] == \
        "timed_out"
    assert bot_turns.missed("b500", "The bot failed: KeyError")["data"] == {
        "seat": "b500", "reason": "The bot failed: KeyError", "status": "failed"}
    assert bot_turns.missed("b500", "late", "timed_out")["data"]["status"] == "timed_out"


def _as_send(command: dict) -> dict:
    return {"type": command["type"], "actor": command["actor"], "data": command["data"]}


def bonus_for_the_computer(bounceback: bool = True) -> Match:
    """Tossups and bonuses: the computer's bot got the first tossup; its bonus's first part was read."""
    from .support import quizbowl_seats

    m = Match("quizbowl_bonus", {"questions": 2, "tiebreakers": 0, "bounceback": bounceback}, seats=quizbowl_seats())
    m.start(0)
    m.reveal_until(7)
    m.buzz("bot", at=m.now + 100)
    m.answer("bot", "right")
    m.rule("accept", at=m.now + 200)
    assert m.state.q.bonus["team"] == "t1" and not bot_turns.may_act(m.state, "bot")  # no part read yet
    m.read_part(at=m.now + 1000)
    return m


def test_in_a_bonus_the_bot_of_the_team_whose_turn_it_is_sees_the_leadin_and_the_part_and_answers_for_it():
    from .support import part_answer

    m = bonus_for_the_computer()
    assert bot_turns.may_act(m.state, "bot")
    query = bot_turns.revealed_query(m.state, m.state.seats["bot"])
    heard = m.state.bonuses[0]
    assert query["text"] == f"{heard.text} {heard.parts[0]['text']}" and query["final"] and query["mode"] == "team"
    assert part_answer(m.state).casefold() not in query["text"].casefold()
    assert bot_turns.private_for(m.state, ("answer", "question_id")) == {
        "answer": part_answer(m.state), "question_id": f"{heard.qid}#1"}
    actor = bot_turns.bot_actor(m.state, "bot")
    reply = bot_turns.reply_to(m.state, actor, {"guess": "Zebulon", "confidence": 0.4, "buzz": False, "alternatives": []})
    m.send(reply.now["type"], actor, reply.now["data"], at=m.now + 500)
    assert m.state.q.bonus["typed"] == {"seat": "bot", "team": "t1", "text": "Zebulon", "seq": m.state.seq}
    assert not bot_turns.may_act(m.state, "bot")  # its team has answered
    assert bot_turns.reply_to(m.state, actor, {"guess": "", "confidence": 0.0, "buzz": False, "alternatives": []}) \
        == bot_turns.Reply()  # no guess: the clock runs out


def test_a_bot_is_not_asked_on_the_other_teams_turn_and_is_on_its_own_bounceback():
    m = bonus_for_the_computer()
    m.rule_part("reject", at=m.now + 1000)  # the computer's spoken answer was wrong: the humans' bounceback
    assert m.state.q.bonus["answering"] == "t0" and not bot_turns.may_act(m.state, "bot")
    h = Match("quizbowl_bonus", {"questions": 2, "tiebreakers": 0, "bounceback": True})
    h.start(0)
    h.reveal_until(7)
    h.buzz("h0", at=h.now + 100)
    h.answer("h0", "right")
    h.rule("accept", at=h.now + 200)
    h.read_part(at=h.now + 1000)
    assert not bot_turns.may_act(h.state, "bot")
    h.rule_part("reject", at=h.now + 1000)
    assert h.state.q.bonus["bounce"] and bot_turns.may_act(h.state, "bot")
