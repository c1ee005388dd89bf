"""A protest through the real websockets and a running conductor: the captain files it from the phone
socket, a teammate who is not captain cannot, the moderator's console receives it with the team's text,
the spectator screen without it, and the moderator's overturn moves the score as an override."""
import pytest
from asgiref.sync import sync_to_async

from tests.live.test_consumers import moderate, play

pytestmark = pytest.mark.django_db(transaction=True)

QUIZBOWL_PHASE = {"mode": "buzz", "points": 10, "power_points": 15, "neg_points": -5, "dead_seconds": 1}


async def test_the_captain_protests_and_the_moderator_overturns(conductor, live_match, connect, staff_cookie):
    match = await sync_to_async(live_match)(overrides={"phases": [QUIZBOWL_PHASE]})
    mod = await moderate(connect, match, staff_cookie)
    ann, bob = await play(connect, match, "Ann"), await play(connect, match, "Bob")
    watch = await connect(f"/ws/m/{match.code}/watch")
    await watch.hello()
    await mod.command("start")
    while (await mod.command("reveal"))["type"] == "ack":  # every word read: a wrong answer is no neg
        pass
    assert (await ann.command("buzz", {"seen": 17}))["type"] == "ack"
    answered = await ann.command("answer", {"text": "Answer 0"})
    assert answered["type"] == "ack"
    ruled = await mod.command("rule", {"verdict": "reject", "answer": answered["data"]["seqs"][0]})
    assert ruled["type"] == "ack"
    ruling = (await ann.event("ruling"))["data"]["id"]

    refused = await bob.command("protest", {"ruling": ruling, "text": "it was right"})
    assert refused["type"] == "error" and refused["data"]["code"] == "not_captain"
    filed = await ann.command("protest", {"ruling": ruling, "text": "<b>Answer 0</b> is the answer"})
    assert filed["type"] == "ack"
    assert (await mod.event("protest_filed"))["data"]["text"] == "<b>Answer 0</b> is the answer"
    assert (await bob.event("protest_filed"))["data"]["text"] == "<b>Answer 0</b> is the answer"
    assert (await watch.event("protest_filed"))["data"]["text"] is None

    await mod.event("question_closed")  # the dead second runs out
    overturned = await mod.command("resolve_protest", {"protest": 1, "outcome": "overturned", "reason": "on the line"})
    assert overturned["type"] == "ack"
    resolved = await watch.event("protest_resolved")
    assert resolved["data"]["outcome"] == "overturned" and resolved["data"]["reason"] is None  # kept private
    override = await ann.event("override")
    assert override["data"]["score_changes"] == {"t0": 10} and override["data"]["protest"] == 1
    again = await mod.command("resolve_protest", {"protest": 1, "outcome": "upheld", "reason": "twice"})
    assert again["type"] == "error" and again["data"]["code"] == "stale"
