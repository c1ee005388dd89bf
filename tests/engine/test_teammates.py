"""AI teammates: a bot on a human team with a buzz mode, and what each human sees of it.

Stated from the humans' side: a bot's guess never reaches a human who can still score against it, and a
team's own bot's guess reaches that team exactly when the rules let it consult the bot (a team phase; a
bonus part it controls). A semi bot buzzes only when a human teammate presses its buzzer, and its answer is
then the team's, ruled and scored as the team's.
"""
from __future__ import annotations

import json

import pytest

from game.engine import bot_turns
from game.engine.api import Rejected, create_match, fold, make_rules, project, snapshot
from game.engine.seat_table import TIER_WEIGHT

from .support import MIXED_TEAMS, MOD, Match, efficientqa_seats, make_questions, quizbowl_seats, seat, teammate

GUESS = "Zebulon Quartermaine"  # a bot's guess no question, team or seat name contains


def mixed(preset: str = "quizbowl", mode: str = "semi", k: int = 1, tier: str = "500mib", **rules) -> Match:
    seats = (efficientqa_seats() if preset == "efficientqa" else quizbowl_seats()) + [teammate(mode, tier, k)]
    return Match(preset, {"questions": 2, "tiebreakers": 0, **rules}, seats=seats, teams=MIXED_TEAMS)


def frames(m: Match, event: dict) -> dict:
    event = dict(event, seq=m.state.seq)
    return {who: project(event, audience, team) for who, (audience, team) in
            {"own": ("player", "t0"), "rival": ("player", "t1"), "hall": ("spectator", None)}.items()}


def guess(m: Match, seat_id: str = "mate", text: str = GUESS) -> dict:
    return m.send("bot_guess", seat_id, {"guess": text, "confidence": 0.9, "buzz": True})[0]


# -- the seat's settings ----------------------------------------------------------------------------------

def test_a_bot_seat_gets_its_buzz_mode_and_a_weight_class_from_its_tier_unless_the_host_names_one():
    seats = quizbowl_seats() + [teammate("after_k", "6gib", k=4), dict(teammate("muted", id="m2"), weight_class="heavyweight")]
    m = Match("quizbowl", seats=seats, teams=MIXED_TEAMS)
    mate, other, computer = m.state.seats["mate"], m.state.seats["m2"], m.state.seats["bot"]
    assert (mate["buzz_mode"], mate["buzz_after"], mate["weight_class"]) == ("after_k", 4, "midweight")
    assert other["weight_class"] == "heavyweight"  # the host's, not the 500mib tier's lightweight
    assert (computer["buzz_mode"], computer["buzz_after"], computer["weight_class"]) == ("autonomous", 1, "lightweight")
    assert "buzz_mode" not in m.state.seats["h0"]  # a person's seat has no bot settings
    assert TIER_WEIGHT == {"500mib": "lightweight", "6gib": "midweight", "unlimited": "heavyweight"}


@pytest.mark.parametrize("settings,said", [({"buzz_after": 0}, "after k words must be a whole number from 1"),
                                           ({"buzz_mode": "loud"}, "buzz mode must be one of"),
                                           ({"weight_class": "feather"}, "weight class must be one of")])
def test_a_bot_seat_setting_out_of_range_is_refused_saying_which(settings, said):
    rules = make_rules("quizbowl")
    seats = quizbowl_seats() + [dict(teammate("semi"), **settings)]
    with pytest.raises(Rejected, match=said) as refused:
        create_match(rules, MIXED_TEAMS, seats, make_questions(3, "tossup"), 0)
    assert "'Robo'" in str(refused.value)


def test_a_log_from_before_the_settings_folds_its_bots_as_they_played_then():
    m = Match("quizbowl")
    created = json.loads(json.dumps(m.events[0]))
    for s in created["data"]["seats"]:
        for key in ("buzz_mode", "buzz_after", "weight_class"):
            s.pop(key, None)
    state = fold([created])
    assert (state.seats["bot"]["buzz_mode"], state.seats["bot"]["weight_class"]) == ("autonomous", "lightweight")
    shown = project(dict(created, seq=1), "spectator")["data"]["seats"]
    assert next(s for s in shown if s["id"] == "bot")["buzz_after"] == 1  # the browser folds the same seats


# -- buzz modes -------------------------------------------------------------------------------------------

def test_a_muted_bot_never_buzzes_and_a_semi_bot_never_buzzes_by_itself():
    for mode, said in (("muted", "muted: it never buzzes"), ("semi", "only when a teammate presses")):
        m = mixed(mode=mode)
        m.start(0)
        m.reveal_until(3)
        assert said in m.refuse("buzz", "mate").args[0]
        act = {"guess": GUESS, "confidence": 0.9, "buzz": True, "alternatives": []}
        assert bot_turns.reply_to(m.state, m.actor("mate"), act).buzz_in_ms is None


def test_autonomous_after_k_words_counts_only_a_buzz_decided_from_word_k_on():
    m = mixed(mode="after_k", k=4)
    m.start(0)
    m.reveal_until(5)
    assert "from word 4 on" in m.refuse("buzz", "mate", {"seen": 3}).args[0]  # decided on 3 words: does not count
    m.send("buzz", "mate", {"seen": 4})
    assert m.q.possession["seat"] == "mate"


def test_a_human_buzzes_for_the_semi_bot_and_its_answer_is_ruled_for_the_team():
    m = mixed(mode="semi")
    m.start(0)
    m.reveal_until(4)
    buzz = m.send("buzz_for", "h1", {"bot": "mate", "seen": 4}, at=m.now + 30)[-1]
    assert buzz["type"] == "buzz" and buzz["data"]["seat"] == "mate" and buzz["data"]["by"] == "h1"
    assert frames(m, buzz)["rival"]["data"]["by"] == "h1"  # the room sees who pressed for the bot
    assert bot_turns.may_act(m.state, "mate")  # the conductor asks it now: its answer is due
    act = {"guess": "Quvexo", "confidence": 0.3, "buzz": False, "alternatives": []}
    reply = bot_turns.reply_to(m.state, m.actor("mate"), act)
    assert reply.now == {"type": "answer", "data": {"text": "Quvexo"}, "actor": m.actor("mate")}
    m.send(**reply.now)
    assert m.refuse("answer", "h1", {"text": "something else"}).code == "not_your_buzz"  # the bot's answer is the team's
    m.rule("accept")
    result = m.state.history[-1]["result"]
    assert (result["seat"], result["team"]) == ("mate", "t0") and m.scores == {"t0": result["points"], "t1": 0}
    assert result["points"] in (10, 15)  # points or power, as any buzz of the team's scores


def test_a_semi_bot_with_no_answer_passes_and_its_team_is_locked_out():
    m = mixed(mode="semi")
    m.start(0)
    m.reveal_until(4)
    m.send("buzz_for", "h0", {"bot": "mate"})
    reply = bot_turns.reply_to(m.state, m.actor("mate"), {"guess": "", "confidence": 0, "buzz": False, "alternatives": []})
    m.send(**reply.now)
    assert "t0" in m.q.locked and m.q.possession is None


@pytest.mark.parametrize("presser,bot,code", [("h2", "mate", "forbidden"),  # a rival pressing our bot
                                              ("h0", "bot", "forbidden"),  # pressing the computer's bot
                                              ("h0", "h1", "bad_seat")])  # a person is not a bot
def test_a_player_may_buzz_only_for_a_bot_on_their_own_team(presser, bot, code):
    m = mixed(mode="semi")
    m.start(0)
    m.reveal_until(3)
    assert m.refuse("buzz_for", presser, {"bot": bot}).code == code


@pytest.mark.parametrize("mode", ["autonomous", "after_k", "muted"])
def test_a_player_may_buzz_only_for_a_semi_bot(mode):
    m = mixed(mode=mode)
    m.start(0)
    m.reveal_until(3)
    assert m.refuse("buzz_for", "h0", {"bot": "mate"}).code == "not_semi"


def test_a_bot_cannot_press_for_a_bot():
    m = mixed(mode="semi", tier="500mib")
    m.start(0)
    m.reveal_until(3)
    assert m.refuse("buzz_for", "mate", {"bot": "mate"}).code == "forbidden"


def test_a_press_for_the_bot_races_like_any_buzz_and_loses_to_an_earlier_rival():
    m = mixed(mode="semi")
    m.start(0)
    m.reveal_until(4)
    m.buzz("h2", at=m.now + 10)
    refused = m.refuse("buzz_for", "h0", {"bot": "mate"}, at=m.now + 20)
    assert refused.code == "beaten" and m.q.possession["seat"] == "h2"


# -- who sees the bot's guess -------------------------------------------------------------------------------

def test_in_a_buzz_phase_nobody_in_the_room_sees_a_teammate_bots_guess_not_even_its_team():
    m = mixed(mode="semi")
    m.start(0)
    m.reveal_until(3)
    event = guess(m)
    assert event["data"]["held"] is True and "consult" not in event["data"]
    assert {who: f["type"] for who, f in frames(m, event).items()} == {"own": "hidden", "rival": "hidden", "hall": "hidden"}
    for team in ("t0", "t1"):
        assert GUESS not in json.dumps(snapshot(m.state, "player", team))
    assert snapshot(m.state, "moderator")["question"]["bot_guesses"]["mate"]["guess"] == GUESS


def to_team_phase(m: Match) -> Match:
    m.start(0)
    while m.q.mode != "team":
        m.advance()
    return m


def test_in_a_team_phase_the_team_consults_its_own_bot_and_nobody_else_sees_it():
    m = to_team_phase(mixed("efficientqa", mode="muted", tier="6gib"))
    event = guess(m)
    assert event["data"]["held"] is True and event["data"]["consult"] is True
    seen = frames(m, event)
    assert seen["own"]["type"] == "bot_guess" and seen["own"]["data"]["guess"] == GUESS
    assert seen["rival"]["type"] == "hidden" and seen["hall"]["type"] == "hidden"
    own, rival = snapshot(m.state, "player", "t0")["question"], snapshot(m.state, "player", "t1")["question"]
    assert own["bot_guesses"]["mate"]["guess"] == GUESS and own["bot_cards"]["mate"]["guess"] == GUESS
    assert GUESS not in json.dumps(rival) and GUESS not in json.dumps(snapshot(m.state, "spectator"))
    # The bot on a human team does not answer for it: the captain does, having consulted it.
    act = {"guess": GUESS, "confidence": 0.9, "buzz": True, "alternatives": []}
    assert bot_turns.reply_to(m.state, m.actor("mate"), act) == bot_turns.Reply()


def test_a_format_that_says_no_consulting_keeps_the_teams_own_bot_from_it_too():
    m = to_team_phase(mixed("efficientqa", mode="muted", tier="6gib", consult_teammate_bots=False))
    event = guess(m)
    assert "consult" not in event["data"] and frames(m, event)["own"]["type"] == "hidden"
    assert GUESS not in json.dumps(snapshot(m.state, "player", "t0"))


def test_the_computers_bot_is_never_consulted_by_anyone():
    m = to_team_phase(mixed("efficientqa", mode="muted", tier="6gib"))
    event = guess(m, "b6")
    assert "consult" not in event["data"]
    assert all(f["type"] == "hidden" for f in frames(m, event).values())


def test_on_a_bonus_part_the_controlling_team_consults_its_bot_and_the_bouncing_team_does_not_see_it():
    m = mixed("quizbowl_bonus", mode="semi", bounceback=True)
    m.start(0)
    m.reveal_until(4)
    m.buzz("h0", at=m.now + 10)
    m.answer("h0", m.state.question.clean_answer)
    m.rule("accept")
    m.send("read_part", MOD, {"part": 0})
    event = guess(m)
    assert event["data"] == {**event["data"], "held": True, "consult": True}
    seen = frames(m, event)
    assert seen["own"]["data"]["guess"] == GUESS and seen["rival"]["type"] == "hidden" and seen["hall"]["type"] == "hidden"
    # Its guess is not its team's answer: the captain says it (or not).
    act = {"guess": GUESS, "confidence": 0.9, "buzz": True, "alternatives": []}
    assert bot_turns.reply_to(m.state, m.actor("mate"), act) == bot_turns.Reply()
    m.bonus_answer("h0", "a wrong thing")
    m.rule_part("reject")  # the part bounces to t1: still no sight of t0's bot's guess
    assert m.q.bonus["bounce"] and GUESS not in json.dumps(snapshot(m.state, "player", "t1"))
    released = m.rule_part("reject")  # the part is over: nobody can score on it any more
    assert any(e["type"] == "bot_guesses_released" for e in released)
    assert snapshot(m.state, "player", "t1")["question"]["bot_guesses"]["mate"]["guess"] == GUESS


def test_no_answer_line_reaches_a_player_before_the_question_closes_with_a_teammate_bot():
    m = to_team_phase(mixed("efficientqa", mode="semi", tier="6gib"))
    line = m.state.question.answer
    guess(m)
    m.submit("h0", "a guess")
    for event in m.events:
        if event["type"] == "question_closed":
            break
        for audience, team in (("player", "t0"), ("player", "t1"), ("spectator", None), ("bot", None)):
            assert line not in json.dumps(project(dict(event, seq=0), audience, team))
    for team in ("t0", "t1"):
        assert line not in json.dumps(snapshot(m.state, "player", team))


def test_a_semi_bot_on_the_computer_team_is_still_the_computers():
    """The modes are per bot seat wherever it sits: a semi bot on the computer's team waits for a press that no
    person may give (nobody sits on that team but its captain, who may)."""
    seats = quizbowl_seats()[:3] + [dict(seat("bot", "t1", "Qbot", kind="bot", tier="500mib"), buzz_mode="semi")]
    m = Match("quizbowl", seats=seats, teams=MIXED_TEAMS)
    m.start(0)
    m.reveal_until(3)
    assert m.refuse("buzz_for", "h0", {"bot": "bot"}).code == "forbidden"
    m.send("buzz_for", "h2", {"bot": "bot"})
    assert m.q.possession["seat"] == "bot"
