"""Frame shapes, the rate limit and seat tokens: the checks the web layer makes before forwarding.

parse() must answer every possible frame with a Frame or a FrameError carrying a readable sentence,
never any other exception: an exception there would close the socket with 1011 (review found four
such frames). The fuzz tests below throw JSON values and raw text at it.
"""
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.live.client_frames import KNOWN, MAX_FRAME_BYTES, SESSION, FrameError, TokenBucket, parse
from django.conf import settings as django_settings

from game.live.seat_tokens import make_seat_token, read_seat_token

CID = "cmd-0123456789"


def test_known_fields_are_kept_and_unknown_ones_dropped():
    frame = parse('{"type": "buzz", "ref": "a1", "id": "%s", "data": {"seen": 4, "seat": "s9", "team": "t1"}}' % CID)
    assert (frame.type, frame.data, frame.ref, frame.id) == ("buzz", {"seen": 4}, "a1", CID)


@pytest.mark.parametrize("text, code", [
    ("nope", "bad_json"),
    ("[1]", "bad_frame"),
    ('{"type": "fly"}', "unknown_type"),
    ('{"type": [1]}', "unknown_type"),  # review: TypeError (a list is not hashable)
    ('{"type": {"a": 1}}', "unknown_type"),
    ("[" * 2000 + "]" * 2000, "bad_json"),  # review: RecursionError
    ('{"type": "ping", "ref": 5}', "bad_ref"),
    ('{"type": "ping", "ref": "a\\u0000b"}', "bad_ref"),
    ('{"type": "rule", "id": "%s", "data": "accept"}' % CID, "bad_shape"),
    ('{"type": "override", "id": "%s", "data": {"ruling": "1"}}' % CID, "bad_shape"),
    ('{"type": "chat", "id": "%s", "data": {"text": "%s"}}' % (CID, "x" * 501), "too_long"),
    ('{"type": "ping", "data": {"x": "' + "y" * MAX_FRAME_BYTES + '"}}', "too_big"),
    ('{"type": "answer", "id": "%s", "data": {"text": "\\ud800"}}' % CID, "bad_text"),  # review: UnicodeEncodeError
    ('{"type": "answer", "id": "%s", "data": {"text": "Newton\\u0000"}}' % CID, "bad_text"),  # review: PostgreSQL refused NUL
    ('{"type": "rule", "id": "%s", "data": {"verdict": "reject", "heard": "a\\u0007b"}}' % CID, "bad_text"),
    ('{"type": "buzz", "id": "%s", "data": {"seen": 1e400}}' % CID, "bad_shape"),
    ('{"type": "buzz", "id": "%s", "data": {"seen": 99999999999999}}' % CID, "bad_shape"),
    ('{"type": "buzz", "data": {}}', "bad_id"),
    ('{"type": "buzz", "id": "short", "data": {}}', "bad_id"),
    ('{"type": "buzz", "id": 12345678, "data": {}}', "bad_id"),
    ('{"type": "undo", "id": "%s", "data": {}}' % CID, "bad_shape"),  # must name the ruling it was pressed for
    ('{"type": "throw_out", "id": "%s", "data": {"reason": "typo"}}' % CID, "bad_shape"),
    ('{"type": "adjust", "id": "%s", "data": {"team": "t0", "points": 5, "reason": "x"}}' % CID, "bad_shape"),
    ('{"type": "rule", "id": "%s", "data": {"verdict": "accept"}}' % CID, "bad_shape"),  # must name the answer it rules
    ('{"type": "rule", "id": "%s", "data": {"verdict": "accept", "answer": "12"}}' % CID, "bad_shape"),
    ('{"type": "rule", "id": "%s", "data": {"verdict": "accept", "answer": true}}' % CID, "bad_shape"),
    ('{"type": "adjust", "id": "%s", "data": {"public": "yes", "scores_seq": 1}}' % CID, "bad_shape"),
    ('{"type": "override", "id": "%s", "data": {"ruling": 1, "confirm": 1}}' % CID, "bad_shape"),
])
def test_malformed_frames_are_refused_with_a_code(text, code):
    with pytest.raises(FrameError) as refused:
        parse(text)
    assert refused.value.code == code and refused.value.message.endswith(".")


def test_a_moderators_choices_are_true_or_false_and_a_number_is_not_one():
    frame = parse(json.dumps({"type": "rule", "id": CID, "data": {"verdict": "reject", "answer": 12, "on": "s1",
                                                                  "reason": "misheard", "public": True}}))
    assert frame.data == {"verdict": "reject", "answer": 12, "reason": "misheard", "public": True}
    with pytest.raises(FrameError) as refused:
        parse(json.dumps({"type": "undo", "id": CID, "data": {"ruling": True}}))
    assert refused.value.code == "bad_shape" and "whole number" in refused.value.message


def test_tabs_and_newlines_in_typed_text_are_fine():
    frame = parse(json.dumps({"type": "chat", "id": CID, "data": {"text": "line one\nline\ttwo ünïcödé"}}))
    assert frame.data == {"text": "line one\nline\ttwo ünïcödé"}


def test_the_error_keeps_the_ref_when_it_could_be_read():
    with pytest.raises(FrameError) as refused:
        parse('{"type": "answer", "ref": "x7", "id": "%s", "data": {"text": 3}}' % CID)
    assert refused.value.ref == "x7"


def _parse_or_refuse(text):
    try:
        frame = parse(text)
    except FrameError as problem:
        assert problem.code and problem.message.endswith(".")
        assert problem.ref is None or isinstance(problem.ref, str)
        return None
    assert frame.type in KNOWN and isinstance(frame.data, dict)
    assert set(frame.data) <= set(KNOWN[frame.type])
    assert frame.type in SESSION or isinstance(frame.id, str)
    for value in frame.data.values():
        if isinstance(value, str):
            value.encode("utf-8")  # storable and sendable: no lone surrogates
            assert "\x00" not in value
    return frame


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20)
FIELD_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40) | st.lists(st.integers(), max_size=2)


@settings(max_examples=400, deadline=None)
@given(value=JSON)
def test_any_json_value_is_a_frame_or_a_clear_refusal(value):
    _parse_or_refuse(json.dumps(value))


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(sorted(KNOWN)) | st.text(max_size=10), ref=st.none() | st.text(max_size=70),
       command_id=st.none() | st.text(max_size=70) | st.integers(),
       data=st.dictionaries(st.sampled_from(["text", "seen", "verdict", "heard", "ruling", "team", "points",
                                             "reason", "question", "scores_seq", "word", "last_seq", "after", "on"]) | st.text(max_size=5),
                            FIELD_VALUES, max_size=5))
def test_frames_shaped_like_commands_are_a_frame_or_a_clear_refusal(kind, ref, command_id, data):
    body = {"type": kind, "data": data}
    if ref is not None:
        body["ref"] = ref
    if command_id is not None:
        body["id"] = command_id
    _parse_or_refuse(json.dumps(body))


@settings(max_examples=400, deadline=None)
@given(text=st.text(max_size=300) | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
def test_raw_text_is_a_frame_or_a_clear_refusal(text):
    _parse_or_refuse(text)


def test_binary_frames_are_refused():
    with pytest.raises(FrameError) as refused:
        parse(None, b"\x00\x01")
    assert refused.value.code == "bad_frame"


def test_the_token_bucket_allows_a_burst_then_refills_with_time():
    now = [0.0]
    bucket = TokenBucket(burst=3, rate=2, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] = 100.0
    assert sum(bucket.take() for _ in range(10)) == 3


@pytest.mark.django_db
def test_a_seat_token_opens_only_its_own_match(live_match):
    match = live_match()
    other = live_match(title="Other")
    ann = match.teams.get(position=0).seats.get(name="Ann")
    token = make_seat_token(ann)
    held = read_seat_token(token, match.code)
    assert (held.seat, held.generation) == (ann.pk, 0)
    hours = django_settings.EXHIBITION_SEAT_TOKEN_HOURS
    assert time.time() < held.expires <= time.time() + hours * 3600, "it stops working that long after it was made"
    assert read_seat_token(token, other.code) is None
    assert read_seat_token(token[:-1] + ("A" if token[-1] != "A" else "B"), match.code) is None
    assert read_seat_token("", match.code) is None
