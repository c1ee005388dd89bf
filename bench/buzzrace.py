"""How often the earlier presser wins a buzzer race: by corrected press time, beside arrival order.
Prints numbers, never pass/fail.

Simulated phones on 20-300 ms links (each phone's round trip drawn at random, every message with its
own jitter) and a wrong local clock (any offset). Each phone estimates the server's clock as the play
page does (static/js/server-clock.js: 8 ping/pong probes, the offset of the least round trip); the
server measures each phone's round trip from the pings that echo its pongs and notes when it wrote
each word to each socket, with the real game/live/socket_clock.py. Then two people on different teams
press at a set gap after the word reached them, each buzz travels its link, and the real engine
(game/engine/rules.py decide) takes them in the order they arrive: with the phones' press times
(grace window as set), and again with none (arrival order, as before). A trial counts for the
earlier presser when that player holds the floor.

Links: "symmetric" (each direction half the round trip, plus jitter) and "asymmetric" (one
direction up to ASYMMETRY of the one-way time slower than the other: the error no ping exchange can
see, since it shows only the sum).

Run: .venv/bin/python bench/buzzrace.py [--trials 1000] [--grace 150] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from game.engine.api import Rejected, apply, create_match, decide, fold, make_rules  # noqa: E402
from game.live.socket_clock import SocketClock  # noqa: E402

GAPS_MS = (5, 10, 20, 50, 100, 200)
WORDS = 5
PROBES = 8
ASYMMETRY = 0.2
TEXT = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu."


class Phone:
    """One simulated phone: its link, its wrong local clock, its estimate of the server's clock, and
    the server's SocketClock for its socket."""

    def __init__(self, rng: random.Random, asymmetric: bool):
        rtt = rng.uniform(20, 300)
        skew = rng.uniform(-ASYMMETRY, ASYMMETRY) if asymmetric else 0.0
        self.up, self.down = rtt / 2 * (1 + skew), rtt / 2 * (1 - skew)
        self.rng = rng
        self.local_offset = rng.uniform(-10**6, 10**6)  # local clock = server clock + this
        self.server = SocketClock()
        self.estimate = None  # (rtt, offset) of the least round trip, as server-clock.js keeps it

    def jitter(self) -> float:
        return min(self.rng.expovariate(1 / 6), 60)

    def probe(self, start: float) -> float:
        """One probe pair from server time `start`: ping, pong, ping echoing it, pong. Returns when it ended."""
        t = start
        for echo in (False, True):
            sent_local = t + self.local_offset
            at_server = round(t + self.up + self.jitter())
            if echo:
                self.server.pong(at_server, self.echo)
            else:
                self.server.pong(at_server, None)
                self.echo = at_server
            got = at_server + self.down + self.jitter()
            got_local = got + self.local_offset
            sample = (got_local - sent_local, at_server - (sent_local + got_local) / 2)
            if self.estimate is None or sample[0] < self.estimate[0]:
                self.estimate = sample
            t = got
        return t

    def server_time(self, true_time: float) -> int:
        """What the phone believes the server's clock says at `true_time`."""
        return round(true_time + self.local_offset + self.estimate[1])

    def arrival(self, word_written: float) -> float:
        return word_written + self.down + self.jitter()

    def buzz_arrives(self, pressed: float) -> int:
        return round(pressed + self.up + self.jitter())


def base_match(grace: int):
    """A quizbowl tossup between two one-person teams, WORDS words shown by the moderator; (state, word times)."""
    rules = make_rules("quizbowl", {"questions": 1, "tiebreakers": 0, "reveal": "moderator", "buzz_grace_ms": grace})
    teams = [{"id": "t0", "name": "Red", "kind": "human"}, {"id": "t1", "name": "Blue", "kind": "human"}]
    seats = [{"id": "a", "name": "Ann", "team": "t0", "kind": "human", "tier": None, "captain": True, "simulated": False},
             {"id": "b", "name": "Cy", "team": "t1", "kind": "human", "tier": None, "captain": True, "simulated": False}]
    question = {"qid": "q", "kind": "tossup", "text": TEXT, "answer": "Omega", "category": "Science"}
    state = fold(create_match(rules, teams, seats, [question, dict(question, qid="r")], 0))
    now = 1000
    for event in decide(state, {"type": "start", "actor": {"role": "moderator"}}, now):
        state = apply(state, event)
    times = []
    for word in range(WORDS):
        now += 400
        for event in decide(state, {"type": "reveal", "actor": {"role": "moderator"}, "data": {"word": word}}, now):
            state = apply(state, event)
        times.append(now)
    return state, times


def holder(state, buzzes: list[dict], claims: bool) -> str | None:
    """Who holds the floor after the buzzes are decided in the order they arrive."""
    for buzz in sorted(buzzes, key=lambda b: b["received"]):
        data = {"seen": WORDS, "pressed": buzz["pressed"]} if claims else {"seen": WORDS}
        command = {"type": "buzz", "actor": {"role": "player", "seat": buzz["seat"], "team": buzz["team"]},
                   "data": data, "received": buzz["received"], "clock": buzz["clock"]}
        try:
            events = decide(state, command, buzz["received"])
        except Rejected:
            continue
        for event in events:
            state = apply(state, event)
    return state.q.possession["seat"] if state.q.possession else None


def trial(rng: random.Random, state, times: list[int], gap: int, asymmetric: bool) -> tuple[bool, bool]:
    phones = {"a": Phone(rng, asymmetric), "b": Phone(rng, asymmetric)}
    start = 0.0
    for phone in phones.values():
        t = start
        for _ in range(PROBES):
            t = phone.probe(t) + 50
    last = times[-1]
    frame = [[0, json.dumps({"type": "word_revealed", "data": {"index": WORDS - 1}})]]
    first = rng.choice("ab")
    written = last + 1
    for phone in phones.values():
        phone.server.written(frame, written)
    # The first press comes a human reaction after the word reached the slower phone; the other `gap` later.
    press = max(phone.arrival(written) for phone in phones.values()) + rng.uniform(150, 600)
    buzzes = []
    for seat, phone in phones.items():
        true_press = press + (0 if seat == first else gap)
        buzzes.append({"seat": seat, "team": "t0" if seat == "a" else "t1", "received": phone.buzz_arrives(true_press),
                       "pressed": phone.server_time(true_press), "clock": phone.server.measured(WORDS), "true": true_press})
    earlier = min(buzzes, key=lambda b: b["true"])["seat"]
    return holder(state, buzzes, True) == earlier, holder(state, buzzes, False) == earlier


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--grace", type=int, default=150, help="the match's buzz_grace_ms")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    state, times = base_match(args.grace)
    began = time.perf_counter()
    print(f"buzz_grace_ms={args.grace}, {args.trials} races per row, links 20-300 ms round trip, jitter exp(mean 6 ms, "
          f"max 60) per message, {PROBES} probes per phone")
    print(f"{'links':<11} {'gap ms':>6}  {'corrected: earlier wins':>24}  {'arrival order: earlier wins':>28}")
    for asymmetric in (False, True):
        for gap in GAPS_MS:
            corrected = arrival = 0
            for _ in range(args.trials):
                c, a = trial(rng, state, times, gap, asymmetric)
                corrected += c
                arrival += a
            name = f"asym ±{int(ASYMMETRY * 100)}%" if asymmetric else "symmetric"
            print(f"{name:<11} {gap:>6}  {100 * corrected / args.trials:>23.1f}%  {100 * arrival / args.trials:>27.1f}%")
    print(f"({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
