"""The event's leaderboard: teams ranked by average margin per question in their preliminary, with
every tie explained in words.

Average margin per question = (the team's points - the computer's points) / questions played, as
EfficientQA 2020 ranked its teams. Every figure is folded from the preliminary's event log through
the engine, never read from a stored total, so a correction made after the match counts at once.
Ties are broken in this order: the higher total margin, then fewer questions played (the same margin
earned in fewer questions), then the name (alphabetical), and the row says which one decided.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.api import END_REASONS, MatchState, questions_played
from game.event_log import load_state

HUMANS, COMPUTER = "t0", "t1"  # the team ids of a preliminary: the event's team first, the computer second


@dataclass
class Row:
    """One team's finished preliminary, in numbers."""

    name: str
    questions: int
    points_for: int
    points_against: int
    match: str = ""
    team_id: int | None = None
    ended: str = ""  # why the preliminary ended, in words
    rank: int = 0
    tie: str = ""  # how a tie on average margin with a neighbour was broken

    @property
    def margin(self) -> int:
        return self.points_for - self.points_against

    @property
    def average_margin(self) -> float:
        return self.margin / self.questions if self.questions else 0.0

    @property
    def shown(self) -> dict:
        """The margins as the leaderboard prints them, signed."""
        return {"average": f"{self.average_margin:+.2f}", "margin": f"{self.margin:+d}"}


@dataclass
class Leaderboard:
    rows: list[Row] = field(default_factory=list)  # finished preliminaries, best first
    playing: list[str] = field(default_factory=list)  # teams whose preliminary is under way
    unplayed: list[str] = field(default_factory=list)  # teams without a preliminary yet


def row_from_state(name: str, state: MatchState, match: str = "", team_id: int | None = None) -> Row:
    return Row(name=name, questions=questions_played(state), points_for=state.scores.get(HUMANS, 0),
               points_against=state.scores.get(COMPUTER, 0), match=match, team_id=team_id,
               ended=END_REASONS.get(state.end_reason or "", ""))


def _key(row: Row):
    return (-row.average_margin, -row.margin, row.questions, row.name.casefold(), row.name)


def _decider(ahead: Row, behind: Row) -> str:
    """What put `ahead` before `behind`, two rows level on average margin."""
    if ahead.margin != behind.margin:
        return f"total margin ({ahead.margin:+d} against {behind.margin:+d})"
    if ahead.questions != behind.questions:
        return f"fewer questions played ({ahead.questions} against {behind.questions})"
    return ""


def _note(row: Row, other: Row, ahead: Row, behind: Row) -> str:
    decider = _decider(ahead, behind)
    if not decider:
        return f"level with {other.name} in every figure: they share the place (listed by name)"
    where = "after" if row is behind else "before"
    return f"level with {other.name} on average margin ({row.average_margin:+.2f}); placed {where} it on {decider}"


def _level(one: Row, other: Row) -> bool:
    return one.average_margin == other.average_margin


def rank(rows: list[Row]) -> list[Row]:
    """The rows best first, each with its rank and, where its average margin equals a neighbour's,
    the reason for the order in words. Rows equal in every figure share a rank."""
    ordered = sorted(rows, key=_key)
    for i, row in enumerate(ordered):
        before = ordered[i - 1] if i else None
        after = ordered[i + 1] if i + 1 < len(ordered) else None
        row.rank = before.rank if before is not None and _key(before)[:3] == _key(row)[:3] else i + 1
        notes = []
        if before is not None and _level(before, row):
            notes.append(_note(row, before, before, row))
        if after is not None and _level(row, after):
            notes.append(_note(row, after, row, after))
        row.tie = "; ".join(notes)
    return ordered


def leaderboard(event) -> Leaderboard:
    """The event's leaderboard now, folded from each preliminary's log."""
    board = Leaderboard()
    rows = []
    for team in event.teams.select_related("preliminary").order_by("id"):
        if not team.preliminary_id:
            board.unplayed.append(team.name)
            continue
        state = load_state(team.preliminary)
        if state is None or state.status != "finished":
            board.playing.append(team.name)
            continue
        rows.append(row_from_state(team.name, state, team.preliminary.code, team.pk))
    board.rows = rank(rows)
    return board


@dataclass
class FinalResult:
    match: str
    team: str
    finished: bool
    questions: int
    points_for: int
    points_against: int
    winner: str | None  # the team's name, "Computer", or None for a tie or a final not finished


def final_result(event) -> FinalResult | None:
    """The final as its log stands: the event is closed once the final has finished."""
    if not event.final_match_id:
        return None
    state = load_state(event.final_match)
    if state is None:
        return None
    finished = state.status == "finished"
    winner = state.team_name(state.winner) if finished and state.winner else None
    return FinalResult(match=event.final_match.code, team=state.team_name(HUMANS), finished=finished,
                       questions=questions_played(state), points_for=state.scores.get(HUMANS, 0),
                       points_against=state.scores.get(COMPUTER, 0), winner=winner)
