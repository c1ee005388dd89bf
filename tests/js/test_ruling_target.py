"""The console's ruling keys (static/js/ruling-target.js), run under Node on the moderator's frames of a
team phase: the buttons name the side whose answer they rule ("Accept Humans' answer"), and A / P / R name
the answer the console shows by its seq, which moves to a captain's submission the moment it arrives, so a
key pressed after it names it (and one pressed before names what the floor held then, which the engine
refuses: tests/engine/test_ruling_names.py). In a bonus they name the part in play too, and the team that may
answer it (the other team on a bounceback)."""
import json
import shutil
import subprocess

from game.engine.api import project
from tests.conftest import need_service
from tests.engine.played import played_quizbowl_bonus
from tests.engine.test_efficientqa import new_match, to_phase
from tests.servers import ROOT

HARNESS = ROOT / "tests" / "js" / "ruling_target.mjs"


def run(events: list[dict], tmp_path) -> dict:
    node = shutil.which("node")
    need_service(node is not None, "Node.js is not installed (it runs the console's code in tests)")
    frames = [project(dict(e, seq=i), "moderator") for i, e in enumerate(events, 1)]
    path = tmp_path / "frames.json"
    path.write_text(json.dumps({"frames": frames}))
    done = subprocess.run([node, str(HARNESS), str(ROOT), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_keys_name_the_answer_shown_and_the_buttons_the_side_they_rule(tmp_path):
    m = new_match()
    m.reveal_until(3)
    m.buzz("h2")  # Cho, of the computer's team
    m.answer("h2", "the moon")
    m.rule("reject")
    to_phase(m, 2)
    m.submit("b6", "Quvexo Pilandre")  # the computer's answer is in; the humans hold the floor
    m.submit("h0", "Mars")  # the humans' captain
    m.rule("reject")  # the floor passes to the computer's answer
    got = run(m.events, tmp_path)

    def at(kind: str, nth: int = 0) -> dict:
        return [step for step in got["out"] if step["type"] == kind][nth]

    assert at("word_revealed")["shown"] is None and at("word_revealed")["labels"] == ["Accept", "Prompt", "Reject"]
    buzz, answer = at("buzz"), at("answer")
    assert buzz["shown"] == {"team": "t1", "seq": buzz["seq"]}
    assert answer["data"] == {"verdict": "accept", "answer": answer["seq"]}
    assert answer["labels"] == ["Accept Computer's answer", "Prompt Computer's answer", "Reject Computer's answer"]
    phase2 = at("phase_started", 1)
    assert phase2["shown"] == {"team": "t0", "seq": phase2["seq"]}  # the humans' floor, nothing typed yet
    computer, humans = at("submission", 0), at("submission", 1)
    assert computer["shown"] == phase2["shown"], "the other side's answer does not change what the keys rule"
    assert humans["shown"] == {"team": "t0", "seq": humans["seq"]}, "the captain's answer is what they rule now"
    assert humans["labels"][0] == "Accept Humans' answer"
    ruled = at("ruling", -1)
    assert ruled["shown"] == {"team": "t1", "seq": computer["seq"]}  # the computer's answer, on the floor now
    assert ruled["labels"][2] == "Reject Computer's answer"
    assert got["names"] == ["Humans'", "Computer's", "Ann's", "The Brains'", "BOTS'"]


def test_in_a_bonus_the_keys_rule_the_part_in_play_and_the_answer_the_console_shows(tmp_path):
    """Part 2 of question 1's bonus: the Humans miss it, it bounces to the Computer's team, whose answer is
    prompted and then accepted. At every step the keys name the part and the answer on the console; once
    the part is over they rule nothing until the next part is read."""
    m = played_quizbowl_bonus()
    got = run(m.events, tmp_path)["out"]
    steps = [dict(step, event=event["data"]) for step, event in zip(got, m.events)]
    start = next(i for i, s in enumerate(steps) if s["type"] == "bonus_started")
    assert steps[start]["shown"] is None, "nothing to rule before a part is read"
    reads = [s for s in steps[start:] if s["type"] == "bonus_part_read"]
    assert reads[0]["shown"] == {"team": "t0", "seq": reads[0]["seq"], "part": 0}, "a spoken answer is ruled from the reading on"
    second = steps.index(reads[1])
    answered, missed, bounced, prompted, again, accepted = (
        [s for s in steps[second:] if s["type"] in ("bonus_answered", "bonus_part_ruled")][:6])
    assert answered["shown"] == {"team": "t0", "seq": answered["seq"], "part": 1}
    assert answered["data"] == {"verdict": "accept", "answer": answered["seq"], "part": 1}
    assert answered["labels"] == ["Accept Humans' answer to part 2", "Prompt Humans' answer to part 2",
                                  "Reject Humans' answer to part 2"]
    assert missed["event"]["deadline"]["kind"] == "bounce"
    assert missed["shown"] == {"team": "t1", "seq": missed["seq"], "part": 1}, "the bounceback is the other team's to answer"
    assert missed["labels"][2] == "Reject Computer's answer to part 2"
    assert bounced["type"] == "bonus_answered" and bounced["shown"] == {"team": "t1", "seq": bounced["seq"], "part": 1}
    assert prompted["event"]["verdict"] == "prompt" and prompted["shown"] == {"team": "t1", "seq": prompted["seq"], "part": 1}
    assert again["shown"] == {"team": "t1", "seq": again["seq"], "part": 1}, "the answer to the prompt is what the keys rule"
    assert accepted["event"]["verdict"] == "accept" and "answer" in accepted["event"]
    assert accepted["shown"] is None and accepted["labels"] == ["Accept", "Prompt", "Reject"]
