"""Two matches played through the engine the way the conductor plays them, with everything a replay
must get right: a neg, a prompt, an undo after the answer was shown, a throw-out and its replacement
(in both formats), a race won by the earlier press that arrived later and one lost, a team phase with chat and a pass,
bot guesses word by word, an override and an adjustment after the final whistle, protests upheld and overturned
(one of them after the final whistle). `live` keeps a pickle of the live state after every command, by seq."""
from __future__ import annotations

import pickle

from game.engine.api import Rejected, apply, decide

from .support import MOD, SYS, Match, part_answer


class Recorded(Match):
    def __init__(self, *args, judged: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.judged = judged  # every typed answer gets the judge's suggestion, as the conductor's follow-up
        self.live = {self.state.seq: pickle.dumps(self.state)}

    def send(self, *args, **kwargs):
        events = super().send(*args, **kwargs)
        self.live[self.state.seq] = pickle.dumps(self.state)
        if self.judged:
            first = self.state.seq - len(events) + 1
            for seq, event in enumerate(events, first):
                if event["type"] in ("answer", "submission", "bonus_answered"):
                    events = events + self.send("judge", SYS, judgement(event, seq))
        return events

    def attempt(self, seat: str, text: str, verdict: str, lag: int = 100):
        """A buzz `lag` ms from now, the answer, and the moderator's ruling."""
        self.buzz(seat, at=self.now + lag)
        self.answer(seat, text)
        return self.rule(verdict, at=self.now + 300)

    def race(self, seat: str, seen: int, pressed: int, received: int, rtt: int = 200):
        """A person's buzz with the press time its phone claims, as the web layer forwards it (with the round
        trip it measured); a refusal kept on the record (a lost race) is stored as the conductor stores it."""
        command = {"type": "buzz", "actor": self.actor(seat), "data": {"seen": seen, "pressed": pressed},
                   "received": received, "clock": {"rtt": rtt, "seen_at": received - 300}}
        self.now = max(self.now, received)
        try:
            events = decide(self.state, command, self.now)
        except Rejected as refusal:
            events = refusal.events
        for event in events:
            self.state = apply(self.state, event)
        self.events.extend(events)
        self.live[self.state.seq] = pickle.dumps(self.state)
        return events

    def answer_part(self, seat: str, text: str | None, verdict: str):
        """A team's answer to the bonus part in play (None: the right one) and the moderator's ruling of it."""
        self.bonus_answer(seat, part_answer(self.state) if text is None else text, at=self.now + 1000)
        return self.rule_part(verdict, at=self.now + 500)

    def guess(self, seat: str, confidence: float, buzz: bool = False):
        # Words nobody types in these matches, new on each report: finding them on a screen means the
        # screen saw that very guess.
        guess, other = f"Zebulon {seat} {confidence:.2f}", f"Placid {seat} {confidence:.2f}"
        return self.send("bot_guess", seat, {"guess": guess, "confidence": confidence, "buzz": buzz,
                                             "alternatives": [[guess, confidence], [other, confidence / 2]],
                                             "threshold": 0.5})


def judgement(event: dict, seq: int) -> dict:
    """A judge's suggestion for an answer or submission event numbered seq (what game/runner.py sends)."""
    d = event["data"]
    verdict = "accept" if d["text"] in ("Isaac Newton", "tesla coil") else "reject"
    return {"for": seq, "seat": d["seat"], "team": d["team"], "text": d["text"], "verdict": verdict,
            "confidence": 0.9, "reason": f"{verdict}: made up for the test", "matched": None, "prompt_question": None}


def played_quizbowl(hall_bot_guesses: str = "after_humans", judged: bool = False) -> Recorded:
    m = Recorded("quizbowl", {"questions": 3, "tiebreakers": 0, "hall_bot_guesses": hall_bot_guesses},
                 reserve=3, length=12, power_after=5, judged=judged)
    m.start(0)
    # Q1: Ann negs early, the bot gets it.
    m.reveal_until(2)
    m.guess("bot", 0.2)
    m.reveal_until(3)
    m.guess("bot", 0.35)
    m.attempt("h0", "the moon", "reject")
    m.reveal_until(6)
    m.guess("bot", 0.7, buzz=True)
    m.attempt("bot", "Isaac Newton", "accept", lag=10)
    m.send("next", MOD, at=m.now + 2000)
    # Q2: Cho is prompted, then ruled right; the moderator undoes it and rules it wrong; dead.
    m.reveal_until(4)
    m.buzz("h2", at=m.now + 50)
    m.answer("h2", "maybe gravity")
    m.rule("prompt", at=m.now + 200)
    m.answer("h2", "gravity")
    m.rule("accept", at=m.now + 200)
    m.send("undo", MOD, at=m.now + 1000)
    m.rule("reject", at=m.now + 200)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 2000)
    # Q3: thrown out after a few words; the replacement is answered by Ben.
    m.reveal_until(2)
    m.send("throw_out", MOD, {"reason": "misread", "public": True}, at=m.now + 100)  # said to the room
    m.reveal_until(5)
    # A race: Cho's buzz arrives first, but Ben pressed 30 ms earlier on a slower link and takes the floor;
    # Cho presses again, 190 ms after Ben: a close race lost, which the hall is told of.
    t = m.now
    m.race("h2", 5, pressed=t + 40, received=t + 60)
    m.race("h1", 5, pressed=t + 10, received=t + 120)
    m.race("h2", 5, pressed=t + 200, received=t + 230)
    m.answer("h1", "tesla coil")
    m.rule("accept", at=m.now + 300)
    # Cho protests Ben's answer; the moderator upholds the ruling, saying why to the room.
    m.send("protest", "h2", {"ruling": m.state.next_ruling_id - 1, "text": "Zebulon says a coil is not enough"},
           at=m.now + 1000)
    m.send("resolve_protest", MOD, {"protest": 1, "outcome": "upheld", "reason": "the line accepts it", "public": True},
           at=m.now + 3000)
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished"
    # After the whistle: Ann's neg is overridden to correct, and a protest adds points.
    m.send("override", MOD, {"ruling": 1, "verdict": "accept", "confirm": True, "reason": "heard it wrong"},
           at=m.now + 5000)
    m.send("adjust", MOD, {"team": "t1", "points": 5, "reason": "protest upheld", "public": True, "confirm": True},
           at=m.now + 1000)
    return m


def played_efficientqa(hall_bot_guesses: str = "after_humans", judged: bool = False) -> Recorded:
    m = Recorded("efficientqa", {"questions": 2, "tiebreakers": 0, "hall_bot_guesses": hall_bot_guesses},
                 reserve=3, length=9, power_after=None, judged=judged)
    m.start(0)
    # Q1: both sides miss in phase 1; in phase 2 the humans chat, submit wrong, the 6 GiB bot is right.
    m.reveal_until(3)
    m.guess("b500", 0.3)
    m.attempt("h0", "the moon", "reject")
    m.send("protest", "h0", {"ruling": 1, "text": "Zebulon: the moon is right"}, at=m.now + 500)  # still phase 1
    m.reveal_until(5)
    m.guess("b500", 0.6, buzz=True)
    m.attempt("b500", "Isaac Newton", "reject", lag=10)
    assert m.q.mode == "team"
    m.send("chat", "h1", {"text": "surely gravity"}, at=m.now + 1000)
    m.guess("b6", 0.8)
    m.submit("b6", "tesla coil", at=m.now + 500)
    m.submit("h0", "gravity", at=m.now + 2000)
    m.rule("accept", at=m.now + 500)
    m.send("undo", MOD, at=m.now + 800)  # pressed by mistake: the humans' answer was wrong
    m.rule("reject", at=m.now + 500)
    m.rule("accept", at=m.now + 500)
    # Ann's protest is overturned once the question is over: her answer was right, the bot's is withdrawn.
    m.send("resolve_protest", MOD, {"protest": 1, "outcome": "overturned", "reason": "the moon is on the line"},
           at=m.now + 1000)
    m.send("next", MOD, at=m.now + 2000)
    # Q2 is thrown out two words in; its replacement keeps the number.
    m.reveal_until(2)
    m.send("throw_out", MOD, {"reason": "two answers"}, at=m.now + 200)
    assert m.q.number == 2 and m.state.history[-1]["thrown_out"]
    # The new Q2 (computer priority): nobody buzzes; phase 2 both pass; phase 3 the big bot's answer is ruled
    # wrong while the humans still discuss (the hall does not hear it yet), the humans are ruled right, and
    # that is overridden to wrong.
    while m.q.phase == 0:
        m.tick(m.now + 500)
    m.send("pass", "h2", at=m.now + 1000)
    m.send("pass", "h0", at=m.now + 1000)
    assert m.q.phase == 2
    m.submit("bunl", "Zebulon big answer", at=m.now + 100)
    m.rule("reject", at=m.now + 500)
    m.send("protest", "h2", {"ruling": m.state.next_ruling_id - 1, "text": "our big bot was right"},
           at=m.now + 200)
    m.submit("h0", "ok go", at=m.now + 3000)
    m.rule("accept", at=m.now + 500)
    m.send("override", MOD, {"ruling": m.state.next_ruling_id - 1, "verdict": "reject"}, at=m.now + 500)
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished"
    m.send("adjust", MOD, {"team": "t0", "points": 1, "reason": "appeal", "confirm": True}, at=m.now + 1000)
    # After the final whistle the computer's protest is overturned, confirmed as a correction.
    m.send("resolve_protest", MOD, {"protest": 2, "outcome": "overturned", "reason": "a fair reading",
                                    "public": True, "confirm": True}, at=m.now + 1000)
    return m


def played_quizbowl_bonus(hall_bot_guesses: str = "after_humans", judged: bool = False) -> Recorded:
    """Tossups and bonuses with bouncebacks: every way a part ends, a prompt, an undo after a part's answer was
    shown, a bot answering for its team, a throw-out, a dead tossup (no bonus) and a correction after the final."""
    m = Recorded("quizbowl_bonus", {"questions": 3, "tiebreakers": 0, "hall_bot_guesses": hall_bot_guesses,
                                    "bounceback": True}, reserve=3, length=12, power_after=5, judged=judged)
    m.start(0)
    # Q1: Ann gets the tossup; her team's bonus: part 1 right, part 2 missed and bounced to Cho (prompted,
    # then right), part 3 runs out of time for both teams; the last ruling is undone and ruled again.
    m.reveal_until(3)
    m.guess("bot", 0.3)
    m.attempt("h0", "Isaac Newton", "accept")
    m.read_part(at=m.now + 1500)
    m.send("chat", "h1", {"text": "Zebulon knows this one"}, at=m.now + 500)
    m.answer_part("h0", None, "accept")
    m.read_part(at=m.now + 1500)
    for seat, text, verdict in (("h0", "the moon", "reject"), ("h2", "maybe gravity", "prompt"), ("h2", None, "accept")):
        m.answer_part(seat, text, verdict)
    m.read_part(at=m.now + 1500)
    while m.q.bonus is not None and not m.q.bonus["ended"]:
        m.advance()
    m.send("undo", MOD, at=m.now + 1000)
    m.rule_part("reject", at=m.now + 500, heard="they said nothing")
    m.send("next", MOD, at=m.now + 2000)
    # Q2: Ann negs; the bot gets it, and answers its team's first part; Cho misses the second, Ann misses the
    # bounceback; Cho gets the third. Ann protests the bot's tossup; it is upheld.
    m.reveal_until(3)
    m.attempt("h0", "the moon", "reject")
    m.reveal_until(7)
    m.guess("bot", 0.7, buzz=True)
    m.attempt("bot", "Isaac Newton", "accept", lag=10)
    bots_tossup = m.state.next_ruling_id - 1
    for turns in ((("bot", None, "accept"),), (("h2", "tesla coil", "reject"), ("h0", "Zebulon guess", "reject")),
                  (("h2", None, "accept"),)):
        m.read_part(at=m.now + 1500)
        for seat, text, verdict in turns:
            m.answer_part(seat, text, verdict)
    m.send("protest", "h0", {"ruling": bots_tossup, "text": "Zebulon says the bot was late"},
           at=m.now + 500)
    m.send("resolve_protest", MOD, {"protest": 1, "outcome": "upheld", "reason": "it was in time"}, at=m.now + 1000)
    m.send("next", MOD, at=m.now + 2000)
    # Q3: thrown out; its replacement is missed by Ann and goes dead: no bonus.
    m.reveal_until(2)
    m.send("throw_out", MOD, {"reason": "misread", "public": True}, at=m.now + 100)
    m.reveal_until(4)
    m.attempt("h0", "a guess", "reject")
    m.play_to_close()
    assert m.q.bonus is None
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished"
    m.send("override", MOD, {"ruling": m.state.next_ruling_id - 1, "verdict": "accept", "confirm": True,
                             "reason": "heard it wrong"}, at=m.now + 5000)
    m.send("adjust", MOD, {"team": "t1", "points": 10, "reason": "a part misheard", "confirm": True}, at=m.now + 1000)
    return m


def played_qanta26(hall_bot_guesses: str = "after_humans", judged: bool = False) -> Recorded:
    """QANTA 2026: Cho's team has two bots beside her. The bots' tossups score by weight class, and on each bonus
    part the controlling team answers on its own, consults its AI or abstains: every decision, a changed mind, an
    undecided answer, an abstention ruled both ways, a prompt on a consulted part, a part run out of time, and a
    bot's tossup overridden to right after the final whistle."""
    m = Recorded("qanta26", {"questions": 4, "tiebreakers": 0, "hall_bot_guesses": hall_bot_guesses},
                 reserve=3, length=12, power_after=5, judged=judged)
    m.start(0)
    # Q1: Cho's lightweight bot gets the tossup (10 x 1.0). Part 1: Cho consults the AI (10 - 1 - 2) and is
    # right; part 2: the moderator records an abstention and nobody was right (1); part 3: Cho decides to
    # consult, then to answer on her own, and is wrong.
    m.reveal_until(7)
    m.guess("b500", 0.8, buzz=True)
    m.attempt("b500", "Isaac Newton", "accept", lag=10)
    m.read_part(at=m.now + 1500)
    m.decide_part("h2", "consult", at=m.now + 500)
    m.answer_part("h2", None, "accept")
    m.read_part(at=m.now + 1500)
    m.decide_part(MOD, "abstain", at=m.now + 500)
    m.rule_part("accept", at=m.now + 2000)
    m.read_part(at=m.now + 1500)
    m.decide_part("h2", "consult", at=m.now + 500)
    m.decide_part("h2", "own", at=m.now + 500)
    m.answer_part("h2", "the moon", "reject")
    m.send("next", MOD, at=m.now + 2000)
    # Q2: Ann negs (-5, a person's neg); Cho's midweight bot gets it (10 x 0.8). Part 1: Cho abstains, but the
    # moderator finds somebody was right (0); part 2: Cho answers without deciding (own, 10); part 3: Cho
    # consults (10 - 3), is prompted, then right. Ann protests the bot's tossup; it is upheld.
    m.reveal_until(3)
    m.attempt("h0", "the moon", "reject")
    m.reveal_until(8)
    m.attempt("b6", "Isaac Newton", "accept", lag=10)
    bots_tossup = m.state.next_ruling_id - 1
    m.read_part(at=m.now + 1500)
    m.decide_part("h2", "abstain", at=m.now + 500)
    m.rule_part("reject", at=m.now + 2000)
    m.read_part(at=m.now + 1500)
    m.answer_part("h2", None, "accept")
    m.read_part(at=m.now + 1500)
    m.decide_part("h2", "consult", at=m.now + 500)
    m.answer_part("h2", "maybe gravity", "prompt")
    m.answer_part("h2", None, "accept")
    m.send("protest", "h0", {"ruling": bots_tossup, "text": "the bot buzzed late"}, at=m.now + 500)
    m.send("resolve_protest", MOD, {"protest": 1, "outcome": "upheld", "reason": "it was in time"}, at=m.now + 1000)
    m.send("next", MOD, at=m.now + 2000)
    # Q3: thrown out; Ben gets its replacement (a person: 10); his team, with no AI, consults on part 1 (10 - 0)
    # and runs out of time, then the moderator undoes that and rules it right after all; the other parts run out.
    m.reveal_until(2)
    m.send("throw_out", MOD, {"reason": "misread"}, at=m.now + 100)
    m.reveal_until(8)
    m.attempt("h1", "Isaac Newton", "accept")
    m.read_part(at=m.now + 1500)
    m.decide_part("h0", "consult", at=m.now + 500)
    m.advance()
    m.send("undo", MOD, at=m.now + 1000)
    m.rule_part("accept", at=m.now + 500, heard="they said it late")
    while m.q.bonus is not None and not m.q.bonus["ended"]:
        if m.q.stage.value == "bonus_ready":
            m.read_part(at=m.now + 1500)
        else:
            m.advance()
    m.send("next", MOD, at=m.now + 2000)
    # Q4: Cho's midweight bot buzzes after the last word and is ruled wrong; the tossup goes dead (no bonus).
    # After the final whistle the moderator overrides it to right: a bot's tossup, so 8, as it would have scored.
    m.reveal_until(12)
    m.attempt("b6", "tesla coil", "reject", lag=10)
    m.play_to_close()
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished"
    m.send("override", MOD, {"ruling": m.state.next_ruling_id - 1, "verdict": "accept", "confirm": True,
                             "reason": "the coil was on the line"}, at=m.now + 5000)
    m.send("adjust", MOD, {"team": "t0", "points": 1, "reason": "an abstention misruled", "confirm": True},
           at=m.now + 1000)
    return m


PLAYED = {"quizbowl": played_quizbowl, "efficientqa": played_efficientqa, "quizbowl_bonus": played_quizbowl_bonus,
          "qanta26": played_qanta26}
