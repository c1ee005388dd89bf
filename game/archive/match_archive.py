"""A match's whole event log as one JSONL file, to keep or to load into another installation.

Line 1 is a header: {"format": "exhibition-match", "version": 1, "match": {...}, "events": N} (the
match's code, title, format, packet, teams and question order: game/engine/selection.py); then
one event per line, {"seq", "t", "type", "data"}, seq 1..N. The file holds everything (answer lines,
judge suggestions, the reserve questions), so only staff may download it.

Import reads the whole file and folds it before anything is stored: a line that is not JSON (a
truncated file), a gap or a repeat in seq, an event type this installation does not know, a question
the log refers to but does not carry, or a log that does not fold, is refused with its line number,
and nothing is written. So is a line over an import limit (its length, its JSON nesting, a question
too large for the moderator's screen); see intake.limits.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from django.db import transaction

from intake.json_limits import value_end
from intake.limits import RECORD, LimitExceeded

from game.engine.api import apply_in_place, EVENT_TYPES, QuestionOrder, SelectionError
from game.importers.question_size import check_question_size
from game.models import Match, MatchEvent, Packet, Question, Team

FORMAT = "exhibition-match"
VERSION = 1


class ArchiveError(Exception):
    """A file that cannot be imported; the message names the line and says what is wrong."""


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def header(match: Match, events: list[dict]) -> dict:
    return {"format": FORMAT, "version": VERSION, "events": len(events), "match": {
        "code": match.code, "title": match.title, "format_name": match.format_name, "status": match.status,
        "created": _iso(match.created), "finished": _iso(match.finished), "seed": match.seed,
        "question_order": QuestionOrder.from_dict(match.question_order).to_dict(),
        "packet": {"slug": match.packet.slug, "title": match.packet.title, "source": match.packet.source},
        "teams": [t.name for t in match.teams.order_by("position")]}}


def export_lines(match: Match, events: list[dict]):
    """The JSONL file, line by line (each ends with a newline)."""
    yield json.dumps(header(match, events), ensure_ascii=False) + "\n"
    for e in events:
        yield json.dumps({"seq": e["seq"], "t": e["t"], "type": e["type"], "data": e["data"]}, ensure_ascii=False) + "\n"


@dataclass
class Archive:
    header: dict
    events: list[dict]
    state: object  # the fold of the events


def read_archive(lines) -> Archive:
    """Check a JSONL archive completely; raise ArchiveError naming the first bad line.

    `lines` are str or bytes; None stands for a line that was over the record length limit.
    """
    head, events = None, []
    number = 0
    for number, raw in enumerate(lines, 1):
        text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        if text is None:
            raise ArchiveError(str(LimitExceeded(RECORD, f"Line {number}")))
        if not text.strip():
            continue
        item = _parsed(text, number)
        if not isinstance(item, dict):
            raise ArchiveError(f"Line {number} is not a JSON object.")
        if head is None:
            head = _check_header(item, number)
            continue
        events.append(_check_event(item, number, len(events) + 1))
    if head is None:
        raise ArchiveError("The file is empty; an archive starts with its header line.")
    if len(events) != head["events"]:
        raise ArchiveError(f"Line {number + 1}: the header promises {head['events']} events but the file ends after "
                           f"{len(events)}; it is truncated.")
    if not events or events[0]["type"] != "match_created":
        raise ArchiveError("Line 2 must be the match_created event.")
    _check_questions(events)
    state = None
    for line, event in enumerate(events, 2):
        try:
            state = apply_in_place(state, event)
        except Exception as err:  # the log contradicts itself: report where, store nothing
            raise ArchiveError(f"Line {line}: event {event['seq']} ({event['type']}) does not follow from the ones "
                               f"before it ({type(err).__name__}: {err}).") from None
    return Archive(head, events, state)


def _parsed(text: str, number: int):
    try:
        value_end(text, len(text) - len(text.lstrip()), lambda _: f"Line {number}")
        return json.loads(text)
    except LimitExceeded as err:
        raise ArchiveError(str(err)) from None
    except ValueError as err:
        reason = getattr(err, "msg", "a number too long to read")
        raise ArchiveError(f"Line {number} is not complete JSON ({reason}); the file may be truncated.") from None


def _check_header(item: dict, number: int) -> dict:
    if item.get("format") != FORMAT:
        raise ArchiveError(f"Line {number} is not an Exhibition match archive header (format {item.get('format')!r}).")
    if item.get("version") != VERSION:
        raise ArchiveError(f"Line {number}: archive version {item.get('version')!r} is not one this installation "
                           f"reads (it reads version {VERSION}).")
    if not isinstance(item.get("events"), int) or not isinstance(item.get("match"), dict):
        raise ArchiveError(f"Line {number}: the header needs the event count and the match.")
    return item


def _check_event(item: dict, number: int, expected_seq: int) -> dict:
    seq = item.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ArchiveError(f"Line {number} has no seq number.")
    if seq < expected_seq:
        raise ArchiveError(f"Line {number}: seq {seq} appears twice (or out of order); expected {expected_seq}.")
    if seq > expected_seq:
        missing = f"{expected_seq}" if seq == expected_seq + 1 else f"{expected_seq}–{seq - 1}"
        raise ArchiveError(f"Line {number}: seq {seq} follows {expected_seq - 1}; event {missing} is missing.")
    kind = item.get("type")
    if kind not in EVENT_TYPES:
        raise ArchiveError(f"Line {number}: unknown event type {kind!r}; this installation cannot replay it.")
    if not isinstance(item.get("t"), int) or not isinstance(item.get("data", {}), dict):
        raise ArchiveError(f"Line {number}: an event needs a whole-number time t and a data object.")
    return {"seq": seq, "t": item["t"], "type": kind, "data": item.get("data", {})}


def _check_questions(events: list[dict]) -> None:
    created = events[0]["data"]
    questions = created.get("questions")
    if not isinstance(questions, list) or not questions:
        raise ArchiveError("Line 2: match_created carries no questions.")
    try:
        QuestionOrder.from_dict(created.get("question_order"))
    except SelectionError as err:
        raise ArchiveError(f"Line 2: match_created's question order is not one this installation reads: {err}") from None
    for i, q in enumerate(questions):
        if not isinstance(q, dict) or not q.get("qid") or not isinstance(q.get("text"), str):
            raise ArchiveError(f"Line 2: question {i} of match_created lacks its qid or text.")
        try:
            check_question_size(q, f"Line 2, question {i}")
        except LimitExceeded as err:
            raise ArchiveError(str(err)) from None
    for line, event in enumerate(events, 2):
        index = event["data"].get("index") if event["type"] in ("question_started", "question_thrown_out") else None
        if index is not None and not (isinstance(index, int) and 0 <= index < len(questions)):
            raise ArchiveError(f"Line {line}: {event['type']} refers to question {index!r}, but the archive carries "
                               f"only questions 0–{len(questions) - 1}; a question is missing.")


@transaction.atomic
def store_archive(archive: Archive) -> Match:
    """Create the match, its teams and (when new here) its packet from a checked archive."""
    info = archive.header["match"]
    created = archive.events[0]["data"]
    packet = _packet(info.get("packet") or {}, created["questions"], info.get("code", ""))
    code = info.get("code") if info.get("code") and not Match.objects.filter(code=info["code"]).exists() else None
    state = archive.state
    status = {"setup": Match.Status.SETUP, "live": Match.Status.LIVE, "finished": Match.Status.FINISHED}[state.status]
    if status == Match.Status.LIVE:
        status = Match.Status.FINISHED  # nobody plays on in an archive: it is a record of what happened
    match = Match(title=info.get("title") or "Imported match", packet=packet,
                  format_name=info.get("format_name") or "", rules=created["rules"], status=status,
                  seed=info.get("seed") or 0, finished=_when(archive.events[-1]["t"]),
                  question_order=QuestionOrder.from_dict(created.get("question_order")).to_dict())
    if code:
        match.code = code
    match.save()
    Match.objects.filter(pk=match.pk).update(created=_when(archive.events[0]["t"]))
    for position, team in enumerate(created["teams"]):
        Team.objects.create(match=match, position=position, name=team["name"])
    MatchEvent.objects.bulk_create(MatchEvent(match=match, seq=e["seq"], t_ms=e["t"], type=e["type"], data=e["data"])
                                   for e in archive.events)
    match.refresh_from_db()
    return match


def _when(t_ms: int):
    return datetime.fromtimestamp(t_ms / 1000, tz=timezone.utc)


def _packet(info: dict, questions: list[dict], code: str) -> Packet:
    """The packet the match was played from, by slug; new here, it is made from the questions in the log."""
    slug = str(info.get("slug") or f"imported-{code}".lower())[:80]
    packet = Packet.objects.filter(slug=slug).first()
    if packet is not None:
        return packet
    packet = Packet.objects.create(slug=slug, title=info.get("title") or slug, source=info.get("source") or "",
                                   description="Made from the questions carried by an imported match archive.")
    Question.objects.bulk_create(
        Question(packet=packet, position=i, kind=q.get("kind", "short"), text=q["text"], answer=q.get("answer", ""),
                 accepted=list(q.get("accepted") or []), category=q.get("category", ""),
                 subcategory=q.get("subcategory", ""), source=dict(q.get("source") or {}))
        for i, q in enumerate(questions))
    return packet


def import_archive(lines) -> Match:
    return store_archive(read_archive(lines))

