"""Bonus counting over a match's events (the bonus events' contract, /work/briefs/bonus-events.md):
bonuses heard go to the controlling team, its parts' points make its PPB, bouncebacks count apart, an
undone part ruling and a thrown-out tossup's bonus count nothing, and a log without bonuses counts none."""
from game.archive.bonus_stats import bonus_lines


def started(number, team, index=0):
    return {"type": "bonus_started", "data": {"number": number, "index": index, "team": team, "leadin": "For 10 each:",
                                              "values": [10, 10, 10]}}


def ruled(rid, number, part, team, verdict, points, bounce=False):
    return {"type": "bonus_part_ruled", "data": {
        "id": rid, "number": number, "part": part, "team": team, "seat": None, "text": None, "heard": None,
        "verdict": verdict, "points": points, "score_changes": {team: points} if points else {}, "bounce": bounce,
        "by": "moderator", "answered": None, "deadline": None}}


def ended(number, points):
    return {"type": "bonus_ended", "data": {"number": number, "index": 0, "team": "t0", "points": points}}


def test_a_log_without_bonuses_counts_none():
    log = [{"type": "match_created", "data": {}}, {"type": "ruling", "data": {"id": 1, "points": 10}}]
    assert bonus_lines(log) == {}


def test_bonus_points_go_to_the_controlling_team_and_bouncebacks_apart():
    log = [started(1, "t0"), ruled(1, 1, 0, "t0", "accept", 10), ruled(2, 1, 1, "t0", "reject", 0),
           ruled(3, 1, 1, "t1", "accept", 10, bounce=True), ruled(4, 1, 2, "t0", "accept", 10),
           ended(1, {"t0": 20, "t1": 10}),
           started(2, "t1", 1), ruled(5, 2, 0, "t1", "prompt", 0), ruled(6, 2, 0, "t1", "accept", 10),
           ruled(7, 2, 1, "t1", "reject", 0), ruled(8, 2, 2, "t1", "reject", 0), ended(2, {"t1": 10})]
    lines = bonus_lines(log)
    assert (lines["t0"].heard, lines["t0"].points, lines["t0"].bounceback_points) == (1, 20, 0)
    assert (lines["t1"].heard, lines["t1"].points, lines["t1"].bounceback_points) == (1, 10, 10)
    assert lines["t0"].ppb == 20 and lines["t1"].ppb == 10


def test_an_undone_part_ruling_and_a_thrown_out_tossups_bonus_count_nothing():
    log = [started(1, "t0"), ruled(1, 1, 0, "t0", "accept", 10),
           {"type": "undo", "data": {"ruling": 1, "number": 1, "score_changes": {"t0": -10}}},
           ruled(2, 1, 0, "t0", "reject", 0), ruled(3, 1, 1, "t0", "accept", 10), ruled(4, 1, 2, "t0", "accept", 10),
           ended(1, {"t0": 20}),
           started(2, "t1"), ruled(5, 2, 0, "t1", "accept", 10),
           {"type": "question_thrown_out", "data": {"number": 2, "index": 3, "score_changes": {}, "reason": "",
                                                     "public": False}},
           started(2, "t0", 1), ruled(6, 2, 0, "t0", "accept", 10)]
    lines = bonus_lines(log)
    assert (lines["t0"].heard, lines["t0"].points) == (2, 30)
    assert lines["t0"].ppb == 15
    assert "t1" not in lines
