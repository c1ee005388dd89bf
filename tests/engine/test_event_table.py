"""The table of events (game/engine/event_table.py) is what the engine, the projection and the browser do:
every event generated matches emit, in both formats (undo, override, throw-out, protests, pauses, reading
aloud, bots, held guesses, the judge), fits its entry; every audience's frame of it carries only what the
table's cell for that audience allows, checked from the table alone; the folds, Python's and the
browser's, handle exactly the table's types and read only fields the table declares; the wire protocol's
page names every type."""
from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import fold as engine_fold
from game.engine import projection
from game.engine.api import project
from game.engine.event_table import (ALL, COLUMNS, EVENTS, HIDDEN, VIEWS, column, fields_problems, frame_fields,
                                     problems, views_of)

from .played import PLAYED
from .support import MOD, SYS, Match, question, seat
from .test_properties import play

ROOT = Path(__file__).resolve().parents[2]
VIEWERS = (("moderator", None), ("spectator", None), ("player", "t0"), ("player", "t1"), ("bot", None))


# -- the generated matches ------------------------------------------------------------------------------

def the_rest() -> list[list[dict]]:
    """What the played matches leave out: a seat joining and one given up, the bots' sizes at the start, a
    bot that missed and one stopped, a pause, the dead time and the discussion running out, snippets, the
    match ended, and a question read aloud in a voice the moderator chose."""
    m = Match("efficientqa", {"questions": 1, "tiebreakers": 0})
    m.send("join", SYS, {"seat": seat("h9", "t0", "Dee")})
    m.send("start", MOD, {"bot_sizes": {"b500": {"bytes": 300, "artefacts": 100, "code": 50, "packages": 150},
                                        "b6": {"bytes": 7}}})
    m.reveal_until(2)
    m.send("bot_missed", SYS, {"seat": "b500", "status": "timed_out", "reason": "no answer within 3000 ms"})
    m.send("pause", MOD, {"reason": "a phone rang"}, at=m.now + 100)
    m.send("resume", MOD, at=m.now + 1000)
    m.send("bot_stopped", SYS, {"seat": "b6", "reason": "over its tier's memory limit"})
    m.send("leave", "h1", at=m.now + 100)
    while m.q.phase < 2:
        m.tick(m.now + 1000)
    m.send("snippets", SYS, {"snippets": [{"title": "Bakadu", "text": "about bakadu", "marked": "bakadu"}]})
    m.play_to_close()
    m.send("next", MOD, at=m.now + 1000)
    aloud = Match("quizbowl", {"questions": 1, "reveal": "voice"},
                  questions=[question("Alpha bravo charlie delta."), question("Spare one.", qid="r")])
    aloud.send("voice", MOD, {"voice": "en-gb", "wpm": 150})
    aloud.start(at=10)
    q = aloud.q
    aloud.send("voice_timings", SYS, {"number": q.number, "index": q.index, "offsets": [0, 300, 700, 900], "end": 1300,
                                      "audio": "abc123", "voice": "en-gb"}, at=100)
    aloud.play_to_close()
    return [m.events, aloud.events]


@lru_cache(maxsize=1)
def generated() -> tuple:
    """Every log, as stored: both played matches under both hall rules with the judge's suggestions, and the rest."""
    logs = [PLAYED[fmt](rule, judged=True).events for fmt in sorted(PLAYED) for rule in ("after_humans", "live")]
    return tuple(stored(log) for log in logs + the_rest())


def stored(log: list[dict]) -> list[dict]:
    """A log as the database keeps it and the sockets send it: numbered, through JSON."""
    return json.loads(json.dumps([dict(e, seq=seq) for seq, e in enumerate(log, 1)]))


def all_events():
    return [e for log in generated() for e in log]


def test_the_generated_matches_emit_every_type_of_the_table():
    assert {e["type"] for e in all_events()} == set(EVENTS)


# -- every event fits its entry ---------------------------------------------------------------------------

def test_every_event_the_generated_matches_emit_fits_its_entry():
    wrong = [p for e in all_events() for p in problems(e)]
    assert not wrong, "\n".join(wrong[:20])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), fmt=st.sampled_from(["efficientqa", "quizbowl"]))
def test_every_event_of_random_matches_fits_its_entry_and_reaches_each_audience_as_its_cell_says(data, fmt):
    events = stored(play(data, fmt).log)
    wrong = [p for e in events for p in problems(e)]
    assert not wrong, "\n".join(wrong[:20])
    for event in events:
        check_frames(event)


def test_the_check_finds_a_field_nobody_declared_a_missing_one_and_a_wrong_shape():
    buzz = next(e for e in all_events() if e["type"] == "buzz")
    assert problems(buzz) == []
    assert problems(dict(buzz, data=dict(buzz["data"], loudness=3))) == ["buzz: loudness is not a declared field."]
    unseated = {k: v for k, v in buzz["data"].items() if k != "seat"}
    assert problems(dict(buzz, data=unseated)) == ["buzz: seat is missing."]
    assert problems(dict(buzz, data=dict(buzz["data"], word="3"))) == ["buzz.word is text ('3'); it should be whole."]
    joined = next(e for e in all_events() if e["type"] == "seat_joined")
    inner = dict(joined, data={"seat": dict(joined["data"]["seat"], captain="yes")})
    assert problems(inner) == ["seat_joined.seat.captain is text ('yes'); it should be flag."]
    ruling = next(e for e in all_events() if e["type"] == "ruling" and e["data"]["score_changes"])
    team = next(iter(ruling["data"]["score_changes"]))
    assert problems(dict(ruling, data=dict(ruling["data"], score_changes={team: 1.5}))) == \
        [f"ruling.score_changes[{team!r}] is number (1.5); it should be whole."]
    assert problems({"type": "applause", "t": 0, "data": {}}) == ["'applause' is not an event type of the table."]


def test_a_log_from_before_a_field_was_added_still_fits():
    """Fields added over time are optional: an older log's events lack them (and still load and replay)."""
    old_buzz = {"type": "buzz", "t": 5, "data": {"seat": "h0", "team": "t0", "received": 5, "word": 3, "seen": 2,
                                                 "replaces": None, "deadline_at": 10_005}}
    old_missed = {"type": "bot_missed", "t": 5, "data": {"seat": "b1", "reason": "timed out"}}
    old_override = {"type": "override", "t": 5, "data": {"ruling": 1, "number": 1, "verdict": "accept", "points": 10,
                                                         "score_changes": {"t0": 10}, "result": None}}
    for event in (old_buzz, old_missed, old_override):
        assert problems(event) == [], event["type"]


# -- what each audience receives --------------------------------------------------------------------------

def _condition(view, data: dict) -> bool:
    """Whether a view's withholding (or hiding) applies to this event, by the view's own declaration."""
    return (view.when is None or bool(data.get(view.when))) and (view.unless is None or not data.get(view.unless))


def check_frames(event: dict):
    """Each viewer's frame of the event against the table: hidden where the cell says so, else only the fields
    its views leave, in their declared shapes, with what they withhold null."""
    kind, data = event["type"], event["data"]
    for audience, team in VIEWERS:
        frame = project(event, audience, team)
        col = column(audience, team, data)
        cell = EVENTS[kind].sees[col]
        where = f"{kind} (seq {event['seq']}) to {col}"
        assert (frame["seq"], frame["t"]) == (event["seq"], event["t"]), where
        views = [VIEWS[name] for name in views_of(cell)]
        for view in views:
            if view.hides and view.when is not None:
                assert (frame["type"] == "hidden") == _condition(view, data), where
        if frame["type"] == "hidden":
            assert cell == HIDDEN or any(v.hides for v in views), f"{where} arrived hidden; its cell is {cell!r}"
            assert frame["data"] == {}, where
            continue
        assert cell != HIDDEN and frame["type"] == kind, f"{where} arrived, though its cell is hidden"
        if cell == ALL:
            assert set(frame["data"]) == set(data), f"{where} should carry the event whole"
        wrong = fields_problems(frame["data"], frame_fields(kind, col), where)
        assert not wrong, "\n".join(wrong)
        for view in views:
            if view.withholds and _condition(view, data):
                for name in view.withholds:
                    assert not data.get(name) or frame["data"][name] is None, f"{where} carries {name}"


def test_every_audience_receives_only_what_its_cell_allows():
    for event in all_events():
        check_frames(event)


def test_every_cell_names_an_audience_column_and_a_view_the_projection_has():
    assert set(projection.VIEWS) == set(VIEWS), "every view the table describes is a function in projection.py"
    used = set()
    for kind, entry in EVENTS.items():
        assert tuple(entry.sees) == COLUMNS, kind
        assert entry.sees["moderator"] == ALL, f"the moderator receives every event whole, {kind} too"
        if "team" not in entry.fields:  # a player's column depends on the event's team: without one, all the same
            assert entry.sees["own_team"] == entry.sees["other_teams"], kind
        for col, cell in entry.sees.items():
            for name in views_of(cell):
                view = VIEWS[name]
                used.add(name)
                named = [*(view.keeps or ()), *view.withholds, *view.changes, *filter(None, (view.when, view.unless))]
                missing = [f for f in named if f not in entry.fields]
                assert not missing, f"{kind}'s {col} view {name} names fields {kind} does not have: {missing}"
    assert used == set(VIEWS), f"views no event uses: {sorted(set(VIEWS) - used)}"


def test_a_type_the_table_does_not_know_is_the_moderators_only():
    """A log from a newer installation may carry a type this one does not know: nothing here says who may
    see it, so only the moderator does (a replay of it still shows every other event)."""
    event = {"seq": 9, "t": 5, "type": "from_a_newer_version", "data": {"secret": "x"}}
    assert project(event, "moderator")["data"] == {"secret": "x"}
    for audience, team in VIEWERS[1:]:
        assert project(event, audience, team) == {"seq": 9, "t": 5, "type": "hidden", "data": {}}


# -- the folds read what the table declares ----------------------------------------------------------------

def test_the_fold_handles_exactly_the_types_of_the_table():
    assert set(engine_fold._HANDLERS) | {"match_created"} == set(EVENTS)
    assert engine_fold.EVENT_TYPES == set(EVENTS)


def _shown_fields(kind: str) -> dict:
    """Every field some audience's frame of this type may carry."""
    shown = {}
    for col in COLUMNS:
        shown.update(frame_fields(kind, col) or {})
    return shown


# A correction after the final whistle is one record for an override and an adjustment alike, so the folds and
# the replay read each one's fields of the other too, where they are null (docs/wire-protocol.md, "Corrections").
ABSENT_BY_DESIGN = {("score_adjusted", name) for name in ("number", "ruling", "verdict")} | {("override", "team")}


def _nested_problems(kind: str, reads: set[tuple[str, str | None]], who: str) -> list[str]:
    """A sentence for each read of a field (or of a field inside an object) the table does not declare."""
    declared = _shown_fields(kind)
    out = []
    for name, inner in sorted(reads, key=str):
        if (kind, name) in ABSENT_BY_DESIGN:
            continue
        if name not in declared:
            out.append(f"{who} reads {kind}.{name}, which the table does not declare")
        elif inner is not None and declared[name].keys is not None and inner not in declared[name].keys:
            out.append(f"{who} reads {kind}.{name}.{inner}, which the table does not declare")
    return out


def _python_reads(fn, param: str, seen=None) -> set[tuple[str, str | None]]:
    """The keys a function reads of its parameter `param` (d["x"], d.get("x"), d["x"]["y"], d.get(k) for k
    in a tuple of the module), and what the module's functions it hands the parameter to read of it."""
    seen = set() if seen is None else seen
    if fn in seen:
        return set()
    seen.add(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    names = fn.__globals__
    reads = set()

    def key(node):
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    loops = {}  # loop variable -> the keys it runs over
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension) and isinstance(node.iter, ast.Name) \
                and isinstance(node.target, ast.Name):
            values = names.get(node.iter.id)
            if isinstance(values, tuple) and all(isinstance(v, str) for v in values):
                loops[node.target.id] = values
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param:
            name = key(node.slice)
            if name is not None:
                reads.add((name, None))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == param:
            if key(node.value.slice) is not None and key(node.slice) is not None:
                reads.add((key(node.value.slice), key(node.slice)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == param and node.args:
            arg = node.args[0]
            if key(arg) is not None:
                reads.add((key(arg), None))
            elif isinstance(arg, ast.Name) and arg.id in loops:
                reads |= {(k, None) for k in loops[arg.id]}
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and callable(names.get(node.func.id)):
            for position, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id == param:
                    helper = names[node.func.id]
                    if inspect.isfunction(helper) and helper.__module__.startswith("game.engine"):
                        params = list(inspect.signature(helper).parameters)
                        reads |= _python_reads(helper, params[position], seen)
    return reads


def test_the_engine_fold_reads_only_fields_the_table_declares():
    handlers = dict(engine_fold._HANDLERS, match_created=engine_fold.initial_state)
    wrong, counted = [], 0
    for kind, handler in handlers.items():
        params = list(inspect.signature(handler).parameters)
        reads = _python_reads(handler, params[0] if kind == "match_created" else params[1])
        counted += len(reads)
        wrong += _nested_problems(kind, reads, "fold.py")
    assert counted > 100, "the reading of fold.py's handlers found too little: check _python_reads"
    assert not wrong, "\n".join(wrong)


JS = ROOT / "static" / "js"
HANDLER = re.compile(r"^  (\w+)\(([^)]*)\) \{", re.M)
FUNCTION = re.compile(r"^(?:export )?function (\w+)\(([^)]*)\) \{\n(.*?)^\}", re.M | re.S)


def _arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose "(" is at text[start]: brackets nest, strings are skipped."""
    args, depth, current, i = [], 0, "", start + 1
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            end = text.index(c, i + 1)
            current += text[i:end + 1]
            i = end + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return [a.strip() for a in args + [current]]
            depth -= 1
        elif c == "," and depth == 0:
            args.append(current)
            current = ""
            i += 1
            continue
        current += c
        i += 1
    raise AssertionError("a call that never closes")


def _js_reads(body: str, param: str, text: str, functions: dict, seen: frozenset = frozenset()) -> set:
    """The fields a piece of match-fold.js reads of `param`: param.x (and param.x.y), pick(param, KEYS), and
    what the file's own functions it hands `param` to read of theirs."""
    reads = {(m.group(1), m.group(2)) for m in re.finditer(rf"\b{param}\??\.(\w+)(?:\??\.(\w+))?", body)}
    for m in re.finditer(rf"\bpick\({param}, (\w+|\[[^\]]*\])\)", body):
        keys = m.group(1)
        if not keys.startswith("["):
            keys = re.search(rf"const {keys} = (\[[^\]]*\])", text, re.S).group(1)
        reads |= {(k, None) for k in re.findall(r'"(\w+)"', keys)}
    for name, (params, inner) in functions.items():
        if name in seen or name == "pick":
            continue
        for m in re.finditer(rf"(?<![\w.]){name}\(", body):
            args = _arguments(body, m.end() - 1)
            for position, arg in enumerate(args):
                if arg == param and position < len(params):
                    reads |= _js_reads(inner, params[position], text, functions, seen | {name})
    return reads


def browser_fold() -> dict[str, set]:
    """type -> the fields the browser's fold (static/js/match-fold.js FOLD) reads of it."""
    text = (JS / "match-fold.js").read_text()
    functions = {m.group(1): ([p.strip() for p in m.group(2).split(",")], m.group(3)) for m in FUNCTION.finditer(text)}
    block = text[text.index("const FOLD = {"):]
    block = block[:block.index("\n};\n")]
    heads = list(HANDLER.finditer(block))
    handlers = {}
    for head, after in zip(heads, heads[1:] + [None]):
        body = block[head.end():after.start() if after else len(block)]
        params = [p.strip() for p in head.group(2).split(",") if p.strip()]
        handlers[head.group(1)] = _js_reads(body, params[1], text, functions) if len(params) > 1 else set()
    return handlers


def test_the_browser_fold_handles_every_type_and_reads_only_declared_fields():
    handlers = browser_fold()
    handled = set(handlers) - {"hidden"}  # the frame an audience gets for an event it may not see
    assert handled - set(EVENTS) == set(), "match-fold.js folds types the table does not declare"
    # The moderator's console runs the same fold and receives every type.
    assert set(EVENTS) - handled == set(), "match-fold.js lacks a handler for these types"
    assert ("seat", None) in handlers["buzz_refused"] and ("prompt_question", None) in handlers["judge_suggested"]
    wrong = [p for kind in handled for p in _nested_problems(kind, handlers[kind], "match-fold.js")]
    assert not wrong, "\n".join(wrong)


FRAME_TYPE = re.compile(r'frame\??\.type\s*[!=]==\s*"(\w+)"')
FRAME_READ = re.compile(r"frame\??\.data\??\.(\w+)")
STARTS = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?function\b|^  (?:async\s+)?\w+\([^)]*\)\s*\{\s*$", re.M)


def other_js_reads() -> dict[tuple[str, str], set]:
    """(file, type) -> the fields the other pages read straight off an event frame (frame.data.x), each
    belonging to the nearest frame.type test before it in the same function. Reads with no such test in
    their function (a pong's server_time) are not events'."""
    found = {}
    for path in sorted(JS.glob("*.js")):
        text = path.read_text()
        starts = [m.start() for m in STARTS.finditer(text)]
        for read in FRAME_READ.finditer(text):
            tests = [m for m in FRAME_TYPE.finditer(text, 0, read.start())]
            if not tests:
                continue
            test = tests[-1]
            if any(test.start() < s < read.start() for s in starts):
                continue
            found.setdefault((path.name, test.group(1)), set()).add((read.group(1), None))
    return found


def test_the_other_pages_read_only_declared_fields_of_event_frames():
    found = other_js_reads()
    assert ("seat", None) in found[("screen.js", "buzz")]
    assert ("index", None) in found[("hall-voice.js", "word_revealed")]
    wrong = []
    for (name, kind), reads in found.items():
        assert kind in EVENTS, f"{name} tests for an event type the table does not declare: {kind}"
        wrong += _nested_problems(kind, reads, name)
    assert not wrong, "\n".join(wrong)


PYTHON_READERS = ("game/archive", "game/report", "game/live", "game/conductor", "game/web", "events")


def _type_tests(test: ast.AST) -> set[str]:
    """The event types a condition compares x["type"] (or a `kind`) to."""
    out = set()
    for node in ast.walk(test):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        left, op, right = node.left, node.ops[0], node.comparators[0]
        if not ((isinstance(left, ast.Subscript) and _constant(left.slice) == "type")
                or (isinstance(left, ast.Name) and left.id == "kind")):
            continue
        if isinstance(op, ast.Eq):
            out.add(_constant(right))
        elif isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.Set, ast.List)):
            out |= {_constant(e) for e in right.elts}
    return {kind for kind in out if isinstance(kind, str)}


def _constant(node):
    return node.value if isinstance(node, ast.Constant) else None


def _data_reads(nodes) -> set[tuple[str, None]]:
    """Keys read of an event's data: d["x"], d.get("x"), data[...], e["data"]["x"], e["data"].get("x")."""
    def is_data(node):
        return (isinstance(node, ast.Name) and node.id in ("d", "data")) or \
            (isinstance(node, ast.Subscript) and _constant(node.slice) == "data")

    out = set()
    for top in nodes:
        for node in ast.walk(top):
            if isinstance(node, ast.Subscript) and is_data(node.value) and _constant(node.slice) not in (None, "data"):
                out.add((_constant(node.slice), None))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                    and is_data(node.func.value) and node.args and isinstance(_constant(node.args[0]), str):
                out.add((_constant(node.args[0]), None))
    return out


def python_reads() -> dict[tuple[str, str], set]:
    """(file, type) -> the fields the server's other readers (the replay, the box score, the exports, the
    report...) read of an event's data inside a test of its type: an if, or a comprehension's condition."""
    found = {}
    for package in PYTHON_READERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.If):
                    kinds, inside = _type_tests(node.test), [node.test, *node.body]
                elif isinstance(node, ast.IfExp):
                    kinds, inside = _type_tests(node.test), [node.test, node.body]
                elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                    kinds = {k for g in node.generators for c in g.ifs for k in _type_tests(c)}
                    inside = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
                else:
                    continue
                for kind in kinds:
                    found.setdefault((str(path.relative_to(ROOT)), kind), set()).update(_data_reads(inside))
    return found


def test_the_servers_other_readers_read_only_declared_fields():
    found = python_reads()
    assert ("pressed", None) in found[("game/archive/replay.py", "buzz")]
    wrong = []
    for (name, kind), reads in sorted(found.items()):
        if kind in EVENTS:  # (a socket message's type, an export's kind, are not events)
            wrong += _nested_problems(kind, reads, name)
    assert not wrong, "\n".join(wrong)


# -- the docs ---------------------------------------------------------------------------------------------

def test_the_wire_protocol_names_every_type_of_the_table():
    text = (ROOT / "docs" / "wire-protocol.md").read_text()
    assert [kind for kind in EVENTS if f"`{kind}`" not in text] == []

