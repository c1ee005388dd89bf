"""Which questions each match of an event plays: the event's pool, drawn without repeats across the
preliminaries (or the same for every team), and what is left for the final.

The pool is the event's packets' questions of the kind its format plays, shuffled once with the
event's seed, so the same event always draws the same questions. What a match used is read from its
log (the questions it started, throw-outs included), never from a stored list.
"""
from __future__ import annotations

from game.engine.api import MatchState, make_rules
from game.models import Match, Question
from game.event_log import load_state
from game.match_setup import RESERVE_QUESTIONS

import random

MAX_MATCH_QUESTIONS = 200  # the engine's own bound on a match's questions (game/engine/formats.py)


class EventError(Exception):
    """Something the host asked of an event that cannot be done now; the message says what to do."""


def pool(event) -> list[dict]:
    """The event's questions in the order it draws them (engine dicts)."""
    kind = make_rules(event.format_name)["question_kind"]
    rows = (Question.objects.filter(packet__in=event.packets.all(), kind=kind)
            .select_related("packet").order_by("packet_id", "position"))
    questions = [q.as_engine_dict() for q in rows]
    random.Random(event.seed).shuffle(questions)
    return questions


def used_questions(state: MatchState | None, whole: bool) -> set[str]:
    """The qids a match has used: those it started, or (whole=True, a match still to be played out)
    every question it carries, so a preliminary being played keeps its questions from the next one."""
    if state is None:
        return set()
    if whole:
        return {q.qid for q in state.questions}
    return {state.questions[i].qid for i in state.played}


def _taken(matches: list[Match], finished_only: bool) -> set[str]:
    taken = set()
    for match in matches:
        state = load_state(match)
        done = state is not None and state.status == "finished"
        if not done and finished_only:
            raise EventError(f"{match.title} has not finished yet; the final draws from what the preliminaries "
                             "left, so end it first (its moderator ends it at a question boundary).")
        taken |= used_questions(state, whole=not done)
    return taken


def draw_preliminary(event, team) -> tuple[list[dict], int]:
    """(questions the preliminary carries, how many of them are its main questions)."""
    questions = pool(event)
    if event.draw == event.Draw.FRESH:
        others = [t.preliminary for t in event.teams.exclude(pk=team.pk).select_related("preliminary")
                  if t.preliminary_id]
        taken = _taken(others, finished_only=False)
        questions = [q for q in questions if q["qid"] not in taken]
    if not questions:
        raise EventError("No question of the pool is left for this preliminary: every one was played (or is "
                         "being played) in another team's. Add a packet to the pool, or draw the same questions "
                         "for every team.")
    main = min(len(questions), event.prelim_questions or MAX_MATCH_QUESTIONS, MAX_MATCH_QUESTIONS)
    return questions[:main + RESERVE_QUESTIONS], main


def draw_final(event) -> tuple[list[dict], int]:
    """The final plays questions no preliminary played."""
    prelims = [t.preliminary for t in event.teams.select_related("preliminary") if t.preliminary_id]
    taken = _taken(prelims, finished_only=True)
    questions = [q for q in pool(event) if q["qid"] not in taken]
    if not questions:
        raise EventError("The preliminaries played every question of the pool, so none is left for the final. "
                         "Add a packet to the event's pool.")
    main = min(len(questions), event.final_questions)
    return questions[:main + RESERVE_QUESTIONS], main
