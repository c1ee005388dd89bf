"""Exported logs of several played matches, for the report's tests: simulated matches played through
the engine and the event log and exported as `export_match` does, plus the hand-played matches of
tests/engine/played.py (a neg, a prompt, an undo, a throw-out, an override and an adjustment)."""
from __future__ import annotations

import json

from game.demo import ensure_demo_packet
from game.management.commands.simulate import play_simulated_match
from game.archive.match_archive import export_lines
from game.archive.replay import load_log
from game.simulation import correct_answer
from tests.engine.played import PLAYED
from tests.engine.support import MOD, Match


def exported(format_name: str, seeds=(1, 2, 3), questions: int = 8) -> list[str]:
    """The JSONL text of each simulated match (in the database; needs django_db), as exported."""
    packet = ensure_demo_packet()
    texts = []
    for seed in seeds:
        _, match = play_simulated_match(packet, format_name, seed=seed, questions=questions)
        texts.append("".join(export_lines(match, load_log(match))))
    return texts


def played_text(format_name: str, names: dict | None = None) -> str:
    """The hand-played match of that format as a JSONL export (a header, then its events); `names`
    renames teams and seats (id -> name), as if people had typed those names."""
    return export_text(PLAYED[format_name]().events, f"PLAY{format_name[:2].upper()}", f"Played {format_name}", names)


def export_text(played_events: list[dict], code: str, title: str, names: dict | None = None) -> str:
    # A copy through JSON, as an export is: renaming must not touch the played match's own team list.
    events = [dict(e, seq=i) for i, e in enumerate(json.loads(json.dumps(played_events)), 1)]
    for item in events[0]["data"]["teams"] + events[0]["data"]["seats"]:
        item["name"] = (names or {}).get(item["id"], item["name"])
    head = {"format": "exhibition-match", "version": 1, "events": len(events), "match": {"code": code, "title": title}}
    return "".join(json.dumps(line) + "\n" for line in [head, *events])


def muted_bot_text() -> str:
    """A quizbowl match whose bot (Qbot, on Cho's team) says when it would buzz but never takes the floor,
    so every human buzz is on the record beside the bot's: Q1 the bot would buzz right at word 2 (0.9 sure)
    and Ann buzzes right at word 4; Q2 it would buzz wrong at word 1 (0.4) and Ann buzzes wrong at word 3,
    Cho (its teammate) right at word 5; Q3 Ann buzzes wrong at word 5, the bot would buzz right at word 6
    (0.7) and Cho buzzes right at word 7. Cho's team wins."""
    m = Match("quizbowl", {"questions": 3, "tiebreakers": 0}, reserve=1, length=9, power_after=None)
    m.start(0)

    def would_buzz(guess: str, confidence: float):
        m.send("bot_guess", "bot", {"guess": guess, "confidence": confidence, "buzz": True,
                                    "alternatives": [[guess, confidence]], "threshold": 0.5})

    def attempt(seat: str, right: bool):
        m.buzz(seat, at=m.now + 100)
        m.answer(seat, correct_answer(m.state) if right else "Zebulon")
        m.rule("accept" if right else "reject", at=m.now + 300)

    m.reveal_until(2)
    would_buzz(correct_answer(m.state), 0.9)
    m.reveal_until(4)
    attempt("h0", True)
    m.send("next", MOD, at=m.now + 2000)
    m.reveal_until(1)
    would_buzz("Zebulon", 0.4)
    m.reveal_until(3)
    attempt("h0", False)
    m.reveal_until(5)
    attempt("h2", True)
    m.send("next", MOD, at=m.now + 2000)
    m.reveal_until(5)
    attempt("h0", False)
    m.reveal_until(6)
    would_buzz(correct_answer(m.state), 0.7)
    m.reveal_until(7)
    attempt("h2", True)
    m.send("next", MOD, at=m.now + 2000)
    assert m.state.status == "finished" and m.state.winner == "t1"
    return export_text(m.events, "MUTED", "A muted bot")


def parsed(text: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    return lines[0]["match"], lines[1:]
