"""The websocket consumers through the real ASGI stack and a running conductor (in-memory layer)."""
import pytest
from asgiref.sync import sync_to_async

from game.models import MatchEvent
from game.live.client_frames import MAX_FRAME_BYTES

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def stored(match) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "type", "data"))


async def moderate(connect, match, cookie):
    socket = await connect(f"/ws/m/{match.code}/moderate", cookie=cookie)
    await socket.hello()
    return socket


async def play(connect, match, name):
    socket = await connect(f"/ws/m/{match.code}/play", token=match.tokens[name])
    await socket.hello()
    return socket


async def started(connect, live_match, cookie, reveals: int):
    """A started match with the moderator and Ann connected and `reveals` words read."""
    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, cookie)
    ann = await play(connect, match, "Ann")
    await mod.command("start")
    for _ in range(reveals):
        await mod.command("reveal")
    return match, mod, ann


async def test_moderator_sees_the_answer_and_runs_the_match(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await connect(f"/ws/m/{match.code}/moderate", cookie=staff_cookie)
    welcome = await mod.hello()
    assert welcome["data"]["audience"] == "moderator"
    assert welcome["data"]["match"] == {"code": match.code, "title": "Live test"}
    snap = await mod.until(lambda f: f["type"] == "snapshot")
    assert snap["data"]["seq"] == 1 and snap["data"]["status"] == "setup"
    assert snap["data"]["questions"][0]["answer"] == "Answer 0"

    ack = await mod.command("start")
    assert ack["type"] == "ack" and ack["data"]["seqs"] == [2, 3, 4]
    started = await mod.event("phase_started")
    assert started["seq"] == 4
    await mod.command("reveal")
    word = await mod.event("word_revealed")
    assert word["data"]["word"] == "One"
    assert [e["seq"] for e in await stored(match)] == [1, 2, 3, 4, 5]


async def test_moderator_socket_needs_a_staff_login(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    anonymous = await connect(f"/ws/m/{match.code}/moderate")
    closed = await anonymous.io.receive_output(timeout=20)
    assert closed == {"type": "websocket.close", "code": 4403}


async def test_a_foreign_origin_is_refused(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    socket = await connect(f"/ws/m/{match.code}/watch", origin="http://evil.example")
    assert socket.connected is False


@pytest.mark.parametrize("token", ["forged", "other-match", "bot-seat", "tampered"])
async def test_a_seat_token_that_is_not_for_this_match_and_seat_is_refused(conductor, live_match, connect, token):
    match = await sync_to_async(live_match)(bots=[("Robot", "500mib", {"bot": "r"})])
    other = await sync_to_async(live_match)(title="Other")
    value = {"forged": "eyJzZWF0IjoxfQ:forged:signature", "other-match": other.tokens["Ann"],
             "bot-seat": match.tokens["Robot"], "tampered": match.tokens["Ann"][:-2] + "xx"}[token]
    socket = await connect(f"/ws/m/{match.code}/play", token=value)
    closed = await socket.io.receive_output(timeout=20)
    assert closed == {"type": "websocket.close", "code": 4403}


async def test_an_unknown_match_code_closes_with_4404(conductor, live_match, connect):
    socket = await connect("/ws/m/NOSUCH/watch")
    assert await socket.io.receive_output(timeout=20) == {"type": "websocket.close", "code": 4404}


async def test_player_buzzes_for_their_own_seat_whatever_the_frame_says(conductor, live_match, connect, staff_cookie):
    match, mod, ann = await started(connect, live_match, staff_cookie, reveals=2)
    ack = await ann.command("buzz", {"seen": 2, "seat": match.seat_keys["Bob"], "team": "t1"})
    assert ack["type"] == "ack"
    buzz = await ann.event("buzz")
    assert buzz["seq"] == ack["data"]["seqs"][0]
    assert buzz["data"]["seat"] == match.seat_keys["Ann"] and buzz["data"]["team"] == "t0"
    assert buzz["data"]["seen"] == 2 and buzz["data"]["word"] == 2
    answered = await ann.command("answer", {"text": "Answer 0"})
    assert answered["type"] == "ack"
    ruled = await mod.command("rule", {"verdict": "accept", "answer": answered["data"]["seqs"][0]})
    assert ruled["type"] == "ack"
    closed = await ann.event("question_closed")
    assert closed["data"]["answer"] == "Answer 0" and closed["data"]["result"]["team"] == "t0"


async def test_a_player_cannot_rule_nor_read_the_answer(conductor, live_match, connect, staff_cookie):
    match, mod, ann = await started(connect, live_match, staff_cookie, reveals=1)
    before = await stored(match)

    refused = await ann.command("rule", {"verdict": "accept", "answer": 1})
    assert refused["type"] == "error" and refused["data"] == {
        "code": "forbidden", "message": "Only the moderator can do that."}
    unknown = await ann.command("answer_line")
    assert unknown["type"] == "error" and unknown["data"]["code"] == "unknown_type"
    await ann.send("resync", {"audience": "moderator"})
    snap = await ann.until(lambda f: f["type"] == "snapshot")
    question = snap["data"]["question"]
    assert question["answer"] is None and question["words"] == ["One"]
    assert snap["data"]["questions"] is None
    assert "Answer 0" not in str(snap) and "two" not in str(snap)
    assert await stored(match) == before


async def test_a_ruling_names_the_answer_it_was_pressed_for(conductor, live_match, connect, staff_cookie):
    match, mod, ann = await started(connect, live_match, staff_cookie, reveals=2)
    await ann.command("buzz", {"seen": 2})
    first = (await ann.command("answer", {"text": "the red one"}))["data"]["seqs"][0]
    await mod.event("judge_suggested")  # the judge runs beside the write: its suggestion is stored a moment later
    before = await stored(match)
    unnamed = await mod.command("rule", {"verdict": "accept"})
    assert unnamed["data"] == {"code": "bad_shape", "message": "rule must say what it was pressed for: the answer it "
                               "rules (answer: the seq of the event that put it on the floor)."}
    assert await stored(match) == before

    assert (await mod.command("rule", {"verdict": "prompt", "answer": first}))["type"] == "ack"
    again = await mod.command("rule", {"verdict": "prompt", "answer": first})  # a double press
    assert again["data"]["code"] == "stale"
    second = (await ann.command("answer", {"text": "Answer 0"}))["data"]["seqs"][0]
    late = await mod.command("rule", {"verdict": "reject", "answer": first})  # pressed before the new answer came
    assert late["data"] == {"code": "stale", "message": "Humans' answer changed to “Answer 0” since you looked: rule again."}
    assert (await mod.command("rule", {"verdict": "accept", "answer": second}))["type"] == "ack"
    rulings = [e["data"] for e in await stored(match) if e["type"] == "ruling"]
    assert [(r["verdict"], r["text"], r["answer"]) for r in rulings] == [("prompt", "the red one", first),
                                                                        ("accept", "Answer 0", second)]


async def test_a_captains_answer_between_the_moderators_look_and_key_is_not_ruled_unseen(
        conductor, live_match, connect, staff_cookie):
    """The team phase of issue 45: the moderator looks at the floor (the humans', nothing typed yet) and
    rules what they heard; the captain's typed answer arrives first. The ruling names what the console
    showed, so it is refused with the sentence the console shows, and the moderator rules the answer."""
    match = await sync_to_async(live_match)("efficientqa", {"phases": [{"mode": "team", "points": 2}]})
    mod = await moderate(connect, match, staff_cookie)
    ann = await play(connect, match, "Ann")
    await mod.command("start")
    looked = (await mod.event("phase_started"))["seq"]  # what the console shows: the humans' floor, no answer
    submitted = await ann.command("submit", {"text": "Answer 9"})
    assert submitted["type"] == "ack"
    await mod.event("submission")  # the console has it now, but the key was pressed on what it showed before
    stale = await mod.command("rule", {"verdict": "accept", "answer": looked, "heard": "Answer 0"})
    assert stale["type"] == "error"
    assert stale["data"] == {"code": "stale", "message": "Humans' answer changed to “Answer 9” since you looked: rule again."}
    assert not [e for e in await stored(match) if e["type"] == "ruling"], "nothing was ruled"
    assert (await mod.command("rule", {"verdict": "reject", "answer": submitted["data"]["seqs"][0]}))["type"] == "ack"
    ruling = await ann.event("ruling")
    assert (ruling["data"]["team"], ruling["data"]["text"], ruling["data"]["verdict"]) == ("t0", "Answer 9", "reject")
    assert (await ann.event("question_closed"))["data"]["result"] is None


async def test_a_moderator_cannot_buzz(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, staff_cookie)
    refused = await mod.command("buzz", {"seen": 0})
    assert refused["data"] == {"code": "forbidden", "message": "Only a seated player can do that."}


async def test_spectators_can_only_watch(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, staff_cookie)
    watch = await connect(f"/ws/m/{match.code}/watch")
    welcome = await watch.hello()
    assert welcome["data"] == {**welcome["data"], "audience": "spectator", "seat": None, "team": None}
    from game.conductor.groups import playout_ms

    assert welcome["data"]["playout_ms"] == playout_ms(match.code), "the hall's voice keeps time with the words by it"
    for kind in ("buzz", "start", "chat"):
        refused = await watch.command(kind, {"text": "hi"})
        assert refused["data"] == {"code": "forbidden", "message": "Spectators can only watch."}
    pong = await watch.command("ping")
    assert pong["type"] == "pong" and isinstance(pong["data"]["server_time"], int)
    await mod.command("start")
    assert (await watch.event("question_started"))["seq"] == 3
    assert [e["type"] for e in await stored(match)] == ["match_created", "match_started", "question_started",
                                                        "phase_started"]


async def test_bad_frames_get_an_error_and_the_socket_stays_usable(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    watch = await connect(f"/ws/m/{match.code}/watch")
    await watch.io.send_to(text_data="{not json")
    assert (await watch.receive())["data"]["code"] == "bad_json"
    await watch.io.send_to(text_data='{"type": "ping", "ref": "big", "data": {"pad": "' + "x" * MAX_FRAME_BYTES + '"}}')
    too_big = await watch.receive()
    assert too_big["type"] == "error" and too_big["data"]["code"] == "too_big"
    await watch.io.send_to(bytes_data=b"\x00\x01")
    assert (await watch.receive())["data"]["code"] == "bad_frame"
    await watch.io.send_to(text_data='["ping"]')
    assert (await watch.receive())["data"]["code"] == "bad_frame"
    pong = await watch.command("ping")
    assert pong["type"] == "pong" and pong["ref"] == f"r{watch.refs}"


async def test_commands_before_hello_are_refused(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    ann = await connect(f"/ws/m/{match.code}/play", token=match.tokens['Ann'])
    refused = await ann.command("buzz")
    assert refused["data"]["code"] == "hello_first"


async def test_wrongly_typed_fields_are_refused_with_a_reason(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, staff_cookie)
    refused = await mod.command("adjust", {"team": "t0", "points": "5", "reason": "typo"})
    assert refused["data"] == {"code": "bad_shape", "message": "points must be a whole number."}
    refused = await mod.command("adjust", {"team": "t0", "points": True, "reason": "typo"})
    assert refused["data"]["code"] == "bad_shape"
    assert [e["seq"] for e in await stored(match)] == [1]


async def test_flooding_a_socket_is_slowed_down(conductor, live_match, connect, monkeypatch):
    from game.live import consumers
    from game.live.client_frames import TokenBucket

    monkeypatch.setattr(consumers, "TokenBucket", lambda burst, rate: TokenBucket(burst=burst, rate=rate, clock=lambda: 0.0))
    match = await sync_to_async(live_match)()
    watch = await connect(f"/ws/m/{match.code}/watch")
    refs = [await watch.send("ping") for _ in range(21)]
    replies = [await watch.receive() for _ in range(21)]
    assert [r["type"] for r in replies] == ["pong"] * 20 + ["error"]
    assert replies[-1]["data"] == {"code": "slow_down", "message": "Slow down: you are sending too fast; wait a moment."}
    assert replies[-1]["ref"] == refs[-1], "the refusal names the frame it refuses, so the client can settle it"


async def test_rejections_from_the_rules_come_back_as_errors(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, staff_cookie)
    ann = await play(connect, match, "Ann")
    refused = await ann.command("buzz", {"seen": 0})
    assert refused["data"] == {"code": "not_live", "message": "The match is not live."}
    await mod.command("start")
    refused = await mod.command("rule", {"verdict": "accept", "answer": 1})
    assert refused["data"]["code"] == "nothing_to_rule"


async def test_heartbeat_carries_the_last_seq(conductor, live_match, connect, settings):
    settings.EXHIBITION_HEARTBEAT_SECONDS = 0.05
    match = await sync_to_async(live_match)()
    watch = await connect(f"/ws/m/{match.code}/watch")
    await watch.hello()
    beat = await watch.until(lambda f: f["type"] == "heartbeat")
    assert beat["data"]["seq"] == 1 and isinstance(beat["data"]["server_time"], int)


async def test_a_full_conductor_queue_is_reported_not_fatal(conductor, live_match, connect, staff_cookie,
                                                            channel_layer, monkeypatch):
    from channels.exceptions import ChannelFull

    match = await sync_to_async(live_match)()
    mod = await moderate(connect, match, staff_cookie)
    real_send = channel_layer.send

    async def full(channel, message):
        if channel == "conductor":
            raise ChannelFull(channel)
        await real_send(channel, message)

    monkeypatch.setattr(channel_layer, "send", full)
    refused = await mod.command("start")
    assert refused["data"] == {"code": "busy", "message": "The game server is busy; try again in a moment."}
    monkeypatch.setattr(channel_layer, "send", real_send)
    assert (await mod.command("start"))["type"] == "ack"


# -- malformed frames never close a socket ----------------------------------------------------------

REVIEW_FRAMES = [
    '{"type": [1], "ref": "a"}',
    "[" * 2000 + "]" * 2000,
    '{"type": "answer", "ref": "s", "id": "cmd-surrogate", "data": {"text": "\\ud800"}}',
    '{"type": "answer", "ref": "n", "id": "cmd-nul-byte1", "data": {"text": "Newton\\u0000"}}',
    '{"type": "buzz", "ref": "big", "id": "cmd-bignumber", "data": {"seen": ' + "9" * 5000 + "}}",
    '{"type": "buzz", "ref": "noid"}',
    "   ",
    "null",
]


async def test_malformed_frames_get_an_error_and_the_socket_stays_open(conductor, live_match, connect):
    match = await sync_to_async(live_match)()
    ann = await play(connect, match, "Ann")
    for text in REVIEW_FRAMES:
        await ann.io.send_to(text_data=text)
        reply = await ann.until(lambda f: f["type"] == "error")
        assert reply["data"]["message"].endswith("."), reply
    await ann.io.send_to(bytes_data=b"\x00\xff\xfe")
    assert (await ann.until(lambda f: f["type"] == "error"))["data"]["code"] == "bad_frame"
    assert (await ann.command("ping"))["type"] == "pong", "the socket is still open and answering"
    assert [e["seq"] for e in await stored(match)] == [1], "nothing reached the match"


async def test_a_typed_nul_is_refused_as_bad_input_with_a_clear_message(conductor, live_match, connect, staff_cookie):
    match, mod, ann = await started(connect, live_match, staff_cookie, reveals=2)
    assert (await ann.command("buzz", {"seen": 2}))["type"] == "ack"
    refused = await ann.command("answer", {"text": "Isaac\u0000Newton"})
    assert refused["data"]["code"] == "bad_text" and "type it again" in refused["data"]["message"]
    assert (await ann.command("answer", {"text": "Isaac Newton"}))["type"] == "ack", "the retyped answer goes through"
