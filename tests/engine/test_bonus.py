"""A tossup's bonus, as ACF plays it (game/engine/bonus.py): the team that answers a tossup correctly hears the
packet's next bonus, confers on each part the moderator reads, and its captain answers; the moderator rules
each part for its value. With bouncebacks, a part the team misses goes to the other team. No bonus follows a
dead tossup or a tiebreaker; once the packet's bonuses are heard, tossups go on without them. Nobody but the
moderator learns a part's answer before the part is over."""
from __future__ import annotations

import json

import pytest

from game.engine.api import Rejected, create_match, fold, make_rules, project, snapshot
from game.engine.questions import clean_answer
from game.engine.stages import Stage

from .played import Recorded, played_quizbowl_bonus
from .support import MOD, TEAMS, Match, make_bonuses, make_questions, part_answer, quizbowl_seats

S = Stage


def bonus_match(bounceback: bool = False, questions: int = 3, bonuses: int | None = None) -> Recorded:
    return Recorded("quizbowl_bonus", {"questions": questions, "tiebreakers": 1, "bounceback": bounceback},
                    bonuses=None if bonuses is None else make_bonuses(bonuses))


def first_part_read(bounceback: bool = False) -> Recorded:
    """Ann's team got the first tossup and the moderator read its bonus's first part."""
    m = bonus_match(bounceback=bounceback)
    m.start(0)
    get_tossup(m, "h0")
    m.read_part(at=m.now + 1000)
    return m


def get_tossup(m: Match, seat: str, after_words: int = 7):
    """`seat` buzzes after the power mark and is ruled right: 10 points and, in this format, a bonus."""
    m.reveal_until(after_words)
    m.buzz(seat, at=m.now + 50)
    m.answer(seat, "right")
    m.rule("accept", at=m.now + 200)


def kill_tossup(m: Match):
    m.play_to_close()


def next_question(m: Match):
    m.send("next", MOD, at=m.now + 1000)


def answer_part(m: Match, seat: str, right: bool, verdict: str | None = None):
    m.bonus_answer(seat, part_answer(m.state) if right else "a wrong guess", at=m.now + 1000)
    m.rule_part(verdict or ("accept" if right else "reject"), at=m.now + 500)


def test_a_correct_tossup_earns_its_team_the_packets_next_bonus_and_each_right_part_scores_its_value():
    m = bonus_match()
    m.start(0)
    get_tossup(m, "h0")
    assert m.scores == {"t0": 10, "t1": 0}
    assert m.state.history[-1]["result"]["team"] == "t0"  # the tossup closed, its answer shown
    assert S(m.q.stage) is S.BONUS_READY and m.q.bonus["team"] == "t0" and m.q.bonus["index"] == 0
    started = m.events_of_current("bonus_started")[0]["data"]
    assert started["values"] == [10, 10, 10] and started["leadin"] == m.state.bonuses[0].text
    for right in (True, False, True):
        m.read_part(at=m.now + 1000)
        assert S(m.q.stage) is S.BONUS_CONFER and m.q.deadline["kind"] == "confer"
        assert m.q.deadline["at"] == m.now + 5000  # ACF: 5 seconds to confer
        answer_part(m, "h0", right)
    assert S(m.q.stage) is S.CLOSED and m.scores == {"t0": 30, "t1": 0}
    ended = m.events[-1]
    assert ended["type"] == "bonus_ended" and ended["data"]["points"] == {"t0": 20}
    assert m.state.history[-1]["score_changes"] == {"t0": 30}
    next_question(m)
    assert S(m.q.stage) is S.READING and m.q.number == 2


def test_a_dead_tossup_uses_no_bonus_and_the_next_correct_one_hears_the_first():
    m = bonus_match()
    m.start(0)
    kill_tossup(m)
    assert m.q.bonus is None and S(m.q.stage) is S.CLOSED and m.state.bonus_next == 0
    next_question(m)
    get_tossup(m, "h2")
    assert m.q.bonus["index"] == 0 and m.q.bonus["team"] == "t1"


def test_after_a_neg_the_other_teams_correct_answer_earns_it_the_bonus():
    m = bonus_match()
    m.start(0)
    m.reveal_until(3)
    m.attempt("h0", "wrong", "reject")
    get_tossup(m, "h2", after_words=8)
    assert m.scores == {"t0": -5, "t1": 10}
    assert m.q.bonus["team"] == "t1"
    m.read_part(at=m.now + 1000)
    wrong_team = m.refuse("bonus_answer", "h0", {"text": "mine", "part": 0})
    assert wrong_team.code == "not_your_part" and "Computer's part" in str(wrong_team)


def test_with_bouncebacks_a_missed_part_goes_to_the_other_team_and_scores_for_it():
    m = first_part_read(bounceback=True)
    answer_part(m, "h0", right=False)
    assert S(m.q.stage) is S.BONUS_BOUNCE and m.q.bonus["answering"] == "t1"
    assert m.q.deadline == {"kind": "bounce", "at": m.now + 3000}
    assert "answer" not in m.events[-1]["data"]  # the part is not over: its answer is not shown yet
    assert m.refuse("bonus_answer", "h0", {"text": "again", "part": 0}).code == "not_your_part"
    answer_part(m, "h2", right=True)
    assert m.scores == {"t0": 10, "t1": 10}
    ruled = m.events[-1]["data"]
    assert (ruled["bounce"], ruled["team"], ruled["points"]) == (True, "t1", 10) and "answer" in ruled
    assert S(m.q.stage) is S.BONUS_READY


def test_a_bounceback_nobody_answers_ends_the_part_on_the_clock():
    m = first_part_read(bounceback=True)
    m.advance()  # the controlling team's 5 seconds
    assert [e["data"]["by"] for e in m.events_of_current("bonus_part_ruled")] == ["clock"]
    assert S(m.q.stage) is S.BONUS_BOUNCE
    m.advance()  # the other team's 3
    ruled = m.events_of_current("bonus_part_ruled")[-1]["data"]
    assert (ruled["by"], ruled["verdict"], ruled["bounce"], ruled["points"]) == ("clock", "reject", True, 0)
    assert "answer" in ruled and S(m.q.stage) is S.BONUS_READY


def test_without_bouncebacks_a_missed_part_is_over_and_the_other_team_may_not_answer_it():
    m = first_part_read()
    answer_part(m, "h0", right=False)
    assert "answer" in m.events[-1]["data"] and S(m.q.stage) is S.BONUS_READY
    assert m.refuse("bonus_answer", "h2", {"text": "ours", "part": 0}).code == "bad_phase"
    assert m.scores == {"t0": 10, "t1": 0}


def test_a_tiebreaker_has_no_bonus():
    m = bonus_match(questions=1)
    m.start(0)
    kill_tossup(m)
    next_question(m)  # 0-0: a tiebreaker
    assert m.q.tiebreaker
    get_tossup(m, "h0")
    assert m.q.bonus is None and S(m.q.stage) is S.CLOSED
    next_question(m)
    assert m.state.status == "finished" and m.scores == {"t0": 10, "t1": 0}


def test_when_the_bonuses_run_out_tossups_go_on_without_them_and_the_moderator_is_told():
    m = bonus_match(questions=3, bonuses=1)
    m.start(0)
    assert snapshot(m.state, "moderator")["bonuses_left"] == 1
    get_tossup(m, "h0")
    assert snapshot(m.state, "moderator")["bonuses_left"] == 0
    for _ in range(3):
        m.read_part(at=m.now + 1000)
        answer_part(m, "h0", right=True)
    next_question(m)
    get_tossup(m, "h2")
    assert m.q.bonus is None and S(m.q.stage) is S.CLOSED
    next_question(m)
    assert m.q.number == 3 and m.scores == {"t0": 40, "t1": 10}
    assert snapshot(m.state, "spectator")["bonuses_left"] is None


def test_a_tossup_bonus_format_refuses_a_packet_without_bonuses():
    rules = make_rules("quizbowl_bonus")
    with pytest.raises(Rejected) as refused:
        create_match(rules, TEAMS, quizbowl_seats(), make_questions(3, "tossup"), 0, bonuses=[])
    assert refused.value.code == "no_bonuses" and "has none" in str(refused.value)


def test_undo_takes_back_the_last_part_ruling_and_its_points():
    m = bonus_match(bounceback=True)
    m.start(0)
    get_tossup(m, "h0")
    refused = m.refuse("undo", MOD)
    assert refused.code == "nothing_to_undo"  # the tossup's ruling stands once its bonus began
    m.read_part(at=m.now + 1000)
    answer_part(m, "h0", right=True)
    assert m.scores["t0"] == 20
    m.send("undo", MOD, {"ruling": m.state.next_ruling_id - 1}, at=m.now + 500)
    # The part's answer was shown by that ruling: the moderator rules again on the same answer, nothing else.
    assert m.scores["t0"] == 10 and S(m.q.stage) is S.BONUS_REVIEW
    assert m.q.bonus["typed"]["text"] == part_answer(m.state) and m.q.deadline is None
    assert m.refuse("bonus_answer", "h0", {"text": "other", "part": 0}).code == "answer_shown"
    assert m.refuse("rule", MOD, {"verdict": "prompt", "part": 0, "answer": m.q.floor_seq}).code == "answer_shown"
    m.rule_part("reject", at=m.now + 500)
    assert m.scores["t0"] == 10 and S(m.q.stage) is S.BONUS_READY  # no bounceback once the answer was shown


def test_undo_of_a_miss_before_its_bounceback_goes_back_to_the_controlling_team():
    m = first_part_read(bounceback=True)
    answer_part(m, "h0", right=False)
    m.send("undo", MOD, at=m.now + 500)
    assert S(m.q.stage) is S.BONUS_CONFER and m.q.bonus["answering"] == "t0" and m.q.deadline is None
    m.rule_part("accept", at=m.now + 500)
    assert m.scores["t0"] == 20


def test_undo_after_the_bonus_ended_reopens_its_last_part_and_the_question_closes_again():
    m = bonus_match()
    m.start(0)
    get_tossup(m, "h0")
    for right in (True, True, True):
        m.read_part(at=m.now + 1000)
        answer_part(m, "h0", right)
    assert S(m.q.stage) is S.CLOSED and m.scores["t0"] == 40
    m.send("undo", MOD, at=m.now + 500)
    assert S(m.q.stage) is S.BONUS_REVIEW and m.scores["t0"] == 30 and m.state.history[-1]["score_changes"] == {"t0": 30}
    assert m.refuse("next", MOD).code == "question_open"
    m.rule_part("reject", at=m.now + 500)
    assert S(m.q.stage) is S.CLOSED and m.events[-1]["data"]["points"] == {"t0": 20}


def test_a_prompt_gives_the_team_another_answer_on_the_clock():
    m = first_part_read()
    m.bonus_answer("h0", "something close", at=m.now + 1000)
    assert m.q.deadline is None  # the answer is in: the clock stops
    m.rule_part("prompt", at=m.now + 500)
    assert m.q.deadline == {"kind": "confer", "at": m.now + 8000}  # the match's prompt time
    answer_part(m, "h0", right=True)
    assert m.scores["t0"] == 20


def test_only_the_captain_answers_for_the_team_and_a_spoken_answer_may_be_ruled_without_typing():
    m = first_part_read()
    not_captain = m.refuse("bonus_answer", "h1", {"text": "me", "part": 0})
    assert not_captain.code == "not_captain"
    m.send("chat", "h1", {"text": "it is the red one"}, at=m.now + 500)  # the team confers in its box
    m.rule_part("accept", at=m.now + 1000, heard="the red planet")
    ruled = m.events_of_current("bonus_part_ruled")[-1]["data"]
    assert (ruled["text"], ruled["heard"], ruled["points"]) == (None, "the red planet", 10)


def test_the_refusals_of_a_bonus_say_what_is_wrong():
    m = bonus_match()
    m.start(0)
    get_tossup(m, "h0")
    assert m.refuse("bonus_answer", "h0", {"text": "early", "part": 0}).code == "bad_phase"  # nothing read yet
    assert m.refuse("rule", MOD, {"verdict": "accept", "part": 0, "answer": 1}).code == "nothing_to_rule"
    assert m.refuse("buzz", "h2").code == "bad_phase"
    m.read_part(at=m.now + 1000)
    assert m.refuse("read_part", MOD, {"part": 1}).code == "part_open"
    assert m.refuse("read_part", MOD, {"part": 0}).code == "part_open"
    player_rules = m.refuse("rule", "h0", {"verdict": "accept", "part": 0, "answer": m.q.floor_seq})
    assert player_rules.code == "forbidden"
    looked = m.q.floor_seq
    m.bonus_answer("h0", "Zebulon", at=m.now + 500)
    stale = m.refuse("rule", MOD, {"verdict": "accept", "part": 0, "answer": looked})
    assert stale.code == "stale" and "“Zebulon”" in str(stale)  # an answer that came in is never ruled unseen
    assert m.refuse("rule", MOD, {"verdict": "accept", "answer": m.q.floor_seq}).code == "bad_shape"  # no part
    assert m.refuse("bonus_answer", "h0", {"text": "again", "part": 0}).code == "already_answered"
    answer_part_now = m.q.floor_seq
    m.send("rule", MOD, {"verdict": "reject", "part": 0, "answer": answer_part_now}, at=m.now + 500)
    assert m.refuse("rule", MOD, {"verdict": "accept", "part": 0, "answer": answer_part_now}).code == "nothing_to_rule"
    m.read_part(at=m.now + 1000)
    late = m.refuse("bonus_answer", "h0", {"text": "for part one", "part": 0})
    assert late.code == "stale"  # meant for the part before: it never lands on this one
    assert m.refuse("read_part", MOD, {"part": 1}).code == "part_open"


def test_a_pause_holds_the_bonus_and_its_clock():
    m = first_part_read()
    due = m.q.deadline["at"]
    m.send("pause", MOD, at=m.now + 1000)
    paused_at = m.now
    assert m.refuse("bonus_answer", "h0", {"text": "x", "part": 0}, at=due + 5000).code == "paused"
    assert m.events_of_current("bonus_part_ruled") == []  # the clock did not run out while paused
    m.send("resume", MOD, at=due + 5000)
    assert m.q.deadline["at"] == due + (due + 5000 - paused_at)
    answer_part(m, "h0", right=True)
    assert m.scores["t0"] == 20


# -- who learns a part's answer, and when -------------------------------------------------------------------

OTHERS = [("spectator", None), ("player", "t0"), ("player", "t1"), ("bot", "t1")]


def seen_text(frame_or_view) -> str:
    return json.dumps(frame_or_view).casefold()


def nobody_knows_match() -> Match:
    """Two bonuses with bouncebacks in which every typed answer is wrong: a part's answer words are said by
    nobody, so finding them in a frame before the part is over is a leak."""
    m = first_part_read(bounceback=True)
    answer_part(m, "h0", right=False)
    answer_part(m, "h2", right=False)
    m.read_part(at=m.now + 1000)
    m.advance()
    m.advance()
    m.read_part(at=m.now + 1000)
    answer_part(m, "h0", right=False, verdict="prompt")
    answer_part(m, "h0", right=False)
    m.send("undo", MOD, at=m.now + 500)
    m.rule_part("accept", at=m.now + 500)
    next_question(m)
    get_tossup(m, "bot")
    m.read_part(at=m.now + 1000)
    return m


def test_no_part_answer_or_unread_part_reaches_anyone_but_the_moderator_before_its_time():
    m = nobody_knows_match()
    events = [dict(e, seq=i) for i, e in enumerate(m.events, 1)]
    states, state = [], None
    for event in events:
        state = fold([event]) if state is None else fold_on(state, event)
        states.append(state)
    for number, index in ((1, 0), (2, 1)):
        heard = m.state.bonuses[index]
        started = next(e["seq"] for e in events if e["type"] == "bonus_started" and e["data"]["number"] == number)
        for k, part in enumerate(heard.parts):
            main = clean_answer(part["answer"]).casefold()
            directive = part["answer"].split("[accept ")[1].rstrip("]").casefold()
            unread = part["text"].split()[2].casefold()
            read = next((e["seq"] for e in events if e["type"] == "bonus_part_read" and e["data"]["number"] == number
                         and e["data"]["part"] == k), len(events) + 1)
            over = next((e["seq"] for e in events if e["type"] == "bonus_part_ruled" and e["data"]["number"] == number
                         and e["data"]["part"] == k and "answer" in e["data"]), len(events) + 1)
            for audience, team in OTHERS:
                for event, state in zip(events, states):
                    frame, view = project(event, audience, team), snapshot(state, audience, team)
                    assert directive not in seen_text(frame) and directive not in seen_text(view)
                    if event["seq"] < over:
                        assert main not in seen_text(frame) and main not in seen_text(view), \
                            f"{audience} {team}: part {k + 1}'s answer before it was over (seq {event['seq']})"
                    if event["seq"] < read:
                        assert unread not in seen_text(frame) and unread not in seen_text(view)
                    if event["seq"] == over:
                        assert frame["data"]["answer"] == clean_answer(part["answer"])
            assert main in seen_text(snapshot(states[started - 1], "moderator"))  # the moderator's from the start
            assert directive in seen_text(snapshot(states[started - 1], "moderator"))


def fold_on(state, event):
    from game.engine.api import apply
    return apply(state, event)


def test_the_bonus_a_player_sees_is_the_one_the_log_folds_to():
    m = played_quizbowl_bonus()
    assert fold(m.events).scores == m.scores
    changes = {}
    for event in m.events:
        for team, points in event["data"].get("score_changes", {}).items():
            changes[team] = changes.get(team, 0) + points
    assert changes == m.scores
    folded = fold(m.events)
    assert snapshot(folded, "player", "t0") == snapshot(m.state, "player", "t0")


def test_a_tossup_whose_bonus_was_played_keeps_its_ruling_a_dead_one_may_still_be_overridden():
    m = bonus_match(questions=2)
    m.start(0)
    get_tossup(m, "h0")
    tossup = m.state.next_ruling_id - 1
    for right in (True, True, True):
        m.read_part(at=m.now + 1000)
        answer_part(m, "h0", right)
    next_question(m)
    m.reveal_until(4)
    m.attempt("h2", "a guess", "reject")
    kill_tossup(m)
    dead = m.state.next_ruling_id - 1
    next_question(m)
    assert m.state.status == "finished"
    refused = m.refuse("override", MOD, {"ruling": tossup, "verdict": "reject", "confirm": True})
    assert refused.code == "bonus_played" and "Adjust the score" in str(refused)
    m.send("override", MOD, {"ruling": dead, "verdict": "accept", "confirm": True}, at=m.now + 1000)
    assert m.scores == {"t0": 40, "t1": 15}  # the tossup's points, and no bonus after the fact
